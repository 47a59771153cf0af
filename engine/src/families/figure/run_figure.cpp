// Jobs (run_spec, describe_spec) of the figure problem, and its runner (see
// magic/job_core.hpp).
#include "figure/figure.hpp"
#include "figure/figure_join.hpp"
#include "magic/job_core.hpp"

namespace magic {
MAGIC_RUN_AS(, FigureProblem)
MAGIC_RUN_AS(, FigureJoinProblem)
}  // namespace magic

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, FigureFamily)
}  // namespace magic::detail
