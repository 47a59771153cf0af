#pragma once
// The one engine every problem plugs into (see core/problem.hpp for the
// contract).  It is compiled once, in engine/src/runner.cpp, against the
// problem's erased face (core/any_problem.hpp), and composes:
//
//   planner    core/planner.hpp    the task prefixes (streamed in chunks), the
//                                  split-depth default, the shard and resume filters
//   scheduler  core/scheduler.hpp  runs the tasks on oneTBB workers
//   task       core/task.hpp       one serial solve into a task-local record
//   split      core/split.hpp      big tasks hand out pieces when workers idle
//   merger     core/merger.hpp     folds records in task order; checkpoint
//
// and owns the checkpoint's signature, so a checkpoint can only resume the
// run that wrote it.  The cluster (magic/cluster.hpp) is the same engine
// with tasks handed to other processes.
#include "magic/core/any_problem.hpp"
#include "magic/run_options.hpp"

namespace magic {

RunResult run(const AnyProblem& p, const RunOptions& opt);
template <Problem P>
RunResult run(const P& p, const RunOptions& opt) {
  return run(Erased<P>(p), opt);
}

// Depth 0 for a search of at most kProbeNodes nodes, else the first depth
// with kTargetTasks tasks (core/planner.hpp).
int default_split_depth(const AnyProblem& p);
template <Problem P>
int default_split_depth(const P& p) {
  return default_split_depth(Erased<P>(p));
}

}  // namespace magic
