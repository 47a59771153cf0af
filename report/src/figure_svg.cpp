// A figure's picture: its lines as polylines through their points, in the
// file's order, and each point's number; from the file's coordinates (a
// 3-D point in an oblique view), or on a circle when the file gives none.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/charts.hpp"  // xml_escape

namespace magic {

namespace {
struct Xy {
  double x, y;
};

bool placed(const nlohmann::json& p) { return p.is_object() && p.contains("x") && p.contains("y"); }

// Coordinates are scaled to at most 1 first: the spans of ±1e308 would
// overflow to infinity and draw every point at NaN.
double scale_of(const nlohmann::json& points) {
  double m = 0;
  for (const auto& p : points)
    if (placed(p))
      for (const char* axis : {"x", "y", "z"}) m = std::max(m, std::fabs(p.value(axis, 0.0)));
  return m > 1 ? 1 / m : 1;
}

std::vector<Xy> layout(const nlohmann::json& points) {
  std::vector<Xy> out;
  const double n = static_cast<double>(points.size());
  const double s = scale_of(points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    if (placed(p)) {
      const double z = s * p.value("z", 0.0);
      // Oblique view: depth moves a point right and up.
      out.push_back({s * p.at("x").get<double>() + 0.45 * z, s * p.at("y").get<double>() + 0.3 * z});
    } else {
      const double a = 3.14159265358979323846 * (0.5 + 2.0 * static_cast<double>(i) / n);
      out.push_back({std::cos(a), std::sin(a)});
    }
  }
  return out;
}
}  // namespace

void draw_figure_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                       const nlohmann::json& solution) {
  const nlohmann::json& f = problem.at("figure");
  const std::vector<Xy> xy = layout(f.at("points"));
  std::vector<std::string> names;
  for (const auto& p : f.at("points")) names.push_back(p.is_string() ? p.get<std::string>() : p.at("name").get<std::string>());
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const Xy& p : xy) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  const double span = std::max({x1 - x0, y1 - y0, 1e-9});
  const double inner = panel_size * 0.78, left = panel * panel_size + (panel_size - inner) / 2.0, top = 30 + (panel_size - inner) / 2.0;
  auto X = [&](std::size_t p) { return left + inner * ((xy[p].x - x0) / span + (1 - (x1 - x0) / span) / 2); };
  auto Y = [&](std::size_t p) { return top + inner * ((y1 - xy[p].y) / span + (1 - (y1 - y0) / span) / 2); };
  auto index = [&](const nlohmann::json& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name.get<std::string>()) - names.begin());
  };
  for (const auto& line : f.at("lines")) {
    body << "<polyline fill=\"none\" stroke=\"#557\" stroke-width=\"1.5\" points=\"";
    for (const auto& p : line) body << X(index(p)) << "," << Y(index(p)) << " ";
    body << "\"/>\n";
  }
  const double dot = std::clamp(120.0 / static_cast<double>(xy.size()), 7.0, 13.0);
  for (std::size_t p = 0; p < xy.size(); ++p) {
    body << "<circle cx=\"" << X(p) << "\" cy=\"" << Y(p) << "\" r=\"" << dot
         << "\" fill=\"#fff7e0\" stroke=\"#335\" stroke-width=\"1.2\"/>\n";
    const std::string label = solution.is_object() ? solution.at("points").at(p).dump() : names[p];
    body << "<text x=\"" << X(p) << "\" y=\"" << Y(p) << "\" font-size=\"" << static_cast<int>(dot * 1.05)
         << "\" text-anchor=\"middle\" dominant-baseline=\"central\">" << xml_escape(label) << "</text>\n";
  }
  if (solution.is_object() && solution.contains("sum"))
    body << "<text x=\"" << panel * panel_size + panel_size / 2.0 << "\" y=\"" << 30 + panel_size - 4
         << "\" font-size=\"12\" text-anchor=\"middle\">line sum " << solution.at("sum").dump() << "</text>\n";
}

}  // namespace magic
