#pragma once
// The runner's parts that the cluster's coordinator and worker share
// (engine/src/cluster/cluster.cpp): one set-up, one split rule, one task.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "magic/core/any_problem.hpp"
#include "magic/core/merger.hpp"
#include "magic/core/planner.hpp"
#include "magic/core/scheduler.hpp"
#include "magic/core/split.hpp"
#include "magic/core/stop.hpp"
#include "magic/core/task.hpp"
#include "magic/journal.hpp"
#include "magic/run_options.hpp"

namespace magic::detail {

// Zero threads: the machine's.
unsigned resolve_threads(unsigned threads);

// Whether tasks hand out pieces.  One thread has no one to hand work to;
// a stopped search wants its first solutions, not a balanced tail.
bool splits_adaptively(const RunOptions& opt, unsigned threads);

// Checks the options against each other and starts the run's result with
// everything that decides the task list and how it is merged.
RunResult start_result(const AnyProblem& p, const RunOptions& opt);

// The journal's header names everything that fixes the task list, so a
// journal can only resume the run that wrote it.  Null without a checkpoint.
std::unique_ptr<Journal> open_journal(const AnyProblem& p, const RunOptions& opt, const RunResult& r);

// The run's tasks among first..first+n-1: its shard's, less those the
// journal (if any) holds, which are folded from it.
TaskSelection select_unjournalled(std::uint64_t first, std::size_t n, const RunResult& r, const Journal* journal);

// Calls on_progress at most once per interval; runs under the merger's lock.
class ProgressClock {
 public:
  ProgressClock(const RunOptions& opt, std::chrono::steady_clock::time_point t0, std::uint64_t total)
      : opt_(opt), t0_(t0), last_(t0), total_(total) {}
  void tick(std::uint64_t done, std::uint64_t nodes, std::uint64_t pieces, std::uint64_t pieces_done);

 private:
  const RunOptions& opt_;
  std::chrono::steady_clock::time_point t0_, last_;
  std::uint64_t total_;
};

// The merged record's counts and effort, into the result.
void take_totals(RunResult& r, const TaskRecord& total);

// What every task and piece of a run shares.
struct TaskTeam {
  const AnyProblem& p;
  EmitPolicy emit;
  Stop& stop;
  WorkGauge& gauge;
  SplitPolicy split;
  std::function<void()> piece_done;  // after each piece (progress)
  // A cluster's worker: gives a piece to another rank (TaskSplitting).
  std::function<std::uint64_t(const std::byte*)> send_away = nullptr;
};

// One task or piece, start to end, with every piece it hands out folded
// back in; null when it is skipped (the run stops).  A task that throws
// fails the run's Stop.
std::unique_ptr<TaskCore> solve_task(const TaskTeam& team, const std::byte* task);

}  // namespace magic::detail
