// run_spec and describe_spec for the star problems (see run_family.hpp).
#include "magic/star.hpp"
#include "run_family.hpp"

namespace magic::detail {
template SpecRun run_family<StarFamily>(const nlohmann::json&, const RunOptions&);
template SpecInfo describe_family<StarFamily>(const nlohmann::json&);
}  // namespace magic::detail
