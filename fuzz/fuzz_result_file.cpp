// Fuzzes the result-file reader of `merge` (parse_result, the text of a
// --json file), then merges what it accepted: alone, partial, and with
// itself (which must be refused as an overlap, not crash).  magic::Error is
// the expected refusal; anything else is a finding.
#include <cstdint>
#include <string>

#include "magic/core/error.hpp"
#include "magic/result_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  magic::ShardResult r;
  try {
    r = magic::parse_result(text, "fuzz.json");
  } catch (const magic::Error&) {
    return 0;
  }
  for (bool partial : {false, true}) {
    try {
      (void)magic::merge_results({r}, partial);
    } catch (const magic::Error&) {
    }
    try {
      (void)magic::merge_results({r, r}, partial);
    } catch (const magic::Error&) {
    }
  }
  return 0;
}
