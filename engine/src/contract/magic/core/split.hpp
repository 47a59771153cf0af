#pragma once
// Adaptive splitting: when a worker is about to go idle, a running task
// hands out the untried part of its own subtree, so a few huge tasks cannot
// keep one core busy while the others wait (the tail of a long run).
//
//   task root                    The walk is at x when a hand-out is asked
//    ├─ a        searched        for, so cut = level(x).  Every node the walk
//    ├─ b ─┬─ b1 searched        enters from then on at a level <= cut is an
//    │     ├─ b2 ─┬─ x  <- here  untried sibling of the path: it becomes a
//    │     │      └─ x' piece    piece (a deeper State, solved like a task)
//    │     └─ b3    piece        and is not searched here.  Nodes below the
//    └─ c           piece        cut (x's subtree) stay with the task.
//
// Every node is still searched exactly once, so counts, by_key and the
// digest cannot change; a task's pieces are folded back into it in the
// order they were handed out, which is the order of the walk, so neither
// does the order of handed-out solutions.  The journal sees whole tasks.
#include <atomic>
#include <cstdint>

namespace magic {

struct SplitPolicy {
  bool enabled = false;
  // Nodes a task (or piece) searches before it may hand out work: below
  // this, a piece's fixed cost (a context, a spawned task) would not pay.
  std::uint64_t budget = std::uint64_t{1} << 20;
  // Hand out whenever the budget is spent, not only when a worker waits
  // (tests: the results must not depend on when or where splits happen).
  bool always = false;
};

// How much work waits to be started.  Touched once per task or piece, and
// read by a running task only every so many nodes, never per node.
class WorkGauge {
 public:
  explicit WorkGauge(unsigned threads) : threads_(static_cast<std::int64_t>(threads)) {}
  unsigned threads() const { return static_cast<unsigned>(threads_); }

  void queued(std::int64_t n) { waiting_.fetch_add(n, std::memory_order_relaxed); }
  void started() { waiting_.fetch_sub(1, std::memory_order_relaxed); }
  // Fewer waiting tasks than workers (some worker will soon have nothing
  // to do), or another rank waits for work.  A lone thread has no one here
  // to hand work to.
  bool hungry() const {
    return (threads_ > 1 && waiting_.load(std::memory_order_relaxed) < threads_) ||
           elsewhere_.load(std::memory_order_relaxed);
  }

  // A cluster's other rank is idle (magic/cluster.hpp): the next hand-out
  // goes to it.  take_elsewhere() is true once per such want.
  void wanted_elsewhere(bool wanted) { elsewhere_.store(wanted, std::memory_order_relaxed); }
  bool take_elsewhere() { return elsewhere_.exchange(false, std::memory_order_relaxed); }

  void piece_split() { split_.fetch_add(1, std::memory_order_relaxed); }
  void piece_done() { done_.fetch_add(1, std::memory_order_relaxed); }
  std::uint64_t pieces() const { return split_.load(std::memory_order_relaxed); }
  std::uint64_t pieces_done() const { return done_.load(std::memory_order_relaxed); }

 private:
  const std::int64_t threads_;
  std::atomic<std::int64_t> waiting_{0};
  std::atomic<bool> elsewhere_{false};
  std::atomic<std::uint64_t> split_{0};
  std::atomic<std::uint64_t> done_{0};
};

}  // namespace magic
