#pragma once
// The ordered merger: the one place that folds task records into the result.
//
// Tasks finish in any order; the merger folds task k only once tasks 0..k-1
// are folded, so the totals, the order of handed-out solutions, the first
// `stop_after` solutions and the digest are the same for any thread count,
// any scheduler and any resume.  It also appends each whole task to the
// checkpoint journal the moment it finishes, not when it is folded: one long
// task must not hold every later finished one in memory, where a kill would
// lose them.  The journal is keyed by task, so a resume folds its records in
// their place whatever order they lie in.  Tasks run with one of three dedup
// paths:
//
//   generator         the problem emits one member per orbit: count it
//   canonical-filter  it emits every image: count those equal to their canonical form
//   hash-set          deferred pairs go through one set, in task order
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/canonical_set.hpp"
#include "magic/journal.hpp"
#include "magic/core/problem.hpp"
#include "magic/core/task.hpp"

namespace magic {

struct MergePolicy {
  bool hash_set = false;
  std::uint64_t solutions = 0;   // how many to hand to on_solution
  std::uint64_t stop_after = 0;  // 0: exhaustive
  std::size_t dedup_memory = 0;  // bytes, hash set only
  std::function<void(const nlohmann::json&)> on_solution;
};

template <Problem P>
class OrderedMerger {
 public:
  using Context = TaskContext<P>;

  OrderedMerger(const P& p, MergePolicy policy, Journal* checkpoint)
      : p_(p), policy_(std::move(policy)), checkpoint_(checkpoint) {
    if (policy_.hash_set) set_.emplace(sizeof(typename P::Solution), policy_.dedup_memory);
  }

  // The next tasks to fold, in order: `ids[k]` is the task index of the
  // chunk's k-th task to run; `resumed` (ascending) are the chunk's tasks the
  // checkpoint holds, folded from it in their place among them, so their
  // solutions are handed out in task order.  Every task of the previous
  // chunk must be finished.
  void begin_chunk(std::vector<std::uint64_t> ids, std::vector<std::uint64_t> resumed = {}) {
    std::lock_guard lk(mu_);
    if (next_ != slots_.size()) throw std::logic_error("a chunk began before the last one was folded");
    if (!resumed.empty() && !checkpoint_) throw std::logic_error("resumed tasks without a checkpoint");
    folded_before_ += next_;
    ids_ = std::move(ids);
    resumed_ = std::move(resumed);
    next_resumed_ = 0;
    slots_.clear();
    slots_.resize(ids_.size());
    next_ = 0;
    if (ids_.empty()) resume_below(kNoTask);
  }

  // What each task's context needs to know.
  static EmitPolicy emit_policy(const P& p, const MergePolicy& m) {
    return {p.emits(), m.hash_set || m.stop_after > 0, m.solutions, m.stop_after};
  }
  EmitPolicy emit_policy() const { return emit_policy(p_, policy_); }
  const std::atomic<bool>& halt() const { return halt_; }

  // Hands over this run's k-th task (null: skipped, never run), run by
  // build `source` (empty: this process's; a cluster's other ranks may
  // differ), and folds every task that can now be folded in order;
  // `after()` then runs under the same lock (progress).  Thread-safe.
  template <class After>
  void finish(std::size_t k, std::unique_ptr<Context> ctx, After&& after, const std::string& source = {}) {
    std::lock_guard lk(mu_);
    if (slots_.at(k).done) {  // a worker's bug: its record must not reach the journal twice
      fail_locked(std::make_exception_ptr(std::logic_error("task " + std::to_string(ids_[k]) + " finished twice")));
      return;
    }
    slots_[k].ctx = std::move(ctx);
    slots_[k].done = true;
    if (failure_) return;  // the run is over; nothing more is folded or saved
    try {
      save(ids_[k], slots_[k], source);
      for (; next_ < slots_.size() && slots_[next_].done; ++next_) {
        resume_below(ids_[next_]);
        if (slots_[next_].ctx) fold(slots_[next_]);
        else if (!policy_.stop_after) exhaustive_ = false;  // skipped after an interrupt
        slots_[next_] = {};
      }
      if (next_ == slots_.size()) resume_below(kNoTask);
      after();
    } catch (...) {
      fail_locked(std::current_exception());
    }
  }

  // Runs f under the merger's lock, where folded() and total() hold still (progress).
  template <class F>
  void locked(F&& f) {
    std::lock_guard lk(mu_);
    if (failure_) return;
    try {
      f();
    } catch (...) {
      fail_locked(std::current_exception());
    }
  }

  void fail(std::exception_ptr e) {
    std::lock_guard lk(mu_);
    fail_locked(e);
  }
  void rethrow() const {
    if (failure_) std::rethrow_exception(failure_);
  }
  // The first failure, if any; safe while tasks run (rethrow() is for after).
  std::exception_ptr failure() {
    std::lock_guard lk(mu_);
    return failure_;
  }

  const TaskRecord& total() const { return total_; }
  std::uint64_t folded() const { return folded_before_ + next_; }
  std::uint64_t tasks_run() const { return tasks_run_; }
  bool exhaustive() const { return exhaustive_; }

 private:
  struct Slot {
    std::unique_ptr<Context> ctx;
    std::vector<nlohmann::json> listed;  // a whole task's kept solutions, as saved and handed out
    bool done = false;
  };
  bool defer() const { return emit_policy().defer; }
  bool whole(const Slot& s) const { return s.ctx && !defer() && !s.ctx->aborted(); }

  // Journals a whole task.  (Deferred paths run without a journal: a task's
  // count there depends on the tasks before it.)
  void save(std::uint64_t id, Slot& s, const std::string& source) {
    if (!whole(s)) return;
    for (const auto& sol : s.ctx->kept) s.listed.push_back(p_.to_json(sol));
    if (checkpoint_)
      checkpoint_->record(id, s.ctx->record, policy_.solutions ? &s.listed : nullptr,
                          source.empty() ? nullptr : &source);
  }

  void fold(const Slot& s) {
    const Context& c = *s.ctx;
    if (whole(s)) {
      total_.merge(c.record);
      for (const auto& j : s.listed) hand_out(j);
    } else {
      add_effort(c.record);
      if (defer()) fold_deferred(c);
    }
    if (!c.aborted()) ++tasks_run_;
    else if (!policy_.stop_after) exhaustive_ = false;
  }

  void fold_deferred(const Context& c) {
    const std::uint64_t stop = policy_.stop_after;
    for (const auto& pr : c.deferred) {
      if (stop && total_.unique >= stop) break;
      if (set_ && !set_->insert(&pr.canon)) continue;
      if (!set_ && p_.emits() == Emits::AllImages && !(pr.sol == pr.canon)) continue;
      count_solution(p_, pr.canon, total_);
      if (handed_ < policy_.solutions) hand_out(p_.to_json(set_ ? pr.canon : pr.sol));
    }
    if (stop && total_.unique >= stop) {
      halt_.store(true, std::memory_order_relaxed);
      exhaustive_ = false;
    }
  }

  void add_effort(const TaskRecord& r) {
    total_.nodes += r.nodes;
    total_.cpu_seconds += r.cpu_seconds;
  }
  void hand_out(const nlohmann::json& s) {
    if (handed_ < policy_.solutions && policy_.on_solution) {
      policy_.on_solution(s);
      ++handed_;
    }
  }
  // Folds the resumed tasks of the chunk below task `id` from the checkpoint.
  void resume_below(std::uint64_t id) {
    for (; next_resumed_ < resumed_.size() && resumed_[next_resumed_] < id; ++next_resumed_) {
      const std::uint64_t task = resumed_[next_resumed_];
      total_.merge(checkpoint_->done().at(task));
      for (const auto& j : checkpoint_->solutions(task)) hand_out(j);
    }
  }
  void fail_locked(std::exception_ptr e) {
    if (!failure_) failure_ = e;
    halt_.store(true);
  }

  const P& p_;
  MergePolicy policy_;
  static constexpr std::uint64_t kNoTask = ~std::uint64_t{0};
  std::vector<std::uint64_t> ids_;
  std::vector<std::uint64_t> resumed_;
  std::size_t next_resumed_ = 0;
  std::vector<Slot> slots_;
  Journal* checkpoint_;
  std::optional<CanonicalSet> set_;
  std::mutex mu_;
  std::size_t next_ = 0;
  std::uint64_t folded_before_ = 0;  // tasks of earlier chunks
  std::uint64_t handed_ = 0;
  std::uint64_t tasks_run_ = 0;
  bool exhaustive_ = true;
  TaskRecord total_;
  std::atomic<bool> halt_{false};
  std::exception_ptr failure_;
};

}  // namespace magic
