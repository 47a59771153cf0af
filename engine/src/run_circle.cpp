// run_spec and describe_spec for the circle problems, and the runner for each
// (see run_family.hpp).
#include "magic/circle.hpp"
#include "run_family.hpp"

namespace magic {
MAGIC_RUN_AS(, CircleProblem)
MAGIC_RUN_AS(, CircleMultiplierProblem)
}  // namespace magic

namespace magic::detail {
template SpecRun run_family<CircleFamily>(const nlohmann::json&, const RunOptions&);
template SpecInfo describe_family<CircleFamily>(const nlohmann::json&);
}  // namespace magic::detail
