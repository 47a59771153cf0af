#pragma once
// The cluster's runs by spec, as run_spec is for one process.  The
// coordinator and worker of every problem type are compiled once, in the
// magic_cluster library (engine/src/cluster/), which only magic-enum-mpi and
// the tests link: prefer these to visit_problem + the templates of
// cluster.hpp wherever the problem type itself is not needed.  Like
// run_spec, each fills in the spec's defaults (stop_after).
#include <nlohmann/json.hpp>

#include "magic/cluster_wire.hpp"
#include "magic/spec.hpp"

namespace magic {

RunResult run_spec_coordinator(const nlohmann::json& spec, const RunOptions& opt, CoordinatorWire& wire);
void run_spec_worker(const nlohmann::json& spec, const RunOptions& opt, WorkerWire& wire);
// run_loopback for the problem the spec describes.
RunResult run_spec_loopback(const nlohmann::json& spec, const RunOptions& opt, int workers);

}  // namespace magic
