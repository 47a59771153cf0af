// Jobs (run_spec, describe_spec) of the graph problem, and its runner (see
// magic/job_core.hpp).
#include "graph/graph.hpp"
#include "magic/job_core.hpp"

namespace magic {
MAGIC_RUN_AS(, GraphProblem)
}  // namespace magic

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, GraphFamily)
}  // namespace magic::detail
