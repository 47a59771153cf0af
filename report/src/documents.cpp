#include "report/documents_data.hpp"
#include "report/reproduce.hpp"

namespace magic {
const char* embedded_documents() { return kDocumentsJson; }
const char* embedded_known_counts() { return kKnownCountsJson; }
}  // namespace magic
