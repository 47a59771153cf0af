#pragma once
// The cluster's wire on threads in one process (magic/cluster_wire.hpp):
// worker 0 of an MPI job beside its coordinator, and the tests' stand-in
// for an MPI job.  Only the cluster's side includes it.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "magic/cluster_wire.hpp"
#include "magic/run_options.hpp"  // RunResult

namespace magic {

// Threads in one process: worker 0 of an MPI job, and the tests.
class LoopbackWire {
 public:
  explicit LoopbackWire(int workers) : to_worker_(static_cast<std::size_t>(workers)) {
    for (int w = 0; w < workers; ++w) ends_.push_back(std::make_unique<End>(*this, w));
  }
  CoordinatorWire& coordinator() { return coordinator_; }
  WorkerWire& worker(int w) { return *ends_.at(static_cast<std::size_t>(w)); }
  int workers() const { return static_cast<int>(to_worker_.size()); }

  // Waits for a message to worker w (or any message to the coordinator, w < 0).
  bool pop(int w, int& from, std::string& message, double seconds) {
    std::unique_lock lk(mu_);
    auto& q = w < 0 ? to_coordinator_ : to_worker_.at(static_cast<std::size_t>(w));
    if (!cv_.wait_for(lk, std::chrono::duration<double>(seconds), [&] { return !q.empty(); })) return false;
    from = q.front().first;
    message = std::move(q.front().second);
    q.pop_front();
    return true;
  }
  void push(int w, int from, std::string message) {
    {
      std::lock_guard lk(mu_);
      (w < 0 ? to_coordinator_ : to_worker_.at(static_cast<std::size_t>(w))).emplace_back(from, std::move(message));
    }
    cv_.notify_all();
  }

 private:
  struct Coordinator : CoordinatorWire {
    explicit Coordinator(LoopbackWire& l) : l_(l) {}
    int workers() const override { return l_.workers(); }
    void send(int w, std::string m) override { l_.push(w, -1, std::move(m)); }
    bool receive(int& w, std::string& m, double s) override { return l_.pop(-1, w, m, s); }
    LoopbackWire& l_;
  };
  struct End : WorkerWire {
    End(LoopbackWire& l, int w) : l_(l), w_(w) {}
    void send(std::string m) override { l_.push(-1, w_, std::move(m)); }
    bool receive(std::string& m, double s) override {
      int from = 0;
      return l_.pop(w_, from, m, s);
    }
    LoopbackWire& l_;
    int w_;
  };

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<int, std::string>> to_coordinator_;
  std::vector<std::deque<std::pair<int, std::string>>> to_worker_;
  Coordinator coordinator_{*this};
  std::vector<std::unique_ptr<End>> ends_;
};

// The whole cluster in one process: work(wire) on `workers` threads, each
// with its end of a LoopbackWire, and coordinate(wire) on this one.
template <class Work, class Coordinate>
RunResult run_on_loopback(int workers, Work&& work, Coordinate&& coordinate) {
  LoopbackWire net(workers);
  std::vector<std::thread> ts;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
  for (int w = 0; w < workers; ++w) {
    ts.emplace_back([&, w] {
      try {
        work(net.worker(w));
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
      }
    });
  }
  RunResult r;
  std::exception_ptr failure;
  try {
    r = coordinate(net.coordinator());
  } catch (...) {
    failure = std::current_exception();
  }
  for (auto& t : ts) t.join();
  if (failure) std::rethrow_exception(failure);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return r;
}

}  // namespace magic
