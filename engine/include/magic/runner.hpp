#pragma once
// The generic runner every problem plugs into (see core/problem.hpp for the
// contract).  It composes four named parts:
//
//   planner    core/planner.hpp    the task prefixes (streamed in chunks), the
//                                  split-depth default, the shard and resume filters
//   scheduler  core/scheduler.hpp  runs the tasks on oneTBB workers
//   task       core/task.hpp       one serial solve into a task-local record
//   split      core/split.hpp      big tasks hand out pieces when workers idle
//   merger     core/merger.hpp     folds records in task order; checkpoint
//
// and owns the checkpoint's signature, so a checkpoint can only resume the
// run that wrote it.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tbb/info.h>

#include "magic/core/error.hpp"
#include "magic/core/merger.hpp"
#include "magic/core/planner.hpp"
#include "magic/core/problem.hpp"
#include "magic/core/scheduler.hpp"
#include "magic/core/split.hpp"
#include "magic/core/task.hpp"
#include "magic/digest.hpp"
#include "magic/journal.hpp"
#include "magic/run_options.hpp"

namespace magic {

namespace detail {

// RunResult::kernel of a problem.
template <Problem P>
std::string kernel_of(const P& p) {
  if constexpr (requires { std::string(p.kernel()); }) return p.kernel();
  else return {};
}

// The run's echo: everything that decides the task list and how it is merged.
template <Problem P>
RunResult echo(const P& p, const RunOptions& opt) {
  if (opt.shard_count == 0 || opt.shard_index >= opt.shard_count)
    throw SpecError("shard index must be below the shard count");
  RunResult r;
  const bool hash_set = opt.dedup == DedupMode::HashSet;
  // Only a hash set sees across tasks; partial runs cannot be summed with one.
  if (hash_set && (opt.shard_count > 1 || !opt.checkpoint.empty()))
    throw SpecError("hash-set deduplication cannot be combined with shards or checkpoints");
  // NaN would pass any range check and turn the journal's syncs off.
  if (!std::isfinite(opt.checkpoint_interval) || opt.checkpoint_interval < 0)
    throw SpecError("the checkpoint interval must be a finite number of seconds >= 0");
  // A stopped search folds solutions, not whole tasks: nothing to journal.
  if (opt.stop_after && !opt.checkpoint.empty())
    throw SpecError("a run that stops after a number of solutions cannot be checkpointed");
  r.split_depth = opt.split_depth;  // -1 until planned: default_split_depth
  r.split_level = p.describe_levels();
  r.threads = opt.threads ? opt.threads : static_cast<unsigned>(tbb::info::default_concurrency());
  r.shard_index = opt.shard_index;
  r.shard_count = opt.shard_count;
  r.has_total = p.has_group();
  r.dedup = hash_set ? "hash-set" : p.emits() == Emits::AllImages ? "canonical-filter" : "generator";
  r.kernel = kernel_of(p);
  // One thread has no one to hand work to; a stopped search wants its first
  // solutions, not a balanced tail.
  r.adaptive = opt.adaptive && !opt.stop_after && (r.threads > 1 || opt.split_always);
  return r;
}

// The whole search: each task at depth 0 (the roots) solved in its own
// context, cut once they have searched more than kProbeNodes nodes
// together (then nullopt).  Neither a stop nor an interrupt cuts it, so the
// verdict is the problem's alone.
template <Problem P>
using Contexts = std::vector<std::unique_ptr<TaskContext<P>>>;
template <Problem P>
std::optional<Contexts<P>> probe_whole(const P& p, const EmitPolicy& policy, const std::atomic<bool>& never) {
  Contexts<P> done;
  std::uint64_t nodes = 0;
  bool cut = false;
  p.expand(0, [&](const typename P::State& root, bool) {
    if (cut) return;
    auto ctx = std::make_unique<TaskContext<P>>(p, policy, never, nullptr);
    ctx->limit_nodes(kProbeNodes - nodes);
    const double c0 = thread_cpu_seconds();
    p.solve(root, *ctx);
    ctx->record.nodes = ctx->nodes;
    ctx->record.cpu_seconds = thread_cpu_seconds() - c0;
    nodes += ctx->nodes;
    cut = ctx->over_limit();
    done.push_back(std::move(ctx));
  });
  if (cut) return std::nullopt;
  return done;
}

}  // namespace detail

// Depth 0 for a search of at most kProbeNodes nodes, else the first depth
// with kTargetTasks tasks (core/planner.hpp).
template <Problem P>
int default_split_depth(const P& p) {
  const std::atomic<bool> never{false};
  return detail::probe_whole(p, {p.emits()}, never) ? 0 : split_depth_for_tasks(p);
}

namespace detail {

// The journal's header names everything that fixes the task list, so a
// journal can only resume the run that wrote it.
template <Problem P>
std::unique_ptr<Journal> open_journal(const P& p, const RunOptions& opt, const RunResult& r) {
  if (opt.checkpoint.empty()) return nullptr;
  const nlohmann::json header{
      {"problem", p.describe()},
      {"split_depth", r.split_depth},
      {"shard", to_string(Shard{r.shard_index, r.shard_count})},
      {"tasks", r.tasks}};
  auto journal = std::make_unique<Journal>(opt.checkpoint, header, opt.checkpoint_interval);
  for (const auto& [task, rec] : journal->done())
    if (task % r.shard_count != r.shard_index)
      throw CheckpointError("checkpoint " + opt.checkpoint + " is corrupt: task " + std::to_string(task) +
                            " is not in shard " + header.at("shard").get<std::string>());
  journal->drop_unlisted(opt.solutions);
  if (journal->resumed() && opt.on_resume) opt.on_resume(journal->resumed());
  return journal;
}

// Calls on_progress at most once per interval; runs under the merger's lock.
class ProgressClock {
 public:
  ProgressClock(const RunOptions& opt, std::chrono::steady_clock::time_point t0, std::uint64_t total)
      : opt_(opt), t0_(t0), last_(t0), total_(total) {}
  void tick(std::uint64_t done, std::uint64_t nodes, std::uint64_t pieces, std::uint64_t pieces_done) {
    if (!opt_.on_progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < opt_.progress_interval) return;
    last_ = now;
    opt_.on_progress({done, total_, nodes, std::chrono::duration<double>(now - t0_).count(), pieces, pieces_done});
  }

 private:
  const RunOptions& opt_;
  std::chrono::steady_clock::time_point t0_, last_;
  std::uint64_t total_;
};

// The merged record's counts and effort, into the result.
inline void take_totals(RunResult& r, const TaskRecord& total) {
  r.unique = total.unique;
  r.total = total.total;
  r.digest = total.digest;
  r.by_key = total.by_key;
  r.nodes = total.nodes;
  r.cpu_seconds = total.cpu_seconds;
}

// What every task and piece of a run shares.
template <Problem P>
struct Crew {
  const P& p;
  const RunOptions& opt;
  OrderedMerger<P>& merger;
  WorkGauge& gauge;
  SplitPolicy split;
  std::function<void()> progress;  // under the merger's lock
};

// The pieces one task hands out, made at its first hand-out, so a task that
// never splits pays nothing for them.  Deque slots keep their addresses.
template <Problem P>
struct Pieces {
  std::deque<std::unique_ptr<TaskContext<P>>> done;
  TaskGroup group;
};

// One task or piece, start to end, with every piece it hands out folded
// back in; null when it is skipped (stop or interrupt).
template <Problem P>
std::unique_ptr<TaskContext<P>> solve_task(const Crew<P>& crew, const typename P::State& task) {
  using State = typename P::State;
  crew.gauge.started();
  if (crew.merger.halt().load(std::memory_order_relaxed) ||
      (crew.opt.interrupt && crew.opt.interrupt->load(std::memory_order_relaxed)))
    return nullptr;
  // A piece starts the moment it is handed out, so an idle worker takes it
  // while this one still searches.
  std::unique_ptr<Pieces<P>> pieces;
  auto spawn = [&pieces, &crew](const State& s) {
    if (!pieces) pieces = std::make_unique<Pieces<P>>();
    auto* slot = &pieces->done.emplace_back();
    crew.gauge.queued(1);
    crew.gauge.piece_split();
    pieces->group.run([&crew, slot, s] {
      *slot = solve_task(crew, s);
      crew.gauge.piece_done();
      crew.merger.locked(crew.progress);
    });
  };
  auto ctx = std::make_unique<TaskContext<P>>(crew.p, crew.merger.emit_policy(), crew.merger.halt(),
                                              crew.opt.interrupt,
                                              typename TaskContext<P>::Splitting{crew.split, &crew.gauge, spawn});
  const double c0 = thread_cpu_seconds();
  try {
    crew.p.solve(task, *ctx);
  } catch (...) {
    crew.merger.fail(std::current_exception());
    if (pieces) pieces->group.wait();
    return nullptr;  // half a task is never folded or saved
  }
  ctx->record.nodes = ctx->nodes;
  ctx->record.cpu_seconds = thread_cpu_seconds() - c0;
  if (pieces) {
    pieces->group.wait();
    std::vector<std::unique_ptr<TaskContext<P>>> done(std::make_move_iterator(pieces->done.begin()),
                                                      std::make_move_iterator(pieces->done.end()));
    ctx->absorb(done);
  }
  return ctx;
}

// The probe's searches as the run's tasks (or the journal's records of them).
template <Problem P>
void fold_whole(const Crew<P>& crew, Contexts<P>& whole, Journal* ck, const RunResult& r) {
  const TaskSelection sel = select_tasks(0, whole.size(), {r.shard_index, r.shard_count},
                                         [&](std::uint64_t i) { return ck && ck->has(i); });
  crew.merger.begin_chunk(sel.run, sel.resumed);
  for (std::size_t k = 0; k < sel.run.size(); ++k) crew.merger.finish(k, std::move(whole[sel.run[k]]), crew.progress);
  crew.merger.rethrow();
}

// Runs one chunk of tasks on the scheduler; resumed tasks are folded from the journal.
template <Problem P>
void run_chunk(const Crew<P>& crew, const TaskChunk<typename P::State>& chunk, Journal* ck, const RunResult& r) {
  OrderedMerger<P>& merger = crew.merger;
  const TaskSelection sel = select_tasks(chunk.first, chunk.states.size(), {r.shard_index, r.shard_count},
                                         [&](std::uint64_t i) { return ck && ck->has(i); });
  merger.begin_chunk(sel.run, sel.resumed);
  crew.gauge.queued(static_cast<std::int64_t>(sel.run.size()));
  schedule(r.threads, sel.run.size(), [&](std::size_t k) {
    auto ctx = solve_task(crew, chunk.states[sel.run[k] - chunk.first]);
    merger.finish(k, std::move(ctx), crew.progress);
  });
  merger.rethrow();
}

// The streamed tasks, chunk by chunk, until the list ends or the run stops;
// returns how many tasks were planned.
template <Problem P, class Stopping>
std::uint64_t run_stream(const Crew<P>& crew, Journal* ck, const RunResult& r, Stopping&& stopping) {
  std::uint64_t planned = 0;
  TaskStream<P> stream(crew.p, r.split_depth, crew.opt.task_chunk);
  TaskChunk<typename P::State> chunk;
  while (!stopping() && stream.next(chunk)) {
    run_chunk(crew, chunk, ck, r);
    planned = chunk.first + chunk.states.size();
  }
  return planned;
}

}  // namespace detail

template <Problem P>
RunResult run(const P& p, const RunOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = detail::echo(p, opt);
  const MergePolicy policy{r.dedup == "hash-set", opt.solutions, opt.stop_after, opt.dedup_memory, opt.on_solution};
  // A stopped search wants its first solutions at once, not a probe first.
  const std::atomic<bool> never{false};
  std::optional<detail::Contexts<P>> whole;
  if (r.split_depth < 0 && !opt.stop_after) whole = detail::probe_whole(p, OrderedMerger<P>::emit_policy(p, policy), never);
  if (r.split_depth < 0) r.split_depth = whole ? 0 : split_depth_for_tasks(p);
  r.tasks = whole ? whole->size() : count_tasks(p, r.split_depth);
  const std::unique_ptr<Journal> ck = detail::open_journal(p, opt, r);
  r.tasks_resumed = ck ? ck->resumed() : 0;
  const std::uint64_t mine = shard_size(r.tasks, {r.shard_index, r.shard_count});

  OrderedMerger<P> merger(p, policy, ck.get());
  WorkGauge gauge(r.threads);
  detail::ProgressClock progress(opt, t0, mine);
  const detail::Crew<P> crew{p, opt, merger, gauge, {r.adaptive, std::max<std::uint64_t>(opt.split_nodes, 1), opt.split_always},
                             [&] {
                               progress.tick(merger.folded() + r.tasks_resumed, merger.total().nodes, gauge.pieces(),
                                             gauge.pieces_done());
                             }};
  auto stopping = [&] {
    return merger.halt().load() || (opt.interrupt && opt.interrupt->load());
  };
  std::uint64_t planned = r.tasks;
  if (whole) detail::fold_whole(crew, *whole, ck.get(), r);
  else planned = detail::run_stream(crew, ck.get(), r, stopping);

  r.interrupted = opt.interrupt && opt.interrupt->load();
  if (ck) {
    ck->flush();
    r.tasks_saved = ck->saved();
    r.task_sources = ck->sources();
  }
  detail::take_totals(r, merger.total());
  // Chunks never started after a stop leave the run as incomplete as skipped tasks do.
  r.exhaustive = merger.exhaustive() && planned == r.tasks;
  r.tasks_run = merger.tasks_run();
  r.pieces = gauge.pieces();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace magic
