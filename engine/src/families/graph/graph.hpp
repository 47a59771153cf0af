#pragma once
// The graph family: magic labellings of a graph (graph_labeling.hpp says
// which), counted up to the graph's automorphisms.  Each labelling is a
// figure, solved by the figure engine (figure_problem.hpp); this problem
// gives it the figure and the group, and speaks of vertices and edges.
//
//   graph (graph6 | edge list | JSON | built-in)
//     -> nauty: Aut(G) as vertex permutations, the canonical graph6
//     -> the labelling's figure: points = labelled elements, lines = conditions,
//        group = Aut(G) acting on the points
//     -> FigureProblem: the search, Puget's symmetry breaking, canonical forms
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "figure/figure_join.hpp"
#include "figure/figure_problem.hpp"
#include "graph/graph_labeling.hpp"
#include "graph/graph_spec.hpp"
#include "magic/family_command.hpp"

namespace magic {

class GraphProblem {
 public:
  using State = FigureState;
  using Solution = FigureValues;
  static constexpr const char* kSearch = "graph/1";  // core/problem.hpp: bump on a new task tree

  explicit GraphProblem(GraphSpec spec);

  nlohmann::json describe() const;
  const char* describe_levels() const { return kFigureLevels; }
  Emits emits() const { return figure_.emits(); }
  bool has_group() const { return true; }
  std::size_t hashed_bytes() const { return figure_.hashed_bytes(); }

  void cut(int depth, SinkRef<State> sink) const {
    if (!impossible_) figure_.cut(depth, sink);
  }
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    figure_.solve(s, ctx);
  }

  Solution canonical(const Solution& s) const { return figure_.canonical(s); }
  std::uint64_t orbit_size(const Solution& s) const { return figure_.orbit_size(s); }
  Digest additive(const Solution& s) const { return figure_.additive(s); }
  std::int64_t key(const Solution& s) const { return figure_.key(s); }
  nlohmann::json to_json(const Solution& s) const;

  std::uint64_t group_order() const { return figure_.group_order(); }
  std::uint64_t automorphisms() const { return automorphisms_; }
  const GraphSpec& spec() const { return spec_; }
  const FigureSpec& figure() const { return figure_spec_; }

 private:
  GraphSpec spec_;
  std::vector<std::vector<int>> vertex_generators_;  // the group counted under, on the vertices
  std::uint64_t automorphisms_ = 1;                  // |Aut(G)|
  std::string canonical_;                            // the canonical graph6
  FigureSpec figure_spec_;
  bool impossible_ = false;
  FigureProblem figure_;
};
static_assert(Problem<GraphProblem>);

// The registry's entry (magic/registry.hpp).
struct GraphFamily {
  static constexpr const char* kName = "graph";
  static constexpr const char* kByKey = "by_sum";
  static constexpr Picture kPicture = Picture::Graph;
  static std::string levels_help() { return kFigureLevels; }
  static FamilyCommand command();  // graph.cpp; apps/cmd_graph.cpp adds the file, --list and --show
  static std::string echo(const nlohmann::json& problem);
  static const char* field_values(const std::string& field);
  static bool is_field_value(const std::string& field, const std::string& v);
  // "count": the join of halves (figure/figure_join.hpp) on the labelling's figure.
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    GraphProblem p(graph_spec_from_json(spec));
    if (wants_count(spec, "graph"))
      return f(FigureJoinProblem(p.figure(), p.group_order(), p.describe(), count_memory_bytes(spec, "graph")));
    count_memory_bytes(spec, "graph");
    return f(p);
  }
};

}  // namespace magic

namespace magic {
MAGIC_RUN_AS(extern, GraphProblem)  // compiled in run_graph.cpp
}  // namespace magic
