#pragma once
// One task: the context a problem's solve() writes its record into.  Everything here is task-local, so no atomics are touched
// per node; records are folded once, in task order, by the merger.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "magic/core/problem.hpp"
#include "magic/core/split.hpp"
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
  using State = typename P::State;
  struct Pair {
    Solution sol;
    Solution canon;
  };
  // How this task hands out pieces (core/split.hpp); `spawn` starts one.
  struct Splitting {
    SplitPolicy policy;
    const WorkGauge* gauge = nullptr;
    std::function<void(const State&)> spawn;
  };

  TaskContext(const P& p, const EmitPolicy& policy, const std::atomic<bool>& halt,
              const std::atomic<bool>* interrupt, Splitting split = {})
      : p_(p), policy_(policy), halt_(halt), interrupt_(interrupt), split_(std::move(split)) {
    if (split_.policy.enabled && split_.spawn)
      interval_ = static_cast<unsigned>(std::clamp<std::uint64_t>(split_.policy.budget, 1, kPollInterval));
    else
      split_.policy.enabled = false;
    tick_ = interval_;
  }

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
      if (policy_.stop_after && countable_ >= policy_.stop_after) stop();
      return;
    }
    if (!counts) return;
    count_solution(p_, c, record);
    if (kept.size() < policy_.keep) kept.push_back(s);
  }

  // Polled by solvers at every node; reads the shared flags only now and
  // then.  True when the walk must stop (aborted()) or while a hand-out is
  // under way (then donates() decides), so the common path is one test.
  bool stopped() {
    if (--tick_ == 0) refresh();
    return attention_;
  }
  bool aborted() const { return local_stop_; }

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
  // Out of line: the star's BMI2 chain is compiled flattened (star.hpp),
  // and this cold path inlined at every level of it costs build time only.
  [[gnu::cold, gnu::noinline]] void donate(const State& s) {
    pieces_.push_back({kept.size(), deferred.size()});
    split_.spawn(s);
  }
  std::size_t pieces() const { return pieces_.size(); }

  // Folds the finished pieces, given in the order they were handed out,
  // into this task as if it had searched them itself; a piece that is null
  // (skipped) or aborted leaves the task aborted.
  void absorb(std::vector<std::unique_ptr<TaskContext>>& done) {
    std::vector<Solution> k;
    std::vector<Pair> d;
    std::size_t ki = 0, di = 0;
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      k.insert(k.end(), kept.begin() + ki, kept.begin() + pieces_[i].kept_at);
      d.insert(d.end(), deferred.begin() + di, deferred.begin() + pieces_[i].deferred_at);
      ki = pieces_[i].kept_at;
      di = pieces_[i].deferred_at;
      if (!done[i] || done[i]->aborted()) stop();
      if (!done[i]) continue;
      record.merge(done[i]->record);
      k.insert(k.end(), done[i]->kept.begin(), done[i]->kept.end());
      d.insert(d.end(), done[i]->deferred.begin(), done[i]->deferred.end());
    }
    k.insert(k.end(), kept.begin() + ki, kept.end());
    d.insert(d.end(), deferred.begin() + di, deferred.end());
    // Each part kept its own first `keep`, so the first `keep` of the whole are here.
    if (k.size() > policy_.keep) k.resize(policy_.keep);
    kept = std::move(k);
    deferred = std::move(d);
    pieces_.clear();
  }

 private:
  static constexpr unsigned kPollInterval = 1024;
  static constexpr int kArmed = INT_MAX;  // cut_ while waiting for the next node
  struct Piece {
    std::size_t kept_at, deferred_at;  // where its solutions go among this task's
  };

  void stop() { local_stop_ = attention_ = true; }
  [[gnu::cold, gnu::noinline]] void refresh() {
    tick_ = interval_;
    if (halt_.load(std::memory_order_relaxed) || (interrupt_ && interrupt_->load(std::memory_order_relaxed)) ||
        nodes > node_limit_) {
      stop();
      return;
    }
    if (split_.policy.enabled && cut_ != kArmed && nodes - nodes_at_split_ >= split_.policy.budget &&
        (split_.policy.always || split_.gauge->hungry())) {
      armed_from_ = cut_;
      cut_ = kArmed;
      nodes_at_split_ = nodes;
      attention_ = true;
    }
  }

  const P& p_;
  EmitPolicy policy_;
  const std::atomic<bool>& halt_;
  const std::atomic<bool>* interrupt_;
  Splitting split_;
  std::vector<Piece> pieces_;
  std::uint64_t countable_ = 0;
  std::uint64_t nodes_at_split_ = 0;
  std::uint64_t node_limit_ = ~std::uint64_t{0};
  unsigned interval_ = kPollInterval;
  unsigned tick_ = kPollInterval;
  int cut_ = -1;         // nodes at this level or above are handed out
  int armed_from_ = -1;  // the cut before the current request
  bool local_stop_ = false;
  bool attention_ = false;  // local_stop_, or a hand-out under way
};

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace magic
