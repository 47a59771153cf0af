// Fuzzes the figure reader (`magicount figure FILE`): the bounded JSON
// reader, the figure's checks, then the problem's set-up (nauty, the
// stabilizer chains, the plans), as a run would.  magic::Error is the
// expected way to refuse input; anything else escaping, a crash or a
// sanitizer report is a finding.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "figure/figure.hpp"
#include "magic/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json figure = magic::parse_json(text, "figure");
    const magic::FigureSpec f = magic::figure_spec_from_json({{"name", "figure"}, {"figure", figure}});
    // What the reader promises to the problem.
    if (f.n_points() < 1 || f.n_points() > magic::kFigureMaxPoints || f.n_lines() < 1 ||
        f.n_lines() > magic::kFigureMaxLines || f.numbers.size() < static_cast<std::size_t>(f.n_points()))
      std::abort();
    const magic::FigureProblem p = magic::figure_problem(f);
    if (p.group_order() == 0) std::abort();
  } catch (const magic::Error&) {
  }
  return 0;
}
