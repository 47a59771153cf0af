// Graphs: reading, checking, the built-ins and writing them back (graph_spec.hpp).
#include "graph/graph_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "figure/figure_group.hpp"  // graph6 and canonical forms, through nauty
#include "magic/core/error.hpp"
#include "magic/io.hpp"

namespace magic {
namespace {

constexpr std::size_t kMaxNameLength = 40;

[[noreturn]] void fail(const std::string& what, const std::string& why) { throw SpecError(what + ": " + why); }

std::string in_quotes(const std::string& s) {
  std::string q = "'";
  q += utf8_prefix(s, 4 * kMaxNameLength + 8);
  q += '\'';
  return q;
}

// Collects vertices by name and edges between them, with every check a
// simple graph needs; each reader feeds it.
class GraphBuilder {
 public:
  explicit GraphBuilder(std::string what) : what_(std::move(what)) {}

  int vertex(const std::string& name, std::optional<std::array<double, 2>> xy = std::nullopt) {
    if (name.empty()) fail(what_, "a vertex has an empty name");
    if (utf8_length(name) > kMaxNameLength)
      fail(what_, "vertex " + in_quotes(name) + "'s name is longer than " + std::to_string(kMaxNameLength) + " characters");
    if (index_.count(name)) fail(what_, "vertex " + in_quotes(name) + " is named twice");
    if (g_.n() == kGraphMaxVertices)
      fail(what_, "the graph has more than " + std::to_string(kGraphMaxVertices) + " vertices; the engine takes at most " +
                      std::to_string(kGraphMaxVertices));
    index_[name] = g_.n();
    g_.vertices.push_back({name, xy});
    return g_.n() - 1;
  }
  // The vertex named `name`, added when `add` (an edge list names them as it goes).
  int find(const std::string& name, bool add, const std::string& at) {
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    if (!add) fail(what_, at + " names an unknown vertex " + in_quotes(name));
    return vertex(name);
  }
  void edge(int u, int v, const std::string& at) {
    if (u == v) fail(what_, at + " joins " + in_quotes(g_.vertices[static_cast<std::size_t>(u)].name) + " to itself (a self-loop)");
    const auto key = std::minmax(u, v);
    const auto [it, fresh] = seen_.emplace(key, g_.m());
    if (!fresh)
      fail(what_, at + " repeats edge " + std::to_string(it->second + 1) + " (" +
                      in_quotes(g_.vertices[static_cast<std::size_t>(u)].name) + " - " +
                      in_quotes(g_.vertices[static_cast<std::size_t>(v)].name) + ")");
    if (g_.m() == kGraphMaxEdges)
      fail(what_, "the graph has more than " + std::to_string(kGraphMaxEdges) + " edges; the engine takes at most " +
                      std::to_string(kGraphMaxEdges));
    g_.edges.emplace_back(u, v);
  }
  // The edges as (smaller, larger) index, in that order: the labelling's
  // points follow it, so one numbering of the vertices gives one digest
  // however a file orders its edges.
  Graph done() {
    if (g_.n() == 0) fail(what_, "the graph has no vertex");
    for (auto& e : g_.edges)
      if (e.first > e.second) std::swap(e.first, e.second);
    std::sort(g_.edges.begin(), g_.edges.end());
    return std::move(g_);
  }

 private:
  std::string what_;
  Graph g_;
  std::map<std::string, int> index_;
  std::map<std::pair<int, int>, int> seen_;
};

bool whole(std::string_view t, int& v);

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// A JSON vertex: a name (string or whole number) or {"name", "x", "y"}.
std::string json_name(const nlohmann::json& j, const std::string& what, const std::string& at) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_integer()) return j.dump();
  fail(what, at + " must be a vertex name (a string or a whole number), got " + utf8_prefix(j.dump(), 40));
}

void read_json_vertex(GraphBuilder& b, const nlohmann::json& j, std::size_t i, const std::string& what) {
  const std::string at = "vertex " + std::to_string(i + 1);
  if (!j.is_object()) {
    b.vertex(json_name(j, what, at));
    return;
  }
  if (!j.contains("name")) fail(what, at + " needs a \"name\"");
  const std::string name = json_name(j.at("name"), what, at);
  for (const auto& [key, v] : j.items())
    if (key != "name" && key != "x" && key != "y")
      fail(what, at + " (" + in_quotes(name) + ") has an unknown field " + in_quotes(key) + " (use name, x, y)");
  if (j.contains("x") != j.contains("y")) fail(what, at + " (" + in_quotes(name) + ") needs both x and y");
  std::optional<std::array<double, 2>> xy;
  if (j.contains("x")) {
    for (const char* axis : {"x", "y"})
      if (!j.at(axis).is_number() || !std::isfinite(j.at(axis).get<double>()))
        fail(what, at + " (" + in_quotes(name) + "): " + axis + " must be a finite number");
    xy = std::array<double, 2>{j.at("x").get<double>(), j.at("y").get<double>()};
  }
  b.vertex(name, xy);
}

Graph read_graph6(const std::string& word, const std::string& what) {
  int n = 0;
  if (const std::string why = graph6_check(word, kGraphMaxVertices, n); !why.empty()) fail(what, why);
  GraphBuilder b(what);
  for (int v = 0; v < n; ++v) b.vertex(std::to_string(v));
  int i = 0;
  for (const auto& [u, v] : graph6_edges(word, n)) b.edge(u, v, "edge " + std::to_string(++i));
  return b.done();
}

// The words of each line; vertices whose names are all whole numbers are
// taken in number order (as graph6 numbers them), others as they appear.
Graph read_edge_list(const std::string& text, const std::string& what) {
  GraphBuilder b(what);
  std::vector<std::string> names;
  {
    std::istringstream in(text);
    bool numbered = true;
    std::set<std::string> seen;
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line.substr(0, line.find('#')));
      for (std::string t; words >> t;) {
        int v = 0;
        numbered = numbered && whole(t, v) && std::to_string(v) == t;
        if (seen.insert(t).second) names.push_back(t);
      }
    }
    if (numbered)
      std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& c) { return std::stoi(a) < std::stoi(c); });
    if (numbered && names.size() <= static_cast<std::size_t>(kGraphMaxVertices))
      for (const std::string& name : names) b.vertex(name);
  }
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string t; words >> t;) w.push_back(t);
    const std::string at = "line " + std::to_string(number);
    if (w.size() > 2)
      fail(what, at + ": an edge is two vertices, \"u v\", got " + std::to_string(w.size()) + " words");
    if (w.size() == 1) b.find(w[0], true, at);
    if (w.size() == 2) {
      const int u = b.find(w[0], true, at), v = b.find(w[1], true, at);
      b.edge(u, v, at);
    }
  }
  return b.done();
}

bool graph6_word(const std::string& t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '?' && c <= '~'; });
}

// ---- built-ins -----------------------------------------------------------

using Points = std::vector<std::array<double, 2>>;

// n points on a circle of radius r, the first at the top, counterclockwise.
void on_circle(Points& p, int n, double r, double turn = 0) {
  for (int i = 0; i < n; ++i) {
    const double a = std::numbers::pi / 2 + 2 * std::numbers::pi * (i + turn) / n;
    p.push_back({r * std::cos(a), r * std::sin(a)});
  }
}

struct Built {
  Points xy;
  std::vector<std::pair<int, int>> edges;
};

Built cycle(int n) {
  Built b;
  on_circle(b.xy, n, 1);
  for (int i = 0; i < n; ++i) b.edges.emplace_back(i, (i + 1) % n);
  return b;
}
Built path(int n) {  // n edges
  Built b;
  for (int i = 0; i <= n; ++i) b.xy.push_back({static_cast<double>(i), 0});
  for (int i = 0; i < n; ++i) b.edges.emplace_back(i, i + 1);
  return b;
}
Built complete(int n) {
  Built b;
  on_circle(b.xy, n, 1);
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v) b.edges.emplace_back(u, v);
  return b;
}
Built star(int n) {  // centre 0, leaves 1..n
  Built b;
  b.xy.push_back({0, 0});
  on_circle(b.xy, n, 1);
  for (int i = 1; i <= n; ++i) b.edges.emplace_back(0, i);
  return b;
}
Built wheel(int n) {  // the star's hub and spokes, and the rim 1..n
  Built b = star(n);
  for (int i = 1; i <= n; ++i) b.edges.emplace_back(i, i % n + 1);
  return b;
}
Built fan(int n) {  // apex 0 over the path 1..n
  Built b;
  b.xy.push_back({(n - 1) / 2.0, (n + 1) / 2.0});
  for (int i = 0; i < n; ++i) b.xy.push_back({static_cast<double>(i), 0});
  for (int i = 1; i <= n; ++i) b.edges.emplace_back(0, i);
  for (int i = 1; i < n; ++i) b.edges.emplace_back(i, i + 1);
  return b;
}
Built friendship(int n) {  // centre 0, triangle i: 2i-1, 2i
  Built b;
  b.xy.push_back({0, 0});
  on_circle(b.xy, 2 * n, 1, -0.5);
  for (int i = 1; i <= n; ++i) {
    b.edges.emplace_back(0, 2 * i - 1);
    b.edges.emplace_back(0, 2 * i);
    b.edges.emplace_back(2 * i - 1, 2 * i);
  }
  return b;
}
Built prism(int n) {  // outer 0..n-1, inner n..2n-1
  Built b;
  on_circle(b.xy, n, 1);
  on_circle(b.xy, n, 0.5);
  for (int i = 0; i < n; ++i) b.edges.emplace_back(i, (i + 1) % n);
  for (int i = 0; i < n; ++i) b.edges.emplace_back(n + i, n + (i + 1) % n);
  for (int i = 0; i < n; ++i) b.edges.emplace_back(i, n + i);
  return b;
}
Built grid(int r, int c) {  // vertex i c + j at column j of row i
  Built b;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) b.xy.push_back({static_cast<double>(j), static_cast<double>(-i)});
  for (int i = 0; i < r; ++i)
    for (int j = 0; j + 1 < c; ++j) b.edges.emplace_back(i * c + j, i * c + j + 1);
  for (int i = 0; i + 1 < r; ++i)
    for (int j = 0; j < c; ++j) b.edges.emplace_back(i * c + j, (i + 1) * c + j);
  return b;
}
Built complete_bipartite(int m, int n) {  // 0..m-1 on the left, m..m+n-1 on the right
  Built b;
  for (int i = 0; i < m; ++i) b.xy.push_back({0, -(i - (m - 1) / 2.0)});
  for (int j = 0; j < n; ++j) b.xy.push_back({2, -(j - (n - 1) / 2.0)});
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) b.edges.emplace_back(i, m + j);
  return b;
}
Built petersen() {  // outer pentagon 0..4, inner pentagram 5..9
  Built b;
  on_circle(b.xy, 5, 1);
  on_circle(b.xy, 5, 0.5);
  for (int i = 0; i < 5; ++i) b.edges.emplace_back(i, (i + 1) % 5);
  for (int i = 0; i < 5; ++i) b.edges.emplace_back(i, 5 + i);
  for (int i = 0; i < 5; ++i) b.edges.emplace_back(5 + i, 5 + (i + 2) % 5);
  return b;
}

struct Form {
  const char* prefix;  // "cycle-"
  const char* shape;   // "cycle-N"
  const char* help;
  int sizes;           // 0: no size, 1: N, 2: RxC
  int least;           // the smallest N (each of R, C)
  std::function<Built(int, int)> build;
};

const std::vector<Form>& forms() {
  static const std::vector<Form> f = {
      {"cycle-", "cycle-N", "the cycle C_N", 1, 3, [](int n, int) { return cycle(n); }},
      {"path-", "path-N", "the path P_N with N edges (N + 1 vertices)", 1, 0, [](int n, int) { return path(n); }},
      {"wheel-", "wheel-N", "the wheel: a hub joined to every vertex of C_N", 1, 3, [](int n, int) { return wheel(n); }},
      {"complete-bipartite-", "complete-bipartite-MxN", "K_{M,N}", 2, 1,
       [](int m, int n) { return complete_bipartite(m, n); }},
      {"complete-", "complete-N", "the complete graph K_N", 1, 1, [](int n, int) { return complete(n); }},
      {"star-", "star-N", "the star K_{1,N}: a centre and N leaves", 1, 1, [](int n, int) { return star(n); }},
      {"fan-", "fan-N", "the fan: an apex joined to every vertex of a path of N vertices", 1, 1,
       [](int n, int) { return fan(n); }},
      {"friendship-", "friendship-N", "N triangles sharing one vertex", 1, 1, [](int n, int) { return friendship(n); }},
      {"prism-", "prism-N", "the prism C_N x K_2", 1, 3, [](int n, int) { return prism(n); }},
      {"grid-", "grid-RxC", "the R x C grid P_R x P_C", 2, 1, [](int r, int c) { return grid(r, c); }},
      {"petersen", "petersen", "the Petersen graph", 0, 0, [](int, int) { return petersen(); }},
  };
  return f;
}

bool whole(std::string_view t, int& v) {
  if (t.empty() || t.size() > 4) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && end == t.data() + t.size();
}

// The form and sizes `name` asks for, or false.
bool parse_builtin(const std::string& name, const Form*& form, int& a, int& b) {
  for (const Form& f : forms()) {
    const std::string p = f.prefix;
    if (name.rfind(p, 0) != 0) continue;
    const std::string rest = name.substr(p.size());
    a = b = 0;
    if (f.sizes == 0 && rest.empty()) return form = &f, true;
    if (f.sizes == 1 && whole(rest, a)) return form = &f, true;
    const auto x = rest.find('x');
    if (f.sizes == 2 && x != std::string::npos && whole(rest.substr(0, x), a) && whole(rest.substr(x + 1), b))
      return form = &f, true;
  }
  return false;
}

std::string builtin_list() {
  std::string out;
  for (const Form& f : forms()) out += std::string(out.empty() ? "" : ", ") + f.shape;
  return out;
}

}  // namespace

bool is_builtin_graph(const std::string& name) {
  const Form* f = nullptr;
  int a = 0, b = 0;
  return parse_builtin(name, f, a, b);
}

Graph builtin_graph(const std::string& name) {
  const std::string what = "graph " + utf8_prefix(name, 64);
  const Form* f = nullptr;
  int a = 0, b = 0;
  if (!parse_builtin(name, f, a, b)) fail("graph", "unknown built-in graph " + in_quotes(name) + " (use " + builtin_list() + ")");
  if (a < f->least || (f->sizes == 2 && b < f->least))
    fail(what, std::string(f->shape) + " needs " + (f->sizes == 2 ? "each size" : "N") + " at least " +
                   std::to_string(f->least));
  // Too large for the engine is caught below, before anything is built big.
  if (a > 2 * kGraphMaxEdges || b > 2 * kGraphMaxEdges)
    fail(what, "more than the engine's " + std::to_string(kGraphMaxVertices) + " vertices or " +
                   std::to_string(kGraphMaxEdges) + " edges");
  const Built built = f->build(a, b);
  GraphBuilder g(what);
  for (std::size_t v = 0; v < built.xy.size(); ++v) g.vertex(std::to_string(v), built.xy[v]);
  int i = 0;
  for (const auto& [u, v] : built.edges) g.edge(u, v, "edge " + std::to_string(++i));
  Graph out = g.done();
  out.builtin = name;
  return out;
}

std::vector<std::pair<std::string, std::string>> builtin_graph_forms() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Form& f : forms()) out.emplace_back(f.shape, f.help);
  return out;
}

Graph graph_from_json(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object()) fail(what, "a graph is a JSON object with \"vertices\" and \"edges\"");
  for (const auto& [key, v] : j.items())
    if (key != "vertices" && key != "edges") fail(what, "unknown field " + in_quotes(key) + " (use vertices, edges)");
  if (!j.contains("edges")) fail(what, "\"edges\" is missing (give [] for none)");
  GraphBuilder b(what);
  const bool listed = j.contains("vertices");
  if (listed) {
    const auto& vs = j.at("vertices");
    if (vs.is_number_integer()) {
      const long long n = vs.get<long long>();
      if (n < 1 || n > kGraphMaxVertices)
        fail(what, "\"vertices\" as a count must be 1.." + std::to_string(kGraphMaxVertices) + ", got " + vs.dump());
      for (long long v = 0; v < n; ++v) b.vertex(std::to_string(v));
    } else if (vs.is_array()) {
      for (std::size_t i = 0; i < vs.size(); ++i) read_json_vertex(b, vs[i], i, what);
    } else {
      fail(what, "\"vertices\" must be a list of vertices or their count");
    }
  }
  const auto& es = j.at("edges");
  if (!es.is_array()) fail(what, "\"edges\" must be a list of [u, v] pairs");
  for (std::size_t i = 0; i < es.size(); ++i) {
    const std::string at = "edge " + std::to_string(i + 1);
    if (!es[i].is_array() || es[i].size() != 2) fail(what, at + " must be a pair [u, v], got " + utf8_prefix(es[i].dump(), 40));
    const int u = b.find(json_name(es[i][0], what, at), !listed, at);
    const int v = b.find(json_name(es[i][1], what, at), !listed, at);
    b.edge(u, v, at);
  }
  return b.done();
}

Graph graph_from_text(const std::string& text, const std::string& what) {
  const std::string t = trimmed(text);
  if (t.empty()) fail(what, "the file is empty (give graph6, an edge list or JSON)");
  if (t[0] == '{') return graph_from_json(parse_json(t, what), what);
  if (t[0] == ':' || t[0] == ';' || t[0] == '&')
    fail(what, "sparse6 and digraph6 are not read; convert to graph6 (nauty's copyg -g) or an edge list");
  const std::string header = ">>graph6<<";
  if (t.rfind(header, 0) == 0) {
    const std::string word = trimmed(t.substr(header.size()));
    if (!graph6_word(word)) fail(what, "after >>graph6<< comes one graph6 string of the characters ? to ~");
    return read_graph6(word, what);
  }
  if (t.find_first_of(" \t\r\n#") == std::string::npos && graph6_word(t)) return read_graph6(t, what);
  return read_edge_list(text, what);
}

nlohmann::json graph_json(const Graph& g) {
  nlohmann::json vs = nlohmann::json::array(), es = nlohmann::json::array();
  for (const GraphVertex& v : g.vertices) {
    if (v.xy) vs.push_back({{"name", v.name}, {"x", (*v.xy)[0]}, {"y", (*v.xy)[1]}});
    else vs.push_back(v.name);
  }
  for (const auto& [u, v] : g.edges)
    es.push_back({g.vertices[static_cast<std::size_t>(u)].name, g.vertices[static_cast<std::size_t>(v)].name});
  return {{"vertices", vs}, {"edges", es}};
}

std::string graph6_in_order(const Graph& g, const std::vector<int>& order) {
  std::vector<int> place(static_cast<std::size_t>(g.n()));
  for (int i = 0; i < g.n(); ++i) place[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i;
  std::vector<std::pair<int, int>> relabelled;
  for (const auto& [u, v] : g.edges) relabelled.emplace_back(place[static_cast<std::size_t>(u)], place[static_cast<std::size_t>(v)]);
  return graph6_of(g.n(), relabelled);
}

}  // namespace magic
