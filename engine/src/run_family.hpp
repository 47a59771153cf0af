#pragma once
// The dispatch from a spec to a run, one file per family
// (run_<family>.cpp).  The searches (each type's walks and its erased face)
// are most of the build's compile time: they are compiled once, in those
// files and, for the star's sizes, in run_star_<first size>.cpp, which a
// parallel build puts on different cores.  The extern declarations keep
// every other file from compiling them again.  The engine around them is
// compiled once for every type (runner.cpp); so is the cluster's
// (cluster/cluster.cpp), whose dispatch is cluster/cluster_family.hpp.
#include "magic/runner.hpp"
#include "magic/spec.hpp"

namespace magic::detail {

// The options with the spec's defaults (see default_stop_after).
inline RunOptions with_spec_defaults(const nlohmann::json& spec, const RunOptions& ro) {
  RunOptions o = ro;
  if (o.stop_after == 0) o.stop_after = default_stop_after(spec);
  return o;
}

// The fields a problem adds to its result file (SpecInfo::extra).
template <class P>
nlohmann::json extra_of(const P& p) {
  if constexpr (requires { p.result_extra(); }) return p.result_extra();
  else return nlohmann::json::object();
}

template <class Fam>
SpecRun run_family(const nlohmann::json& spec, const RunOptions& ro) {
  return Fam::visit(spec, [&](const auto& p) {
    return SpecRun{p.describe(), run(p, with_spec_defaults(spec, ro)), extra_of(p)};
  });
}

template <class Fam>
SpecInfo describe_family(const nlohmann::json& spec) {
  return Fam::visit(spec, [](const auto& p) { return SpecInfo{p.describe(), extra_of(p)}; });
}

}  // namespace magic::detail

// Each run_<family>.cpp includes its family's header, which declares its
// instances extern (magic/instances.hpp); this header depends on no family.
