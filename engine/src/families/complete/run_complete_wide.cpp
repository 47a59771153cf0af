// The runner for each complete instance of orders 9..16 (wide masks), apart
// from run_complete.cpp so that the two build side by side.
#include "complete/complete.hpp"
#include "magic/job_core.hpp"

namespace magic {
MAGIC_COMPLETE_WIDE_INSTANCES(MAGIC_RUN_COMPLETE)
}  // namespace magic
