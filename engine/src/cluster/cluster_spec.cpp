// A Job's run across ranks: the coordinator and the worker are compiled
// once for every problem (cluster.cpp), over the Job's erased problem.
#include "magic/cluster_spec.hpp"

#include "magic/cluster.hpp"
#include "magic/job.hpp"
#include "magic/loopback_wire.hpp"

namespace magic {

RunResult ClusterJob::coordinate(const RunOptions& ro, CoordinatorWire& wire) const {
  return run_coordinator(job_.problem_face(), job_.with_defaults(ro), wire);
}

void ClusterJob::serve(const RunOptions& ro, WorkerWire& wire) const {
  run_worker(job_.problem_face(), job_.with_defaults(ro), wire);
}

RunResult run_spec_coordinator(const nlohmann::json& spec, const RunOptions& opt, CoordinatorWire& wire) {
  return ClusterJob(Job::make(spec)).coordinate(opt, wire);
}

void run_spec_worker(const nlohmann::json& spec, const RunOptions& opt, WorkerWire& wire) {
  ClusterJob(Job::make(spec)).serve(opt, wire);
}

RunResult run_loopback(const Job& job, const RunOptions& opt, int workers) {
  return run_on_loopback(
      workers, [&](WorkerWire& wire) { ClusterJob(job).serve(opt, wire); },
      [&](CoordinatorWire& wire) { return ClusterJob(job).coordinate(opt, wire); });
}

RunResult run_spec_loopback(const nlohmann::json& spec, const RunOptions& opt, int workers) {
  return run_loopback(Job::make(spec), opt, workers);
}

}  // namespace magic
