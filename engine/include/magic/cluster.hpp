#pragma once
// One run across several processes (the MPI ranks of magic-enum-mpi) with
// the same result as magic::run.  A coordinator hands out tasks in small
// batches on request; every worker solves its batches with the oneTBB
// scheduler and adaptive splitting, and sends back task records, which the
// coordinator folds in task order with the single-process runner's merger
// and journal.  So counts, by_key, the digest, the solutions stream and the
// checkpoint are those of magic::run, and either one resumes the other.
//
//   worker w (every rank, 0 too)          coordinator (rank 0)
//   Report{build, want n, finished tasks} ─▶ fold records in task order, journal
//                   ◀─────────────────── Batch{(task, State) ...}  (empty: no more)
//   Report{bye}                  ──────▶ every worker said bye: the run is over
//                   ◀─────────────────── Stop  (interrupt or failure)
//
// The wire is abstract, so this file knows nothing of MPI: apps/mpi puts it
// on MPI, and the tests on threads (LoopbackWire).  Every rank runs the same
// command line, so a worker builds the same problem and options itself;
// states and solutions cross the wire as bytes (they are trivially copyable).
// Its binary may still differ (another machine, another commit): each
// report names the worker's build and search copy, and the journal records
// the build that ran each task.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <tbb/info.h>

#include "magic/core/error.hpp"
#include "magic/result.hpp"
#include "magic/runner.hpp"

namespace magic {

// A worker that failed, vanished or sent what no worker sends.
struct ClusterError : Error {
  using Error::Error;
};

// The coordinator's end: worker w is rank w; worker 0 runs beside it.
class CoordinatorWire {
 public:
  virtual ~CoordinatorWire() = default;
  virtual int workers() const = 0;
  virtual void send(int worker, std::string message) = 0;
  // The next message from any worker, waiting at most `seconds`.
  virtual bool receive(int& worker, std::string& message, double seconds) = 0;
};

// A worker's end.
class WorkerWire {
 public:
  virtual ~WorkerWire() = default;
  virtual void send(std::string message) = 0;
  virtual bool receive(std::string& message, double seconds) = 0;
};

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

namespace wire {

// Messages are flat bytes in the host's layout: every rank runs the same
// binary, and the states and solutions are trivially copyable.
enum class Kind : std::uint8_t { Report = 1, Batch = 2, Stop = 3, Fail = 4 };

class Writer {
 public:
  explicit Writer(Kind k) { put(k); }
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put_text(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    buf_ += s;
  }
  std::string take() { return std::move(buf_); }

 private:
  std::string buf_;
};

class Reader {
 public:
  explicit Reader(const std::string& m) : m_(m) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    if (m_.size() - at_ < sizeof(T)) throw ClusterError("a message between ranks is cut short");
    T v;
    std::memcpy(&v, m_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string get_text() {
    const auto n = get<std::uint32_t>();
    if (m_.size() - at_ < n) throw ClusterError("a message between ranks is cut short");
    std::string s = m_.substr(at_, n);
    at_ += n;
    return s;
  }
  bool done() const { return at_ == m_.size(); }

 private:
  const std::string& m_;
  std::size_t at_ = 0;
};

inline void put_record(Writer& w, const TaskRecord& r) {
  w.put(r.unique);
  w.put(r.total);
  w.put(r.nodes);
  w.put(r.cpu_seconds);
  w.put(r.digest.lo);
  w.put(r.digest.hi);
  w.put(static_cast<std::uint32_t>(r.by_key.size()));
  for (const auto& [k, v] : r.by_key) {
    w.put(k);
    w.put(v);
  }
}

inline TaskRecord get_record(Reader& rd) {
  TaskRecord r;
  r.unique = rd.get<std::uint64_t>();
  r.total = rd.get<std::uint64_t>();
  r.nodes = rd.get<std::uint64_t>();
  r.cpu_seconds = rd.get<double>();
  r.digest.lo = rd.get<std::uint64_t>();
  r.digest.hi = rd.get<std::uint64_t>();
  for (auto n = rd.get<std::uint32_t>(); n; --n) {
    const auto k = rd.get<std::int64_t>();
    r.by_key[k] = rd.get<std::uint64_t>();
  }
  return r;
}

// Report flags.
inline constexpr std::uint8_t kBye = 1;          // the worker's last message
inline constexpr std::uint8_t kInterrupted = 2;  // it stopped before its tasks were done

}  // namespace wire

namespace detail {

inline void check_cluster_options(const RunOptions& opt) {
  if (opt.stop_after)
    throw SpecError("a run across ranks counts everything; a search that stops after some solutions "
                    "(a limit, or complete without --count) runs in one process");
  if (opt.dedup == DedupMode::HashSet)
    throw SpecError("hash-set deduplication needs every solution in one process; it cannot run across ranks");
}

inline unsigned resolve_threads(unsigned threads) {
  return threads ? threads : static_cast<unsigned>(tbb::info::default_concurrency());
}

template <Problem P>
class Coordinator {
 public:
  using State = typename P::State;
  using Context = TaskContext<P>;

  Coordinator(const P& p, const RunOptions& opt, CoordinatorWire& wire)
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
    r_ = detail::echo(p_, opt_);
    if (r_.split_depth < 0) r_.split_depth = default_split_depth(p_);
    r_.cluster.emplace().ranks.resize(peers_.size());
    r_.tasks = count_tasks(p_, r_.split_depth);
    ck_ = detail::open_journal(p_, opt_, r_);
    r_.tasks_resumed = ck_ ? ck_->resumed() : 0;
    merger_.emplace(p_, MergePolicy{false, opt_.solutions, 0, opt_.dedup_memory, opt_.on_solution}, ck_.get());
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
    if (ck_) {
      ck_->flush();
      r_.tasks_saved = ck_->saved();
      r_.task_sources = ck_->sources();
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
      TaskChunk<State> next;
      if (!stream_->next(next)) {
        planned_all_ = true;
        return;
      }
      chunk_ = std::move(next);
      sel_ = select_tasks(chunk_.first, chunk_.states.size(), {r_.shard_index, r_.shard_count},
                          [&](std::uint64_t i) { return ck_ && ck_->has(i); });
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
        out.put(chunk_.states[id - chunk_.first]);
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
    std::unique_ptr<Context> ctx;
    if (ok) {
      ctx = std::make_unique<Context>(p_, merger_->emit_policy(), merger_->halt(), nullptr);
      ctx->record = wire::get_record(rd);
      for (auto n = rd.get<std::uint32_t>(); n; --n) ctx->kept.push_back(rd.get<typename P::Solution>());
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
    if (ck_) ck_->flush();
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

  const P& p_;
  const RunOptions& opt_;
  CoordinatorWire& wire_;
  std::vector<Peer> peers_;
  RunResult r_;
  std::unique_ptr<Journal> ck_;
  std::optional<OrderedMerger<P>> merger_;
  std::optional<TaskStream<P>> stream_;
  TaskChunk<State> chunk_;
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
template <Problem P>
class Worker {
 public:
  using State = typename P::State;
  using Context = TaskContext<P>;

  Worker(const P& p, const RunOptions& opt, WorkerWire& wire)
      : p_(p), opt_(opt), wire_(wire), threads_(resolve_threads(opt.threads)), gauge_(threads_) {
    local_ = opt;
    local_.interrupt = &stop_;
    local_.on_solution = nullptr;
    local_.on_progress = nullptr;
  }

  void run() {
    check_cluster_options(opt_);
    // Only its halt flag, emit policy and first failure are used here.
    OrderedMerger<P> merger(p_, {false, opt_.solutions, 0, 0, nullptr}, nullptr);
    const bool adaptive = opt_.adaptive && (threads_ > 1 || opt_.split_always);
    const Crew<P> crew{p_, local_, merger, gauge_, {adaptive, std::max<std::uint64_t>(opt_.split_nodes, 1),
                                                    opt_.split_always}, [] {}};
    std::thread driver([&] { drive(crew); });
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
    std::unique_ptr<Context> ctx;  // null: not run (stopped)
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
  void drive(const Crew<P>& crew) {
    for (;;) {
      std::vector<std::pair<std::uint64_t, State>> batch;
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        batch = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      cv_.notify_all();  // the talker may ask for the next batch now
      crew.gauge.queued(static_cast<std::int64_t>(batch.size()));
      schedule(threads_, batch.size(), [&](std::size_t k) {
        auto ctx = detail::solve_task(crew, batch[k].second);
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
  void talk(OrderedMerger<P>& merger) {
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
          std::vector<std::pair<std::uint64_t, State>> batch;
          for (; n; --n) {
            const auto id = rd.get<std::uint64_t>();
            batch.emplace_back(id, rd.get<State>());
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
  bool report_failure(OrderedMerger<P>& merger) {
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
    out.put_text(kernel_of(p_));
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
      out.put(static_cast<std::uint32_t>(d.ctx->kept.size()));
      for (const auto& s : d.ctx->kept) out.put(s);
    }
    return out.take();
  }

  const P& p_;
  const RunOptions& opt_;
  RunOptions local_;
  WorkerWire& wire_;
  const unsigned threads_;
  WorkGauge gauge_;
  std::atomic<bool> stop_{false};  // the coordinator's Stop, or this rank's signal
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<std::pair<std::uint64_t, State>>> queue_;
  std::vector<Done> done_;
  bool busy_ = false;
  bool closing_ = false;
};

}  // namespace detail

// The coordinator's side of a run; `opt` is what magic::run takes.
template <Problem P>
RunResult run_coordinator(const P& p, const RunOptions& opt, CoordinatorWire& wire) {
  return detail::Coordinator<P>(p, opt, wire).run();
}

// A worker's side: solves the batches it is given until told there are no more.
template <Problem P>
void run_worker(const P& p, const RunOptions& opt, WorkerWire& wire) {
  detail::Worker<P>(p, opt, wire).run();
}

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

// The whole cluster in one process, `workers` worker threads: the tests'
// stand-in for an MPI job.
template <Problem P>
RunResult run_loopback(const P& p, const RunOptions& opt, int workers) {
  return run_on_loopback(
      workers, [&](WorkerWire& wire) { run_worker(p, opt, wire); },
      [&](CoordinatorWire& wire) { return run_coordinator(p, opt, wire); });
}

}  // namespace magic
