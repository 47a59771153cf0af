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
  std::string kind = "magic";
  bool count = false;
  bool all = false;
  std::optional<std::uint64_t> budget;
  Common common;
};

// A grid is a few hundred bytes; read_file's 1 MiB cap keeps
// `yes | magicount complete` or a wrong multi-gigabyte file from hanging.
std::string read_input(const std::string& path) {
  if (path == "-" && ::isatty(STDIN_FILENO)) throw UsageError("no input: give a grid FILE or pipe a grid into stdin");
  return magic::read_file(path);
}

int run(const CompleteArgs& a, const CLI::App& sub) {
  if (!magic::is_field_value("complete", "kind", a.kind))
    throw UsageError("unknown --kind '" + a.kind + "' (use " + magic::field_values("complete", "kind") + ")");
  Common c = a.common;
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

  for (const auto& [flag, out] : {std::pair<const char*, const std::string&>{"--json", c.json},
                                  {"--solutions-file", c.solutions_file}, {"--svg", c.svg},
                                  {"--checkpoint", c.checkpoint}})
    check_not_input(flag, out, a.input);
  const std::string grid = cluster::shared_input([&] { return read_input(a.input); });
  nlohmann::json spec{{"name", "complete"}, {"grid", grid}, {"kind", a.kind}, {"mode", restarts ? "first" : "count"}};
  if (a.budget) spec["budget"] = *a.budget;
  const magic::Job job = magic::Job::make(spec);  // a bad grid is refused here
  const std::string impossible = job.no_solution_reason();

  Printer pr;
  pr.human_solution = print_grid;
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

void add_complete(CLI::App& app, Action& action) {
  auto args = std::make_shared<CompleteArgs>();
  CLI::App* sub = app.add_subcommand(
      "complete",
      "fill the blanks (0) of a partly filled magic square of order 3..16: first completion, --count or --all");
  sub->add_option("input", args->input,
                  "grid FILE ('-' = stdin): CheckiO JSON [[2,7,6],[9,5,1],[4,3,0]] or one row of numbers per line")
      ->capture_default_str();
  sub->add_option("--kind", args->kind, "constraints: " + magic::field_values("complete", "kind"))
      ->capture_default_str();
  CLI::Option* count = sub->add_flag("--count", args->count, "count every completion (none printed)");
  CLI::Option* all = sub->add_flag("--all", args->all, "output every completion");
  sub->add_option("--budget", args->budget,
                  "NODES the search for the first completions may take before it gives up, undecided (exit 3); "
                  "0 = no bound (default: none for orders 3..8, " +
                      std::to_string(magic::default_complete_budget(16)) + " for 9..16)")
      ->check(CLI::NonNegativeNumber);
  add_common(sub, args->common, magic::split_levels("complete"));
  CLI::Option* sols = sub->get_option("--solutions");
  sols->description("output up to N completions and stop (or: all, none); default: the first one");
  count->excludes(all);
  count->excludes(sols);
  all->excludes(sols);
  sub->callback([args, sub, &action] { action = [args, sub]() -> int { return run(*args, *sub); }; });
}

const RegisterCommand reg_complete(40, add_complete);

}  // namespace
}  // namespace cli
