// The cluster's coordinator and worker: the runner's engine
// (../runner_parts.hpp) with tasks handed to other ranks over a wire.
#include "magic/cluster.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
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

static void check_cluster_options(const RunOptions& opt) {
  if (opt.stop_after)
    throw SpecError("a run across ranks counts everything; a search that stops after some solutions "
                    "(a limit, or complete without --count) runs in one process");
  if (opt.dedup == DedupMode::HashSet)
    throw SpecError("hash-set deduplication needs every solution in one process; it cannot run across ranks");
}

class Coordinator {
 public:
  Coordinator(const AnyProblem& p, const RunOptions& opt, CoordinatorWire& wire)
      : p_(p), opt_(opt), wire_(wire), peers_(static_cast<std::size_t>(wire.workers())) {}

  RunResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_seconds();
    try {
      set_up();
      serve(t0);
    } catch (...) {
      stop_all();  // never leave a worker waiting for a batch
      throw;
    }
    finish();
    r_.cluster->coordinator_cpu_seconds = thread_cpu_seconds() - cpu0;
    r_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!failure_.empty()) throw ClusterError(failure_);
    return r_;
  }

 private:
  struct Peer {
    std::uint32_t want = 0;  // tasks asked for and not yet sent
    bool bye = false;
    bool stopped = false;  // told Stop
  };

  void set_up() {
    check_cluster_options(opt_);
    r_ = start_result(p_, opt_);
    if (r_.split_depth < 0) r_.split_depth = default_split_depth(p_);
    r_.cluster.emplace().ranks.resize(peers_.size());
    r_.tasks = count_tasks(p_, r_.split_depth);
    journal_ = detail::open_journal(p_, opt_, r_);
    r_.tasks_resumed = journal_ ? journal_->resumed() : 0;
    merger_.emplace(p_, MergePolicy{false, opt_.solutions, 0, opt_.dedup_memory, opt_.on_solution}, journal_.get());
    stream_.emplace(p_, r_.split_depth, opt_.task_chunk);
  }

  // Until every worker said bye.
  void serve(std::chrono::steady_clock::time_point t0) {
    progress_.emplace(opt_, t0, shard_size(r_.tasks, {r_.shard_index, r_.shard_count}));
    double wait = 0;
    std::optional<std::chrono::steady_clock::time_point> stop_sent;
    while (byes_ < peers_.size()) {
      if (!stopping_ && (interrupted() || merger_->halt().load())) stop_all();
      if (!stopping_) {
        next_chunk_if_done();
        answer_wants();
      } else if (!stop_sent) {
        stop_sent = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - *stop_sent > std::chrono::seconds(kStopGraceSeconds)) {
        for (std::size_t w = 0; w < peers_.size(); ++w)
          if (!peers_[w].bye && failure_.empty())
            failure_ = "rank " + std::to_string(w) + " did not answer the stop within " +
                       std::to_string(kStopGraceSeconds) + " s";
        break;
      }
      int w = -1;
      std::string m;
      // Sleep longer while nothing happens: the coordinator's own cost
      // stays far below a core, and workers ask ahead of need.
      if (wire_.receive(w, m, wait)) {
        wait = 0;
        count(m);
        handle(w, m);
      } else {
        wait = std::min(kMaxWait, std::max(kMinWait, wait * 2));
      }
    }
  }

  void finish() {
    if (journal_) {
      journal_->flush();
      r_.tasks_saved = journal_->saved();
      r_.task_sources = journal_->sources();
    }
    take_totals(r_, merger_->total());
    r_.exhaustive = merger_->exhaustive() && planned_all_ && chunk_returned();
    // A stop that came after the last task changes nothing.
    r_.interrupted = !r_.exhaustive && (interrupted() || r_.cluster->lost_rank >= 0);
    r_.tasks_run = merger_->tasks_run();
    for (const auto& s : r_.cluster->ranks) r_.pieces += s.pieces;
    merger_->rethrow();
  }

  bool interrupted() const { return opt_.interrupt && opt_.interrupt->load(); }

  bool chunk_returned() const { return returned_ == sel_.run.size(); }

  // The merger folds one chunk at a time (see core/merger.hpp), as the
  // single-process runner does.
  void next_chunk_if_done() {
    while (!planned_all_ && chunk_returned()) {
      TaskChunk next;
      if (!stream_->next(next)) {
        planned_all_ = true;
        return;
      }
      chunk_ = std::move(next);
      sel_ = select_unjournalled(chunk_.first, chunk_.size(), r_, journal_.get());
      merger_->begin_chunk(sel_.run, sel_.resumed);
      sent_ = returned_ = 0;
    }
  }

  void answer_wants() {
    const bool no_more = planned_all_ && sent_ == sel_.run.size();
    for (std::size_t w = 0; w < peers_.size(); ++w) {
      Peer& peer = peers_[w];
      if (!peer.want || peer.bye) continue;
      if (no_more) {
        peer.want = 0;
        wire::Writer none(wire::Kind::Batch);  // empty: nothing more
        none.put(std::uint32_t{0});
        send(w, none.take());
        continue;
      }
      const std::size_t left = sel_.run.size() - sent_;
      if (!left) continue;  // the next chunk starts once this one is back
      // Guided: big batches early, single tasks at the end of a chunk.
      const std::size_t fair = std::max<std::size_t>(1, left / (2 * peers_.size()));
      const std::size_t n = std::min<std::size_t>({peer.want, fair, left});
      wire::Writer out(wire::Kind::Batch);
      out.put(static_cast<std::uint32_t>(n));
      for (std::size_t i = 0; i < n; ++i, ++sent_) {
        const std::uint64_t id = sel_.run[sent_];
        out.put(id);
        out.put_bytes(chunk_.state(id - chunk_.first), chunk_.stride);
      }
      peer.want = 0;
      send(w, out.take());
    }
  }

  void handle(int w, const std::string& m) {
    if (w < 0 || static_cast<std::size_t>(w) >= peers_.size()) throw ClusterError("a message from an unknown rank");
    Peer& peer = peers_[static_cast<std::size_t>(w)];
    wire::Reader rd(m);
    switch (rd.get<wire::Kind>()) {
      case wire::Kind::Report:
        report(w, peer, rd);
        break;
      case wire::Kind::Fail:
        if (failure_.empty()) failure_ = "rank " + std::to_string(w) + ": " + rd.get_text();
        stop_all();
        break;
      default:
        throw ClusterError("rank " + std::to_string(w) + " sent a message no worker sends");
    }
  }

  void report(int w, Peer& peer, wire::Reader& rd) {
    RankStats& stats = r_.cluster->ranks[static_cast<std::size_t>(w)];
    stats.source = rd.get_text();
    stats.kernel = rd.get_text();
    if (stats.source.empty()) throw ClusterError("rank " + std::to_string(w) + " sent a report that names no build");
    const auto flags = rd.get<std::uint8_t>();
    const auto want = rd.get<std::uint32_t>();
    stats.threads = rd.get<std::uint32_t>();
    stats.pieces = rd.get<std::uint64_t>();
    bool skipped = false;
    for (auto n = rd.get<std::uint32_t>(); n; --n) skipped |= !fold_one(stats, rd);
    if (!rd.done()) throw ClusterError("rank " + std::to_string(w) + " sent a malformed report");
    if (!stopping_ && want) peer.want = want;  // a report without a want keeps the last one
    if (flags & wire::kBye) {
      peer.bye = true;
      ++byes_;
    }
    // A worker that stopped on its own (a signal, a kill of that rank): the
    // run cannot be whole, so everyone stops and the journal keeps what is done.
    if ((skipped || (flags & wire::kInterrupted)) && !stopping_) {
      r_.cluster->lost_rank = w;
      stop_all();
    }
  }

  // One task's result; false if the worker did not finish it.
  bool fold_one(RankStats& stats, wire::Reader& rd) {
    const auto id = rd.get<std::uint64_t>();
    const auto ok = rd.get<std::uint8_t>();
    const auto it = std::lower_bound(sel_.run.begin(), sel_.run.end(), id);
    if (it == sel_.run.end() || *it != id || static_cast<std::size_t>(it - sel_.run.begin()) >= sent_)
      throw ClusterError("a worker returned task " + std::to_string(id) + ", which it was not given");
    const auto k = static_cast<std::size_t>(it - sel_.run.begin());
    std::unique_ptr<TaskCore> ctx;
    if (ok) {
      ctx = std::make_unique<TaskCore>(p_.solution_size(), merger_->emit_policy(), merger_->halt(), nullptr);
      ctx->record = wire::get_record(rd);
      const auto n = rd.get<std::uint32_t>();
      ctx->kept = rd.get_bytes(std::size_t{n} * p_.solution_size());
      ++stats.tasks;
      stats.nodes += ctx->record.nodes;
      stats.cpu_seconds += ctx->record.cpu_seconds;
    }
    ++returned_;
    merger_->finish(k, std::move(ctx), [&] { progress(); }, stats.source);
    return ok != 0;
  }

  // Pieces are counted by the workers: all of them are done by the time
  // their task is reported.
  void progress() {
    std::uint64_t pieces = 0;
    for (const auto& s : r_.cluster->ranks) pieces += s.pieces;
    progress_->tick(merger_->folded() + r_.tasks_resumed, merger_->total().nodes, pieces, pieces);
  }

  void stop_all() {
    if (journal_) journal_->flush();
    stopping_ = true;
    for (std::size_t w = 0; w < peers_.size(); ++w) {
      if (peers_[w].bye || peers_[w].stopped) continue;
      peers_[w].stopped = true;
      send(w, wire::Writer(wire::Kind::Stop).take());
    }
  }

  void send(std::size_t w, std::string m) {
    count(m);
    wire_.send(static_cast<int>(w), std::move(m));
  }
  void count(const std::string& m) {
    ++r_.cluster->messages;
    r_.cluster->bytes += m.size();
  }

  // An idle coordinator wakes at most 1/kMaxWait times a second.
  static constexpr double kMinWait = 0.0001, kMaxWait = 0.004;
  static constexpr int kStopGraceSeconds = 30;

  const AnyProblem& p_;
  const RunOptions& opt_;
  CoordinatorWire& wire_;
  std::vector<Peer> peers_;
  RunResult r_;
  std::unique_ptr<Journal> journal_;
  std::optional<OrderedMerger> merger_;
  std::optional<TaskStream> stream_;
  TaskChunk chunk_;
  TaskSelection sel_;
  std::size_t sent_ = 0, returned_ = 0, byes_ = 0;
  bool planned_all_ = false;
  bool stopping_ = false;
  std::string failure_;
  std::optional<ProgressClock> progress_;
};

// One rank's worker: the calling thread talks to the coordinator, a driver
// thread runs one batch at a time on the oneTBB scheduler (a batch's tail
// is kept busy by adaptive splitting, as a chunk's is in magic::run).
class Worker {
 public:
  Worker(const AnyProblem& p, const RunOptions& opt, WorkerWire& wire)
      : p_(p), opt_(opt), wire_(wire), threads_(resolve_threads(opt.threads)), gauge_(threads_) {
    local_ = opt;
    local_.interrupt = &stop_;
    local_.on_solution = nullptr;
    local_.on_progress = nullptr;
  }

  void run() {
    check_cluster_options(opt_);
    // Only its halt flag, emit policy and first failure are used here.
    OrderedMerger merger(p_, {false, opt_.solutions, 0, 0, nullptr}, nullptr);
    const TaskTeam team{p_, local_, merger, gauge_,
                        {splits_adaptively(opt_, threads_), std::max<std::uint64_t>(opt_.split_nodes, 1),
                         opt_.split_always},
                        [] {}};
    std::thread driver([&] { drive(team); });
    try {
      talk(merger);
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
      wire_.send(report({}, 0, true));
    } catch (...) {
    }
  }

  struct Done {
    std::uint64_t id;
    std::unique_ptr<TaskCore> ctx;  // null: not run (stopped)
  };

  void quit(std::thread& driver) {
    {
      std::lock_guard lk(mu_);
      closing_ = true;
      stop_.store(true);
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
  void talk(OrderedMerger& merger) {
    bool asked = false, no_more = false, failed = false;
    std::vector<Done> held;  // finished, not yet reported
    auto last_report = std::chrono::steady_clock::now();
    for (;;) {
      bool starved = false;  // nothing to run until the coordinator answers
      {
        std::unique_lock lk(mu_);
        starved = asked && !busy_ && queue_.empty();
        if (!starved)
          cv_.wait_for(lk, std::chrono::duration<double>(asked ? 0.001 : 0.05),
                       [&] { return !done_.empty() || (!busy_ && queue_.empty() && no_more); });
        for (auto& d : done_) held.push_back(std::move(d));
        done_.clear();
      }
      if (opt_.interrupt && opt_.interrupt->load()) stop_.store(true);
      // Starved, wait on the wire itself: the answer is taken the moment it comes.
      asked = receive_all(asked, no_more, starved ? 0.05 : 0);
      if (stop_.load()) {
        no_more = true;
        std::lock_guard lk(mu_);
        for (auto& b : queue_)
          for (auto& [id, s] : b) held.push_back({id, nullptr});
        queue_.clear();
      }
      if (!failed) failed = report_failure(merger);
      if (failed) no_more = true;
      std::size_t queued = 0;
      bool idle = false;
      {
        std::lock_guard lk(mu_);
        for (const auto& b : queue_) queued += b.size();
        idle = !busy_ && queue_.empty() && done_.empty();
      }
      const bool bye = no_more && idle;
      // Ask for the next batch while the driver still has one to run.
      std::uint32_t want = 0;
      // Two batches' worth ahead hides a coordinator that answers late.
      if (!asked && !no_more && queued < 2 * threads_) want = 4 * threads_ - static_cast<std::uint32_t>(queued);
      const auto now = std::chrono::steady_clock::now();
      // While a request is unanswered the coordinator may be waiting for
      // these very tasks (the end of a chunk): they go at once.
      const bool flush =
          !held.empty() && (no_more || asked || now - last_report > std::chrono::milliseconds(500));
      if (want || bye || flush) {
        wire_.send(report(held, want, bye));
        held.clear();
        asked = asked || want;
        last_report = now;
      }
      if (bye) return;
    }
  }

  // Takes every message waiting; returns whether a batch is still asked for.
  bool receive_all(bool asked, bool& no_more, double wait) {
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
            std::lock_guard lk(mu_);
            queue_.push_back(std::move(batch));
          }
          cv_.notify_all();
          break;
        }
        case wire::Kind::Stop:
          stop_.store(true);
          break;
        default:
          throw ClusterError("the coordinator sent a message no coordinator sends");
      }
    }
    return asked;
  }

  // A task that threw: the coordinator hears why, and this worker stops.
  bool report_failure(OrderedMerger& merger) {
    const std::exception_ptr failure = merger.failure();
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
    stop_.store(true);
    return true;
  }

  std::string report(const std::vector<Done>& done, std::uint32_t want, bool bye) {
    wire::Writer out(wire::Kind::Report);
    out.put_text(BuildInfo::source());
    out.put_text(p_.kernel());
    std::uint8_t flags = bye ? wire::kBye : 0;
    bool skipped = false;
    for (const auto& d : done) skipped |= !d.ctx || d.ctx->aborted();
    if (skipped || (stop_.load() && opt_.interrupt && opt_.interrupt->load())) flags |= wire::kInterrupted;
    out.put(flags);
    out.put(want);
    out.put(static_cast<std::uint32_t>(threads_));
    out.put(gauge_.pieces());
    out.put(static_cast<std::uint32_t>(done.size()));
    for (const auto& d : done) {
      out.put(d.id);
      const bool ok = d.ctx && !d.ctx->aborted();
      out.put(static_cast<std::uint8_t>(ok));
      if (!ok) continue;
      wire::put_record(out, d.ctx->record);
      out.put(static_cast<std::uint32_t>(d.ctx->kept_count()));
      out.put_bytes(d.ctx->kept.data(), d.ctx->kept.size());
    }
    return out.take();
  }

  const AnyProblem& p_;
  const RunOptions& opt_;
  RunOptions local_;
  WorkerWire& wire_;
  const unsigned threads_;
  WorkGauge gauge_;
  std::atomic<bool> stop_{false};  // the coordinator's Stop, or this rank's signal
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<std::pair<std::uint64_t, std::vector<std::byte>>>> queue_;
  std::vector<Done> done_;
  bool busy_ = false;
  bool closing_ = false;
};

}  // namespace detail

RunResult run_coordinator(const AnyProblem& p, const RunOptions& opt, CoordinatorWire& wire) {
  return detail::Coordinator(p, opt, wire).run();
}

void run_worker(const AnyProblem& p, const RunOptions& opt, WorkerWire& wire) {
  detail::Worker(p, opt, wire).run();
}

std::string stop_message() {
  wire::Writer stop(wire::Kind::Stop);
  return stop.take();
}

bool is_goodbye(const std::string& message) {
  wire::Reader rd(message);
  return rd.get<wire::Kind>() == wire::Kind::Report && (rd.get<std::uint8_t>() & wire::kBye);
}

}  // namespace magic
