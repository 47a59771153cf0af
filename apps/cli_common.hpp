#pragma once
// Options every search subcommand shares, and the one place that turns a
// RunResult into JSON, a human summary and an exit code.
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

#include "magic/checkpoint.hpp"
#include "magic/result.hpp"
#include "magic/runner.hpp"

namespace cli {

enum Exit { kOk = 0, kNoSolution = 1, kUsage = 2, kInterrupted = 3 };

// A usage or input error: one line on stderr, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Common {
  unsigned threads = 0;
  int split_depth = -1;
  std::string json;
  std::string solutions = "none";
  std::string solutions_file;
  std::string shard = "0/1";
  std::string checkpoint;
  std::string dedup = "auto";
  std::uint64_t limit = 0;
  std::size_t dedup_memory_mib = 4096;
  bool quiet = false;
  std::string svg;  // only for problems with a picture (add_svg_option)
};

void add_common(CLI::App* app, Common& c);
void add_svg_option(CLI::App* app, Common& c);
inline constexpr std::uint64_t kSvgSolutions = 4;
std::atomic<bool>& interrupt_flag();
void install_signal_handlers();

// How many solutions the user asked for (0 = none).
std::uint64_t solutions_wanted(const Common& c);

struct Printer {
  std::string by_key_name;  // name of counts.by_key, "" to omit
  std::function<void(std::ostream&, const nlohmann::json&)> human_solution;
  std::function<void(std::ostream&, const magic::RunResult&)> human_counts;
  nlohmann::json extra;     // merged into the top-level result object
  // Optional: the exit code of a finished run (default kOk); may explain itself on stderr.
  std::function<int(const magic::RunResult&)> exit_code;
};

// Runs `p` with the common options and reports the result; returns the exit code.
template <class P>
int execute(const P& p, const Common& c, const Printer& pr);

// Implementation -----------------------------------------------------------

magic::RunOptions run_options(const Common& c, std::uint64_t want);
void print_summary(std::ostream& os, const nlohmann::json& problem, const magic::RunResult& r,
                   const Printer& pr);
std::string problem_line(const nlohmann::json& problem);
bool stderr_is_terminal();
void check_writable(const std::string& path);  // UsageError if its directory is missing
void write_svg(const std::string& path, const nlohmann::json& problem, const std::vector<nlohmann::json>& sols);
void print_progress(const magic::Progress& p);  // one \r-refreshed line on stderr
void end_progress();

template <class P>
int execute(const P& p, const Common& c, const Printer& pr) {
  const std::uint64_t want = solutions_wanted(c);
  const bool to_stdout = c.json == "-";
  if (c.checkpoint.size() && (want || !c.solutions_file.empty()))
    throw UsageError("--checkpoint cannot be combined with --solutions or --solutions-file");
  magic::RunOptions ro = run_options(c, want);
  const nlohmann::json problem = p.describe();

  std::optional<magic::Checkpoint> ck;
  if (!c.checkpoint.empty()) {
    ck.emplace(c.checkpoint, nlohmann::json{{"problem", problem},
                                            {"split_depth", ro.split_depth >= 0 ? ro.split_depth
                                                                                : p.default_split_depth()},
                                            {"shard", c.shard}});
    if (ck->load() && !c.quiet)
      std::cerr << "resuming from " << c.checkpoint << " (" << ck->done().size() << " tasks done)\n";
    ro.checkpoint = &*ck;
  }
  if (!c.svg.empty()) check_writable(c.svg);
  magic::ResultWriter out(c.json, c.solutions_file, want > 0 && !c.json.empty());
  out.begin(problem);
  const bool print_solutions = want && c.json.empty() && c.solutions_file.empty() && !c.quiet;
  std::vector<nlohmann::json> pictured;
  if (!c.svg.empty()) ro.solutions = std::max(want, kSvgSolutions);
  std::uint64_t handed = 0;
  ro.on_solution = [&](const nlohmann::json& s) {
    if (pictured.size() < kSvgSolutions && !c.svg.empty()) pictured.push_back(s);
    if (handed++ >= want) return;
    out.solution(s);
    if (print_solutions) pr.human_solution(std::cout, s);
  };
  if (!c.quiet && stderr_is_terminal()) ro.on_progress = print_progress;
  install_signal_handlers();
  const magic::RunResult r = magic::run(p, ro);
  if (ro.on_progress) end_progress();

  nlohmann::json rest{{"counts", magic::counts_json(r, pr.by_key_name)},
                      {"exhaustive", r.exhaustive},
                      {"digest", r.digest.hex()},
                      {"run", magic::run_json(r)}};
  for (auto it = pr.extra.begin(); it != pr.extra.end(); ++it) rest[it.key()] = it.value();
  if (r.interrupted) {
    if (ck) {
      std::cerr << "interrupted: " << ck->done().size() << " of " << r.tasks
                << " tasks saved in " << c.checkpoint << "; rerun the same command to resume\n";
    } else {
      std::cerr << "interrupted; no result written (use --checkpoint FILE to make runs resumable)\n";
    }
    return kInterrupted;
  }
  if (!c.svg.empty()) write_svg(c.svg, problem, pictured);
  out.finish(rest);
  if (!to_stdout && !c.quiet) print_summary(std::cout, problem, r, pr);
  return pr.exit_code ? pr.exit_code(r) : kOk;
}

}  // namespace cli
