// What the completion's subcommand adds to its table
// (CompleteFamily::command): the grid FILE, the modes (first completion,
// --solutions N, --all, --count), the node budget and the exit codes.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <unistd.h>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "commands.hpp"
#include "magic/io.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

struct CompleteArgs {
  std::string input = "-";
  bool count = false;
  bool all = false;
  std::optional<std::uint64_t> budget;
};

// A grid is a few hundred bytes; read_file's 1 MiB cap keeps
// `yes | magicount complete` or a wrong multi-gigabyte file from hanging.
std::string read_input(const std::string& path) {
  if (path == "-" && ::isatty(STDIN_FILENO)) throw UsageError("no input: give a grid FILE or pipe a grid into stdin");
  return magic::read_file(path);
}

int run(const CompleteArgs& a, const CLI::App& sub, const FamilyCli& cli) {
  nlohmann::json spec = cli.spec();
  Common c = cli.common();
  // Modes: first completion (default), --solutions N (up to N), --all, --count.
  std::string mode;
  if (a.count) {
    if (!c.solutions_file.empty()) throw UsageError("--count outputs no completions; use --all with --solutions-file");
    mode = "count";
  } else if (a.all) {
    c.solutions = "all";
    mode = "all";
  } else if (sub.count("--solutions")) {
    const std::uint64_t n = solutions_wanted(c);  // validates the value
    if (c.solutions == "all") {
      mode = "all";
    } else if (n == 0) {
      mode = "count";
    } else {
      if (c.limit == 0) c.limit = n;
      mode = "solutions";
    }
  } else {
    if (c.limit == 0) c.limit = 1;
    c.solutions = std::to_string(c.limit);
    mode = c.limit == 1 ? "first" : "solutions";
  }
  if (!c.checkpoint.empty() && mode != "count") throw UsageError("--checkpoint works only with --count");
  const bool restarts = c.limit != 0;  // first completions: the restart search (complete.hpp)
  if (a.budget && !restarts)
    throw UsageError("--budget bounds the search for the first completions; --count and --all search the whole tree");

  check_not_input(c, a.input);
  const std::string grid = cluster::shared_input([&] { return read_input(a.input); });
  spec["grid"] = grid;
  spec["mode"] = restarts ? "first" : "count";
  if (a.budget) spec["budget"] = *a.budget;
  const magic::Job job = cli.make_job(spec);  // a bad grid is refused here
  const std::string impossible = job.no_solution_reason();

  Printer pr = cli.printer();
  pr.extra = {{"mode", mode}};
  // found / none (proved: the whole tree was searched) / undecided (the
  // budget ran out first).
  if (restarts)
    pr.extra_of = [](const magic::RunResult& r) {
      return nlohmann::json{{"completion", r.unique > 0 ? "found" : r.exhaustive ? "none" : "undecided"}};
    };
  const std::uint64_t budget = job.problem().value("budget", std::uint64_t{0});
  pr.exit_code = [impossible, budget](const magic::RunResult& r) -> int {
    if (r.unique > 0 || r.shard_count > 1) return kOk;
    if (!r.exhaustive) {
      std::cerr << "magicount: undecided: no completion found within the budget of " << budget
                << " nodes, and none ruled out (raise --budget; 0 = no bound)\n";
      return kUndecided;
    }
    std::cerr << "magicount: no completion: "
              << (impossible.empty() ? "the givens cannot be completed under these constraints" : impossible)
              << "\n";
    return kNoSolution;
  };
  return execute(job, c, pr);
}

Extension extend_complete(CLI::App* sub, std::shared_ptr<FamilyCli> cli) {
  auto args = std::make_shared<CompleteArgs>();
  sub->add_option("input", args->input,
                  "grid FILE ('-' = stdin): CheckiO JSON [[2,7,6],[9,5,1],[4,3,0]] or one row of numbers per line")
      ->capture_default_str();
  CLI::Option* count = sub->add_flag("--count", args->count, "count every completion (none printed)");
  CLI::Option* all = sub->add_flag("--all", args->all, "output every completion");
  sub->add_option("--budget", args->budget,
                  "NODES the search for the first completions may take before it gives up, undecided (exit 3); "
                  "0 = no bound (default: none for orders 3..8, " +
                      std::to_string(magic::default_complete_budget(16)) + " for 9..16)")
      ->check(CLI::NonNegativeNumber);
  count->excludes(all);
  // --solutions is a common option: it is there once they are added.
  auto modes = [count, all](CLI::App* s) {
    CLI::Option* sols = s->get_option("--solutions");
    sols->description("output up to N completions and stop (or: all, none); default: the first one");
    count->excludes(sols);
    all->excludes(sols);
  };
  return {[args, sub, cli] { return run(*args, *sub, *cli); }, modes};
}

const RegisterExtension ext_complete("complete", extend_complete);

}  // namespace
}  // namespace cli
