// Graphs: a magic labelling of problem.graph of the kind problem.labeling
// (docs/graphs.md), by distinct numbers of problem.numbers.
//
// The checker reads the graph and the labelling's rule itself and finds the
// graph's automorphisms by a search of its own (not the engine's nauty):
// vertex images in order, each keeping adjacency to the vertices mapped so
// far, level by level from the last as in Sims's method.  The group acts on
// the labelled elements (the vertices, then the edges, each kind only if
// labelled); problem.group.order must equal its order there.
//
// Canonical form and digest bytes: the labels by element, in that order; the
// lexicographically least image under the group, as 16-bit little-endian
// integers.
#include <algorithm>
#include <map>
#include <set>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "chain.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

constexpr std::size_t kMaxElements = 64;

struct Kind {
  const char* name;
  bool vertices, edges, super;
  enum Rule { EdgeTotal, VertexTotal, VertexEdges, EdgeVertices, Neighbours } rule;
};
constexpr Kind kKinds[] = {
    {"edge-magic-total", true, true, false, Kind::EdgeTotal},
    {"vertex-magic-total", true, true, false, Kind::VertexTotal},
    {"super-edge-magic-total", true, true, true, Kind::EdgeTotal},
    {"super-vertex-magic-total", true, true, true, Kind::VertexTotal},
    {"vertex-magic-edge", false, true, false, Kind::VertexEdges},
    {"edge-magic-vertex", true, false, false, Kind::EdgeVertices},
    {"distance-magic", true, false, false, Kind::Neighbours},
};

std::string vertex_name(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  if (v.is_object() && v.contains("name")) return vertex_name(v.at("name"));
  throw SpecError("problem.graph.vertices: a vertex is a name or an object with a \"name\"");
}

struct SimpleGraph {
  std::size_t n = 0;
  std::vector<std::pair<int, int>> edges;
  std::vector<std::vector<bool>> adj;
};

SimpleGraph read_graph(const nlohmann::json& problem) {
  if (!problem.contains("graph") || !problem.at("graph").is_object())
    throw SpecError("problem.graph is missing: a graph result echoes its graph");
  const nlohmann::json& g = problem.at("graph");
  if (!g.contains("vertices") || !g.at("vertices").is_array() || g.at("vertices").empty() ||
      g.at("vertices").size() > kMaxElements)
    throw SpecError("problem.graph.vertices must list 1.." + std::to_string(kMaxElements) + " vertices");
  std::map<std::string, int> index;
  for (const auto& v : g.at("vertices"))
    if (!index.emplace(vertex_name(v), static_cast<int>(index.size())).second)
      throw SpecError("problem.graph.vertices names a vertex twice");
  SimpleGraph out;
  out.n = index.size();
  out.adj.assign(out.n, std::vector<bool>(out.n));
  if (!g.contains("edges") || !g.at("edges").is_array() || g.at("edges").size() > kMaxElements)
    throw SpecError("problem.graph.edges must list at most " + std::to_string(kMaxElements) + " edges");
  for (const auto& e : g.at("edges")) {
    if (!e.is_array() || e.size() != 2) throw SpecError("problem.graph.edges: an edge is a pair of vertex names");
    int ends[2];
    for (int k = 0; k < 2; ++k) {
      const auto it = index.find(vertex_name(e[static_cast<std::size_t>(k)]));
      if (it == index.end()) throw SpecError("problem.graph.edges names an unknown vertex " + utf8_prefix(e.dump(), 40));
      ends[k] = it->second;
    }
    const auto u = static_cast<std::size_t>(ends[0]), v = static_cast<std::size_t>(ends[1]);
    if (u == v || out.adj[u][v]) throw SpecError("problem.graph.edges: a self-loop or a repeated edge");
    out.adj[u][v] = out.adj[v][u] = true;
    out.edges.emplace_back(ends[0], ends[1]);
  }
  return out;
}

// The automorphisms of g as a chain on the vertices (see the top).
class AutomorphismSearch {
 public:
  explicit AutomorphismSearch(const SimpleGraph& g) : g_(g), image_(g.n, -1), used_(g.n), degree_(g.n) {
    for (std::size_t v = 0; v < g.n; ++v) degree_[v] = static_cast<int>(std::count(g.adj[v].begin(), g.adj[v].end(), true));
  }
  std::vector<Perm> generators() {
    Chain chain(g_.n);
    std::vector<Perm> gens;
    for (std::size_t k = g_.n; k-- > 0;)
      for (std::size_t y = k + 1; y < g_.n; ++y)
        if (!chain.in_orbit(k, static_cast<int>(y)) && extends(k, y)) {
          chain.add(image_);
          gens.push_back(image_);
        }
    return gens;
  }

 private:
  bool fits(std::size_t p, std::size_t q) const {
    if (degree_[p] != degree_[q]) return false;
    for (std::size_t a = 0; a < p; ++a)
      if (g_.adj[a][p] != g_.adj[static_cast<std::size_t>(image_[a])][q]) return false;
    return true;
  }
  bool extends(std::size_t k, std::size_t y) {
    std::fill(used_.begin(), used_.end(), false);
    for (std::size_t p = 0; p < k; ++p) image_[p] = static_cast<int>(p), used_[p] = true;
    if (!fits(k, y)) return false;
    image_[k] = static_cast<int>(y);
    used_[y] = true;
    return place(k + 1);
  }
  bool place(std::size_t p) {
    if (p == g_.n) return true;
    for (std::size_t q = 0; q < g_.n; ++q) {
      if (used_[q] || !fits(p, q)) continue;
      image_[p] = static_cast<int>(q);
      used_[q] = true;
      if (place(p + 1)) return true;
      used_[q] = false;
    }
    return false;
  }

  const SimpleGraph& g_;
  Perm image_;
  std::vector<bool> used_;
  std::vector<int> degree_;
};

class GraphRules : public Rules {
 public:
  GraphRules(SimpleGraph g, const Kind& kind, std::set<int> numbers, std::optional<std::int64_t> sum, Chain group)
      : g_(std::move(g)), kind_(kind), numbers_(std::move(numbers)), sum_(sum), group_(std::move(group)),
        order_(group_.order()) {}

  std::string name() const override {
    std::string s = std::string("graph labeling=") + kind_.name + " vertices=" + std::to_string(g_.n) +
                    " edges=" + std::to_string(g_.edges.size()) + " numbers=" + format_numbers(numbers_) +
                    " group=" + std::to_string(order_);
    if (sum_) s += " sum=" + std::to_string(*sum_);
    return s;
  }
  std::string by_key() const override { return "by_sum"; }

  Judged judge(const nlohmann::json& sol) const override {
    Judged j;
    if (!sol.is_object()) {
      j.error = "expected an object with the labels";
      return j;
    }
    std::vector<int> labels, vl, el;
    if (!read_part(sol, "vertices", kind_.vertices, g_.n, vl, j.error) ||
        !read_part(sol, "edges", kind_.edges, g_.edges.size(), el, j.error))
      return j;
    labels = vl;
    labels.insert(labels.end(), el.begin(), el.end());
    if (!check_numbers(labels, numbers_, j.error)) return j;
    if (kind_.super && !smallest_on_vertices(vl)) {
      j.error = "a super labelling puts the smallest numbers on the vertices";
      return j;
    }
    const std::vector<std::int64_t> w = weights(vl, el);
    const std::int64_t k = w.empty() ? 0 : w[0];
    for (std::int64_t x : w)
      if (x != k) {
        j.error = "the weights differ (" + std::to_string(k) + " and " + std::to_string(x) + ")";
        return j;
      }
    if (sum_ && *sum_ != k) {
      j.error = "the magic constant is " + std::to_string(k) + ", not the fixed " + std::to_string(*sum_);
      return j;
    }
    if (!sol.contains("sum") || !sol.at("sum").is_number_integer() || sol.at("sum").get<std::int64_t>() != k) {
      j.error = "\"sum\" is not the magic constant " + std::to_string(k);
      return j;
    }
    j.canonical = bytes_u16le(group_.least_image(labels), labels.size());
    j.orbit = order_;
    j.key = k;
    return j;
  }

 private:
  static bool read_part(const nlohmann::json& sol, const char* part, bool labelled, std::size_t size,
                        std::vector<int>& out, std::string& why) {
    if (!labelled) {
      if (sol.contains(part)) why = std::string("this labelling gives no \"") + part + "\" labels";
      return !sol.contains(part);
    }
    if (!sol.contains(part)) {
      why = std::string("\"") + part + "\" is missing";
      return false;
    }
    const auto v = int_list(sol.at(part), size, 1, kMaxValue, why);
    if (!v) return false;
    out = *v;
    return true;
  }
  bool smallest_on_vertices(const std::vector<int>& vl) const {
    std::set<int> want;
    for (int v : numbers_)
      if (want.size() < vl.size()) want.insert(v);
    return std::set<int>(vl.begin(), vl.end()) == want;
  }
  // Each condition's weight: an edge's or a vertex's, by the rule.
  std::vector<std::int64_t> weights(const std::vector<int>& vl, const std::vector<int>& el) const {
    std::vector<std::int64_t> w;
    const std::size_t m = g_.edges.size();
    switch (kind_.rule) {
      case Kind::EdgeTotal:
        for (std::size_t i = 0; i < m; ++i)
          w.push_back(vl[static_cast<std::size_t>(g_.edges[i].first)] + el[i] + vl[static_cast<std::size_t>(g_.edges[i].second)]);
        break;
      case Kind::EdgeVertices:
        for (const auto& [u, v] : g_.edges) w.push_back(vl[static_cast<std::size_t>(u)] + vl[static_cast<std::size_t>(v)]);
        break;
      case Kind::VertexTotal:
      case Kind::VertexEdges:
        w.assign(g_.n, 0);
        if (kind_.rule == Kind::VertexTotal)
          for (std::size_t v = 0; v < g_.n; ++v) w[v] = vl[v];
        for (std::size_t i = 0; i < m; ++i) {
          w[static_cast<std::size_t>(g_.edges[i].first)] += el[i];
          w[static_cast<std::size_t>(g_.edges[i].second)] += el[i];
        }
        break;
      case Kind::Neighbours:
        w.assign(g_.n, 0);
        for (const auto& [u, v] : g_.edges) {
          w[static_cast<std::size_t>(u)] += vl[static_cast<std::size_t>(v)];
          w[static_cast<std::size_t>(v)] += vl[static_cast<std::size_t>(u)];
        }
        break;
    }
    return w;
  }

  SimpleGraph g_;
  Kind kind_;
  std::set<int> numbers_;
  std::optional<std::int64_t> sum_;
  Chain group_;
  std::uint64_t order_;
};

// A vertex permutation acting on the labelled elements.
Perm on_elements(const Perm& gv, const SimpleGraph& g, const Kind& kind) {
  Perm out;
  if (kind.vertices) out = gv;
  if (kind.edges) {
    const std::size_t base = kind.vertices ? g.n : 0;
    for (const auto& [u, v] : g.edges) {
      const int a = gv[static_cast<std::size_t>(u)], b = gv[static_cast<std::size_t>(v)];
      for (std::size_t i = 0; i < g.edges.size(); ++i)
        if (std::minmax(g.edges[i].first, g.edges[i].second) == std::minmax(a, b))
          out.push_back(static_cast<int>(base + i));
    }
  }
  return out;
}

// The generators the problem's "symmetry" names: the automorphisms found
// here (the default), none, or its own, each checked to be one.
std::vector<Perm> vertex_group(const nlohmann::json& problem, const SimpleGraph& g) {
  const nlohmann::json sym = problem.contains("symmetry") ? problem.at("symmetry") : nlohmann::json("automorphisms");
  if (sym == "automorphisms") return AutomorphismSearch(g).generators();
  if (sym == "none") return {};
  if (!sym.is_object() || sym.size() != 1 || !sym.contains("generators") || !sym.at("generators").is_array())
    throw SpecError("problem.symmetry must be \"automorphisms\", \"none\" or {\"generators\": [...]}");
  std::map<std::string, int> index;
  for (const auto& v : problem.at("graph").at("vertices")) index.emplace(vertex_name(v), static_cast<int>(index.size()));
  std::vector<Perm> out;
  for (const auto& gen : sym.at("generators")) {
    if (!gen.is_array() || gen.size() != g.n) throw SpecError("problem.symmetry: a generator lists each vertex's image");
    Perm p;
    for (const auto& v : gen) {
      const auto it = index.find(vertex_name(v));
      if (it == index.end()) throw SpecError("problem.symmetry names an unknown vertex");
      p.push_back(it->second);
    }
    if (std::set<int>(p.begin(), p.end()).size() != g.n) throw SpecError("problem.symmetry: a generator is not a permutation");
    for (const auto& [u, v] : g.edges)
      if (!g.adj[static_cast<std::size_t>(p[static_cast<std::size_t>(u)])][static_cast<std::size_t>(p[static_cast<std::size_t>(v)])])
        throw SpecError("problem.symmetry: a generator is not an automorphism");
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::unique_ptr<Rules> make_graph_rules(const nlohmann::json& problem) {
  SimpleGraph g = read_graph(problem);
  const std::string kind_name = string_field(problem, "labeling", "problem", "");
  const Kind* kind = nullptr;
  for (const Kind& k : kKinds)
    if (kind_name == k.name) kind = &k;
  if (!kind) throw SpecError("problem.labeling: unknown labelling '" + utf8_prefix(kind_name, 40) + "'");
  const std::size_t elements = (kind->vertices ? g.n : 0) + (kind->edges ? g.edges.size() : 0);
  if (elements == 0 || elements > kMaxElements)
    throw SpecError("problem: the labelling labels " + std::to_string(elements) + " elements (1.." +
                    std::to_string(kMaxElements) + ")");
  std::set<int> numbers;
  if (problem.contains("numbers")) {
    if (!problem.at("numbers").is_string()) throw SpecError("problem.numbers must be a text such as \"1..10\"");
    numbers = parse_numbers_text(problem.at("numbers").get<std::string>());
  } else {
    for (std::size_t v = 1; v <= elements; ++v) numbers.insert(static_cast<int>(v));
  }
  if (numbers.size() < elements) throw SpecError("problem.numbers: fewer numbers than labelled elements");
  Chain group(elements);
  for (const Perm& gv : vertex_group(problem, g)) group.add(on_elements(gv, g, *kind));
  if (!problem.contains("group") || !problem.at("group").is_object())
    throw SpecError("problem.group is missing: the result names the group it counted under");
  const std::int64_t order = int_field(problem.at("group"), "order", "problem.group");
  if (order < 0 || static_cast<std::uint64_t>(order) != group.order())
    throw SpecError("problem.group.order says " + std::to_string(order) + ", but the graph's symmetry has " +
                    std::to_string(group.order()) + " elements on the labelled elements");
  return std::make_unique<GraphRules>(std::move(g), *kind, std::move(numbers), optional_int(problem, "sum", "problem"),
                                      std::move(group));
}

}  // namespace magic::checker
