// Jobs (run_spec, describe_spec) of the star problems (see run_family.hpp).
#include "magic/star.hpp"
#include "run_family.hpp"

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, StarFamily)
}  // namespace magic::detail
