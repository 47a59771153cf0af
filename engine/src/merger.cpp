#include "magic/core/merger.hpp"

#include <cstring>

namespace magic {

OrderedMerger::OrderedMerger(const AnyProblem& p, MergePolicy policy, Journal* checkpoint, Stop& stop)
    : p_(p), policy_(std::move(policy)), checkpoint_(checkpoint), stop_(stop) {
  if (policy_.hash_set) set_.emplace(p_.solution_size(), policy_.dedup_memory);
}

void OrderedMerger::begin_chunk(std::vector<std::uint64_t> ids, std::vector<std::uint64_t> resumed) {
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

void OrderedMerger::finish(std::size_t k, std::unique_ptr<TaskCore> ctx, const std::function<void()>& after,
                           const std::string& source) {
  std::lock_guard lk(mu_);
  if (slots_.at(k).done) {  // a worker's bug: its record must not reach the journal twice
    stop_.fail(std::make_exception_ptr(std::logic_error("task " + std::to_string(ids_[k]) + " finished twice")));
    return;
  }
  slots_[k].ctx = std::move(ctx);
  slots_[k].done = true;
  if (stop_.failed()) return;  // the run is over; nothing more is folded or saved
  try {
    save(ids_[k], slots_[k], source);
    for (; next_ < slots_.size() && slots_[next_].done; ++next_) {
      resume_below(ids_[next_]);
      if (slots_[next_].ctx) fold(slots_[next_]);
      else if (!policy_.stop_after) exhaustive_ = false;  // skipped after an interrupt
      slots_[next_] = {};
    }
    if (next_ == slots_.size()) resume_below(kNoTask);
    if (after) after();
  } catch (...) {
    stop_.fail(std::current_exception());
  }
}

void OrderedMerger::locked(const std::function<void()>& f) {
  std::lock_guard lk(mu_);
  if (stop_.failed()) return;
  try {
    if (f) f();
  } catch (...) {
    stop_.fail(std::current_exception());
  }
}

// Journals a whole task.  (Deferred paths run without a journal: a task's
// count there depends on the tasks before it.)
void OrderedMerger::save(std::uint64_t id, Slot& s, const std::string& source) {
  if (!folds_as_a_task(s)) return;
  const std::size_t n = s.ctx->solution_size();
  for (std::size_t i = 0; i < s.ctx->kept.size(); i += n) s.listed.push_back(p_.to_json(s.ctx->kept.data() + i));
  if (checkpoint_)
    checkpoint_->record(id, s.ctx->record, policy_.solutions ? &s.listed : nullptr,
                        source.empty() ? nullptr : &source);
}

void OrderedMerger::fold(const Slot& s) {
  const TaskCore& c = *s.ctx;
  if (folds_as_a_task(s)) {
    total_.merge(c.record);
    for (const auto& j : s.listed) hand_out(j);
  } else {
    add_effort(c.record);
    if (defer()) fold_deferred(c);
  }
  if (!c.aborted()) ++tasks_run_;
  else if (!policy_.stop_after || c.gave_up()) exhaustive_ = false;
}

void OrderedMerger::fold_deferred(const TaskCore& c) {
  const std::uint64_t stop = policy_.stop_after;
  const std::size_t n = c.solution_size();
  const bool images = p_.emits() == Emits::AllImages;
  for (std::size_t at = 0; at < c.deferred.size(); at += 2 * n) {
    const std::byte* sol = c.deferred.data() + at;
    const std::byte* canon = sol + n;
    if (stop && total_.unique >= stop) break;
    if (set_ && !set_->insert(canon)) continue;
    // Solutions have unique object representations: equal bytes are equal values.
    if (!set_ && images && std::memcmp(sol, canon, n) != 0) continue;
    p_.count(canon, total_);
    if (handed_ < policy_.solutions) hand_out(p_.to_json(set_ ? canon : sol));
  }
  if (stop && total_.unique >= stop) {
    stop_.request(Stop::Why::Limit);
    exhaustive_ = false;
  }
}

void OrderedMerger::add_effort(const TaskRecord& r) {
  total_.nodes += r.nodes;
  total_.cpu_seconds += r.cpu_seconds;
}

void OrderedMerger::hand_out(const nlohmann::json& s) {
  if (handed_ < policy_.solutions && policy_.on_solution) {
    policy_.on_solution(s);
    ++handed_;
  }
}

// Folds the resumed tasks of the chunk below task `id` from the checkpoint.
void OrderedMerger::resume_below(std::uint64_t id) {
  for (; next_resumed_ < resumed_.size() && resumed_[next_resumed_] < id; ++next_resumed_) {
    const std::uint64_t task = resumed_[next_resumed_];
    total_.merge(checkpoint_->done().at(task));
    for (const auto& j : checkpoint_->solutions(task)) hand_out(j);
  }
}

}  // namespace magic
