#pragma once
// Restarts: one task's search made of budgeted walks (Gecode's restart
// meta-engine with a geometric cutoff), one after another or side by side.
//
// A problem that searches this way supplies the shape of its walks and one
// seeded, budgeted walk:
//
//   RestartShape restart_shape() const;
//   template <class Ctx>
//   WalkEnd walk(const State& s, Ctx& ctx, const Walk& w, std::set<Solution>& seen) const;
//
// Walk i has budget b = first * grow^i, and each of its phases weight * b
// nodes, cut to what the whole search has left.  A walk's plan follows
// from its number and from the nodes *planned* for the walks before it,
// never from the nodes they used, so walks can run side by side and still
// get what they would one after another.  `seen` holds the solutions the
// walks before it emitted (a walk emits only new ones).
//
//   walk 0       walk 1          walk 2
//   [p0|p1|p2 ]  [p0 |p1 |p2  ]  [p0  |p1  |p2    ]   planned, by index
//
// The search ends at the first walk that ends it (WalkEnd::ended: what was
// asked for was found, or a tree was seen whole); it gives up, not
// exhaustive, at a walk the total budget cut short.
//
// With more threads, a first solution runs `threads` walks at a time: walk i
// on the task's own context, the next ones in contexts of their own on the
// scheduler's other workers (SideLanes), under the run's one Stop.  Their
// results are taken in order, and those after the walk that ends the search
// (or changes the later plans) are dropped, nodes and all: the solution,
// the nodes and the verdict are those of one walk after another, on any
// thread count.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <thread>
#include <type_traits>
#include <vector>

#include "magic/core/stop.hpp"
#include "magic/core/task.hpp"

namespace magic {

inline constexpr int kMaxWalkPhases = 4;

// What every walk of one search looks like.
struct RestartShape {
  double first = 64, grow = 1.5;  // walk i's budget: first * grow^i nodes
  std::uint64_t total = 0;        // the nodes all walks together may use (0: no bound)
  std::array<std::uint64_t, kMaxWalkPhases> weight{};  // a phase's nodes per node of budget
  int phases = 0;
  int start = 0;  // the first walk's first phase (the phases before it are not wanted)
};

// One walk, planned before it runs.
struct Walk {
  std::uint32_t index = 0;  // the walk's number: the seed of its choices
  std::array<std::uint64_t, kMaxWalkPhases> nodes{};  // budget by phase
  int first = 0, end = 0, phases = 0;  // it runs phases first..end-1 of `phases`
  std::uint64_t planned_after = 0;     // nodes planned up to its end
  bool runs(int phase) const { return phase >= first && phase < end; }
  // Short of its last phase: the whole search's budget ends in this walk.
  bool whole() const { return end == phases; }
};

// How a walk ended.
struct WalkEnd {
  bool ended = false;       // the search ends here: a solution, a stop, or a tree seen whole
  bool drop_first = false;  // its first phase's tree was seen whole: later walks skip that phase
};

// Walk `index` starting at phase `first`, after `planned` nodes planned.
Walk plan_walk(const RestartShape& shape, std::uint32_t index, int first, std::uint64_t planned);

// The other threads of a search's walks side by side (restarts.cpp):
// `lanes` tasks on the caller's arena that stay for the whole search and
// wait between rounds by spinning and short timed sleeps, never woken by
// the search.  Why: on a virtual machine an idle core looks busy to the
// kernel, so a sleeping worker woken by the search was queued on the
// search's own core, and each side walk began only when the walk beside it
// had ended.
//
// round() runs first() here and side(k), k < n <= lanes, on the lanes, and
// returns once all have ended.  When first() returns true the sides are not
// needed: cancel() is called, and so it is when stopped() turns true while
// this waits.  A side no lane has taken when this waits runs here (skipped
// when not needed), so a round ends even with no worker free.  An exception
// from first() or a side cancels the round, waits for it and propagates.
class SideLanes {
 public:
  explicit SideLanes(std::size_t lanes);
  ~SideLanes();  // ends the lanes and waits for them
  SideLanes(const SideLanes&) = delete;
  SideLanes& operator=(const SideLanes&) = delete;
  void round(std::size_t n, const std::function<void(std::size_t)>& side, const std::function<bool()>& first,
             const std::function<bool()>& stopped, const std::function<void()>& cancel);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

namespace detail {

template <class P, class Ctx>
void restarts_in_turn(const P& p, const typename P::State& s, Ctx& ctx, std::set<typename P::Solution>& seen,
                      const RestartShape& shape) {
  int first = shape.start;
  std::uint64_t planned = ctx.nodes;
  for (std::uint32_t i = 0;; ++i) {
    const Walk w = plan_walk(shape, i, first, planned);
    const WalkEnd e = p.walk(s, ctx, w, seen);
    if (e.ended) return;
    if (!w.whole()) return ctx.give_up();
    if (e.drop_first) ++first;
    planned = w.planned_after;
  }
}

// The walks after `head` that run beside it: each planned after the one
// before it, as many as there are other threads, and only whole ones.
inline std::vector<Walk> walks_beside(const RestartShape& shape, const Walk& head, int threads) {
  std::vector<Walk> next;
  for (std::uint64_t planned = head.planned_after; head.whole() && static_cast<int>(next.size()) + 1 < threads;) {
    const Walk w = plan_walk(shape, head.index + 1 + static_cast<std::uint32_t>(next.size()), head.first, planned);
    if (!w.whole()) break;
    next.push_back(w);
    planned = w.planned_after;
  }
  return next;
}

// Puts a side's deferred solutions into ctx, in the order found, as ctx
// would have had them itself.
template <class Ctx>
void take_deferred(Ctx& ctx, const Ctx& side) {
  using Solution = typename Ctx::Solution;
  const std::size_t size = sizeof(Solution);
  for (std::size_t at = 0; at + 2 * size <= side.deferred.size(); at += 2 * size) {
    Solution sol;
    std::memcpy(&sol, side.deferred.data() + at, size);
    ctx.emit(sol);
  }
}

template <class P>
void restarts_side_by_side(const P& p, const typename P::State& s, TaskContext<P>& ctx,
                           std::set<typename P::Solution>& seen, const RestartShape& shape) {
  using Ctx = TaskContext<P>;
  struct Side {  // its own stop (cancel) follows the run's, whichever thread runs it
    std::atomic<bool> cancel{false};
    Stop stop;
    Ctx ctx;
    std::set<typename P::Solution> seen;
    WalkEnd end;
    double cpu = 0;  // its thread's CPU seconds: the task's record counts them
    Side(const P& p, const Ctx& task, const std::set<typename P::Solution>& s)
        : stop(&cancel, task.run_stop()), ctx(p, task.emit_policy(), stop), seen(s) {
      ctx.poll_every(task.poll_interval());
    }
  };
  const int threads = static_cast<int>(ctx.threads());
  int first = shape.start;
  std::uint64_t planned = ctx.nodes;
  SideLanes lanes(static_cast<std::size_t>(threads - 1));
  const std::thread::id here = std::this_thread::get_id();
  for (std::uint32_t i = 0;;) {
    const Walk head = plan_walk(shape, i, first, planned);
    const std::vector<Walk> next = walks_beside(shape, head, threads);
    std::vector<std::unique_ptr<Side>> sides;
    for (std::size_t k = 0; k < next.size(); ++k) sides.push_back(std::make_unique<Side>(p, ctx, seen));
    WalkEnd e;
    lanes.round(
        next.size(),
        [&](std::size_t k) {
          const double c0 = thread_cpu_seconds();
          sides[k]->end = p.walk(s, sides[k]->ctx, next[k], sides[k]->seen);
          // (A side this thread ran is in the task's own CPU already.)
          if (std::this_thread::get_id() != here) sides[k]->cpu = thread_cpu_seconds() - c0;
        },
        [&] {
          e = p.walk(s, ctx, head, seen);
          return e.ended || !head.whole() || e.drop_first;  // the side walks are not needed
        },
        [&] { return ctx.run_stop_requested(); },
        [&] {
          for (auto& side : sides) side->cancel = true;
        });
    for (const auto& side : sides) ctx.record.cpu_seconds += side->cpu;
    if (e.ended) return;
    if (!head.whole()) return ctx.give_up();
    if (ctx.run_stop_requested()) {  // the side walks may be cut short: no verdict
      while (!ctx.aborted()) ctx.stopped();  // the task sees the stop within one poll interval
      return;
    }
    planned = head.planned_after;
    ++i;
    if (e.drop_first) {
      ++first;
      continue;
    }
    for (std::size_t k = 0; k < next.size(); ++k) {
      Side& side = *sides[k];
      ctx.nodes += side.ctx.nodes;
      if (side.end.ended) return take_deferred(ctx, side.ctx);
      planned = next[k].planned_after;
      ++i;
      if (side.end.drop_first) {
        ++first;
        break;
      }
    }
  }
}

}  // namespace detail

// Runs the walks of problem p from state s until one ends the search;
// `seen` starts with the solutions emitted before (by a construction, say).
template <class P, class Ctx>
void run_restarts(const P& p, const typename P::State& s, Ctx& ctx, std::set<typename P::Solution>& seen) {
  const RestartShape shape = p.restart_shape();
  if constexpr (std::is_same_v<Ctx, TaskContext<P>>) {
    const EmitPolicy& policy = ctx.emit_policy();
    if (ctx.threads() > 1 && policy.defer && policy.limit == 1)
      return detail::restarts_side_by_side(p, s, ctx, seen, shape);
  }
  detail::restarts_in_turn(p, s, ctx, seen, shape);
}

}  // namespace magic
