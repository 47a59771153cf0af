// run_spec and describe_spec for the square problems, and the runner for
// each of its instances (see run_family.hpp).
#include "magic/square.hpp"
#include "run_family.hpp"

namespace magic::detail {
template SpecRun run_family<SquareFamily>(const nlohmann::json&, const RunOptions&);
template SpecInfo describe_family<SquareFamily>(const nlohmann::json&);
}  // namespace magic::detail

namespace magic {
MAGIC_SQUARE_INSTANCES(MAGIC_RUN_SQUARE)
MAGIC_RUN_AS(, Square5Problem)
}  // namespace magic
