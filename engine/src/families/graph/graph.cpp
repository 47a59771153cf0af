// The graph problem's set-up and answers, and the family's command line (graph/graph.hpp).
#include "graph/graph.hpp"

#include "figure/figure_group.hpp"
#include "magic/core/error.hpp"
#include "magic/spec.hpp"
#include "star/star_tables.hpp"  // format_star_numbers

namespace magic {
namespace {

std::vector<int> natural(int n) {
  std::vector<int> b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = i;
  return b;
}

// The order of the group the vertex permutations generate; 0 past 2^62.
std::uint64_t order_of(int n, const std::vector<std::vector<int>>& gens) {
  std::vector<PointPerm> perms;
  for (const auto& g : gens) perms.emplace_back(g.begin(), g.end());
  try {
    return StabilizerChain(n, perms, natural(n)).order();
  } catch (const SpecError&) {
    return 0;
  }
}

nlohmann::json names_of(const Graph& g, const std::vector<int>& perm) {
  nlohmann::json out = nlohmann::json::array();
  for (int v : perm) out.push_back(g.vertices[static_cast<std::size_t>(v)].name);
  return out;
}

}  // namespace

// The members declared before figure_ are set while it is built, by the
// lambda below: nauty first, then the labelling's figure.
GraphProblem::GraphProblem(GraphSpec spec)
    : spec_(std::move(spec)), figure_([this] {
        const Graph& g = spec_.graph;
        const GraphSymmetry sym = graph_symmetry(g.n(), g.edges);
        automorphisms_ = order_of(g.n(), sym.generators);
        canonical_ = graph6_in_order(g, sym.canonical_order);
        switch (spec_.group) {
          case GraphGroup::Automorphisms: vertex_generators_ = sym.generators; break;
          case GraphGroup::Generators: vertex_generators_ = spec_.generators; break;
          case GraphGroup::None: break;
        }
        LabelledFigure lf = labelled_figure(spec_, vertex_generators_);
        impossible_ = lf.impossible;
        figure_spec_ = lf.figure;
        return FigureProblem(std::move(lf.figure));
      }()) {}

nlohmann::json GraphProblem::describe() const {
  const Graph& g = spec_.graph;
  nlohmann::json j{{"name", "graph"}};
  if (!g.builtin.empty()) j["builtin"] = g.builtin;
  j["graph"] = graph_json(g);
  j["labeling"] = graph_labeling_name(spec_.labeling);
  j["numbers"] = format_star_numbers(spec_.numbers);
  if (spec_.sum) j["sum"] = *spec_.sum;
  if (spec_.group == GraphGroup::None) j["symmetry"] = "none";
  if (spec_.group == GraphGroup::Generators) {
    nlohmann::json gens = nlohmann::json::array();
    for (const auto& p : spec_.generators) gens.push_back(names_of(g, p));
    j["symmetry"] = {{"generators", gens}};
  }
  if (!spec_.symmetry_breaking) j["symmetry_breaking"] = false;
  const char* source = spec_.group == GraphGroup::Automorphisms ? "automorphisms"
                       : spec_.group == GraphGroup::Generators  ? "generators"
                                                                : "none";
  j["group"] = {{"source", source},
                {"order", group_order()},
                {"automorphisms", automorphisms_ ? nlohmann::json(automorphisms_) : nlohmann::json()},
                {"generators", vertex_generators_}};
  j["canonical_graph6"] = canonical_;
  return j;
}

nlohmann::json GraphProblem::to_json(const Solution& s) const {
  const int n = spec_.graph.n(), m = spec_.graph.m();
  nlohmann::json j = nlohmann::json::object();
  int p = 0;
  auto take = [&](int count) {
    std::vector<int> out;
    for (int i = 0; i < count; ++i) out.push_back(s[static_cast<std::size_t>(p++)]);
    return out;
  };
  if (labels_vertices(spec_.labeling)) j["vertices"] = take(n);
  if (labels_edges(spec_.labeling)) j["edges"] = take(m);
  j["sum"] = key(s);
  return j;
}

std::string GraphFamily::echo(const nlohmann::json& problem) {
  if (!problem.contains("graph") || !problem.at("graph").is_object()) return "";  // the plain echo
  const nlohmann::json& g = problem.at("graph");
  std::string s = "graph " + problem.value("builtin", std::string("(file)")) +
                  " labeling=" + problem.value("labeling", std::string("?")) +
                  " vertices=" + std::to_string(g.at("vertices").size()) + " edges=" + std::to_string(g.at("edges").size()) +
                  " numbers=" + problem.value("numbers", std::string("?"));
  if (problem.contains("sum")) s += " sum=" + problem.at("sum").dump();
  if (problem.contains("group"))
    s += " group=" + problem.at("group").value("source", std::string("?")) + ":" +
         problem.at("group").value("order", nlohmann::json()).dump();
  if (problem.contains("symmetry_breaking")) s += " symmetry_breaking=" + problem.at("symmetry_breaking").dump();
  s += " canonical=" + problem.value("canonical_graph6", std::string("?"));
  if (problem.contains("count") && problem.at("count").is_string()) s += " count=" + problem.at("count").get<std::string>();
  return s;
}

const char* GraphFamily::field_values(const std::string& field) {
  if (field == "labeling") return kGraphLabelingNames;
  if (field == "symmetry") return "automorphisms or none";
  return nullptr;
}

bool GraphFamily::is_field_value(const std::string& field, const std::string& v) {
  if (field == "labeling") return graph_labeling(v).has_value();
  if (field == "symmetry") return v == "automorphisms" || v == "none";
  return false;
}

// The `graph` subcommand's fields (magic/family_command.hpp); the CLI adds
// the graph file, --list and --show (apps/cmd_graph.cpp).
FamilyCommand GraphFamily::command() {
  FamilyCommand c;
  c.summary =
      "count the magic labellings of a graph (graph6, an edge list, JSON or built in), up to its automorphisms";
  c.options = {
      {.field = "builtin", .flags = "--builtin,-b", .kind = FieldKind::Text,
       .help = "a built-in graph instead of a file: cycle-N, path-N, petersen, grid-RxC, ... (see --list)"},
      {.field = "labeling", .flags = "--labeling,-l", .kind = FieldKind::Choice,
       .help = std::string("which labelling (needed but with --list): ") + kGraphLabelingNames},
      {.field = "numbers", .flags = "--numbers", .kind = FieldKind::Text,
       .help = "numbers to label with, such as 1..12 or 1,2,4,5..9 (default: 1 to the number of labelled elements)"},
      {.field = "sum", .flags = "--sum", .kind = FieldKind::Int,
       .help = "fix the magic constant (default: every feasible one, counted by_sum)"},
      {.field = "symmetry", .flags = "--symmetry", .kind = FieldKind::Choice,
       .help = "count up to the graph's automorphisms, or count every labelling as distinct (none)",
       .default_value = "automorphisms"},
      {.field = "count", .flags = "--count", .kind = FieldKind::On,
       .help = "count without enumerating: join the halves of a ring or chain of lines (no solutions listed; "
               "the digest is the additive one, docs/json.md)"},
      {.field = "memory", .flags = "--memory", .kind = FieldKind::Int, .help = "MiB the counting tables may take "
               "in all (default: half the machine's); a task past it splits into passes", .needs = "--count"},
      {.field = "symmetry_breaking", .flags = "--all-orientations", .kind = FieldKind::Off,
       .help = "enumerate every labelling and keep the canonical ones, instead of symmetry breaking"},
  };
  c.footer =
      "Counts: counts.unique up to the automorphisms (nauty), counts.total every labelling, by_sum by magic "
      "constant.\nThe labellings and the formats: docs/graphs.md.";
  c.text = SolutionText::Labels;
  return c;
}

std::vector<std::pair<std::string, std::string>> graph_builtin_forms() { return builtin_graph_forms(); }

nlohmann::json graph_figure_json(const nlohmann::json& spec) {
  const GraphProblem p(graph_spec_from_json(spec));
  return figure_file_json(p.figure());
}

}  // namespace magic
