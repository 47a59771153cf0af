// Jobs (run_spec, describe_spec) of the complete problems, and the runner for
// each of its instances (see magic/job_core.hpp).
#include "complete/complete.hpp"
#include "magic/job_core.hpp"

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, CompleteFamily)
}  // namespace magic::detail

namespace magic {
MAGIC_COMPLETE_INSTANCES(MAGIC_RUN_COMPLETE)
}  // namespace magic
