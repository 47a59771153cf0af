#pragma once
// The one way a run stops, whoever asks (Gecode's Stop object):
//
//   Interrupt    the caller's flag (RunOptions::interrupt: a signal)
//   Limit        enough solutions were folded (--limit)
//   Failure      a task threw; the first exception is kept and rethrown
//   Elsewhere    another part of a run across ranks stopped: the
//                coordinator's Stop to a worker, a rank lost
//
// Tasks poll requested() every so many nodes (core/task.hpp) and the
// runner between tasks; nothing else stops a walk early but the task's own
// node limit (the probe) and a deferring task's own limit.
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>

namespace magic {

class Stop {
 public:
  enum class Why : std::uint8_t { None, Interrupt, Limit, Failure, Elsewhere };

  explicit Stop(const std::atomic<bool>* interrupt = nullptr) : interrupt_(interrupt) {}
  // A stop of its own that also follows the run's (a side search in a task:
  // complete.hpp's restarts side by side).
  Stop(const std::atomic<bool>* interrupt, const Stop& run) : interrupt_(interrupt), parent_(&run) {}
  Stop(const Stop&) = delete;
  Stop& operator=(const Stop&) = delete;

  // The first reason is kept.
  void request(Why why) {
    Why none = Why::None;
    why_.compare_exchange_strong(none, why, std::memory_order_relaxed);
  }
  void fail(std::exception_ptr e) {
    {
      std::lock_guard lk(mu_);
      if (!failure_) failure_ = e;
    }
    failed_.store(true, std::memory_order_relaxed);
    request(Why::Failure);
  }

  bool requested() const {
    return why_.load(std::memory_order_relaxed) != Why::None || interrupted() || (parent_ && parent_->requested());
  }
  // The caller's flag is up (whatever else stopped the run first).
  bool interrupted() const { return interrupt_ && interrupt_->load(std::memory_order_relaxed); }
  Why why() const {
    const Why w = why_.load(std::memory_order_relaxed);
    return w == Why::None && interrupted() ? Why::Interrupt : w;
  }

  // A task failed (whatever stopped the run first).
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  std::exception_ptr failure() const {
    std::lock_guard lk(mu_);
    return failure_;
  }
  void rethrow() const {
    if (const auto e = failure()) std::rethrow_exception(e);
  }

 private:
  std::atomic<Why> why_{Why::None};
  std::atomic<bool> failed_{false};
  const std::atomic<bool>* interrupt_;
  const Stop* parent_ = nullptr;
  mutable std::mutex mu_;
  std::exception_ptr failure_;
};

}  // namespace magic
