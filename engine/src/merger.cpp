#include "magic/core/merger.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "magic/core/error.hpp"

namespace magic {

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpillFile::open() {
  std::vector<std::string> dirs;
  if (!directory_.empty()) dirs.push_back(directory_);
  const char* tmp = std::getenv("TMPDIR");
  dirs.push_back(tmp && *tmp ? tmp : "/tmp");
  std::string tried;
  for (const std::string& d : dirs) {
    std::string path = d + "/.magicount-spill-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ >= 0) {
      ::unlink(path.c_str());
      return;
    }
    tried += (tried.empty() ? "" : ", ") + d + " (" + std::strerror(errno) + ")";
  }
  throw IoError("cannot make a spill file for solutions that finished ahead of their turn in " + tried);
}

std::uint64_t SpillFile::write(const std::vector<std::byte>& bytes) {
  if (fd_ < 0) open();
  const std::uint64_t at = end_;
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(end_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError(std::string("cannot write the spill file of solutions: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  end_ += bytes.size();
  return at;
}

void SpillFile::read(std::uint64_t at, std::vector<std::byte>& into) const {
  for (std::size_t done = 0; done < into.size();) {
    const ssize_t n = ::pread(fd_, into.data() + done, into.size() - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError(std::string("cannot read back the spill file of solutions: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

OrderedMerger::OrderedMerger(const AnyProblem& p, MergePolicy policy, Journal* checkpoint, Stop& stop)
    : p_(p), policy_(std::move(policy)), checkpoint_(checkpoint), spill_(policy_.spill_directory), stop_(stop) {
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
    if (k != next_) hold_or_spill(slots_[k]);
    for (; next_ < slots_.size() && slots_[next_].done; ++next_) {
      resume_below(ids_[next_]);
      take_back(slots_[next_]);
      if (slots_[next_].ctx) fold(slots_[next_]);
      else if (!policy_.limit) exhaustive_ = false;  // skipped after an interrupt
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
  if (!checkpoint_ || !folds_as_a_task(s)) return;
  const std::vector<nlohmann::json> kept = policy_.solutions ? listed(*s.ctx) : std::vector<nlohmann::json>{};
  checkpoint_->record(id, s.ctx->record, policy_.solutions ? &kept : nullptr, source.empty() ? nullptr : &source);
}

// A task's kept solutions as JSON, made when needed and then let go: a
// slot holds the bytes, far smaller than the JSON values.
std::vector<nlohmann::json> OrderedMerger::listed(const TaskCore& c) const {
  std::vector<nlohmann::json> out;
  const std::size_t n = c.solution_size();
  for (std::size_t i = 0; i < c.kept.size(); i += n) out.push_back(p_.to_json(c.kept.data() + i));
  return out;
}

// A task finished ahead of its turn keeps its solutions while the window
// has room, and otherwise writes them to the spill file.
void OrderedMerger::hold_or_spill(Slot& s) {
  if (!s.ctx) return;
  s.kept_bytes = s.ctx->kept.size();
  s.deferred_bytes = s.ctx->deferred.size();
  const std::size_t bytes = s.kept_bytes + s.deferred_bytes;
  if (!bytes) return;
  if (held_ + bytes <= policy_.hold_bytes) {
    held_ += bytes;
    return;
  }
  s.spilled_at = spill_.write(s.ctx->kept);
  spill_.write(s.ctx->deferred);
  s.spilled = true;
  ++spilled_;
  std::vector<std::byte>().swap(s.ctx->kept);
  std::vector<std::byte>().swap(s.ctx->deferred);
}

// The slot's solutions back in its context, at its turn.
void OrderedMerger::take_back(Slot& s) {
  if (!s.ctx) return;
  if (!s.spilled) {
    held_ -= std::min(held_, s.kept_bytes + s.deferred_bytes);
    return;
  }
  s.ctx->kept.resize(s.kept_bytes);
  s.ctx->deferred.resize(s.deferred_bytes);
  spill_.read(s.spilled_at, s.ctx->kept);
  spill_.read(s.spilled_at + s.kept_bytes, s.ctx->deferred);
  s.spilled = false;
}

void OrderedMerger::fold(const Slot& s) {
  const TaskCore& c = *s.ctx;
  if (folds_as_a_task(s)) {
    total_.merge(c.record);
    const std::size_t n = c.solution_size();
    for (std::size_t i = 0; i < c.kept.size() && wants_more(); i += n) hand_out(p_.to_json(c.kept.data() + i));
  } else {
    add_effort(c.record);
    if (defer()) fold_deferred(c);
  }
  if (!c.aborted()) ++tasks_run_;
  else if (!policy_.limit || c.gave_up()) exhaustive_ = false;
}

void OrderedMerger::fold_deferred(const TaskCore& c) {
  const std::uint64_t stop = policy_.limit;
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
    if (wants_more()) hand_out(p_.to_json(set_ ? canon : sol));
  }
  if (stop && total_.unique >= stop) {
    stop_.request(Stop::Why::Limit);
    exhaustive_ = false;
  }
}

void OrderedMerger::add_effort(const TaskRecord& r) {
  total_.nodes += r.nodes;
  total_.cpu_seconds += r.cpu_seconds;
  total_.tables.merge(r.tables);
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
