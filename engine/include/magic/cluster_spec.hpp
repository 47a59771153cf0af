#pragma once
// A run across ranks, by Job or by spec, as Job::run and run_spec are for
// one process.  The coordinator and worker are compiled once for every
// problem, in the magic_cluster library (engine/src/cluster/), which only
// magicount-mpi and the tests link, and everything declared here is
// defined there.  Each fills in the spec's defaults (limit).
#include <nlohmann/json.hpp>

#include "magic/cluster_wire.hpp"
#include "magic/job.hpp"
#include "magic/spec.hpp"

namespace magic {

// A Job's run across ranks: the coordinator's side, and a worker's until
// the coordinator says there is no more.
class ClusterJob {
 public:
  explicit ClusterJob(const Job& job) : job_(job) {}
  RunResult coordinate(const RunOptions& ro, CoordinatorWire& wire) const;
  void serve(const RunOptions& ro, WorkerWire& wire) const;

 private:
  const Job& job_;
};

RunResult run_spec_coordinator(const nlohmann::json& spec, const RunOptions& opt, CoordinatorWire& wire);
void run_spec_worker(const nlohmann::json& spec, const RunOptions& opt, WorkerWire& wire);
// The coordinator here and `workers` workers on threads (LoopbackWire).
RunResult run_loopback(const Job& job, const RunOptions& opt, int workers);
RunResult run_spec_loopback(const nlohmann::json& spec, const RunOptions& opt, int workers);

}  // namespace magic
