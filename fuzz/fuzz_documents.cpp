// Fuzzes the documents data file of `reproduce --data FILE`: the bounded
// JSON reader and then every check reproduce() makes before it runs anything
// (validate_documents, which reads each row's spec the way the run will).
// magic::Error is the expected refusal; anything else is a finding.
#include <cstdint>
#include <string_view>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "report/reproduce.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    magic::validate_documents(magic::parse_json(text, "documents data file"));
  } catch (const magic::Error&) {
  }
  return 0;
}
