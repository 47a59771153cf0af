// The cluster's runs of the star problems (see cluster_family.hpp).
#include "cluster_family.hpp"
#include "magic/star.hpp"

namespace magic::detail {
MAGIC_CLUSTER_FAMILY_AS(, StarFamily)
}  // namespace magic::detail
