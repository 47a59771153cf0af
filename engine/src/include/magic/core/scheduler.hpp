#pragma once
// The scheduler: runs body(k) for k = 0..n-1 on `threads` oneTBB workers.
// One oneTBB task per range of one (simple_partitioner), so load balances
// by stealing however uneven the tasks are.  Everything else in the runner is
// independent of how tasks are scheduled; an MPI coordinator replaces this.
#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <optional>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MAGIC_TSAN 1
#endif
#elif defined(__SANITIZE_THREAD__)
#define MAGIC_TSAN 1
#endif
#ifdef MAGIC_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

namespace magic {

// Debian's libtbb is not built for ThreadSanitizer, so TSan cannot see the
// hand-off of work to TBB's workers and back; under TSan these two edges
// say what TBB guarantees: what the caller wrote before is seen by every
// task, and what every task wrote is seen by the caller afterwards.
struct HandOff {
#ifdef MAGIC_TSAN
  void to_tasks() { __tsan_release(&in_); }
  void in_task() { __tsan_acquire(&in_); }
  void task_done() { __tsan_release(&out_); }
  void back_to_caller() { __tsan_acquire(&out_); }
  char in_ = 0, out_ = 0;
#else
  void to_tasks() {}
  void in_task() {}
  void task_done() {}
  void back_to_caller() {}
#endif
};

// oneTBB keeps its workers at the core count unless told otherwise, so a
// run asked for more threads than cores would run fewer than the run block
// says.  Held for the run only; a request within the cores leaves the
// process-wide limit alone.
class ThreadAllowance {
 public:
  explicit ThreadAllowance(unsigned threads) {
    if (static_cast<int>(threads) > tbb::info::default_concurrency())
      allow_.emplace(tbb::global_control::max_allowed_parallelism, threads);
  }

 private:
  std::optional<tbb::global_control> allow_;
};

// Tasks start in index order: each oneTBB task takes the next index from
// a counter, not the index of its own range.  Split ranges would send a
// second thread to n/2 at once, and every task it finished there would
// wait in the merger, with its solutions, for the first half to end.
//
// One thread runs the tasks here, in order, with no arena: a process's first
// use of oneTBB costs about a millisecond, as long as a whole completion of
// a dense grid.
template <class Body>
void schedule(unsigned threads, std::size_t n, Body&& body) {
  if (threads == 1) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  const ThreadAllowance allowance(threads);
  HandOff hand_off;
  hand_off.to_tasks();
  std::atomic<std::size_t> next{0};
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n, 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          hand_off.in_task();
          for (std::size_t i = range.begin(); i != range.end(); ++i) body(next.fetch_add(1, std::memory_order_relaxed));
          hand_off.task_done();
        },
        tbb::simple_partitioner());
  });
  hand_off.back_to_caller();
}

// Work handed out while the caller keeps going (the pieces of a split
// task): run(f) starts f on any worker of the caller's arena, and wait()
// helps run them and returns once all have finished.  On one thread (no
// arena: schedule()) the pieces wait in a list and wait() runs them, in
// the order handed out, as an arena of one thread would.
class TaskGroup {
 public:
  explicit TaskGroup(unsigned threads) : alone_(threads == 1) {
    if (!alone_) group_.emplace();
  }
  template <class F>
  void run(F f) {
    if (alone_) {
      waiting_.emplace_back(std::move(f));
      return;
    }
    hand_off_.to_tasks();
    group_->run([this, f = std::move(f)] {
      hand_off_.in_task();
      f();
      hand_off_.task_done();
    });
  }
  void wait() {
    if (alone_) {
      for (std::size_t i = 0; i < waiting_.size(); ++i) std::function<void()>(std::move(waiting_[i]))();
      waiting_.clear();
      return;
    }
    group_->wait();
    hand_off_.back_to_caller();
  }

 private:
  bool alone_;
  std::deque<std::function<void()>> waiting_;  // (a piece may hand out more while it runs)
  HandOff hand_off_;
  std::optional<tbb::task_group> group_;
};

}  // namespace magic
