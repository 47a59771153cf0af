#pragma once
// What a run is asked (RunOptions) and what it answers (RunResult), apart
// from the runner's templates (magic/runner.hpp): the CLI, the result
// writer and the reports need these types, not the search.
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/digest.hpp"
#include "magic/table_stats.hpp"

namespace magic {

enum class DedupMode { Auto, HashSet };

struct Progress {
  std::uint64_t tasks_done = 0;
  std::uint64_t tasks_total = 0;
  std::uint64_t nodes = 0;
  double elapsed = 0;
  std::uint64_t pieces = 0;       // split off so far (adaptive splitting)
  std::uint64_t pieces_done = 0;
};

// The default split depth is the first level with this many tasks: enough
// to balance dozens of threads, few enough that a task's fixed cost stays
// small.  It does not depend on the thread count, so a checkpoint written on
// one machine resumes on another.
inline constexpr std::uint64_t kTargetTasks = 1000;

// The window of solutions held for tasks that finish ahead of their turn
// (RunOptions::hold_bytes): at 16 threads, 56 of the 64 MiB that issue 65
// allows (perf/results/memory.md).
inline constexpr std::size_t kDefaultHoldBytes = std::size_t{16} << 20;

struct RunOptions {
  unsigned threads = 0;        // 0 = all cores
  int split_depth = -1;        // -1 = the first level with kTargetTasks tasks
  std::uint64_t solutions = 0; // how many solutions to hand to on_solution
  std::uint64_t limit = 0;  // 0 = exhaustive; else stop after this many (in task order)
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  DedupMode dedup = DedupMode::Auto;
  std::size_t dedup_memory = std::size_t{4} << 30;
  std::function<void(const nlohmann::json&)> on_solution;
  std::function<void(const Progress&)> on_progress;
  double progress_interval = 1.0;
  const std::atomic<bool>* interrupt = nullptr;  // set from a signal handler
  std::string checkpoint;                        // journal of finished tasks; "" = none
  double checkpoint_interval = 2.0;              // most seconds between syncs of the journal
  std::function<void(std::uint64_t tasks)> on_resume;  // a checkpoint held this many tasks
  std::size_t task_chunk = std::size_t{1} << 16;     // tasks planned and scheduled at a time
  // Adaptive splitting (core/split.hpp): a task that has searched
  // split_nodes nodes while a worker waits hands out its untried siblings.
  bool adaptive = true;
  std::uint64_t split_nodes = std::uint64_t{1} << 20;
  bool split_always = false;  // split whenever the budget is spent (tests)
  // Solutions of tasks that finish ahead of their turn: at most hold_bytes
  // stay in memory, the rest wait in an unlinked file in spill_directory
  // ("": $TMPDIR or /tmp), so memory does not grow with the threads.
  std::size_t hold_bytes = kDefaultHoldBytes;
  std::string spill_directory;
};

// The ranges every front end checks run options against: the CLI's
// validators and run_options_from_json read this one table.
namespace run_limits {
inline constexpr unsigned kMaxThreads = 4096;
inline constexpr int kMaxSplitDepth = 64;
inline constexpr double kMaxCheckpointInterval = 3600;  // seconds
}  // namespace run_limits

// "auto" or "hash-set".
std::optional<DedupMode> parse_dedup(std::string_view text);

// The one table of options a user sets by name, a row each.  The JSON
// reader (run_options_from_json, which the Python module calls) checks
// names, types and ranges against it; the CLI's common options take their
// flags, help and ranges from it; the Python module's keywords
// (magicount.RUN_OPTIONS) are its rows that Python has.  tests/test_options.cpp
// holds docs/cli.md's table, --help and the Python module to it.
enum class OptionType {
  Whole,    // an integer in [lo, hi], or `unset` (the default) from JSON
  Seconds,  // a number of seconds in [lo, hi]
  Text,     // a string (a path, i/m, a choice)
  Flag,     // true or false
};
struct OptionRow {
  const char* name;   // the key in JSON and Python
  const char* flags;  // the CLI's (CLI11's "--long,-s")
  OptionType type;
  std::int64_t lo = 0, hi = 0;
  std::int64_t unset = 0;  // Whole: a value JSON and Python may give for "the default" (lo: none)
  const char* help = "";
  // Why the Python module lacks it (nullptr: Python has it, as `name`).
  const char* not_in_python = nullptr;
};
inline constexpr std::int64_t kNoBound = INT64_MAX;
inline constexpr OptionRow kOptions[] = {
    {"threads", "--threads,-t", OptionType::Whole, 1, run_limits::kMaxThreads, 0,
     "worker threads (default: all cores)"},
    {"split_depth", "--split-depth", OptionType::Whole, 0, run_limits::kMaxSplitDepth, -1,
     "cut the search tree into tasks this many levels below the root"},
    {"split_nodes", "--split-nodes", OptionType::Whole, 1, kNoBound, 1,
     "a task that has searched this many nodes hands its untried branches to idle workers "
     "(results do not depend on it)"},
    {"adaptive", "--no-adaptive", OptionType::Flag, 0, 0, 0,
     "keep every task whole: no splitting of big tasks at run time"},
    {"limit", "--limit", OptionType::Whole, 0, kNoBound, 0, "stop after this many unique solutions (0 = exhaustive)"},
    {"shard", "--shard", OptionType::Text, 0, 0, 0, "run only tasks i, i+m, i+2m, ... given as i/m (m < 2^32)"},
    {"checkpoint", "--checkpoint", OptionType::Text, 0, 0, 0,
     "journal finished tasks, with the solutions they list, to FILE; rerunning the same command resumes from it"},
    {"checkpoint_interval", "--checkpoint-interval", OptionType::Seconds, 0,
     static_cast<std::int64_t>(run_limits::kMaxCheckpointInterval), 0,
     "most seconds between syncs of the checkpoint journal to disk (0 = after every task)"},
    {"dedup", "--dedup", OptionType::Text, 0, 0, 0, "deduplication: auto (use symmetry breaking) or hash-set"},
    {"dedup_memory", "--dedup-memory", OptionType::Whole, 1, std::int64_t{1} << 20, 1,
     "memory limit of the hash set, MiB"},
    // What the CLI writes, and how; a library caller gets the result itself.
    {"json", "--json", OptionType::Text, 0, 0, 0, "write the JSON result to FILE ('-' = stdout)",
     "count() returns the result as a dict; json.dump writes it"},
    {"solutions", "--solutions", OptionType::Text, 0, 0, 0, "solutions to output: none, all or a number",
     "solutions() yields every solution; leaving the loop stops the search"},
    {"solutions_file", "--solutions-file", OptionType::Text, 0, 0, 0,
     "stream solutions to FILE as JSON Lines ('-' = stdout; implies --solutions all unless given)",
     "solutions() streams them"},
    {"quiet", "--quiet,-q", OptionType::Flag, 0, 0, 0, "no human summary or progress", "Python prints nothing"},
    {"svg", "--svg", OptionType::Text, 0, 0, 0, "draw the first 4 solutions into FILE (SVG; '-' = stdout)",
     "a Result draws itself in Jupyter (_repr_svg_); render_svg draws any"},
};

// The row of `name` (a JSON key), or nullptr.
const OptionRow* option_row(std::string_view name);

// The run options a library front end (the Python module) passes by name:
// the rows of kOptions that Python has, as JSON ({"threads": 2, ...}).
// Throws SpecError naming the option.
RunOptions run_options_from_json(const nlohmann::json& options);

// What the coordinator of a run across ranks learns of one rank (magic/cluster.hpp).
struct RankStats {
  std::string source;  // the build the rank runs (BuildInfo::source)
  std::string kernel;  // the copy of the search code it runs (RunResult::kernel)
  unsigned threads = 0;
  std::uint64_t tasks = 0;
  std::uint64_t nodes = 0;
  double cpu_seconds = 0;
  std::uint64_t pieces = 0;
};

struct ClusterStats {
  std::vector<RankStats> ranks;        // rank r at [r]
  std::uint64_t messages = 0;          // both ways
  std::uint64_t bytes = 0;
  std::uint64_t pieces_shared = 0;     // pieces a rank gave the coordinator for any rank
  double coordinator_cpu_seconds = 0;  // rank 0's coordinating thread
  int lost_rank = -1;                  // a rank that stopped before the run was over
};

struct RunResult {
  std::uint64_t unique = 0;
  std::uint64_t total = 0;
  bool has_total = false;
  Digest digest;
  // What `digest` is: "solutions" (of the canonical solutions) or, for a
  // run that counts without enumerating, "additive" (magic/digest.hpp).
  std::string digest_kind = "solutions";
  // An enumeration of a problem that also sums the additive digest.
  bool has_additive = false;
  Digest additive;
  std::map<std::int64_t, std::uint64_t> by_key;
  TableStats tables;  // a counting run's (table_stats.hpp)
  bool exhaustive = true;   // false when stopped early (limit or interrupt)
  bool interrupted = false;
  std::string dedup;        // "generator", "canonical-filter" or "hash-set"
  // Which copy of the search code ran, for a problem that has more than one
  // (the star chain: "bmi2" or "portable"); empty otherwise.
  std::string kernel;
  std::string search;  // the search and its revision (P::kSearch, core/problem.hpp)
  unsigned threads = 0;
  int split_depth = 0;
  std::string split_level;          // what one level of split_depth is, for this problem
  std::uint64_t tasks = 0;          // tasks in the whole problem
  std::uint64_t tasks_run = 0;      // tasks executed by this run
  std::uint64_t tasks_resumed = 0;  // tasks taken from a checkpoint
  std::uint64_t tasks_saved = 0;    // tasks the checkpoint holds at the end
  // With a checkpoint: how many of the saved tasks each build (commit) ran.
  std::map<std::string, std::uint64_t> task_sources;
  bool adaptive = false;            // adaptive splitting was on
  std::uint64_t pieces = 0;         // pieces split off running tasks
  std::uint64_t tasks_spilled = 0;  // finished ahead of their turn, solutions moved to the spill file
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 1;
  std::uint64_t nodes = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
  std::optional<ClusterStats> cluster;  // only for a run across ranks
};

// Planning a small search costs more than the search: finding the default
// depth, counting the tasks and streaming them each walk the tree above the
// split again, and handing tasks to threads costs more than solving them.
// So a run at the default depth first solves the whole tree (the tasks at
// depth 0) on the calling thread, and keeps it when it ends within kProbeNodes nodes
// (a few milliseconds).  The verdict depends only on the problem's node
// count, so every run, rank, shard and resume plans alike.
inline constexpr std::uint64_t kProbeNodes = std::uint64_t{1} << 16;

}  // namespace magic
