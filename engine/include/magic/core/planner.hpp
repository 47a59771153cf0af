#pragma once
// The task planner: the prefixes a run is cut into, their indices, and which
// of them this run executes (its shard, minus what a checkpoint holds).
//
// Task i is the i-th node the problem's expand() hands out at the split
// level, so the list, and every index in a checkpoint or a shard, depends
// only on the problem and the split depth, never on the threads.
#include <cstdint>
#include <functional>
#include <vector>

#include "magic/core/problem.hpp"

namespace magic {

struct Shard {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
};

// The default split depth is the first level with this many tasks: enough
// to balance dozens of threads, few enough that a task's fixed cost stays
// small.  It does not depend on the thread count, so a checkpoint written on
// one machine resumes on another.
inline constexpr std::uint64_t kTargetTasks = 1000;
inline constexpr int kMaxSplitDepth = 64;

template <Problem P>
std::vector<typename P::State> plan_tasks(const P& p, int depth) {
  std::vector<typename P::State> tasks;
  p.expand(depth, [&](const typename P::State& s, bool) { tasks.push_back(s); });
  return tasks;
}

// The first depth with at least `target` tasks, or the depth below which the
// tree cannot be cut any more.  Each level is counted only up to `target`.
template <Problem P>
int default_split_depth(const P& p, std::uint64_t target = kTargetTasks) {
  struct Enough {};
  for (int depth = 0; depth < kMaxSplitDepth; ++depth) {
    std::uint64_t n = 0;
    bool cut = false;  // some task could be cut deeper
    try {
      p.expand(depth, [&](const typename P::State&, bool leaf) {
        cut = cut || !leaf;
        if (++n >= target) throw Enough{};
      });
    } catch (const Enough&) {
      return depth;
    }
    if (!cut) return depth;
  }
  return kMaxSplitDepth;
}

struct TaskSelection {
  std::vector<std::uint64_t> run;      // task indices to execute, in order
  std::vector<std::uint64_t> resumed;  // task indices a checkpoint already holds
};

// `done(i)` says whether task i is already finished (resume).
inline TaskSelection select_tasks(std::uint64_t total, Shard shard,
                                  const std::function<bool(std::uint64_t)>& done) {
  TaskSelection sel;
  for (std::uint64_t i = shard.index; i < total; i += shard.count)
    (done && done(i) ? sel.resumed : sel.run).push_back(i);
  return sel;
}

}  // namespace magic
