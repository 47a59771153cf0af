// The runner for the star sizes in MAGIC_STAR_SIZES_5 (see run_family.hpp).
#include "magic/star.hpp"
#include "run_family.hpp"

namespace magic {
MAGIC_STAR_SIZES_5(MAGIC_RUN_STAR)
}  // namespace magic
