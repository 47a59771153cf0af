#pragma once
// The star sizes' coordinators and workers: compiled in
// cluster_star_<first size>.cpp, declared extern for the rest.
#include "magic/star.hpp"
#include "cluster_family.hpp"

namespace magic {

#define MAGIC_CLUSTER_STAR_AS(PREFIX, N)                                                                   \
  PREFIX template RunResult run_coordinator<StarProblem<N>>(const StarProblem<N>&, const RunOptions&,     \
                                                            CoordinatorWire&);                             \
  PREFIX template void run_worker<StarProblem<N>>(const StarProblem<N>&, const RunOptions&, WorkerWire&);
#define MAGIC_CLUSTER_STAR(N) MAGIC_CLUSTER_STAR_AS(, N)
#define MAGIC_EXTERN_CLUSTER_STAR(N) MAGIC_CLUSTER_STAR_AS(extern, N)
MAGIC_STAR_SIZES(MAGIC_EXTERN_CLUSTER_STAR)

}  // namespace magic
