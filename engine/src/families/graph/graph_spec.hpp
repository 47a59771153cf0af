#pragma once
// A graph as the graph family reads it: named vertices (with coordinates
// for drawing, when given) and edges by vertex index, simple and checked
// once, here.  Read from graph6, an edge list or JSON (docs/graphs.md), or
// built in (`cycle-8`, `petersen`, ...).
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace magic {

// One 64-bit mask of the labelled elements (the figure engine's points),
// so a graph has at most 64 vertices and 64 edges.
inline constexpr int kGraphMaxVertices = 64;
inline constexpr int kGraphMaxEdges = 64;

struct GraphVertex {
  std::string name;
  std::optional<std::array<double, 2>> xy;  // drawing only
};

struct Graph {
  std::vector<GraphVertex> vertices;
  std::vector<std::pair<int, int>> edges;  // vertex indices, as the input orders them
  std::string builtin;                     // the built-in name, if it came from there

  int n() const { return static_cast<int>(vertices.size()); }
  int m() const { return static_cast<int>(edges.size()); }
};

// A graph file's text: JSON when it starts with '{', graph6 when it is one
// word of graph6 characters (an optional >>graph6<< header before it), else
// an edge list ("u v" a line, a lone "v" for a vertex on no edge, '#'
// comments).  Every failure is one SpecError line that starts with `what`.
Graph graph_from_text(const std::string& text, const std::string& what);
// {"vertices": [...], "edges": [[u, v], ...]} (docs/graphs.md).
Graph graph_from_json(const nlohmann::json& j, const std::string& what);
// The built-in graph `name` ("cycle-8"), with coordinates; SpecError if none.
Graph builtin_graph(const std::string& name);
bool is_builtin_graph(const std::string& name);
// "cycle-N  the cycle C_N (N >= 3)" lines, for --list.
std::vector<std::pair<std::string, std::string>> builtin_graph_forms();

// The graph as JSON again ({"vertices": [...], "edges": [[name, name]]}):
// what a result echoes, read back by graph_from_json.
nlohmann::json graph_json(const Graph& g);
// The graph6 string of g with its vertices in `order` (order[i]: the vertex
// that comes i-th): with nauty's canonical order (GraphSymmetry), the
// canonical form, the same for every file and numbering of one graph.
std::string graph6_in_order(const Graph& g, const std::vector<int>& order);

}  // namespace magic
