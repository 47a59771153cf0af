#include "report/svg.hpp"

#include "report/charts.hpp"
#include "magic/spec.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace magic {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kPanel = 260;  // each solution is drawn in a kPanel x kPanel box

struct Canvas {
  std::ostringstream body;
  int panels = 0;
  void text(double x, double y, const std::string& s, int size, const char* weight = "normal") {
    body << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" font-weight=\"" << weight
         << "\" text-anchor=\"middle\" dominant-baseline=\"central\">" << xml_escape(s) << "</text>\n";
  }
  std::string finish(const std::string& title) const {
    std::ostringstream o;
    const int w = std::max(1, panels) * kPanel, h = kPanel + 30;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h << "\" viewBox=\"0 0 " << w
      << " " << h << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"8\" y=\"20\" font-size=\"14\">" << xml_escape(title) << "</text>\n"
      << body.str() << "</svg>\n";
    return o.str();
  }
};

// "name builtin key=value ...": the problem's scalar fields; a figure or a
// graph written out (an object) is named by its builtin or its own name.
std::string title_of(const nlohmann::json& problem, std::size_t shown, bool solutions_are_names) {
  std::string t = problem.value("name", "?");
  std::string named = problem.value("builtin", std::string());
  for (auto it = problem.begin(); it != problem.end() && named.empty(); ++it)
    if (it->is_object() && it->contains("name") && it->at("name").is_string()) named = it->at("name").get<std::string>();
  if (!named.empty()) t += " " + named;
  for (auto it = problem.begin(); it != problem.end(); ++it) {
    if (it.key() == "name" || it.key() == "builtin" || it->is_object() || it->is_array()) continue;
    t += " " + it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
  }
  if (shown == 1 && solutions_are_names) return t;
  return t + (shown ? " (first " + std::to_string(shown) + ")" : " (no solution)");
}

void draw_grid(Canvas& cv, const nlohmann::json& rows) {
  const int n = static_cast<int>(rows.size());
  const double x0 = cv.panels * kPanel + 20, y0 = 40, cell = (kPanel - 40.0) / n;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      cv.body << "<rect x=\"" << x0 + c * cell << "\" y=\"" << y0 + r * cell << "\" width=\"" << cell
              << "\" height=\"" << cell << "\" fill=\"#f4f6ff\" stroke=\"#334\" stroke-width=\"1.5\"/>\n";
      cv.text(x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, rows[r][c].dump(), static_cast<int>(cell * 0.42));
    }
  ++cv.panels;
}

void draw_circle(Canvas& cv, const nlohmann::json& numbers) {
  const int n = static_cast<int>(numbers.size());
  const double cx = cv.panels * kPanel + kPanel / 2.0, cy = 30 + kPanel / 2.0, r = kPanel * 0.36;
  cv.body << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << r
          << "\" fill=\"none\" stroke=\"#88a\" stroke-width=\"2\"/>\n";
  const double dot = std::min(16.0, 2.2 * kPi * r / n / 2.2);
  for (int i = 0; i < n; ++i) {
    const double a = -kPi / 2 + 2 * kPi * i / n;  // clockwise from the top
    const double x = cx + r * std::cos(a), y = cy + r * std::sin(a);
    cv.body << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << dot
            << "\" fill=\"#fff7e0\" stroke=\"#a60\" stroke-width=\"1.5\"/>\n";
    cv.text(x, y, numbers[i].dump(), static_cast<int>(dot * 0.95), i == 0 ? "bold" : "normal");
  }
  ++cv.panels;
}

}  // namespace

// Defined with the star geometry (star_svg.cpp): draws one star solution.
void draw_star_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                     const nlohmann::json& solution);
// figure_svg.cpp: one figure solution (or, for a null solution, the point names).
void draw_figure_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                       const nlohmann::json& solution);
// graph_svg.cpp: one labelled graph (or, for a null solution, the vertex names).
void draw_graph_panel(std::ostringstream& body, int panel, int panel_size, const nlohmann::json& problem,
                      const nlohmann::json& solution);

std::string render_svg(const nlohmann::json& problem, const std::vector<nlohmann::json>& solutions) {
  return render_svg(picture_of(problem.value("name", "")), problem, solutions);
}

std::string render_svg(Picture picture, const nlohmann::json& problem, const std::vector<nlohmann::json>& solutions) {
  Canvas cv;
  for (const auto& s : solutions) {
    switch (picture) {
      case Picture::Grid: draw_grid(cv, s); break;
      case Picture::Circle: draw_circle(cv, s); break;
      case Picture::Star: draw_star_panel(cv.body, cv.panels++, kPanel, problem, s); break;
      case Picture::Figure: draw_figure_panel(cv.body, cv.panels++, kPanel, problem, s); break;
      case Picture::Graph: draw_graph_panel(cv.body, cv.panels++, kPanel, problem, s); break;
    }
  }
  return cv.finish(title_of(problem, solutions.size(), solutions.size() == 1 && solutions[0].is_null()));
}

}  // namespace magic
