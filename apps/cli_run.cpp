// The one path every search subcommand takes: spec -> Job (the one visit
// of the spec) -> run -> JSON, summary and exit code.  It instantiates no
// problem type.
#include <iostream>
#include <vector>

#include "cli_common.hpp"
#include "cluster.hpp"
#include "magic/job.hpp"

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
nlohmann::json result_fields(const magic::Job& job, const magic::RunResult& r, const Printer& pr) {
  nlohmann::json rest = job.result_fields(r);
  if (pr.extra.is_object()) rest.update(pr.extra);
  if (pr.extra_of) rest.update(pr.extra_of(r));
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

// Ranks 1.. of magicount-mpi: solve what rank 0 hands out; rank 0 reports.
int serve_job(const magic::Job& job, const Common& c) {
  install_signal_handlers();
  cluster::serve(job, search_options(c, solutions_wanted(c)));
  return interrupt_flag().load() ? interrupt_exit_code() : kOk;
}

// Rank 0 of magicount-mpi tells waiting workers to stop if it fails
// before its coordinator runs (a bad output path, say).
struct ReleaseWorkers {
  ~ReleaseWorkers() { cluster::release_workers(); }
};

}  // namespace

#ifndef MAGIC_MPI
std::string cluster::shared_input(const std::function<std::string()>& read) { return read(); }
#endif

int execute(const magic::Job& job, const Common& c, const Printer& pr) {
  if (!cluster::primary()) return serve_job(job, c);
  const ReleaseWorkers release;
  const std::uint64_t want = solutions_wanted(c);
  check_outputs(c);
  const nlohmann::json& problem = job.problem();
  magic::ResultWriter out(c.json, c.solutions_file, want > 0 && !c.json.empty());
  out.begin(problem);

  magic::RunOptions ro = search_options(c, want);
  SolutionSink sink{c, pr, out, want, {}};
  ro.on_solution = [&](const nlohmann::json& s) { sink(s); };
  if (!c.quiet && live_progress()) ro.on_progress = print_progress;
  ro.on_resume = [&](std::uint64_t tasks) {
    if (!c.quiet) std::cerr << "resuming from " << c.checkpoint << " (" << tasks << " tasks done)\n";
  };
  install_signal_handlers();
  const magic::RunResult r = cluster::run(job, ro);
  if (ro.on_progress) end_progress();
  const nlohmann::json fields = result_fields(job, r, pr);
  const FinalWrite held_signals;
  if (r.interrupted) {
    out.finish(fields);
    return report_interrupt(c, r);
  }

  if (!c.svg.empty()) write_svg(c.svg, job.picture(), problem, sink.pictured);
  out.finish(fields);
  if (summary_on_stdout(c)) print_summary(std::cout, job.echo_line(), r, job.by_key_name());
  return pr.exit_code ? pr.exit_code(r) : kOk;
}

}  // namespace cli
