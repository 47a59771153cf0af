#pragma once
// The generic parallel runner every problem plugs into.
//
// A problem P supplies:
//   using State    = ...;   // small, trivially copyable search state
//   using Solution = ...;   // fixed-size, no padding; hashed byte-for-byte
//   int   default_split_depth() const;
//   void  expand(int depth, F&& on_prefix) const;
//         // Calls on_prefix(const State&) for every node at `depth` (or for
//         // a leaf reached earlier), in a fixed order: the task list.
//   void  solve(const State&, Ctx& ctx) const;
//         // Serial search below a prefix: ctx.nodes += ..., ctx.emit(sol),
//         // and return early when ctx.stopped().
//   Emits emits() const;                  // what the generator emits, below
//   Solution canonical(const Solution&) const;
//   bool  has_group() const;              // false: counts.total is not reported
//   std::uint64_t orbit_size(const Solution& canonical) const;
//   nlohmann::json to_json(const Solution&) const;
//   optional: std::int64_t key(const Solution&) const;    // counts.by_key
//
// Tasks run on oneTBB with dynamic load balancing.  Each task owns its own
// record (counts, digest, nodes, cpu); records are merged in task order once
// the task and all tasks before it have finished, so the merged result, the
// order of streamed solutions and the digest are the same for any thread
// count.  No shared atomics are touched per node.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "magic/canonical_set.hpp"
#include "magic/checkpoint.hpp"
#include "magic/digest.hpp"

namespace magic {

enum class Emits {
  OnePerOrbit,  // exactly one member of each symmetry orbit (symmetry breaking)
  AllImages,    // every member of every orbit; uniques are those equal to their canonical form
  Arbitrary,    // anything; only a hash set can deduplicate
};

enum class DedupMode { Auto, HashSet };

// The two ways a problem walks its search tree, as a template parameter of
// its node function (no virtual call per node): cut the tree into task
// prefixes at level `depth` (in the problem's own measure of levels), or
// solve one task into a runner context.
template <class F>
struct ExpandMode {
  F& on_prefix;
  int depth;
  static constexpr bool kExpand = true;
};
template <class Ctx>
struct SolveMode {
  Ctx& ctx;
  static constexpr bool kExpand = false;
};

struct Progress {
  std::uint64_t tasks_done = 0;
  std::uint64_t tasks_total = 0;
  std::uint64_t nodes = 0;
  double elapsed = 0;
};

struct RunOptions {
  unsigned threads = 0;        // 0 = all cores
  int split_depth = -1;        // -1 = the problem's default
  std::uint64_t solutions = 0; // how many solutions to hand to on_solution
  std::uint64_t stop_after = 0;  // 0 = exhaustive; else stop after this many (in task order)
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  DedupMode dedup = DedupMode::Auto;
  std::size_t dedup_memory = std::size_t{4} << 30;
  std::function<void(const nlohmann::json&)> on_solution;
  std::function<void(const Progress&)> on_progress;
  double progress_interval = 1.0;
  const std::atomic<bool>* interrupt = nullptr;  // set from a signal handler
  Checkpoint* checkpoint = nullptr;
};

struct RunResult {
  std::uint64_t unique = 0;
  std::uint64_t total = 0;
  bool has_total = false;
  Digest digest;
  std::map<std::int64_t, std::uint64_t> by_key;
  bool exhaustive = true;   // false when stopped early (stop_after or interrupt)
  bool interrupted = false;
  std::string dedup;        // "generator", "canonical-filter" or "hash-set"
  unsigned threads = 0;
  int split_depth = 0;
  std::uint64_t tasks = 0;          // tasks in the whole problem
  std::uint64_t tasks_run = 0;      // tasks executed by this run
  std::uint64_t tasks_resumed = 0;  // tasks taken from a checkpoint
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  std::uint64_t nodes = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
};

namespace detail {
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

template <class P>
concept HasKey = requires(const P& p, const typename P::Solution& s) {
  { p.key(s) } -> std::convertible_to<std::int64_t>;
};

template <class P>
void account(const P& p, const typename P::Solution& canon, TaskRecord& rec) {
  ++rec.unique;
  rec.total += p.orbit_size(canon);
  rec.digest.add(canon);
  if constexpr (HasKey<P>) ++rec.by_key[p.key(canon)];
}
}  // namespace detail

// Handed to P::solve; everything here is task-local.
template <class P>
class TaskContext {
 public:
  using Solution = typename P::Solution;

  TaskContext(const P& p, Emits mode, bool defer, std::uint64_t keep, std::uint64_t stop_after,
              const std::atomic<bool>& halt, const std::atomic<bool>* interrupt)
      : p_(p),
        mode_(mode),
        defer_(defer),
        keep_(keep),
        stop_after_(stop_after),
        halt_(halt),
        interrupt_(interrupt) {}

  std::uint64_t nodes = 0;

  void emit(const Solution& s) {
    const Solution c = p_.canonical(s);
    if (mode_ == Emits::AllImages && !defer_ && !(c == s)) return;
    if (defer_) {
      deferred.push_back({s, c});
      if (stop_after_ && mode_ != Emits::Arbitrary && deferred.size() >= stop_after_) local_stop_ = true;
      return;
    }
    detail::account(p_, c, record);
    if (kept.size() < keep_) kept.push_back(s);
  }

  // Polled by solvers at every node; reads the shared flag only now and then.
  bool stopped() {
    if (local_stop_) return true;
    if ((++poll_ & 1023u) == 0 &&
        (halt_.load(std::memory_order_relaxed) ||
         (interrupt_ && interrupt_->load(std::memory_order_relaxed))))
      local_stop_ = true;
    return local_stop_;
  }
  bool aborted() const { return local_stop_; }

  struct Pair {
    Solution sol;
    Solution canon;
  };
  TaskRecord record;
  std::vector<Solution> kept;
  std::vector<Pair> deferred;

 private:
  const P& p_;
  Emits mode_;
  bool defer_;
  std::uint64_t keep_;
  std::uint64_t stop_after_;
  const std::atomic<bool>& halt_;
  const std::atomic<bool>* interrupt_;
  bool local_stop_ = false;
  unsigned poll_ = 0;
};

template <class P>
RunResult run(const P& p, const RunOptions& opt) {
  using State = typename P::State;
  using Solution = typename P::Solution;
  static_assert(std::is_trivially_copyable_v<State>, "search state must be trivially copyable");
  static_assert(std::is_trivially_copyable_v<Solution>);
  static_assert(std::has_unique_object_representations_v<Solution>);

  const auto t0 = std::chrono::steady_clock::now();
  RunResult r;
  r.split_depth = opt.split_depth >= 0 ? opt.split_depth : p.default_split_depth();
  r.threads = opt.threads ? opt.threads : static_cast<unsigned>(tbb::info::default_concurrency());
  r.shard_index = opt.shard_index;
  r.shard_count = opt.shard_count;
  if (opt.shard_count == 0 || opt.shard_index >= opt.shard_count)
    throw std::invalid_argument("shard index must be below the shard count");

  const Emits mode = p.emits();
  const bool use_set = mode == Emits::Arbitrary || opt.dedup == DedupMode::HashSet;
  // Only a hash set sees across tasks; partial runs cannot be summed with one.
  if (use_set && (opt.shard_count > 1 || opt.checkpoint))
    throw std::invalid_argument("hash-set deduplication cannot be combined with shards or checkpoints");
  const bool defer = use_set || opt.stop_after > 0;
  r.dedup = use_set ? "hash-set" : mode == Emits::AllImages ? "canonical-filter" : "generator";

  std::vector<State> tasks;
  p.expand(r.split_depth, [&](const State& s) { tasks.push_back(s); });
  r.tasks = tasks.size();

  TaskRecord merged;
  std::vector<std::uint64_t> mine;
  for (std::uint64_t i = 0; i < tasks.size(); ++i) {
    if (i % opt.shard_count != opt.shard_index) continue;
    if (opt.checkpoint && opt.checkpoint->has(i)) {
      merged.merge(opt.checkpoint->done().at(i));
      ++r.tasks_resumed;
      continue;
    }
    mine.push_back(i);
  }

  struct Slot {
    std::unique_ptr<TaskContext<P>> ctx;
    bool done = false;
  };
  std::vector<Slot> slots(mine.size());
  std::optional<CanonicalSet> set;
  if (use_set) set.emplace(sizeof(Solution), opt.dedup_memory);

  std::mutex mu;
  std::size_t next = 0;
  std::uint64_t handed = 0;
  std::atomic<bool> halt{false};
  std::exception_ptr failure;
  auto last_progress = t0;

  auto hand_out = [&](const Solution& s) {
    if (handed < opt.solutions && opt.on_solution) {
      opt.on_solution(p.to_json(s));
      ++handed;
    }
  };

  // Runs under `mu`: merges finished tasks strictly in task order.
  auto flush = [&] {
    while (next < slots.size() && slots[next].done) {
      Slot& s = slots[next];
      if (s.ctx) {
        TaskContext<P>& c = *s.ctx;
        const bool complete = !c.aborted();
        merged.nodes += c.record.nodes;
        merged.cpu_seconds += c.record.cpu_seconds;
        if (!complete && opt.stop_after == 0) r.exhaustive = false;
        if (defer) {
          for (const auto& pr : c.deferred) {
            if (opt.stop_after && merged.unique >= opt.stop_after) break;
            if (set && !set->insert(&pr.canon)) continue;
            if (!set && mode == Emits::AllImages && !(pr.sol == pr.canon)) continue;
            detail::account(p, pr.canon, merged);
            hand_out(set ? pr.canon : pr.sol);
          }
          if (opt.stop_after && merged.unique >= opt.stop_after) {
            halt.store(true, std::memory_order_relaxed);
            r.exhaustive = false;
          }
        } else if (complete) {
          const TaskRecord& rec = c.record;
          merged.unique += rec.unique;
          merged.total += rec.total;
          merged.digest.merge(rec.digest);
          for (const auto& [k, v] : rec.by_key) merged.by_key[k] += v;
          for (const Solution& sol : c.kept) hand_out(sol);
          if (opt.checkpoint) opt.checkpoint->record(mine[next], rec);
        }
        if (complete) ++r.tasks_run;
        s.ctx.reset();
      } else if (opt.stop_after == 0) {
        r.exhaustive = false;  // skipped after an interrupt
      }
      ++next;
    }
    if (opt.on_progress) {
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last_progress).count() >= opt.progress_interval) {
        last_progress = now;
        opt.on_progress({next + r.tasks_resumed, tasks.size() / opt.shard_count + r.tasks_resumed,
                         merged.nodes, std::chrono::duration<double>(now - t0).count()});
      }
    }
  };

  auto body = [&](std::size_t k) {
    const bool skip = halt.load(std::memory_order_relaxed) ||
                      (opt.interrupt && opt.interrupt->load(std::memory_order_relaxed));
    std::unique_ptr<TaskContext<P>> ctx;
    if (!skip) {
      ctx = std::make_unique<TaskContext<P>>(p, mode, defer, opt.solutions, opt.stop_after, halt,
                                              opt.interrupt);
      const double c0 = detail::thread_cpu_seconds();
      try {
        p.solve(tasks[mine[k]], *ctx);
      } catch (...) {
        std::lock_guard lk(mu);
        if (!failure) failure = std::current_exception();
        halt.store(true);
      }
      ctx->record.nodes = ctx->nodes;
      ctx->record.cpu_seconds = detail::thread_cpu_seconds() - c0;
    }
    std::lock_guard lk(mu);
    slots[k].ctx = std::move(ctx);
    slots[k].done = true;
    try {
      flush();
    } catch (...) {
      if (!failure) failure = std::current_exception();
      halt.store(true);
    }
  };

  tbb::task_arena arena(static_cast<int>(r.threads));
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, mine.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          for (std::size_t k = range.begin(); k != range.end(); ++k) body(k);
        },
        tbb::simple_partitioner());
  });
  if (failure) std::rethrow_exception(failure);

  if (opt.interrupt && opt.interrupt->load()) r.interrupted = true;
  if (opt.checkpoint) opt.checkpoint->save();

  r.unique = merged.unique;
  r.total = merged.total;
  r.has_total = p.has_group();
  r.digest = merged.digest;
  r.by_key = merged.by_key;
  r.nodes = merged.nodes;
  r.cpu_seconds = merged.cpu_seconds;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace magic
