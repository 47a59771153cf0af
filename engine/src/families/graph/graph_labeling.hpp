#pragma once
// A magic labelling of a graph as a figure (figure_spec.hpp), which the
// figure engine solves: the labelled elements are its points, each magic
// condition one of its lines, and the graph's automorphisms its group.
//
//   edge-magic-total     points V + E   a line {u, uv, v} per edge
//   vertex-magic-total   points V + E   a line {v, its edges} per vertex
//   super-...            the same, the vertices on the |V| smallest numbers
//   vertex-magic-edge    points E       a line {v's edges} per vertex
//   edge-magic-vertex    points V       a line {u, v} per edge
//   distance-magic       points V       a line {v's neighbours} per vertex
//
// Points are the vertices in order, then the edges in order (each kind
// only if labelled).  Repeated lines (two vertices with one neighbourhood)
// are one line; an empty one (an isolated vertex's) has weight 0, which no
// labelling by positive numbers meets unless every line is empty, and then
// there is no condition: every labelling counts, its sum reported as 0.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "figure/figure_spec.hpp"
#include "graph/graph_spec.hpp"

namespace magic {

enum class GraphLabeling {
  EdgeMagicTotal,
  VertexMagicTotal,
  SuperEdgeMagicTotal,
  SuperVertexMagicTotal,
  VertexMagicEdge,
  EdgeMagicVertex,
  DistanceMagic,
};
inline constexpr const char* kGraphLabelingNames =
    "edge-magic-total, vertex-magic-total, super-edge-magic-total, super-vertex-magic-total, vertex-magic-edge, "
    "edge-magic-vertex or distance-magic";
std::optional<GraphLabeling> graph_labeling(const std::string& name);
std::string graph_labeling_name(GraphLabeling l);
bool labels_vertices(GraphLabeling l);
bool labels_edges(GraphLabeling l);

enum class GraphGroup { Automorphisms, Generators, None };

struct GraphSpec {
  Graph graph;
  GraphLabeling labeling = GraphLabeling::EdgeMagicTotal;
  std::vector<int> numbers;   // sorted, distinct; the default is 1..(labelled elements)
  std::optional<int> sum;     // the magic constant, when fixed
  GraphGroup group = GraphGroup::Automorphisms;
  std::vector<std::vector<int>> generators;  // GraphGroup::Generators: each vertex's image
  bool symmetry_breaking = true;

  int elements() const {
    return (labels_vertices(labeling) ? graph.n() : 0) + (labels_edges(labeling) ? graph.m() : 0);
  }
};

// The engine's spec {"name": "graph", "builtin": NAME | "graph": {...} or
// text, "labeling": KIND, "numbers", "sum", "symmetry", "symmetry_breaking"}
// to a checked spec: one SpecError line for any failure.
GraphSpec graph_spec_from_json(const nlohmann::json& spec);

// The labelling's figure, with the group it counts under as generators;
// `impossible` when an empty line (an isolated vertex's) rules out every
// labelling.
struct LabelledFigure {
  FigureSpec figure;
  bool impossible = false;
};
LabelledFigure labelled_figure(const GraphSpec& s, const std::vector<std::vector<int>>& vertex_generators);

}  // namespace magic
