// The cluster's runs of the square problems (see cluster_family.hpp).
#include "cluster_family.hpp"
#include "magic/square.hpp"

namespace magic::detail {
MAGIC_CLUSTER_FAMILY_AS(, SquareFamily)
}  // namespace magic::detail
