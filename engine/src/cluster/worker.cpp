// One rank's worker of a run across ranks: batches from the coordinator
// (coordinator.cpp) solved on the oneTBB scheduler, records sent back.
#include "magic/cluster.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "magic/result.hpp"
#include "magic/runner.hpp"
#include "../runner_parts.hpp"


namespace magic {

namespace detail {

// One rank's worker: the calling thread talks to the coordinator, a driver
// thread runs one batch at a time on the oneTBB scheduler (a batch's tail
// is kept busy by adaptive splitting, as a chunk's is in magic::run).
class Worker {
 public:
  Worker(const AnyProblem& p, const RunOptions& opt, WorkerWire& wire)
      : p_(p), opt_(opt), wire_(wire), threads_(resolve_threads(opt.threads)), gauge_(threads_), stop_(opt.interrupt) {}

  void work() {
    check_cluster_options(opt_);
    // Splitting is on with one thread too: its pieces go to idle ranks.
    const TaskTeam team{p_,
                        OrderedMerger::emit_policy(p_, {false, opt_.solutions}),
                        stop_,
                        gauge_,
                        {opt_.adaptive, std::max<std::uint64_t>(opt_.split_nodes, 1), opt_.split_always},
                        nullptr,
                        [this](const std::byte* state) { return send_away(state); }};
    std::thread driver([&] { drive(team); });
    try {
      talk();
    } catch (const std::exception& e) {
      quit(driver);
      say_goodbye(e.what());
      throw;
    }
    quit(driver);
  }

 private:
  // This worker cannot go on: the coordinator hears why, so it never waits
  // for tasks that will not come back.
  void say_goodbye(const std::string& why) {
    try {
      wire::Writer fail(wire::Kind::Fail);
      fail.put_text(why);
      wire_.send(fail.take());
      wire_.send(report({}, {}, {}, 0, true));
    } catch (...) {
    }
  }

  struct Done {
    std::uint64_t id;
    std::unique_ptr<TaskCore> ctx;  // null: not run (stopped)
  };
  // Work leaving this rank: a piece handed out (named by this rank's
  // handle; the coordinator gives it an id) or a task or piece given back
  // unstarted (named by its id).
  struct Away {
    std::uint64_t handle;
    std::vector<std::byte> state;
  };

  // A piece for another rank (core/task.hpp): it leaves with the next report.
  std::uint64_t send_away(const std::byte* state) {
    std::uint64_t handle = 0;
    {
      std::lock_guard lk(mu_);
      handle = ++handles_;
      away_.push_back({handle, std::vector<std::byte>(state, state + p_.state_size())});
    }
    gauge_.piece_split();
    cv_.notify_all();
    return handle;
  }

  void quit(std::thread& driver) {
    {
      std::lock_guard lk(mu_);
      closing_ = true;
      stop_.request(Stop::Why::Elsewhere);
    }
    cv_.notify_all();
    driver.join();
  }

  // The driver thread: batches, one after another.
  void drive(const TaskTeam& team) {
    for (;;) {
      std::vector<std::pair<std::uint64_t, std::vector<std::byte>>> batch;
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        batch = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      cv_.notify_all();  // the talker may ask for the next batch now
      team.gauge.queued(static_cast<std::int64_t>(batch.size()));
      schedule(threads_, batch.size(), [&](std::size_t k) {
        auto ctx = solve_task(team, batch[k].second.data());
        {
          std::lock_guard lk(mu_);
          done_.push_back({batch[k].first, std::move(ctx)});
        }
        cv_.notify_all();
      });
      {
        std::lock_guard lk(mu_);
        busy_ = false;
      }
      cv_.notify_all();
    }
  }

  // The calling thread: asks ahead, passes batches on, reports.
  void talk() {
    bool asked = false, no_more = false, failed = false;
    std::vector<Done> held;  // finished, not yet reported
    std::vector<Away> away;  // handed out, not yet sent
    std::vector<Away> back;  // given back unstarted (named by the coordinator's id)
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
      bool starved = false;  // nothing to run until the coordinator answers
      {
        std::unique_lock lk(mu_);
        starved = asked && !busy_ && queue_.empty();
        // A worker about to ask asks now, not after the wait (its first ask).
        const bool asks_now = !asked && !no_more && queued_tasks() < kAhead * threads_;
        if (!starved && !asks_now)
          cv_.wait_for(lk, std::chrono::duration<double>(asked ? 0.001 : 0.05),
                       [&] { return !done_.empty() || !away_.empty() || (!busy_ && queue_.empty() && no_more); });
        for (auto& d : done_) held.push_back(std::move(d));
        done_.clear();
        for (auto& a : away_) away.push_back(std::move(a));
        away_.clear();
      }
      // Starved, wait on the wire itself: the answer is taken the moment it comes.
      asked = receive_all(asked, no_more, back, starved ? 0.05 : 0);
      if (stop_.requested()) {
        no_more = true;
        std::lock_guard lk(mu_);
        for (auto& b : queue_)
          for (auto& [id, s] : b) held.push_back({id, nullptr});
        queue_.clear();
      }
      if (!failed) failed = report_failure();
      if (failed) no_more = true;
      std::size_t queued = 0;
      bool idle = false;
      {
        std::lock_guard lk(mu_);
        queued = queued_tasks();
        idle = !busy_ && queue_.empty() && done_.empty() && away_.empty();
      }
      const bool bye = no_more && idle;
      // Ask for the next batch while the driver still has kAhead tasks a
      // thread to run, which hides a coordinator that answers late.
      std::uint32_t want = 0;
      if (!asked && !no_more && queued < kAhead * threads_) want = 2 * kAhead * threads_ - static_cast<std::uint32_t>(queued);
      const auto now = std::chrono::steady_clock::now();
      // While a request is unanswered the coordinator may be waiting for
      // these very tasks (the end of a chunk): they go at once, and so does
      // a piece, which an idle rank waits for.
      const bool flush = (!held.empty() && (no_more || asked || now - last_report > std::chrono::milliseconds(500))) ||
                         !away.empty() || !back.empty();
      if (want || bye || flush) {
        wire_.send(report(held, away, back, want, bye));
        held.clear();
        away.clear();
        back.clear();
        asked = asked || want;
        last_report = now;
      }
      if (bye) return;
    }
  }

  // Tasks received and not yet started; under mu_.
  std::size_t queued_tasks() const {
    std::size_t n = 0;
    for (const auto& b : queue_) n += b.size();
    return n;
  }

  // Takes every message waiting; returns whether a batch is still asked for.
  // A Share gives back what has not started into `back`.
  bool receive_all(bool asked, bool& no_more, std::vector<Away>& back, double wait) {
    std::string m;
    for (; wire_.receive(m, wait); wait = 0) {
      wire::Reader rd(m);
      switch (rd.get<wire::Kind>()) {
        case wire::Kind::Batch: {
          asked = false;
          auto n = rd.get<std::uint32_t>();
          if (!n) no_more = true;
          std::vector<std::pair<std::uint64_t, std::vector<std::byte>>> batch;
          for (; n; --n) {
            const auto id = rd.get<std::uint64_t>();
            batch.emplace_back(id, rd.get_bytes(p_.state_size()));
          }
          if (!batch.empty()) {
            gauge_.wanted_elsewhere(false);  // there is work for every rank again
            std::lock_guard lk(mu_);
            queue_.push_back(std::move(batch));
          }
          cv_.notify_all();
          break;
        }
        case wire::Kind::Share: {
          // What has not started goes back whole; else the next hand-out.
          std::lock_guard lk(mu_);
          for (auto& b : queue_)
            for (auto& [id, state] : b) back.push_back({id, std::move(state)});
          if (queue_.empty()) gauge_.wanted_elsewhere(true);
          queue_.clear();
          break;
        }
        case wire::Kind::Stop:
          stop_.request(Stop::Why::Elsewhere);
          break;
        default:
          throw ClusterError("the coordinator sent a message no coordinator sends");
      }
    }
    return asked;
  }

  // A task that threw: the coordinator hears why, and this worker stops.
  bool report_failure() {
    const std::exception_ptr failure = stop_.failure();
    if (!failure) return false;
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      wire::Writer out(wire::Kind::Fail);
      out.put_text(e.what());
      wire_.send(out.take());
    } catch (...) {
      wire::Writer out(wire::Kind::Fail);
      out.put_text("unknown failure");
      wire_.send(out.take());
    }
    return true;
  }

  std::string report(const std::vector<Done>& done, const std::vector<Away>& away, const std::vector<Away>& back,
                     std::uint32_t want, bool bye) {
    wire::Writer out(wire::Kind::Report);
    out.put_text(BuildInfo::source());
    out.put_text(p_.kernel());
    std::uint8_t flags = bye ? wire::kBye : 0;
    bool skipped = false;
    for (const auto& d : done) skipped |= !d.ctx || d.ctx->aborted();
    if (skipped || stop_.interrupted()) flags |= wire::kInterrupted;
    out.put(flags);
    out.put(want);
    out.put(static_cast<std::uint32_t>(threads_));
    out.put(gauge_.pieces());
    for (const auto& list : {&away, &back}) {
      out.put(static_cast<std::uint32_t>(list->size()));
      for (const auto& a : *list) {
        out.put(a.handle);
        out.put_bytes(a.state.data(), a.state.size());
      }
    }
    out.put(static_cast<std::uint32_t>(done.size()));
    for (const auto& d : done) {
      out.put(d.id);
      const bool ok = d.ctx && !d.ctx->aborted();
      out.put(static_cast<std::uint8_t>(ok));
      if (!ok) continue;
      wire::put_record(out, d.ctx->record);
      out.put(static_cast<std::uint32_t>(d.ctx->kept_count()));
      out.put_bytes(d.ctx->kept.data(), d.ctx->kept.size());
      out.put(static_cast<std::uint32_t>(d.ctx->remote.size()));
      for (const RemotePiece& r : d.ctx->remote) {
        out.put(r.id);
        out.put(static_cast<std::uint64_t>(r.kept_at / p_.solution_size()));
      }
    }
    return out.take();
  }

  // Tasks per thread kept waiting: enough to cover a round trip to the
  // coordinator; what is still waiting when another rank idles goes back.
  static constexpr unsigned kAhead = 4;

  const AnyProblem& p_;
  const RunOptions& opt_;
  WorkerWire& wire_;
  const unsigned threads_;
  WorkGauge gauge_;
  Stop stop_;  // this rank's signal, a failed task, or the coordinator's Stop
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<std::pair<std::uint64_t, std::vector<std::byte>>>> queue_;
  std::vector<Done> done_;
  std::vector<Away> away_;
  std::uint64_t handles_ = 0;
  bool busy_ = false;
  bool closing_ = false;
};
}  // namespace detail

void run_worker(const AnyProblem& p, const RunOptions& opt, WorkerWire& wire) {
  detail::Worker(p, opt, wire).work();
}

std::vector<std::string> unserved_messages(const std::string& why) {
  // The goodbye first: the coordinator then tells only the others to stop.
  wire::Writer bye(wire::Kind::Report);
  bye.put_text(BuildInfo::source());
  bye.put_text(std::string());
  bye.put(wire::kBye);
  bye.put(std::uint32_t{0});  // want
  bye.put(std::uint32_t{0});  // threads
  bye.put(std::uint64_t{0});  // pieces
  for (int list = 0; list < 3; ++list) bye.put(std::uint32_t{0});  // away, back, done
  wire::Writer fail(wire::Kind::Fail);
  fail.put_text(why);
  return {bye.take(), fail.take()};
}

bool is_goodbye(const std::string& message) {
  wire::Reader rd(message);
  try {
    if (rd.get<wire::Kind>() != wire::Kind::Report) return false;
    rd.get_text();  // the build
    rd.get_text();  // the kernel; then the flags
    return (rd.get<std::uint8_t>() & wire::kBye) != 0;
  } catch (const ClusterError&) {  // too short: not a report
    return false;
  }
}

}  // namespace magic
