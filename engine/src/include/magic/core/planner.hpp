#pragma once
// The task planner: the prefixes a run is cut into, their indices, and which
// of them this run executes (its shard, minus what a checkpoint holds).
//
// Task i is the i-th node the problem's cut() hands out at the split
// level, so the list, and every index in a checkpoint or a shard, depends
// only on the problem and the split depth, never on the threads.
//
// The list is never held whole: a TaskStream hands it out in chunks of
// consecutive indices, so a split into 10^8 tasks runs in the memory of a
// few chunks (kReadyChunks waiting, one being run, one being filled).
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "magic/core/any_problem.hpp"
#include "magic/core/problem.hpp"
#include "magic/core/shard.hpp"
#include "magic/run_options.hpp"  // kTargetTasks

namespace magic {

// kTargetTasks, the default split depth's task count: magic/run_options.hpp.
inline constexpr int kMaxSplitDepth = 64;

// The whole list at once: for tests and small tools only; the runner streams.
template <Problem P>
std::vector<typename P::State> plan_tasks(const P& p, int depth) {
  std::vector<typename P::State> tasks;
  p.cut(depth, [&](const typename P::State& s, bool) { tasks.push_back(s); });
  return tasks;
}

std::uint64_t count_tasks(const AnyProblem& p, int depth);
template <Problem P>
std::uint64_t count_tasks(const P& p, int depth) {
  return count_tasks(Erased<P>(p), depth);
}

// The first depth with at least `target` tasks, or the depth below which the
// tree cannot be cut any more.  Each level is counted only up to `target`.
// (The runner's default_split_depth tries depth 0 first: runner.hpp.)
int split_depth_for_tasks(const AnyProblem& p, std::uint64_t target = kTargetTasks);
template <Problem P>
int split_depth_for_tasks(const P& p, std::uint64_t target = kTargetTasks) {
  return split_depth_for_tasks(Erased<P>(p), target);
}

// Consecutive tasks first, first+1, ... of the list, as the bytes of their
// states, `stride` bytes each.
struct TaskChunk {
  std::uint64_t first = 0;
  std::size_t stride = 0;
  std::vector<std::byte> bytes;

  std::size_t size() const { return stride ? bytes.size() / stride : 0; }
  const std::byte* state(std::size_t i) const { return bytes.data() + i * stride; }
  template <class State>
  State get(std::size_t i) const {
    State s;
    std::memcpy(static_cast<void*>(&s), state(i), sizeof s);
    return s;
  }
};

// Hands out the task list in index order, `chunk` tasks at a time.
// cut() is one recursive walk that cannot be paused, so it runs on a
// producer thread that fills the next chunk while the current one runs,
// and waits when two are ready.  Destroying the stream early (a stop, an
// error) unwinds the walk and joins the thread.  A list known to fit in
// one chunk (`tasks`, from count_tasks) is walked on the caller's thread:
// a first completion of a few ms (one task) otherwise waited for a thread
// to start (perf/results/complete.md, filled50_8).
class TaskStream {
 public:
  static constexpr std::size_t kReadyChunks = 2;
  static constexpr std::uint64_t kUnknownTasks = ~std::uint64_t{0};

  TaskStream(const AnyProblem& p, int depth, std::size_t chunk, std::uint64_t tasks = kUnknownTasks);
  ~TaskStream();
  TaskStream(const TaskStream&) = delete;
  TaskStream& operator=(const TaskStream&) = delete;

  // The next chunk; false once the list is exhausted.  Rethrows what cut() threw.
  bool next(TaskChunk& out);
  // The most states held at once (tests check the bound).
  std::size_t peak_states() const;

 private:
  struct Cancelled {};
  void produce(const AnyProblem& p, int depth);
  void hand_over(TaskChunk& cur);

  const std::size_t chunk_;
  const std::size_t stride_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<TaskChunk> ready_;
  bool finished_ = false;
  bool cancelled_ = false;
  std::exception_ptr failure_;
  std::size_t peak_ = 0;
  bool inline_ = false;  // walked in the constructor: hand_over never waits
  std::thread producer_;  // last: starts once every member above exists (unless walked inline)
};

struct TaskSelection {
  std::vector<std::uint64_t> run;      // task indices to execute, in order
  std::vector<std::uint64_t> resumed;  // task indices a checkpoint already holds
};

// This shard's tasks among first..first+n-1; `done(i)` says whether task i
// is already finished (resume).
inline TaskSelection select_tasks(std::uint64_t first, std::uint64_t n, Shard shard,
                                  const std::function<bool(std::uint64_t)>& done) {
  TaskSelection sel;
  std::uint64_t i = first + (shard.index + shard.count - first % shard.count) % shard.count;
  for (; i < first + n; i += shard.count) (done && done(i) ? sel.resumed : sel.run).push_back(i);
  return sel;
}

// How many of `total` tasks belong to the shard.
inline std::uint64_t shard_size(std::uint64_t total, Shard shard) {
  return total > shard.index ? (total - shard.index + shard.count - 1) / shard.count : 0;
}

}  // namespace magic
