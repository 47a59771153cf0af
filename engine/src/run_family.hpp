#pragma once
// The runner instantiated for every problem type is most of the build's
// compile time, so it is compiled once, here in the library, and spread over
// several files that a parallel build puts on different cores: one per
// family (run_<family>.cpp, the dispatch from a spec) and the star sizes
// further over run_star_<first size>.cpp.  The extern declarations keep
// every other file from compiling them again.  The cluster's coordinator and
// worker are split the same way (cluster/cluster_family.hpp).
#include "magic/registry.hpp"

namespace magic::detail {

// The options with the spec's defaults (see default_stop_after).
inline RunOptions with_spec_defaults(const nlohmann::json& spec, const RunOptions& ro) {
  RunOptions o = ro;
  if (o.stop_after == 0) o.stop_after = default_stop_after(spec);
  return o;
}

template <class Fam>
SpecRun run_family(const nlohmann::json& spec, const RunOptions& ro) {
  return Fam::visit(spec, [&](const auto& p) { return SpecRun{p.describe(), run(p, with_spec_defaults(spec, ro))}; });
}

template <class Fam>
SpecInfo describe_family(const nlohmann::json& spec) {
  return Fam::visit(spec, [](const auto& p) {
    SpecInfo out{p.describe(), nlohmann::json::object()};
    if constexpr (requires { p.result_extra(); }) out.extra = p.result_extra();
    return out;
  });
}

extern template SpecRun run_family<SquareFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<StarFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<CircleFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecRun run_family<CompleteFamily>(const nlohmann::json&, const RunOptions&);
extern template SpecInfo describe_family<SquareFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<StarFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<CircleFamily>(const nlohmann::json&);
extern template SpecInfo describe_family<CompleteFamily>(const nlohmann::json&);

}  // namespace magic::detail

// The star sizes (a chain, and its BMI2 copy, per size) in four groups that
// take about as long to compile: the time grows with the size.
#define MAGIC_STAR_SIZES_5(X) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)
#define MAGIC_STAR_SIZES_13(X) X(13) X(14) X(15) X(16) X(17)
#define MAGIC_STAR_SIZES_18(X) X(18) X(19) X(20) X(21)
#define MAGIC_STAR_SIZES_22(X) X(22) X(23) X(24)
#define MAGIC_STAR_SIZES(X) MAGIC_STAR_SIZES_5(X) MAGIC_STAR_SIZES_13(X) MAGIC_STAR_SIZES_18(X) MAGIC_STAR_SIZES_22(X)

namespace magic {

static_assert(kStarMinN == 5 && kStarMaxN == 24, "MAGIC_STAR_SIZES must list every star size");

// PREFIX: empty to instantiate, extern to declare.  The runner, and the
// star's two walks under it (the search itself, most of the compile time),
// which the cluster's coordinator and worker share.
#define MAGIC_RUN_STAR_AS(PREFIX, N)                                                                         \
  PREFIX template RunResult run<StarProblem<N>>(const StarProblem<N>&, const RunOptions&);                  \
  PREFIX template void StarProblem<N>::cut(int, SinkRef<StarProblem<N>::State>) const;                     \
  PREFIX template void StarProblem<N>::solve<TaskContext<StarProblem<N>>>(const StarProblem<N>::State&,     \
                                                                           TaskContext<StarProblem<N>>&) const;
#define MAGIC_RUN_STAR(N) MAGIC_RUN_STAR_AS(, N)
#define MAGIC_EXTERN_RUN_STAR(N) MAGIC_RUN_STAR_AS(extern, N)
MAGIC_STAR_SIZES(MAGIC_EXTERN_RUN_STAR)

}  // namespace magic
