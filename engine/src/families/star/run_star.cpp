// Jobs (run_spec, describe_spec) of the star problems (see magic/job_core.hpp).
#include "star/star.hpp"
#include "magic/job_core.hpp"

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, StarFamily)
}  // namespace magic::detail
