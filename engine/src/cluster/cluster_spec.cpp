#include "magic/cluster_spec.hpp"

#include "cluster_family.hpp"
#include "magic/registry.hpp"

namespace magic {

namespace detail {
MAGIC_CLUSTER_FAMILY_AS(extern, SquareFamily)
MAGIC_CLUSTER_FAMILY_AS(extern, StarFamily)
MAGIC_CLUSTER_FAMILY_AS(extern, CircleFamily)
MAGIC_CLUSTER_FAMILY_AS(extern, CompleteFamily)
}  // namespace detail

RunResult run_spec_coordinator(const nlohmann::json& spec, const RunOptions& opt, CoordinatorWire& wire) {
  return with_spec_family(spec,
                          [&](auto fam) { return detail::coordinate_family<decltype(fam)>(spec, opt, wire); });
}

void run_spec_worker(const nlohmann::json& spec, const RunOptions& opt, WorkerWire& wire) {
  with_spec_family(spec, [&](auto fam) { detail::work_family<decltype(fam)>(spec, opt, wire); });
}

RunResult run_spec_loopback(const nlohmann::json& spec, const RunOptions& opt, int workers) {
  return run_on_loopback(
      workers, [&](WorkerWire& wire) { run_spec_worker(spec, opt, wire); },
      [&](CoordinatorWire& wire) { return run_spec_coordinator(spec, opt, wire); });
}

}  // namespace magic
