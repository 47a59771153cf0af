// The one path every search subcommand takes: spec -> registry -> runner ->
// JSON, summary and exit code.  It instantiates no problem type: the
// library describes the spec (describe_spec) and runs it (run_spec).
#include <iostream>
#include <vector>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "magic/spec.hpp"

namespace cli {
namespace {

// Where handed-out solutions go: the JSON file, stdout, and the picture.
struct SolutionSink {
  const Common& c;
  const Printer& pr;
  magic::ResultWriter& out;
  std::uint64_t want;
  std::vector<nlohmann::json> pictured;
  std::uint64_t handed = 0;

  void operator()(const nlohmann::json& s) {
    if (pictured.size() < kSvgSolutions && !c.svg.empty()) pictured.push_back(s);
    if (handed++ >= want) return;
    out.solution(s);
    if (want && c.json.empty() && c.solutions_file.empty() && summary_on_stdout(c)) pr.human_solution(std::cout, s);
  }
};

// The library's fields (one output contract), and the subcommand's own.
nlohmann::json result_fields(const magic::SpecInfo& info, const magic::RunResult& r, const Printer& pr) {
  nlohmann::json rest = magic::result_fields(info, r);
  if (pr.extra.is_object()) rest.update(pr.extra);
  return rest;
}

// The partial result is written, marked "exhaustive": false, so that no
// output of a stopped run can pass for a full one.
int report_interrupt(const Common& c, const magic::RunResult& r) {
  if (r.cluster && r.cluster->lost_rank >= 0)
    std::cerr << "rank " << r.cluster->lost_rank << " stopped before its tasks were done\n";
  if (!c.checkpoint.empty())
    std::cerr << "interrupted: " << r.tasks_saved << " of " << r.tasks << " tasks saved in " << c.checkpoint
              << "; rerun the same command to resume\n";
  else
    std::cerr << "interrupted; the result is partial (use --checkpoint FILE to make runs resumable)\n";
  return interrupt_exit_code();
}

// What the runner is asked for; every rank of an MPI job computes the same.
magic::RunOptions search_options(const Common& c, std::uint64_t want) {
  magic::RunOptions ro = run_options(c, want);
  if (!c.svg.empty()) ro.solutions = std::max(want, kSvgSolutions);
  return ro;
}

// Ranks 1.. of magic-enum-mpi: solve what rank 0 hands out; rank 0 reports.
int serve_spec(const nlohmann::json& spec, const Common& c) {
  install_signal_handlers();
  cluster::serve(spec, search_options(c, solutions_wanted(c)));
  return interrupt_flag().load() ? interrupt_exit_code() : kOk;
}

// Rank 0 of magic-enum-mpi tells waiting workers to stop if it fails
// before its coordinator runs (a bad output path, say).
struct ReleaseWorkers {
  ~ReleaseWorkers() { cluster::release_workers(); }
};

int execute_problem(const nlohmann::json& spec, const magic::SpecInfo& info, const Common& c, const Printer& pr) {
  if (!cluster::primary()) return serve_spec(spec, c);
  const ReleaseWorkers release;
  const std::uint64_t want = solutions_wanted(c);
  check_outputs(c);
  const nlohmann::json& problem = info.problem;
  magic::ResultWriter out(c.json, c.solutions_file, want > 0 && !c.json.empty());
  out.begin(problem);

  magic::RunOptions ro = search_options(c, want);
  SolutionSink sink{c, pr, out, want, {}};
  ro.on_solution = [&](const nlohmann::json& s) { sink(s); };
  if (!c.quiet && stderr_is_terminal()) ro.on_progress = print_progress;
  ro.on_resume = [&](std::uint64_t tasks) {
    if (!c.quiet) std::cerr << "resuming from " << c.checkpoint << " (" << tasks << " tasks done)\n";
  };
  install_signal_handlers();
  const magic::RunResult r = cluster::run(spec, ro);
  if (ro.on_progress) end_progress();
  const nlohmann::json fields = result_fields(info, r, pr);
  const FinalWrite held_signals;
  if (r.interrupted) {
    out.finish(fields);
    return report_interrupt(c, r);
  }

  if (!c.svg.empty()) write_svg(c.svg, problem, sink.pictured);
  out.finish(fields);
  if (summary_on_stdout(c))
    print_summary(std::cout, problem, r, magic::by_key_name(problem));
  return pr.exit_code ? pr.exit_code(r) : kOk;
}

}  // namespace

int execute(const nlohmann::json& spec, const Common& c, const Printer& pr) {
  return execute_problem(spec, magic::describe_spec(spec), c, pr);
}

}  // namespace cli
