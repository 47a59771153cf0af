#pragma once
// The cluster's dispatch from a spec, one file per family
// (cluster_<family>.cpp), as ../run_family.hpp is the runner's.  The
// coordinator and worker themselves are compiled once for every problem
// (cluster.cpp).  Like run_family.hpp, it depends on no family: each file
// includes its own.
#include "../run_family.hpp"
#include "magic/cluster.hpp"
#include "magic/cluster_spec.hpp"

namespace magic::detail {

template <class Fam>
RunResult coordinate_family(const nlohmann::json& spec, const RunOptions& ro, CoordinatorWire& wire) {
  return Fam::visit(spec, [&](const auto& p) { return run_coordinator(p, with_spec_defaults(spec, ro), wire); });
}

template <class Fam>
void work_family(const nlohmann::json& spec, const RunOptions& ro, WorkerWire& wire) {
  Fam::visit(spec, [&](const auto& p) { run_worker(p, with_spec_defaults(spec, ro), wire); });
}

#define MAGIC_CLUSTER_FAMILY_AS(PREFIX, Fam)                                                                  \
  PREFIX template RunResult coordinate_family<Fam>(const nlohmann::json&, const RunOptions&, CoordinatorWire&); \
  PREFIX template void work_family<Fam>(const nlohmann::json&, const RunOptions&, WorkerWire&);

}  // namespace magic::detail
