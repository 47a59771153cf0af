#include "magic/documents_data.hpp"
#include "magic/reproduce.hpp"

namespace magic {
const char* embedded_documents() { return kDocumentsJson; }
const char* embedded_known_counts() { return kKnownCountsJson; }
}  // namespace magic
