#include "magic/runner.hpp"

#include <string_view>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tbb/info.h>

#include "magic/core/error.hpp"
#include "runner_parts.hpp"

namespace magic {

namespace detail {

unsigned resolve_threads(unsigned threads) {
  return threads ? threads : static_cast<unsigned>(tbb::info::default_concurrency());
}

bool splits_adaptively(const RunOptions& opt, unsigned threads) {
  return opt.adaptive && !opt.limit && (threads > 1 || opt.split_always);
}

RunResult start_result(const AnyProblem& p, const RunOptions& opt) {
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
  if (opt.limit && !opt.checkpoint.empty())
    throw SpecError("a run that stops after a number of solutions cannot be checkpointed");
  // A counting problem emits nothing: no solution to list, stop at or dedup.
  if (std::string_view(p.digest_kind()) == "additive") {
    if (opt.solutions) throw SpecError("a counting run (--count) lists no solutions: drop --solutions");
    if (opt.limit) throw SpecError("a counting run (--count) counts whole tasks: it cannot stop after a number of solutions");
    if (hash_set) throw SpecError("a counting run (--count) has no solutions to deduplicate: drop --dedup");
  }
  r.split_depth = opt.split_depth;  // -1 until planned: default_split_depth
  r.split_level = p.describe_levels();
  r.threads = resolve_threads(opt.threads);
  r.shard_index = opt.shard_index;
  r.shard_count = opt.shard_count;
  r.has_total = p.has_group();
  r.dedup = hash_set ? "hash-set" : p.emits() == Emits::AllImages ? "canonical-filter" : "generator";
  r.kernel = p.kernel();
  r.search = p.search();
  r.digest_kind = p.digest_kind();
  r.has_additive = p.has_additive();
  r.adaptive = splits_adaptively(opt, r.threads);
  return r;
}

std::unique_ptr<Journal> open_journal(const AnyProblem& p, const RunOptions& opt, const RunResult& r) {
  if (opt.checkpoint.empty()) return nullptr;
  const nlohmann::json header{
      {"problem", p.describe()},
      {"search", r.search},
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

void ProgressClock::tick(std::uint64_t done, std::uint64_t nodes, std::uint64_t pieces, std::uint64_t pieces_done) {
  if (!opt_.on_progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_).count() < opt_.progress_interval) return;
  last_ = now;
  opt_.on_progress({done, total_, nodes, std::chrono::duration<double>(now - t0_).count(), pieces, pieces_done});
}

void take_totals(RunResult& r, const TaskRecord& total) {
  r.unique = total.unique;
  r.total = total.total;
  r.digest = total.digest;
  r.additive = total.additive;
  r.by_key = total.by_key;
  r.nodes = total.nodes;
  r.cpu_seconds = total.cpu_seconds;
  r.tables = total.tables;
}

TaskSelection select_unjournalled(std::uint64_t first, std::size_t n, const RunResult& r, const Journal* journal) {
  return select_tasks(first, n, {r.shard_index, r.shard_count},
                      [&](std::uint64_t i) { return journal && journal->has(i); });
}

namespace {

// The pieces one task hands out, made at its first hand-out, so a task that
// never splits pays nothing for them.  Deque slots keep their addresses.
struct Pieces {
  explicit Pieces(unsigned threads) : group(threads) {}
  std::deque<std::unique_ptr<TaskCore>> done;
  TaskGroup group;
};

// What follows every solve(): the count check that emit() leaves to the
// caller (an InputError if a count passed 2^64 - 1), then the task's nodes
// and CPU seconds (+=: a solver's side searches add theirs) in its record.
void close_record(TaskCore& ctx, double cpu_at_start) {
  if (ctx.counts_wrapped()) count_overflow("a task's counts");
  ctx.record.nodes = ctx.nodes;
  ctx.record.cpu_seconds += thread_cpu_seconds() - cpu_at_start;
}

}  // namespace

std::unique_ptr<TaskCore> solve_task(const TaskTeam& team, const std::byte* task) {
  team.gauge.started();
  if (team.stop.requested()) return nullptr;
  // A piece starts the moment it is handed out, so an idle worker takes it
  // while this one still searches.
  std::unique_ptr<Pieces> pieces;
  const std::size_t state_size = team.p.state_size();
  auto spawn = [&pieces, &team, state_size](const std::byte* s) {
    if (!pieces) pieces = std::make_unique<Pieces>(team.gauge.threads());
    auto* slot = &pieces->done.emplace_back();
    team.gauge.queued(1);
    team.gauge.piece_split();
    pieces->group.run([&team, slot, state = std::vector<std::byte>(s, s + state_size)] {
      *slot = solve_task(team, state.data());
      team.gauge.piece_done();
      if (team.piece_done) team.piece_done();
    });
  };
  auto ctx = team.p.context(team.emit, team.stop, TaskCore::Splitting{team.split, &team.gauge, spawn, team.send_away});
  const double c0 = thread_cpu_seconds();
  try {
    team.p.solve(task, *ctx);
    close_record(*ctx, c0);
  } catch (...) {
    team.stop.fail(std::current_exception());
    if (pieces) pieces->group.wait();
    return nullptr;  // half a task is never folded or saved
  }
  std::vector<std::unique_ptr<TaskCore>> done;
  if (pieces) {
    pieces->group.wait();
    done.assign(std::make_move_iterator(pieces->done.begin()), std::make_move_iterator(pieces->done.end()));
  }
  ctx->absorb(done);  // also when every piece went away
  return ctx;
}

namespace {

// The whole search: each task at depth 0 (the roots) solved in its own
// context, cut once they have searched more than kProbeNodes nodes
// together (then nullopt).  Nothing but that limit cuts it (its Stop is
// its own), so the verdict is the problem's alone.
using Contexts = std::vector<std::unique_ptr<TaskCore>>;
std::optional<Contexts> probe_whole(const AnyProblem& p, const EmitPolicy& policy) {
  const Stop no_stop;
  Contexts done;
  std::uint64_t nodes = 0;
  bool cut = false;
  auto each = [&](const std::byte* root, bool) {
    if (cut) return;
    auto ctx = p.context(policy, no_stop);
    ctx->limit_nodes(kProbeNodes - nodes);
    const double c0 = thread_cpu_seconds();
    p.solve(root, *ctx);
    close_record(*ctx, c0);
    nodes += ctx->nodes;
    cut = ctx->over_limit();
    done.push_back(std::move(ctx));
  };
  p.cut(0, each);
  if (cut) return std::nullopt;
  return done;
}

// Where a single process's tasks go: the merger, then the progress line.
struct Folding {
  OrderedMerger& merger;
  std::function<void()> progress;  // under the merger's lock
  Journal* journal;
};

// The probe's searches as the run's tasks (or the journal's records of them).
void fold_probe(const Folding& fold, Contexts& probed, const RunResult& r) {
  const TaskSelection sel = select_unjournalled(0, probed.size(), r, fold.journal);
  fold.merger.begin_chunk(sel.run, sel.resumed);
  for (std::size_t k = 0; k < sel.run.size(); ++k) fold.merger.finish(k, std::move(probed[sel.run[k]]), fold.progress);
}

// Runs one chunk of tasks on the scheduler; resumed tasks are folded from the journal.
void run_chunk(const TaskTeam& team, const Folding& fold, const TaskChunk& chunk, const RunResult& r) {
  const TaskSelection sel = select_unjournalled(chunk.first, chunk.size(), r, fold.journal);
  fold.merger.begin_chunk(sel.run, sel.resumed);
  team.gauge.queued(static_cast<std::int64_t>(sel.run.size()));
  schedule(r.threads, sel.run.size(), [&](std::size_t k) {
    auto ctx = solve_task(team, chunk.state(sel.run[k] - chunk.first));
    fold.merger.finish(k, std::move(ctx), fold.progress);
  });
}

// The streamed tasks, chunk by chunk, until the list ends or the run stops;
// returns how many tasks were planned.
std::uint64_t run_stream(const TaskTeam& team, const Folding& fold, const RunResult& r, std::size_t task_chunk) {
  std::uint64_t planned = 0;
  TaskStream stream(team.p, r.split_depth, task_chunk, r.tasks);
  TaskChunk chunk;
  while (!team.stop.requested() && stream.next(chunk)) {
    run_chunk(team, fold, chunk, r);
    team.stop.rethrow();
    planned = chunk.first + chunk.size();
  }
  return planned;
}

}  // namespace

}  // namespace detail

int default_split_depth(const AnyProblem& p) {
  return detail::probe_whole(p, {p.emits()}) ? 0 : split_depth_for_tasks(p);
}

RunResult run(const AnyProblem& p, const RunOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = detail::start_result(p, opt);
  const MergePolicy policy{r.dedup == "hash-set", opt.solutions,    opt.limit,     opt.dedup_memory,
                           opt.on_solution,        opt.hold_bytes, opt.spill_directory};
  // A stopped search wants its first solutions at once, not a probe first.
  std::optional<detail::Contexts> probed;
  if (r.split_depth < 0 && !opt.limit) probed = detail::probe_whole(p, OrderedMerger::emit_policy(p, policy));
  if (r.split_depth < 0) r.split_depth = probed ? 0 : split_depth_for_tasks(p);
  r.tasks = probed ? probed->size() : count_tasks(p, r.split_depth);
  const std::unique_ptr<Journal> journal = detail::open_journal(p, opt, r);
  r.tasks_resumed = journal ? journal->resumed() : 0;
  const std::uint64_t shard_tasks = shard_size(r.tasks, {r.shard_index, r.shard_count});

  Stop stop(opt.interrupt);
  OrderedMerger merger(p, policy, journal.get(), stop);
  WorkGauge gauge(r.threads);
  detail::ProgressClock progress(opt, t0, shard_tasks);
  const detail::Folding fold{merger,
                             [&] {
                               progress.tick(merger.folded() + r.tasks_resumed, merger.total().nodes, gauge.pieces(),
                                             gauge.pieces_done());
                             },
                             journal.get()};
  const detail::TaskTeam team{p,
                              merger.emit_policy(),
                              stop,
                              gauge,
                              {r.adaptive, std::max<std::uint64_t>(opt.split_nodes, 1), opt.split_always},
                              [&] { merger.locked(fold.progress); }};
  std::uint64_t planned = r.tasks;
  if (probed) detail::fold_probe(fold, *probed, r);
  else planned = detail::run_stream(team, fold, r, opt.task_chunk);
  stop.rethrow();

  r.interrupted = stop.interrupted();
  if (journal) {
    journal->flush();
    r.tasks_saved = journal->saved();
    r.task_sources = journal->sources();
  }
  detail::take_totals(r, merger.total());
  // Chunks never started after a stop leave the run as incomplete as skipped
  // tasks do; and a signal may have cut a task that stops after a few
  // solutions, which the merger cannot tell from one that found them.
  r.exhaustive = merger.exhaustive() && planned == r.tasks && !r.interrupted;
  r.tasks_run = merger.tasks_run();
  r.tasks_spilled = merger.spilled();
  r.pieces = gauge.pieces();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace magic
