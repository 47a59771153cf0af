// The star picture lives beside the star geometry it draws.
#include <sstream>

#include <nlohmann/json.hpp>

#include "magic/star_geometry.hpp"

namespace magic {

void draw_star_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                     const nlohmann::json& solution) {
  const StarGeometry g = star_geometry(problem.at("n").get<int>());
  const auto& values = solution.at("points");
  const double cx = panel * panel_size + panel_size / 2.0, cy = 30 + panel_size / 2.0;
  const double r = panel_size * 0.40;
  auto x = [&](int p) { return cx + r * g.xy[p].first; };
  auto y = [&](int p) { return cy - r * g.xy[p].second; };  // SVG y grows downwards
  for (const auto& line : g.lines) {
    // The two vertices of a line are its ends; draw vertex to vertex.
    int a = -1, b = -1;
    for (int p : line)
      if (g.is_vertex[p]) (a < 0 ? a : b) = p;
    body << "<line x1=\"" << x(a) << "\" y1=\"" << y(a) << "\" x2=\"" << x(b) << "\" y2=\"" << y(b)
         << "\" stroke=\"#557\" stroke-width=\"1.5\"/>\n";
  }
  const double dot = std::min(13.0, 95.0 / g.n);
  for (std::size_t p = 0; p < g.xy.size(); ++p) {
    body << "<circle cx=\"" << x(static_cast<int>(p)) << "\" cy=\"" << y(static_cast<int>(p)) << "\" r=\"" << dot
         << "\" fill=\"" << (g.is_vertex[p] ? "#fff7e0" : "#e8f0ff") << "\" stroke=\"#335\" stroke-width=\"1.2\"/>\n"
         << "<text x=\"" << x(static_cast<int>(p)) << "\" y=\"" << y(static_cast<int>(p)) << "\" font-size=\""
         << static_cast<int>(dot * 1.05) << "\" text-anchor=\"middle\" dominant-baseline=\"central\">"
         << values.at(p).dump() << "</text>\n";
  }
  if (solution.contains("sum"))
    body << "<text x=\"" << cx << "\" y=\"" << 30 + panel_size - 4 << "\" font-size=\"12\" text-anchor=\"middle\">"
         << "line sum " << solution.at("sum").dump() << "</text>\n";
}

}  // namespace magic
