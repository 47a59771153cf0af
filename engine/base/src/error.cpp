#include "magic/core/error.hpp"

namespace magic {

Error::~Error() = default;

}  // namespace magic
