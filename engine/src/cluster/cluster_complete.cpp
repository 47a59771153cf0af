// The cluster's runs of the complete problems (see cluster_family.hpp).
#include "cluster_family.hpp"
#include "magic/complete.hpp"

namespace magic::detail {
MAGIC_CLUSTER_FAMILY_AS(, CompleteFamily)
}  // namespace magic::detail
