// The coordinator and worker for the star sizes in MAGIC_STAR_SIZES_17
// (see cluster_family.hpp).
#include "cluster_star.hpp"

namespace magic {
MAGIC_STAR_SIZES_17(MAGIC_CLUSTER_STAR)
}  // namespace magic
