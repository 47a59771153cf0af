// The graph family's spec, and each labelling as a figure (graph_labeling.hpp).
#include "graph/graph_labeling.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "magic/core/error.hpp"
#include "magic/figure_catalog.hpp"
#include "magic/io.hpp"
#include "magic/spec_int.hpp"
#include "star/star_tables.hpp"  // parse_star_numbers, format_star_numbers

namespace magic {
namespace {

[[noreturn]] void fail(const std::string& why) { throw SpecError("graph: " + why); }

struct KindName {
  GraphLabeling kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {GraphLabeling::EdgeMagicTotal, "edge-magic-total"},
    {GraphLabeling::VertexMagicTotal, "vertex-magic-total"},
    {GraphLabeling::SuperEdgeMagicTotal, "super-edge-magic-total"},
    {GraphLabeling::SuperVertexMagicTotal, "super-vertex-magic-total"},
    {GraphLabeling::VertexMagicEdge, "vertex-magic-edge"},
    {GraphLabeling::EdgeMagicVertex, "edge-magic-vertex"},
    {GraphLabeling::DistanceMagic, "distance-magic"},
};

bool is_super(GraphLabeling l) {
  return l == GraphLabeling::SuperEdgeMagicTotal || l == GraphLabeling::SuperVertexMagicTotal;
}

Graph read_graph(const nlohmann::json& spec) {
  const bool has_builtin = spec.contains("builtin"), has_graph = spec.contains("graph");
  if (!has_builtin && !has_graph) fail("the spec needs a \"graph\" or a \"builtin\" name");
  std::string builtin;
  if (has_builtin) {
    if (!spec.at("builtin").is_string()) fail("\"builtin\" must be a name");
    builtin = spec.at("builtin").get<std::string>();
  }
  if (!has_graph) return builtin_graph(builtin);
  // With both (a result file's problem), the graph as written is the one.
  const nlohmann::json& j = spec.at("graph");
  Graph g;
  if (j.is_string() && is_builtin_graph(j.get<std::string>())) g = builtin_graph(j.get<std::string>());
  else if (j.is_string()) g = graph_from_text(j.get<std::string>(), "graph");
  else g = graph_from_json(j, "graph");
  if (!builtin.empty()) g.builtin = builtin;
  return g;
}

std::vector<int> read_numbers(const nlohmann::json& j) {
  try {
    std::vector<int> v;
    if (j.is_string()) v = parse_star_numbers(j.get<std::string>());
    else if (j.is_array()) v = spec_ints(j, "\"numbers\"");
    else fail("\"numbers\" must be a range such as \"1..19\" or a list of whole numbers");
    std::sort(v.begin(), v.end());
    if (v.empty()) fail("\"numbers\" is empty");
    if (std::adjacent_find(v.begin(), v.end()) != v.end()) fail("\"numbers\" gives a number twice");
    if (v.front() < 1 || v.back() > kStarMaxValue) fail("the numbers must be 1.." + std::to_string(kStarMaxValue));
    return v;
  } catch (const SpecError& e) {
    const std::string m = e.what();
    if (m.rfind("graph:", 0) == 0) throw;
    fail(m);
  }
}

// An automorphism given by the images of the vertices, by name.
std::vector<int> read_generator(const nlohmann::json& j, const Graph& g, std::size_t k) {
  const std::string at = "symmetry generator " + std::to_string(k + 1);
  if (!j.is_array() || j.size() != static_cast<std::size_t>(g.n()))
    fail(at + " must list the image of each of the " + std::to_string(g.n()) + " vertices");
  std::map<std::string, int> index;
  for (int v = 0; v < g.n(); ++v) index[g.vertices[static_cast<std::size_t>(v)].name] = v;
  std::vector<int> perm;
  std::vector<bool> hit(static_cast<std::size_t>(g.n()));
  for (const auto& p : j) {
    const std::string name = p.is_string() ? p.get<std::string>() : p.is_number_integer() ? p.dump() : "";
    const auto it = index.find(name);
    if (it == index.end()) fail(at + " names an unknown vertex " + utf8_prefix(p.dump(), 40));
    if (hit[static_cast<std::size_t>(it->second)]) fail(at + " is not a permutation: " + utf8_prefix(name, 40) + " twice");
    hit[static_cast<std::size_t>(it->second)] = true;
    perm.push_back(it->second);
  }
  std::set<std::pair<int, int>> edges;
  for (const auto& [u, v] : g.edges) edges.insert(std::minmax(u, v));
  for (const auto& [u, v] : g.edges)
    if (!edges.count(std::minmax(perm[static_cast<std::size_t>(u)], perm[static_cast<std::size_t>(v)])))
      fail(at + " is not an automorphism: it does not map edges onto edges");
  return perm;
}

void read_symmetry(const nlohmann::json& j, GraphSpec& s) {
  if (j.is_string()) {
    const std::string v = j.get<std::string>();
    if (v == "automorphisms") s.group = GraphGroup::Automorphisms;
    else if (v == "none") s.group = GraphGroup::None;
    else fail("unknown \"symmetry\" '" + utf8_prefix(v, 40) + "' (use \"automorphisms\", \"none\" or {\"generators\": [...]})");
    return;
  }
  if (!j.is_object() || j.size() != 1 || !j.contains("generators") || !j.at("generators").is_array())
    fail("\"symmetry\" must be \"automorphisms\", \"none\" or {\"generators\": [[images of the vertices], ...]}");
  if (j.at("generators").size() > 64) fail("more than 64 symmetry generators");
  s.group = GraphGroup::Generators;
  for (std::size_t k = 0; k < j.at("generators").size(); ++k) s.generators.push_back(read_generator(j.at("generators")[k], s.graph, k));
}

void check_sizes(const GraphSpec& s) {
  const int e = s.elements();
  const std::string kind = graph_labeling_name(s.labeling);
  if (e == 0) fail("a " + kind + " labelling labels the edges, and the graph has none");
  if (e > kFigureMaxPoints)
    fail("a " + kind + " labelling of this graph labels " + std::to_string(e) + " elements; the engine takes at most " +
         std::to_string(kFigureMaxPoints));
  const std::size_t n = s.numbers.size();
  if (n < static_cast<std::size_t>(e))
    fail("the labelling needs " + std::to_string(e) + " distinct numbers, only " + std::to_string(n) + " are given");
  if (n > static_cast<std::size_t>(kFigureMaxNumbers))
    fail(std::to_string(n) + " numbers are given; the engine takes at most " + std::to_string(kFigureMaxNumbers));
  if (s.numbers.back() - s.numbers.front() >= kFigureMaxSpan)
    fail("the numbers must lie within " + std::to_string(kFigureMaxSpan) + " consecutive integers, got " +
         format_star_numbers(s.numbers));
  if (s.sum && *s.sum < 1) fail("the sum must be positive, got " + std::to_string(*s.sum));
}

}  // namespace

std::optional<GraphLabeling> graph_labeling(const std::string& name) {
  for (const KindName& k : kKinds)
    if (name == k.name) return k.kind;
  return std::nullopt;
}

std::string graph_labeling_name(GraphLabeling l) {
  for (const KindName& k : kKinds)
    if (k.kind == l) return k.name;
  return "?";
}

bool labels_vertices(GraphLabeling l) { return l != GraphLabeling::VertexMagicEdge; }
bool labels_edges(GraphLabeling l) { return l != GraphLabeling::EdgeMagicVertex && l != GraphLabeling::DistanceMagic; }

GraphSpec graph_spec_from_json(const nlohmann::json& spec) {
  // "group" and "canonical_graph6" are what a result's problem adds; they are found again.
  check_spec_fields(spec, "graph",
                    {"name", "builtin", "graph", "labeling", "numbers", "sum", "symmetry", "symmetry_breaking", "group",
                     "canonical_graph6", "count", "memory"});
  GraphSpec s;
  s.graph = read_graph(spec);
  if (!spec.contains("labeling")) fail(std::string("the spec needs a \"labeling\": ") + kGraphLabelingNames);
  const auto& l = spec.at("labeling");
  const auto kind = l.is_string() ? graph_labeling(l.get<std::string>()) : std::nullopt;
  if (!kind) fail("unknown labeling " + utf8_prefix(l.dump(), 40) + " (use " + kGraphLabelingNames + ")");
  s.labeling = *kind;
  if (spec.contains("numbers") && !spec.at("numbers").is_null()) {
    s.numbers = read_numbers(spec.at("numbers"));
  } else {
    for (int v = 1; v <= s.elements(); ++v) s.numbers.push_back(v);
  }
  try {
    if (spec.contains("sum") && !spec.at("sum").is_null()) s.sum = spec_int(spec.at("sum"), "\"sum\"");
  } catch (const SpecError& e) {
    fail(e.what());
  }
  if (spec.contains("symmetry")) read_symmetry(spec.at("symmetry"), s);
  if (spec.contains("symmetry_breaking")) {
    if (!spec.at("symmetry_breaking").is_boolean()) fail("\"symmetry_breaking\" must be true or false");
    s.symmetry_breaking = spec.at("symmetry_breaking").get<bool>();
  }
  check_sizes(s);
  return s;
}

LabelledFigure labelled_figure(const GraphSpec& s, const std::vector<std::vector<int>>& vertex_generators) {
  const Graph& g = s.graph;
  const bool lv = labels_vertices(s.labeling), le = labels_edges(s.labeling);
  const int n = g.n(), m = g.m(), edge0 = lv ? n : 0;
  LabelledFigure out;
  FigureSpec& f = out.figure;
  f.name = g.builtin.empty() ? "graph" : g.builtin;
  if (lv)
    for (const GraphVertex& v : g.vertices) f.points.push_back({v.name, std::nullopt, false});
  if (le)
    for (const auto& [u, v] : g.edges)
      f.points.push_back({g.vertices[static_cast<std::size_t>(u)].name + "-" + g.vertices[static_cast<std::size_t>(v)].name,
                          std::nullopt, false});
  // The lines, each once; an empty one is remembered, not kept.
  std::set<std::vector<int>> seen;
  bool empty_line = false;
  auto add = [&](std::vector<int> line) {
    std::vector<int> key = line;
    std::sort(key.begin(), key.end());
    if (line.empty()) empty_line = true;
    else if (seen.insert(key).second) f.lines.push_back(std::move(line));
  };
  std::vector<std::vector<int>> at(static_cast<std::size_t>(n)), around(static_cast<std::size_t>(n));
  for (int i = 0; i < m; ++i) {
    const auto [u, v] = g.edges[static_cast<std::size_t>(i)];
    at[static_cast<std::size_t>(u)].push_back(edge0 + i);
    at[static_cast<std::size_t>(v)].push_back(edge0 + i);
    around[static_cast<std::size_t>(u)].push_back(v);
    around[static_cast<std::size_t>(v)].push_back(u);
  }
  switch (s.labeling) {
    case GraphLabeling::EdgeMagicTotal:
    case GraphLabeling::SuperEdgeMagicTotal:
      for (int i = 0; i < m; ++i) add({g.edges[static_cast<std::size_t>(i)].first, edge0 + i, g.edges[static_cast<std::size_t>(i)].second});
      break;
    case GraphLabeling::VertexMagicTotal:
    case GraphLabeling::SuperVertexMagicTotal:
      for (int v = 0; v < n; ++v) {
        std::vector<int> line{v};
        line.insert(line.end(), at[static_cast<std::size_t>(v)].begin(), at[static_cast<std::size_t>(v)].end());
        add(std::move(line));
      }
      break;
    case GraphLabeling::VertexMagicEdge:
      for (int v = 0; v < n; ++v) add(at[static_cast<std::size_t>(v)]);
      break;
    case GraphLabeling::EdgeMagicVertex:
      for (const auto& [u, v] : g.edges) add({u, v});
      break;
    case GraphLabeling::DistanceMagic:
      for (int v = 0; v < n; ++v) add(around[static_cast<std::size_t>(v)]);
      break;
  }
  out.impossible = empty_line && !f.lines.empty();
  f.numbers = s.numbers;
  f.sum = s.sum;
  f.symmetry_breaking = s.symmetry_breaking;
  if (is_super(s.labeling)) {
    f.ranges.assign(static_cast<std::size_t>(n), {s.numbers[0], s.numbers[static_cast<std::size_t>(n - 1)]});
    if (m > 0) f.ranges.resize(static_cast<std::size_t>(n + m), {s.numbers[static_cast<std::size_t>(n)], s.numbers.back()});
  }
  // The vertex automorphisms, acting on the labelled elements.
  f.symmetry = FigureSymmetry::Generators;
  std::map<std::pair<int, int>, int> edge_of;
  for (int i = 0; i < m; ++i) edge_of[std::minmax(g.edges[static_cast<std::size_t>(i)].first, g.edges[static_cast<std::size_t>(i)].second)] = i;
  for (const std::vector<int>& gv : vertex_generators) {
    std::vector<int> perm;
    if (lv) perm = gv;
    if (le)
      for (const auto& [u, v] : g.edges)
        perm.push_back(edge0 + edge_of.at(std::minmax(gv[static_cast<std::size_t>(u)], gv[static_cast<std::size_t>(v)])));
    bool moves = false;
    for (std::size_t p = 0; p < perm.size(); ++p) moves = moves || perm[p] != static_cast<int>(p);
    if (moves) f.generators.push_back(std::move(perm));
  }
  return out;
}

}  // namespace magic
