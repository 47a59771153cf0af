// Jobs (run_spec, describe_spec) of the circle problems, and the runner for each
// (see magic/job_core.hpp).
#include "circle/circle.hpp"
#include "magic/job_core.hpp"

namespace magic {
MAGIC_RUN_AS(, CircleProblem)
MAGIC_RUN_AS(, CircleMultiplierProblem)
}  // namespace magic

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, CircleFamily)
}  // namespace magic::detail
