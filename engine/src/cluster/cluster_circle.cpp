// The cluster's runs of the circle problems (see cluster_family.hpp).
#include "cluster_family.hpp"
#include "magic/circle.hpp"

namespace magic::detail {
MAGIC_CLUSTER_FAMILY_AS(, CircleFamily)
}  // namespace magic::detail
