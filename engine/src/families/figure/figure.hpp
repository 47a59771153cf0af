#pragma once
// The figure family: the problem (figure_problem.hpp) with the compiled
// plan that equals its plan, where this build has one (figure_compiled.hpp).
// The family stands above both, so that the problem knows no compiled plan
// by name and the plans are given to it.
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "figure/figure_compiled.hpp"
#include "figure/figure_join.hpp"
#include "figure/figure_problem.hpp"
#include "figure/figure_spec.hpp"
#include "magic/family_command.hpp"

namespace magic {

// The figure's problem, with its compiled plan if one matches; compiled =
// false keeps to the general search (the tests compare the two).
inline FigureProblem figure_problem(FigureSpec spec, bool algebra = true, bool compiled = true) {
  FigureProblem p(std::move(spec), algebra);
  if (compiled) FigureCompiler::attach(p);
  return p;
}

// The registry's entry (magic/registry.hpp).
struct FigureFamily {
  static constexpr const char* kName = "figure";
  static constexpr const char* kByKey = "by_sum";
  static constexpr Picture kPicture = Picture::Figure;
  static std::string levels_help() { return kFigureLevels; }
  static FamilyCommand command();  // figure.cpp; apps/cmd_figure.cpp adds the file, --list and --show
  // The echo names the figure and its size, not every point and line.
  static std::string echo(const nlohmann::json& problem);
  // "count": the join of halves (figure_join.hpp) instead of the search.
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    FigureProblem p = figure_problem(figure_spec_from_json(spec));
    if (wants_count(spec, "figure"))
      return f(FigureJoinProblem(p.spec(), p.group_order(), p.describe(), count_memory_bytes(spec, "figure")));
    count_memory_bytes(spec, "figure");
    return f(p);
  }
};

}  // namespace magic
