#pragma once
// One task: the context a problem's solve() writes its record into.  Everything here is task-local, so no atomics are touched
// per node; records are folded once, in task order, by the merger.
#include <atomic>
#include <cstdint>
#include <ctime>
#include <map>
#include <vector>

#include "magic/core/problem.hpp"
#include "magic/task_record.hpp"

namespace magic {

// Counts one unique solution, given in canonical form.
template <Problem P>
void count_solution(const P& p, const typename P::Solution& canon, TaskRecord& rec) {
  ++rec.unique;
  rec.total += p.orbit_size(canon);
  rec.digest.add(canon);
  if constexpr (HasKey<P>) ++rec.by_key[p.key(canon)];
}

// How a task treats what solve() emits.
struct EmitPolicy {
  Emits mode = Emits::OnePerOrbit;
  bool defer = false;              // keep (solution, canonical) pairs for the merger to judge
  std::uint64_t keep = 0;          // solutions kept for the caller
  std::uint64_t stop_after = 0;    // a deferring task may stop after this many
};

// Handed to P::solve.
template <Problem P>
class TaskContext {
 public:
  using Solution = typename P::Solution;
  struct Pair {
    Solution sol;
    Solution canon;
  };

  TaskContext(const P& p, const EmitPolicy& policy, const std::atomic<bool>& halt,
              const std::atomic<bool>* interrupt)
      : p_(p), policy_(policy), halt_(halt), interrupt_(interrupt) {}

  std::uint64_t nodes = 0;
  TaskRecord record;
  std::vector<Solution> kept;
  std::vector<Pair> deferred;

  void emit(const Solution& s) {
    const Solution c = p_.canonical(s);
    const bool counts = policy_.mode == Emits::OnePerOrbit || c == s;
    if (policy_.defer) {
      deferred.push_back({s, c});
      // Only a solution that can count brings the stop nearer; stopping on
      // images would cut the task before its first countable solutions.
      countable_ += counts;
      if (policy_.stop_after && countable_ >= policy_.stop_after) local_stop_ = true;
      return;
    }
    if (!counts) return;
    count_solution(p_, c, record);
    if (kept.size() < policy_.keep) kept.push_back(s);
  }

  // Polled by solvers at every node; reads the shared flags only now and then.
  bool stopped() {
    if (local_stop_) return true;
    if ((++poll_ & 1023u) == 0 &&
        (halt_.load(std::memory_order_relaxed) || (interrupt_ && interrupt_->load(std::memory_order_relaxed))))
      local_stop_ = true;
    return local_stop_;
  }
  bool aborted() const { return local_stop_; }

 private:
  const P& p_;
  EmitPolicy policy_;
  const std::atomic<bool>& halt_;
  const std::atomic<bool>* interrupt_;
  std::uint64_t countable_ = 0;
  bool local_stop_ = false;
  unsigned poll_ = 0;
};

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace magic
