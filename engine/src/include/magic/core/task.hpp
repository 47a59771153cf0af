#pragma once
// One task: the context a problem's solve() writes its record into.
// Everything here is task-local, so no atomics are touched per node; records
// are folded once, in task order, by the merger.
//
// The context is two layers.  TaskCore is what the engine sees (the record,
// the solutions as bytes, the stop and hand-out polls), compiled once for
// every problem; TaskContext<P> adds only what needs the problem's types:
// emit(Solution) and donate(State).  The polls a walk runs at every node
// are inline in TaskCore, so the walk pays nothing for the split.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "magic/core/problem.hpp"
#include "magic/core/split.hpp"
#include "magic/core/stop.hpp"
#include "magic/task_record.hpp"

namespace magic {

// Counts one unique solution, given in canonical form; or, for a problem
// whose solution stands for a class of them (square_semi.hpp), its weight.
// False if a count passed 2^64 - 1 (a figure can have more labellings than
// that): the caller fails the task.  It is inlined in the solvers'
// innermost loops, so it returns rather than throws.  A problem whose
// orbits have at most P::kOrbitBound solutions adds `total` unchecked, and
// its task checks unique * kOrbitBound once at its end instead
// (TaskCore::counts_wrapped): checked at each solution, the order-5
// square's loop ran 3.7 % more instructions (perf/results/memory.md).
template <Problem P>
[[nodiscard]] bool count_solution(const P& p, const typename P::Solution& canon, TaskRecord& rec) {
  bool wrapped = false;
  if constexpr (requires { p.weight(canon); }) wrapped |= __builtin_add_overflow(rec.unique, p.weight(canon), &rec.unique);
  else ++rec.unique;  // total, at least as large, passes 2^64 - 1 first
  if constexpr (requires { P::kOrbitBound; }) rec.total += p.orbit_size(canon);
  else wrapped |= __builtin_add_overflow(rec.total, p.orbit_size(canon), &rec.total);
  // A problem whose solution type has room to spare hashes only its part.
  if constexpr (requires { p.hashed_bytes(); }) rec.digest.add_bytes(&canon, p.hashed_bytes());
  else rec.digest.add(canon);
  if constexpr (HasAdditive<P>) rec.additive.merge(p.additive(canon));
  if constexpr (HasKey<P>) ++rec.by_key[p.key(canon)];
  return !wrapped;
}

// How a task treats what solve() emits.
struct EmitPolicy {
  Emits mode = Emits::OnePerOrbit;
  bool defer = false;              // keep (solution, canonical) pairs for the merger to judge
  std::uint64_t keep = 0;          // solutions kept for the caller
  std::uint64_t limit = 0;    // a deferring task may stop after this many
};

// How a task hands out pieces (core/split.hpp); `spawn` starts one from the
// bytes of its state.  In a cluster, `send_away` gives a piece to another
// rank instead (when the gauge says one waits) and names it: its result
// comes back to the coordinator, not to this task.
struct TaskSplitting {
  SplitPolicy policy;
  WorkGauge* gauge = nullptr;
  std::function<void(const std::byte*)> spawn;
  std::function<std::uint64_t(const std::byte*)> send_away;
};

// A piece solved on another rank, to be spliced into its task's solutions
// at byte kept_at (by the coordinator, which gets both results).
struct RemotePiece {
  std::uint64_t id;
  std::size_t kept_at;
};

// A task's output and polls, with solutions and states as bytes (both are
// trivially copyable: core/problem.hpp).
//
//   kept      [sol 0][sol 1]...                    solution_size bytes each
//   deferred  [sol 0][canon 0][sol 1][canon 1]...  the pairs a merger judges
class TaskCore {
 public:
  using Splitting = TaskSplitting;

  TaskCore(std::size_t solution_size, const EmitPolicy& policy, const Stop& stop, Splitting split = {});
  virtual ~TaskCore() = default;
  TaskCore(const TaskCore&) = delete;
  TaskCore& operator=(const TaskCore&) = delete;

  std::uint64_t nodes = 0;
  TaskRecord record;
  std::vector<std::byte> kept;
  std::vector<std::byte> deferred;
  std::vector<RemotePiece> remote;  // in kept order; only in a cluster, which never defers

  std::size_t solution_size() const { return sol_; }
  std::size_t kept_count() const { return kept.size() / sol_; }
  std::size_t deferred_count() const { return deferred.size() / (2 * sol_); }

  // Polled by solvers at every node; reads the shared flags only now and
  // then.  True when the walk must stop (aborted()) or while a hand-out is
  // under way (then donates() decides), so the common path is one test.
  bool stopped() {
    if (--tick_ == 0) refresh();
    return attention_;
  }
  bool aborted() const { return local_stop_; }
  // Ends the walk before it has seen its whole tree, by its own choice (a
  // first-completion search out of its node budget): the run is then not
  // exhaustive, even one that stops after a few solutions.
  void give_up() {
    gave_up_ = true;
    stop();
  }
  bool gave_up() const { return gave_up_; }
  // Whether a count of this task passed 2^64 - 1 (or, under an orbit
  // bound b, may have: unique * b does).  The walk then stops at its next
  // poll, and whoever ran solve() must fail the task (runner.cpp).
  bool counts_wrapped() const {
    return counts_wrapped_ || (orbit_bound_ && record.unique > ~std::uint64_t{0} / orbit_bound_);
  }

  // Stops the walk at the first poll that sees more than `limit` nodes
  // (the runner's whole-search probe); over_limit() then says so.
  void limit_nodes(std::uint64_t limit) { node_limit_ = limit; }
  bool over_limit() const { return nodes > node_limit_; }

  // Whether the node the walk enters at `level` is handed out as a piece
  // (see core/split.hpp).  One compare unless a hand-out is under way.
  bool donates(int level) {
    if (level > cut_) return false;
    if (cut_ != kArmed) return true;
    // The first node after the request is on the walk's path: it stays.
    cut_ = std::max(level, armed_from_);
    return level <= armed_from_;
  }

  // Folds the finished pieces, given in the order they were handed out
  // (less those sent away), into this task as if it had searched them
  // itself; a piece that is null (skipped) or aborted leaves the task
  // aborted.  Pieces sent away, and the pieces' own, stay in `remote`.
  void absorb(std::vector<std::unique_ptr<TaskCore>>& done);
  // The coordinator's side: folds the results of `remote`, in its order.
  void absorb_remote(std::vector<std::unique_ptr<TaskCore>>& done);

  // Polls the shared flags at least every n nodes from now on, for a
  // solver whose nodes cost microseconds (complete.hpp's orders 9..16): at
  // the default interval a stop would reach it only milliseconds later.
  void poll_every(unsigned n) {
    interval_ = std::min(interval_, std::max(n, 1u));
    tick_ = std::min(tick_, interval_);
  }
  unsigned poll_interval() const { return interval_; }
  // The threads of the run this task is in (1 outside a run's scheduler:
  // the whole-search probe): how many walks of core/restarts.hpp go side by side.
  unsigned threads() const { return split_.gauge ? split_.gauge->threads() : 1; }

  // For side searches of a task's own (core/restarts.hpp): the task's
  // policy, and whether the run was asked to stop.
  const EmitPolicy& emit_policy() const { return policy_; }
  const Stop& run_stop() const { return run_stop_; }
  bool run_stop_requested() const { return run_stop_.requested(); }

 protected:
  // Out of line: the star's BMI2 chain is compiled flattened (star.hpp),
  // and this cold path inlined at every level of it costs build time only.
  [[gnu::cold, gnu::noinline]] void donate_bytes(const std::byte* state);
  const EmitPolicy& policy() const { return policy_; }
  bool keeps_more() const { return kept.size() < keep_bytes_; }
  void note_counted(bool ok) { counts_wrapped_ |= !ok; }
  void bound_orbits(std::uint64_t b) { orbit_bound_ = b; }
  // A deferring task: counts toward limit and stops there.
  void counted_one() {
    if (policy_.limit && ++countable_ >= policy_.limit) stop();
  }

 private:
  static constexpr unsigned kPollInterval = 1024;
  static constexpr int kArmed = INT_MAX;  // cut_ while waiting for the next node
  struct Piece {
    std::size_t kept_at, deferred_at;  // bytes: where its solutions go among this task's
    std::uint64_t away = 0;            // sent to another rank under this id; 0: here
  };

  void stop() { local_stop_ = attention_ = true; }
  bool sends_away();
  [[gnu::cold, gnu::noinline]] void refresh();

  const std::size_t sol_;
  EmitPolicy policy_;
  std::size_t keep_bytes_;
  const Stop& run_stop_;
  Splitting split_;
  std::vector<Piece> pieces_;
  std::uint64_t countable_ = 0;
  std::uint64_t nodes_at_split_ = 0;
  std::uint64_t node_limit_ = ~std::uint64_t{0};
  std::uint64_t orbit_bound_ = 0;  // P::kOrbitBound, or 0: every addition checked
  unsigned interval_ = kPollInterval;
  unsigned tick_ = kPollInterval;
  int cut_ = -1;         // nodes at this level or above are handed out
  int armed_from_ = -1;  // the cut before the current request
  bool local_stop_ = false;
  bool gave_up_ = false;
  bool counts_wrapped_ = false;
  bool attention_ = false;  // local_stop_, or a hand-out under way
  bool sending_away_ = false;  // this hand-out goes to another rank
};

// Handed to P::solve.
template <Problem P>
class TaskContext final : public TaskCore {
 public:
  using Solution = typename P::Solution;
  using State = typename P::State;

  TaskContext(const P& p, const EmitPolicy& policy, const Stop& stop, Splitting split = {})
      : TaskCore(sizeof(Solution), policy, stop, std::move(split)), p_(p) {
    if constexpr (requires { P::kOrbitBound; }) bound_orbits(P::kOrbitBound);
  }

  void emit(const Solution& s) {
    const Solution c = p_.canonical(s);
    const bool counts = policy().mode == Emits::OnePerOrbit || c == s;
    if (policy().defer) {
      append(deferred, s);
      append(deferred, c);
      // Only a solution that can count brings the stop nearer; stopping on
      // images would cut the task before its first countable solutions.
      if (counts) counted_one();
      return;
    }
    if (!counts) return;
    note_counted(count_solution(p_, c, record));
    if (keeps_more()) append(kept, s);
  }

  void donate(const State& s) { donate_bytes(reinterpret_cast<const std::byte*>(&s)); }

 private:
  static void append(std::vector<std::byte>& to, const Solution& s) {
    const auto* b = reinterpret_cast<const std::byte*>(&s);
    to.insert(to.end(), b, b + sizeof s);
  }

  const P& p_;
};

// The mode a problem's walk has under the runner's solve(), for a problem
// that compiles walks for that mode alone (figure_compiled.cpp).
template <Problem P>
using RunnerMode = SolveMode<TaskContext<P>>;

double thread_cpu_seconds();

}  // namespace magic
