#pragma once
// Compiled plans: a figure's search with its plan folded into the code.
//
// The general search (figure_problem.hpp) reads its plan from tables at every node:
// which lines a place is on, which checks it makes, a formula's terms.  A
// compiled plan is the same plan written out as a C++ constant
// (figure_compiled_plans.inc), and the same search code instantiated on it,
// one function per step, so that the compiler folds every table read into
// the instructions.  The search is the same node for node (the tests
// compare the labellings, digests and node counts); it takes about 40 % of
// the time (perf/results/figure.md).
//
// A figure uses a compiled plan only when its one plan equals it field by
// field, so a stale compiled plan costs speed, never a count; the test
// FigureCompiled.PlansAreCurrent says when to write them again
// (scripts/figure-plans.sh).  Figures with several plans (K below the number
// of lines) run the general search.
#include <string>
#include <vector>

#include "figure/figure_problem.hpp"

namespace magic {

struct FigureCompiler {
  // The compiled plan that equals the figure's one plan, or null.
  static const FigureCompiled* find(const FigureProblem& p);
  // Gives the figure that compiled plan, if there is one (the family does, figure.hpp).
  static void attach(FigureProblem& p) { p.compiled_ = find(p); }
  // Every compiled plan of this build.
  static std::vector<const FigureCompiled*> all();
  // The figure's plan as C++: a type `type` of compiled plan.  Throws
  // SpecError when the figure has more than one plan.
  static std::string source(const FigureProblem& p, const std::string& type);

  // The whole of figure_compiled_plans.inc for the catalog figures `names`.
  static std::string file(const std::vector<std::string>& names);

  // A compiled plan's entries (figure_compiled.cpp).
  template <class CP>
  static bool matches(const FigureProblem::Plan& p);
  template <class CP>
  static void walk(const FigureProblem& p, FigureState& s, FigureRunnerMode& m);
};

}  // namespace magic
