// The runner for the star sizes in MAGIC_STAR_SIZES_9 (see magic/job_core.hpp).
#include "magic/star.hpp"
#include "magic/job_core.hpp"

namespace magic {
MAGIC_STAR_SIZES_9(MAGIC_RUN_STAR)
}  // namespace magic
