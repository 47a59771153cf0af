#pragma once
// One run across several processes (the MPI ranks of magicount-mpi) with
// the same result as magic::run.  A coordinator hands out tasks in small
// batches on request; every worker solves its batches with the oneTBB
// scheduler and adaptive splitting, and sends back task records, which the
// coordinator folds in task order with the single-process runner's merger
// and journal.  So counts, by_key, the digest, the solutions stream and the
// checkpoint are those of magic::run, and either one resumes the other.
//
//   worker w (every rank, 0 too)          coordinator (rank 0)
//   Report{build, want n, pieces, given back, finished tasks and pieces}
//                                ──────▶ fold records in task order, journal
//                   ◀─────────────────── Batch{(task or piece, State) ...}
//                                        (empty: every task is back, no more)
//                   ◀─────────────────── Share  (another rank idles: give back
//                                        what is not started, or hand out pieces)
//   Report{bye}                  ──────▶ every worker said bye: the run is over
//                   ◀─────────────────── Stop  (interrupt or failure)
//
// A piece a worker hands out (core/split.hpp) goes to the coordinator, which
// gives it to the next rank that asks and splices its result into the
// task's, at the place the worker marked (RemotePiece), before folding the
// task.  A piece may hand out pieces in turn.
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

#include "magic/cluster_wire.hpp"
#include "magic/loopback_wire.hpp"
#include "magic/core/error.hpp"
#include "magic/core/any_problem.hpp"
#include "magic/run_options.hpp"
#include "magic/task_record.hpp"

namespace magic {

namespace wire {

// Messages are flat bytes in the host's layout: every rank runs the same
// binary, and the states and solutions are trivially copyable.
enum class Kind : std::uint8_t { Report = 1, Batch = 2, Stop = 3, Fail = 4, Share = 5 };

class Writer {
 public:
  explicit Writer(Kind k) { put(k); }
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put_bytes(const std::byte* b, std::size_t n) { buf_.append(reinterpret_cast<const char*>(b), n); }
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
  std::vector<std::byte> get_bytes(std::size_t n) {
    if (m_.size() - at_ < n) throw ClusterError("a message between ranks is cut short");
    const auto* b = reinterpret_cast<const std::byte*>(m_.data() + at_);
    at_ += n;
    return {b, b + n};
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
  w.put(r.additive.lo);
  w.put(r.additive.hi);
  for (std::uint64_t v : {r.tables.passes, r.tables.max_entries, r.tables.max_bytes, r.tables.lookups, r.tables.hits})
    w.put(v);
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
  r.additive.lo = rd.get<std::uint64_t>();
  r.additive.hi = rd.get<std::uint64_t>();
  for (std::uint64_t* v : {&r.tables.passes, &r.tables.max_entries, &r.tables.max_bytes, &r.tables.lookups, &r.tables.hits})
    *v = rd.get<std::uint64_t>();
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
// What a run across ranks cannot do: checked by the coordinator and by
// every worker, so each says so before any work.
inline void check_cluster_options(const RunOptions& opt) {
  if (opt.limit)
    throw SpecError("a run across ranks counts everything; a search that stops after some solutions "
                    "(a limit, or complete without --count) runs in one process");
  if (opt.dedup == DedupMode::HashSet)
    throw SpecError("hash-set deduplication needs every solution in one process; it cannot run across ranks");
}
}  // namespace detail

// The coordinator's side of a run; `opt` is what magic::run takes.
RunResult run_coordinator(const AnyProblem& p, const RunOptions& opt, CoordinatorWire& wire);
template <Problem P>
RunResult run_coordinator(const P& p, const RunOptions& opt, CoordinatorWire& wire) {
  return run_coordinator(Erased<P>(p), opt, wire);
}

// A worker's side: solves the batches it is given until told there are no more.
void run_worker(const AnyProblem& p, const RunOptions& opt, WorkerWire& wire);
template <Problem P>
void run_worker(const P& p, const RunOptions& opt, WorkerWire& wire) {
  run_worker(Erased<P>(p), opt, wire);
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
