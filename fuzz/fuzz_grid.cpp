// Fuzzes the grid reader of `complete` (file or stdin): parse_puzzle, then
// check_puzzle for every kind, as a run would.  magic::Error is the expected
// way to refuse input; anything else escaping, a crash or a sanitizer report
// is a finding.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "complete/complete.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  magic::Puzzle p;
  try {
    p = magic::parse_puzzle(text);
  } catch (const magic::Error&) {
    return 0;
  }
  // What parse_puzzle promises to its callers.
  if (p.order < magic::kCompleteMinOrder || p.order > magic::kCompleteMaxOrder ||
      p.cells.size() != static_cast<std::size_t>(p.order) * static_cast<std::size_t>(p.order))
    std::abort();
  for (auto kind : {magic::SquareKind::Magic, magic::SquareKind::Semi, magic::SquareKind::Pandiagonal,
                    magic::SquareKind::Associative, magic::SquareKind::MostPerfect}) {
    try {
      (void)magic::check_puzzle(p, kind);
    } catch (const magic::Error&) {
    }
  }
  return 0;
}
