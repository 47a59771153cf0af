#pragma once
// Options every search subcommand shares, and the pieces of its report;
// cli_run.cpp is the one path from a spec to JSON, a summary and an exit code.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/result.hpp"
#include "magic/core/shard.hpp"
#include "magic/job.hpp"
#include "magic/run_options.hpp"

namespace cli {

// An interrupted run exits 128 + the signal: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP).
enum Exit { kOk = 0, kNoSolution = 1, kUsage = 2, kUndecided = 3, kInternal = 70 };

// Every exit code, for --help; docs/json.md's table lists the same codes
// (a test compares them).
struct ExitCodeText {
  const char* codes;
  const char* meaning;
};
inline constexpr ExitCodeText kExitCodes[] = {
    {"0", "success"},
    {"1", "no solution (complete), a reproduce mismatch or a verify failure"},
    {"2", "usage error or bad input (one line on stderr)"},
    {"3", "undecided (complete): no completion found within the node budget, and none ruled out"},
    {"129, 130, 143", "stopped by SIGHUP, SIGINT or SIGTERM (rerun with the same --checkpoint to resume)"},
    {"141", "killed by SIGPIPE (stdout's reader went away)"},
    {"70", "internal error (a bug: please report it)"},
};

// A usage or input error: one line on stderr, exit code 2.
struct UsageError : magic::Error {
  using magic::Error::Error;
};

// The common options' values.  Their defaults are the library's
// (magic::RunOptions), and --help prints them from here: no number is
// written twice (docs/cli.md's table is checked against --help by a test).
struct Common {
  unsigned threads = 0;  // 0: all cores
  int split_depth = -1;  // -1: the runner's choice
  std::string json;
  std::string solutions = "none";
  std::string solutions_file;
  std::string shard = "0/1";
  std::string checkpoint;
  double checkpoint_interval = magic::RunOptions{}.checkpoint_interval;
  std::string dedup = "auto";
  std::uint64_t limit = 0;
  std::size_t dedup_memory_mib = magic::RunOptions{}.dedup_memory >> 20;
  bool no_adaptive = false;
  std::uint64_t split_nodes = magic::RunOptions{}.split_nodes;
  bool quiet = false;
  std::string svg;  // only for problems with a picture (add_svg_option)
};

// `levels` says what one level of --split-depth is for this problem.
// A whole number, decimal only (no sign, octal, hex or exponent).  Give it
// with ->transform, not ->check: it hands on the number without leading
// zeros, and a check's change is thrown away.
const CLI::Validator& whole_number();
void add_common(CLI::App* app, Common& c, const std::string& levels);
void add_svg_option(CLI::App* app, Common& c);
// CLI11 check for an output path: '' is a mistake, not "no file".
const CLI::Validator& file_name();
inline constexpr std::uint64_t kSvgSolutions = 4;
std::atomic<bool>& interrupt_flag();
// SIGINT, SIGTERM and SIGHUP set interrupt_flag(); a second one exits at once.
void install_signal_handlers();
int interrupt_exit_code();  // 128 + the signal that stopped the run
// Held while the result is written: a second signal then exits when the
// write is done (the whole document on stdout), not in the middle of it.
struct FinalWrite {
  FinalWrite();
  ~FinalWrite();
  FinalWrite(const FinalWrite&) = delete;
  FinalWrite& operator=(const FinalWrite&) = delete;
};

// How many solutions the user asked for (0 = none).
std::uint64_t solutions_wanted(const Common& c);

// What a subcommand adds to the common run and report.
struct Printer {
  std::function<void(std::ostream&, const nlohmann::json&)> human_solution;
  nlohmann::json extra;  // merged into the top-level result object
  // Optional: more top-level fields, from the finished run.
  std::function<nlohmann::json(const magic::RunResult&)> extra_of;
  // Optional: the exit code of a finished run (default kOk); may explain itself on stderr.
  std::function<int(const magic::RunResult&)> exit_code;
};

// Runs the Job with the common options and reports the result; returns
// the exit code.
int execute(const magic::Job& job, const Common& c, const Printer& pr);

magic::RunOptions run_options(const Common& c, std::uint64_t want);
magic::Shard parse_shard(const std::string& text);  // "i/m", strictly; a UsageError otherwise
// Before any work: output paths distinct from each other and from the
// checkpoint, at most one stream on stdout, and the option mixes that
// cannot work.  UsageError otherwise.
void check_outputs(const Common& c);
// Whether the human summary goes to stdout (nothing else does, and not --quiet).
bool summary_on_stdout(const Common& c);
// `echo` names the problem (Job::echo_line).
void print_summary(std::ostream& os, const std::string& echo, const magic::RunResult& r,
                   const std::string& by_key_name);
void print_grid(std::ostream& os, const nlohmann::json& rows);  // a square's rows, then a blank line
// A star's or a figure's solution on one line: the numbers by point, the
// common sum, then every line's sum.
void print_points_and_sums(std::ostream& os, const nlohmann::json& solution);
// A circle's numbers, as the document prints them: "[ 1 3 10 2 5 ]".
void print_numbers(std::ostream& os, const nlohmann::json& solution);
// A graph's labelling: "vertices [ 1 5 3 ]  edges [ 6 2 4 ]  sum 12".
void print_labels(std::ostream& os, const nlohmann::json& solution);
// The progress line (rewritten in place with \r and an ANSI erase) only
// on a terminal, and not with NO_COLOR set.
bool live_progress();
// UsageError if writing `output` (given with `flag`) would replace the input
// file `input` (the same path, a link to it, or a hard link).
void check_not_input(const char* flag, const std::string& output, const std::string& input);
// The same for every file the run writes (--json, --solutions-file, --svg, --checkpoint).
void check_not_input(const Common& c, const std::string& input);
void check_writable(const std::string& path);  // UsageError if its directory is missing
void write_svg(const std::string& path, magic::Picture picture, const nlohmann::json& problem,
               const std::vector<nlohmann::json>& sols);
void print_progress(const magic::Progress& p);  // one \r-refreshed line on stderr
void end_progress();

}  // namespace cli
