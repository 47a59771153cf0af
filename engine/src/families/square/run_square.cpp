// Jobs (run_spec, describe_spec) of the square problems, and the runner for
// each of its instances (see magic/job_core.hpp).
#include "square/square.hpp"
#include "magic/job_core.hpp"

namespace magic::detail {
MAGIC_JOB_FAMILY_AS(, SquareFamily)
}  // namespace magic::detail

namespace magic {
MAGIC_SQUARE_INSTANCES(MAGIC_RUN_SQUARE)
MAGIC_RUN_AS(, Square5Problem)
MAGIC_RUN_AS(, SemiPairsProblem<3>)
MAGIC_RUN_AS(, SemiPairsProblem<4>)
MAGIC_RUN_AS(, SemiPairsProblem<5>)
MAGIC_RUN_AS(, MostPerfect8Problem)
}  // namespace magic
