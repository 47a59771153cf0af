// The cluster's coordinator (rank 0): the runner's engine
// (../runner_parts.hpp) with tasks handed to the ranks over a wire;
// worker.cpp is the other end.
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

class Coordinator {
 public:
  Coordinator(const AnyProblem& p, const RunOptions& opt, CoordinatorWire& wire)
      : p_(p), opt_(opt), wire_(wire), peers_(static_cast<std::size_t>(wire.workers())), stop_(opt.interrupt) {}

  RunResult coordinate() {
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_seconds();
    try {
      set_up();
      exchange(t0);
    } catch (...) {
      stop_all();  // never leave a worker waiting for a batch
      throw;
    }
    finish();
    r_.cluster->coordinator_cpu_seconds = thread_cpu_seconds() - cpu0;
    r_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stop_.rethrow();
    return r_;
  }

 private:
  struct Peer {
    std::uint32_t want = 0;    // tasks asked for and not yet sent
    std::size_t holding = 0;   // tasks and pieces sent and not yet returned
    bool bye = false;
    bool stopped = false;      // told Stop
    bool sharing = false;      // told Share, and no piece came yet
  };

  // A result that waits for pieces of it solved on other ranks.
  struct Part {
    std::unique_ptr<TaskCore> ctx;
    std::size_t missing = 0;
    std::string source;
  };

  void set_up() {
    check_cluster_options(opt_);
    r_ = start_result(p_, opt_);
    r_.adaptive = opt_.adaptive;  // a lone thread still hands pieces to other ranks
    if (r_.split_depth < 0) r_.split_depth = default_split_depth(p_);
    r_.cluster.emplace().ranks.resize(peers_.size());
    r_.tasks = count_tasks(p_, r_.split_depth);
    journal_ = detail::open_journal(p_, opt_, r_);
    r_.tasks_resumed = journal_ ? journal_->resumed() : 0;
    merger_.emplace(p_,
                    MergePolicy{false, opt_.solutions, 0, opt_.dedup_memory, opt_.on_solution, opt_.hold_bytes,
                                opt_.spill_directory},
                    journal_.get(), stop_);
    stream_.emplace(p_, r_.split_depth, opt_.task_chunk);
  }

  // Until every worker said bye.
  void exchange(std::chrono::steady_clock::time_point t0) {
    progress_.emplace(opt_, t0, shard_size(r_.tasks, {r_.shard_index, r_.shard_count}));
    double wait = 0;
    std::optional<std::chrono::steady_clock::time_point> stop_sent;
    while (byes_ < peers_.size()) {
      if (!stopping_ && stop_.requested()) stop_all();
      if (!stopping_) {
        next_chunk_if_done();
        answer_wants();
      } else if (!stop_sent) {
        stop_sent = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - *stop_sent > std::chrono::seconds(kStopGraceSeconds)) {
        for (std::size_t w = 0; w < peers_.size(); ++w)
          if (!peers_[w].bye)
            fail("rank " + std::to_string(w) + " did not answer the stop within " + std::to_string(kStopGraceSeconds) +
                 " s");
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
    r_.interrupted = !r_.exhaustive && (stop_.interrupted() || r_.cluster->lost_rank >= 0);
    // A signal that reached this rank too went to the whole job (mpirun
    // passes it on to every rank): no rank stopped on its own.
    if (stop_.interrupted()) r_.cluster->lost_rank = -1;
    r_.tasks_run = merger_->tasks_run();
    r_.tasks_spilled = merger_->spilled();
    for (const auto& s : r_.cluster->ranks) r_.pieces += s.pieces;
  }

  void fail(const std::string& why) { stop_.fail(std::make_exception_ptr(ClusterError(why))); }

  // Every task of the chunk is back, with all of its pieces.
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

  // Work given back and pieces first: they are the oldest work, and the
  // tail of the chunk.
  // Nothing to give: some busy rank is asked to share.  "No more" only
  // once every task is back, since until then any of them may hand out
  // pieces.
  void answer_wants() {
    const bool no_more = planned_all_ && chunk_returned();
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
      const std::size_t left = waiting_.size() + (sel_.run.size() - sent_);
      if (!left) {
        ask_to_share(w);
        continue;
      }
      // Guided: big batches early, single tasks at the end of a chunk.
      const std::size_t fair = std::max<std::size_t>(1, left / (2 * peers_.size()));
      const std::size_t n = std::min<std::size_t>({peer.want, fair, left});
      wire::Writer out(wire::Kind::Batch);
      out.put(static_cast<std::uint32_t>(n));
      for (std::size_t i = 0; i < n; ++i) {
        if (!waiting_.empty()) {
          auto& [id, state] = waiting_.front();
          out.put(id);
          out.put_bytes(state.data(), state.size());
          if (id & kPieceBit) piece_at_[id] = w;
          waiting_.pop_front();
          continue;
        }
        const std::uint64_t id = sel_.run[sent_++];
        out.put(id);
        out.put_bytes(chunk_.state(id - chunk_.first), chunk_.stride);
      }
      peer.holding += n;
      peer.sharing = false;  // a batch clears the worker's want to share too
      peer.want = 0;
      send(w, out.take());
    }
  }

  // Rank w waits with nothing to give it: the rank holding the most work
  // gives back what it has not started, or else hands out its next piece
  // (at most one ask each).
  void ask_to_share(std::size_t w) {
    std::size_t best = peers_.size();
    for (std::size_t v = 0; v < peers_.size(); ++v) {
      const Peer& peer = peers_[v];
      if (v == w || peer.bye || peer.stopped || !peer.holding) continue;
      if (best == peers_.size() || peer.holding > peers_[best].holding) best = v;
    }
    if (best == peers_.size() || peers_[best].sharing) return;
    peers_[best].sharing = true;
    send(best, wire::Writer(wire::Kind::Share).take());
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
        fail("rank " + std::to_string(w) + ": " + rd.get_text());
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
    for (auto n = rd.get<std::uint32_t>(); n; --n) take_piece(static_cast<std::size_t>(w), rd);
    for (auto n = rd.get<std::uint32_t>(); n; --n) take_back(static_cast<std::size_t>(w), rd);
    bool skipped = false;
    for (auto n = rd.get<std::uint32_t>(); n; --n) skipped |= !fold_one(static_cast<std::size_t>(w), stats, rd);
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
      stop_.request(Stop::Why::Elsewhere);
      stop_all();
    }
  }

  // A piece rank w handed out: it goes to whoever asks next.
  void take_piece(std::size_t w, wire::Reader& rd) {
    const auto handle = rd.get<std::uint64_t>();
    const std::uint64_t id = kPieceBit | next_piece_++;
    if (!away_ids_.emplace(std::pair{w, handle}, id).second)
      throw ClusterError("rank " + std::to_string(w) + " handed out piece " + std::to_string(handle) + " twice");
    waiting_.emplace_back(id, rd.get_bytes(p_.state_size()));
    peers_[w].sharing = false;
    ++r_.cluster->pieces_shared;
  }

  // A task or piece rank w had not started when asked to share.
  void take_back(std::size_t w, wire::Reader& rd) {
    const auto id = rd.get<std::uint64_t>();
    check_given(w, id);
    --peers_[w].holding;
    waiting_.emplace_back(id, rd.get_bytes(p_.state_size()));
    peers_[w].sharing = false;
  }

  // One task's or piece's result; false if the worker did not finish it.
  bool fold_one(std::size_t w, RankStats& stats, wire::Reader& rd) {
    const auto id = rd.get<std::uint64_t>();
    const auto ok = rd.get<std::uint8_t>();
    check_given(w, id);
    --peers_[w].holding;
    std::unique_ptr<TaskCore> ctx;
    if (ok) {
      ctx = std::make_unique<TaskCore>(p_.solution_size(), merger_->emit_policy(), stop_);
      ctx->record = wire::get_record(rd);
      const auto n = rd.get<std::uint32_t>();
      ctx->kept = rd.get_bytes(std::size_t{n} * p_.solution_size());
      take_remote(w, *ctx, rd);
      if (!(id & kPieceBit)) ++stats.tasks;
      stats.nodes += ctx->record.nodes;
      stats.cpu_seconds += ctx->record.cpu_seconds;
    }
    complete(id, std::move(ctx), stats.source);
    return ok != 0;
  }

  // A worker returns only what it was given (and a piece once; the merger
  // refuses a task finished twice).
  void check_given(std::size_t w, std::uint64_t id) {
    if (id & kPieceBit) {
      const auto it = piece_at_.find(id);
      if (it == piece_at_.end() || it->second != w)
        throw ClusterError("rank " + std::to_string(w) + " returned a piece it was not given");
      piece_at_.erase(it);
      return;
    }
    const auto it = std::lower_bound(sel_.run.begin(), sel_.run.end(), id);
    if (it == sel_.run.end() || *it != id || static_cast<std::size_t>(it - sel_.run.begin()) >= sent_)
      throw ClusterError("a worker returned task " + std::to_string(id) + ", which it was not given");
  }

  // The pieces of a result that rank w handed out, by the ids given them here.
  void take_remote(std::size_t w, TaskCore& ctx, wire::Reader& rd) {
    const std::size_t sol = p_.solution_size();
    std::size_t last = 0;
    for (auto n = rd.get<std::uint32_t>(); n; --n) {
      const auto handle = rd.get<std::uint64_t>();
      const auto at = rd.get<std::uint64_t>();
      const auto it = away_ids_.find({w, handle});
      if (it == away_ids_.end() || at < last || at > ctx.kept.size() / sol)
        throw ClusterError("rank " + std::to_string(w) + " sent a malformed report");
      ctx.remote.push_back({it->second, static_cast<std::size_t>(at) * sol});
      away_ids_.erase(it);
      last = at;
    }
  }

  // A result whose pieces are all in goes on: a task to the merger, a
  // piece to the result that waits for it.
  void complete(std::uint64_t id, std::unique_ptr<TaskCore> ctx, const std::string& source) {
    if (ctx && !ctx->remote.empty()) {
      Part part{std::move(ctx), 0, source};
      for (const RemotePiece& r : part.ctx->remote)
        if (!pieces_done_.count(r.id)) {
          awaited_by_[r.id] = id;
          ++part.missing;
        }
      if (part.missing) {
        parts_.emplace(id, std::move(part));
        return;
      }
      ctx = assemble(std::move(part.ctx));
    }
    if (id & kPieceBit) {
      pieces_done_[id] = std::move(ctx);
      const auto waiter = awaited_by_.find(id);
      if (waiter == awaited_by_.end()) return;  // its owner has not reported yet
      const std::uint64_t owner = waiter->second;
      awaited_by_.erase(waiter);
      const auto part = parts_.find(owner);
      if (--part->second.missing) return;
      Part ready = std::move(part->second);
      parts_.erase(part);
      complete(owner, assemble(std::move(ready.ctx)), ready.source);
      return;
    }
    const auto k = static_cast<std::size_t>(std::lower_bound(sel_.run.begin(), sel_.run.end(), id) - sel_.run.begin());
    ++returned_;
    merger_->finish(k, std::move(ctx), [&] { progress(); }, source);
  }

  // The pieces' results spliced in, in the order they were handed out.
  std::unique_ptr<TaskCore> assemble(std::unique_ptr<TaskCore> ctx) {
    std::vector<std::unique_ptr<TaskCore>> done;
    for (const RemotePiece& r : ctx->remote) {
      const auto it = pieces_done_.find(r.id);
      done.push_back(std::move(it->second));
      pieces_done_.erase(it);
    }
    ctx->absorb_remote(done);
    return ctx;
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
  // Piece ids: apart from task ids, which stay far below 2^63.
  static constexpr std::uint64_t kPieceBit = std::uint64_t{1} << 63;
  static constexpr int kStopGraceSeconds = 30;

  const AnyProblem& p_;
  const RunOptions& opt_;
  CoordinatorWire& wire_;
  std::vector<Peer> peers_;
  RunResult r_;
  std::unique_ptr<Journal> journal_;
  Stop stop_;  // before the merger, which asks it to stop
  std::optional<OrderedMerger> merger_;
  std::optional<TaskStream> stream_;
  TaskChunk chunk_;
  TaskSelection sel_;
  std::size_t sent_ = 0, returned_ = 0, byes_ = 0;
  // Work waiting for a rank (tasks given back, pieces), and of the pieces:
  // their ids, where each is, the results no owner has claimed yet, and
  // results waiting for pieces.
  std::uint64_t next_piece_ = 0;
  std::deque<std::pair<std::uint64_t, std::vector<std::byte>>> waiting_;  // given back, and pieces
  std::map<std::pair<std::size_t, std::uint64_t>, std::uint64_t> away_ids_;  // (rank, its handle) -> id
  std::map<std::uint64_t, std::size_t> piece_at_;
  std::map<std::uint64_t, std::unique_ptr<TaskCore>> pieces_done_;
  std::map<std::uint64_t, std::uint64_t> awaited_by_;  // piece id -> the result it belongs to
  std::map<std::uint64_t, Part> parts_;
  bool planned_all_ = false;
  bool stopping_ = false;
  std::optional<ProgressClock> progress_;
};

}  // namespace detail

RunResult run_coordinator(const AnyProblem& p, const RunOptions& opt, CoordinatorWire& wire) {
  return detail::Coordinator(p, opt, wire).coordinate();
}

std::string stop_message() {
  wire::Writer stop(wire::Kind::Stop);
  return stop.take();
}

}  // namespace magic
