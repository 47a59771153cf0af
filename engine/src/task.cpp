#include "magic/core/task.hpp"

#include <ctime>
#include <limits>

namespace magic {

TaskCore::TaskCore(std::size_t solution_size, const EmitPolicy& policy, const std::atomic<bool>& halt,
                   const std::atomic<bool>* interrupt, Splitting split)
    : sol_(solution_size),
      policy_(policy),
      // "Keep everything" is a keep of 2^64 - 1: no byte count may wrap.
      keep_bytes_(policy.keep >= std::numeric_limits<std::size_t>::max() / solution_size
                      ? std::numeric_limits<std::size_t>::max()
                      : static_cast<std::size_t>(policy.keep) * solution_size),
      halt_(halt),
      interrupt_(interrupt),
      split_(std::move(split)) {
  if (split_.policy.enabled && split_.spawn)
    interval_ = static_cast<unsigned>(std::clamp<std::uint64_t>(split_.policy.budget, 1, kPollInterval));
  else
    split_.policy.enabled = false;
  tick_ = interval_;
}

void TaskCore::donate_bytes(const std::byte* state) {
  pieces_.push_back({kept.size(), deferred.size()});
  split_.spawn(state);
}

void TaskCore::absorb(std::vector<std::unique_ptr<TaskCore>>& done) {
  std::vector<std::byte> k, d;
  std::size_t ki = 0, di = 0;
  const auto take = [](std::vector<std::byte>& to, const std::vector<std::byte>& from, std::size_t a, std::size_t b) {
    to.insert(to.end(), from.begin() + static_cast<std::ptrdiff_t>(a), from.begin() + static_cast<std::ptrdiff_t>(b));
  };
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    take(k, kept, ki, pieces_[i].kept_at);
    take(d, deferred, di, pieces_[i].deferred_at);
    ki = pieces_[i].kept_at;
    di = pieces_[i].deferred_at;
    if (!done[i] || done[i]->aborted()) stop();
    if (!done[i]) continue;
    record.merge(done[i]->record);
    take(k, done[i]->kept, 0, done[i]->kept.size());
    take(d, done[i]->deferred, 0, done[i]->deferred.size());
  }
  take(k, kept, ki, kept.size());
  take(d, deferred, di, deferred.size());
  // Each part kept its own first `keep`, so the first `keep` of the whole are here.
  if (k.size() > keep_bytes_) k.resize(keep_bytes_);
  kept = std::move(k);
  deferred = std::move(d);
  pieces_.clear();
}

void TaskCore::refresh() {
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

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace magic
