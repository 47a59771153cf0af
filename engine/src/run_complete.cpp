// run_spec and describe_spec for the complete problems, and the runner for
// each of its instances (see run_family.hpp).
#include "magic/complete.hpp"
#include "run_family.hpp"

namespace magic::detail {
template SpecRun run_family<CompleteFamily>(const nlohmann::json&, const RunOptions&);
template SpecInfo describe_family<CompleteFamily>(const nlohmann::json&);
}  // namespace magic::detail

namespace magic {
MAGIC_COMPLETE_INSTANCES(MAGIC_RUN_COMPLETE)
}  // namespace magic
