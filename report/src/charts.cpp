#include "report/charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace magic {
namespace {

// Okabe-Ito colours: told apart with the common colour-vision deficiencies.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
constexpr int kColourCount = sizeof kColours / sizeof kColours[0];
constexpr const char* kFont = "DejaVu Sans, Arial, sans-serif";
constexpr double kCharWidth = 0.6;  // of the font size: DejaVu Sans is a little narrower on average

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string superscript(int v) {
  static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string s = v < 0 ? "⁻" : "";
  for (char c : std::to_string(std::abs(v))) s += digits[c - '0'];
  return s;
}

double text_width(const std::string& s, int size) {
  std::size_t chars = 0;  // UTF-8: count the first byte of each character only
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return static_cast<double>(chars) * size * kCharWidth;
}

std::string svg_open(double w, double h, const std::string& title) {
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(w) << "\" height=\"" << num(h) << "\" viewBox=\"0 0 "
    << num(w) << " " << num(h) << "\" font-family=\"" << kFont << "\">\n"
    << "<title>" << xml_escape(title) << "</title>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(title) << "</text>\n";
  return o.str();
}

void text(std::ostream& o, double x, double y, const std::string& s, int size, const char* anchor = "start",
          const char* fill = "#222") {
  o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << size << "\" text-anchor=\"" << anchor
    << "\" fill=\"" << fill << "\">" << xml_escape(s) << "</text>\n";
}

// Text that stays readable where a grid or reference line runs through it:
// a white outline is painted under the letters.
void text_over_lines(std::ostream& o, double x, double y, const std::string& s, int size) {
  o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << size
    << "\" fill=\"#222\" stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">"
    << xml_escape(s) << "</text>\n";
}

void line(std::ostream& o, double x1, double y1, double x2, double y2, const char* stroke, double width,
          const char* dash = nullptr) {
  o << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\"" << num(y2)
    << "\" stroke=\"" << stroke << "\" stroke-width=\"" << width << "\"";
  if (dash) o << " stroke-dasharray=\"" << dash << "\"";
  o << "/>\n";
}

// Reads bottom to top, beside a vertical axis.
void axis_title_up(std::ostream& o, double x, double y, const std::string& s) {
  o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"13\" text-anchor=\"middle\" fill=\"#222\" "
    << "transform=\"rotate(-90 " << num(x) << " " << num(y) << ")\">" << xml_escape(s) << "</text>\n";
}

// One marker shape per series, so the series stay apart in grey print too.
void marker(std::ostream& o, int series, double x, double y, const std::string& tooltip) {
  const char* c = kColours[series % kColourCount];
  const std::string at = "fill=\"" + std::string(c) + "\" stroke=\"white\" stroke-width=\"1\"";
  o << "<g>";
  switch (series % 4) {
    case 0: o << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"4.5\" " << at << "/>"; break;
    case 1:
      o << "<rect x=\"" << num(x - 4) << "\" y=\"" << num(y - 4) << "\" width=\"8\" height=\"8\" " << at << "/>";
      break;
    case 2:
      o << "<polygon points=\"" << num(x) << "," << num(y - 5.5) << " " << num(x + 5) << "," << num(y + 3.5) << " "
        << num(x - 5) << "," << num(y + 3.5) << "\" " << at << "/>";
      break;
    default:
      o << "<polygon points=\"" << num(x) << "," << num(y - 5.5) << " " << num(x + 5.5) << "," << num(y) << " "
        << num(x) << "," << num(y + 5.5) << " " << num(x - 5.5) << "," << num(y) << "\" " << at << "/>";
  }
  o << "<title>" << xml_escape(tooltip) << "</title></g>\n";
}

// A log axis over whole decades [lo, hi], at least one decade wide.
struct Decades {
  int lo, hi;
};
Decades decades_of(double min, double max) {
  Decades d{static_cast<int>(std::floor(std::log10(min) + 1e-9)), static_cast<int>(std::ceil(std::log10(max) - 1e-9))};
  if (d.hi <= d.lo) d.hi = d.lo + 1;
  return d;
}

// "2 ms", "42.1 µs": a time in the unit that keeps it short, to `digits`
// significant digits.
std::string seconds_text(double s, int digits = 6) {
  char b[32];
  if (s < 1e-6) std::snprintf(b, sizeof b, "%.*g ns", digits, s * 1e9);
  else if (s < 1e-3) std::snprintf(b, sizeof b, "%.*g µs", digits, s * 1e6);
  else if (s < 1) std::snprintf(b, sizeof b, "%.*g ms", digits, s * 1e3);
  else std::snprintf(b, sizeof b, "%.*g s", digits, s);
  return b;
}

std::string x_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

std::string ratio_text(double r) {
  char b[32];
  std::snprintf(b, sizeof b, r >= 100 ? "%.0fx" : r >= 0.1 ? "%.1fx" : "%.2gx", r);
  return b;
}

// Integer ticks on the x axis: every n while they are 30 px or more apart.
int x_step(double span) {
  for (int step : {1, 2, 5, 10, 20, 50, 100})
    if (span / step <= 20) return step;
  return static_cast<int>(std::ceil(span / 20));
}

std::vector<ChartPoint> drawable(const std::vector<ChartPoint>& points) {
  std::vector<ChartPoint> out;
  for (const auto& p : points)
    if (p.y > 0 && std::isfinite(p.y) && std::isfinite(p.x)) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
  return out;
}

// Where a time chart's plot sits and what it spans: seconds on whole
// decades upwards, x (an integer such as n) across with half a step spare.
struct TimeFrame {
  double left = 78, top = 44, w = 600, h = 340;
  Decades d{-3, 0};
  double x_lo = 0, x_hi = 1;
  double px(double x) const { return left + w * (x - x_lo) / (x_hi - x_lo); }
  double py(double y) const { return top + h * (d.hi - std::log10(y)) / (d.hi - d.lo); }
};

TimeFrame frame_of(const std::vector<std::vector<ChartPoint>>& series) {
  double xmin = std::numeric_limits<double>::max(), xmax = std::numeric_limits<double>::lowest();
  double ymin = xmin, ymax = xmax;
  for (const auto& points : series)
    for (const auto& p : points) {
      xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
      ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
    }
  TimeFrame f;
  if (ymin > ymax) return f;  // nothing to draw: an empty frame
  f.d = decades_of(ymin, ymax);
  // One x alone would sit at the plot's edge; centre it instead.
  const double spare = std::max(0.5, (2 - (xmax - xmin)) / 2);
  f.x_lo = xmin - spare, f.x_hi = xmax + spare;
  return f;
}

void draw_seconds_axis(std::ostream& o, const TimeFrame& f) {
  const int decades = f.d.hi - f.d.lo;
  // Light lines at 2..9 x 10^k show the log scale, dropped where decades
  // are so close that they would be a grey smear; a chart of a decade or
  // two also names 2 and 5 x 10^k, or it would have two labels in all.
  const bool minor = f.h / decades >= 40, minor_labels = decades <= 2;
  for (int p = f.d.lo; p <= f.d.hi; ++p) {
    const double decade = std::pow(10, p), y = f.py(decade);
    line(o, f.left, y, f.left + f.w, y, "#d0d0d0", 1);
    line(o, f.left - 5, y, f.left, y, "#444", 1);
    text(o, f.left - 8, y + 4, seconds_tick_label(p), 12, "end");
    if (!minor || p == f.d.hi) continue;
    for (int k = 2; k <= 9; ++k) {
      const double ym = f.py(k * decade);
      line(o, f.left, ym, f.left + f.w, ym, "#ebebeb", 1);
      if (minor_labels && (k == 2 || k == 5)) {
        line(o, f.left - 3, ym, f.left, ym, "#888", 1);
        text(o, f.left - 8, ym + 4, seconds_text(k * decade), 11, "end", "#666");
      }
    }
  }
  axis_title_up(o, 18, f.top + f.h / 2, "time (log scale)");
}

void draw_x_axis(std::ostream& o, const TimeFrame& f, const std::string& label) {
  const int step = x_step(f.x_hi - f.x_lo);
  for (long x = static_cast<long>(std::ceil(f.x_lo / step)) * step; x <= f.x_hi; x += step) {
    line(o, f.px(x), f.top + f.h, f.px(x), f.top + f.h + 5, "#444", 1);
    text(o, f.px(x), f.top + f.h + 19, std::to_string(x), 12, "middle");
  }
  o << "<rect x=\"" << num(f.left) << "\" y=\"" << num(f.top) << "\" width=\"" << num(f.w) << "\" height=\""
    << num(f.h) << "\" fill=\"none\" stroke=\"#444\" stroke-width=\"1\"/>\n";
  text(o, f.left + f.w / 2, f.top + f.h + 38, label, 13, "middle");
}

void draw_series(std::ostream& o, const TimeFrame& f, int style, const ChartSeries& s,
                 const std::vector<ChartPoint>& points, const std::string& x_label) {
  o << "<polyline fill=\"none\" stroke=\"" << kColours[style % kColourCount] << "\" stroke-width=\"1.8\""
    << (s.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"";
  for (const auto& p : points) o << num(f.px(p.x)) << "," << num(f.py(p.y)) << " ";
  o << "\"/>\n";
  for (const auto& p : points)
    marker(o, style, f.px(p.x), f.py(p.y),
           s.label + ": " + x_label + " = " + x_text(p.x) + ", " + seconds_text(p.y, 3));
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      // XML 1.0 has no place for other control characters, escaped or not.
      default: out += static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c;
    }
  return out;
}

std::string seconds_tick_label(int p) {
  static const char* const scale[] = {"1", "10", "100"};
  const int r = ((p % 3) + 3) % 3;
  if (p >= -9 && p < -6) return std::string(scale[r]) + " ns";
  if (p >= -6 && p < -3) return std::string(scale[r]) + " µs";
  if (p >= -3 && p < 0) return std::string(scale[r]) + " ms";
  if (p >= 0 && p <= 3) return std::string(p == 3 ? "1000" : scale[r]) + " s";
  return "10" + superscript(p) + " s";
}

std::string ratio_tick_label(int p) {
  if (p >= 0 && p <= 3) return std::to_string(static_cast<int>(std::lround(std::pow(10, p)))) + "x";
  if (p < 0 && p >= -3) return "0." + std::string(-p - 1, '0') + "1x";
  return "10" + superscript(p) + "x";
}

bool has_data(const TimeChart& chart) {
  for (const auto& s : chart.series)
    if (!drawable(s.points).empty()) return true;
  return false;
}

bool has_data(const BarChart& chart) {
  for (const auto& b : chart.bars)
    if (b.value > 0 && std::isfinite(b.value)) return true;
  return false;
}

std::string render_time_chart(const TimeChart& chart) {
  std::vector<std::vector<ChartPoint>> series;
  std::vector<std::size_t> shown;  // the series with a point, in order: only these are drawn
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    series.push_back(drawable(chart.series[i].points));
    if (!series.back().empty()) shown.push_back(i);
  }
  const TimeFrame f = frame_of(series);
  std::ostringstream o;
  draw_seconds_axis(o, f);
  draw_x_axis(o, f, chart.x_label);
  // The first series is drawn last, on top: where figures coincide, the
  // ones measured in this run stay visible.
  for (std::size_t k = shown.size(); k-- > 0;) {
    const std::size_t i = shown[k];
    draw_series(o, f, static_cast<int>(k), chart.series[i], series[i], chart.x_label);
  }
  // The legend goes under the plot, one series a line: labels are long and
  // a box inside the plot would hide points.
  const double legend_top = f.top + f.h + 56, legend_row = 20;
  double widest = 0;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const ChartSeries& s = chart.series[shown[k]];
    const double y = legend_top + legend_row * static_cast<double>(k);
    const int style = static_cast<int>(k);
    line(o, f.left, y, f.left + 30, y, kColours[style % kColourCount], 1.8, s.dashed ? "6 4" : nullptr);
    marker(o, style, f.left + 15, y, s.label);
    text(o, f.left + 40, y + 4, s.label, 12);
    widest = std::max(widest, 40 + text_width(s.label, 12));
  }
  if (shown.empty()) text(o, f.left + f.w / 2, f.top + f.h / 2, "no data", 14, "middle");
  const double right = 24;
  const double w = std::max(f.left + f.w + right, f.left + widest + right);
  const double h = legend_top + legend_row * static_cast<double>(std::max<std::size_t>(shown.size(), 1)) - 4;
  return svg_open(w, h, chart.title) + o.str() + "</svg>\n";
}

std::string render_bar_chart(const BarChart& chart) {
  constexpr double top = 64, bar_h = 18, row_h = 26, plot_w = 520, right = 70;
  std::vector<ChartBar> bars;
  for (const auto& b : chart.bars)
    if (b.value > 0 && std::isfinite(b.value)) bars.push_back(b);
  double label_w = 0, vmin = 1, vmax = std::max(1.0, chart.reference);
  for (const auto& b : bars) {
    label_w = std::max(label_w, text_width(b.label, 12));
    vmin = std::min(vmin, b.value), vmax = std::max(vmax, b.value);
  }
  const double left = std::max(60.0, label_w + 20);
  // A little room past the extremes, so the 1x line is never the plot's edge.
  const double lo = std::log10(vmin) - 0.15, hi = std::log10(vmax) + 0.15;
  auto px = [&](double v) { return left + plot_w * (std::log10(v) - lo) / (hi - lo); };
  const double plot_h = row_h * static_cast<double>(std::max<std::size_t>(bars.size(), 1));

  std::ostringstream o, values;  // the values are drawn last, over the 1x and reference lines
  for (int p = static_cast<int>(std::ceil(lo)); p <= hi; ++p) {
    const double x = px(std::pow(10, p));
    line(o, x, top, x, top + plot_h, "#d8d8d8", 1);
    text(o, x, top + plot_h + 18, ratio_tick_label(p), 12, "middle");
  }
  for (std::size_t k = 0; k < bars.size(); ++k) {
    const auto& b = bars[k];
    const double y = top + row_h * static_cast<double>(k) + (row_h - bar_h) / 2;
    const double x0 = px(std::min(1.0, b.value)), x1 = px(std::max(1.0, b.value));
    const char* fill = b.value >= chart.reference ? "#0072B2" : b.value >= 1 ? "#E69F00" : "#D55E00";
    o << "<rect x=\"" << num(x0) << "\" y=\"" << num(y) << "\" width=\"" << num(std::max(x1 - x0, 1.0))
      << "\" height=\"" << num(bar_h) << "\" fill=\"" << fill << "\"><title>" << xml_escape(b.label) << ": "
      << ratio_text(b.value) << "</title></rect>\n";
    text(o, left - 8, y + bar_h / 2 + 4, b.label, 12, "end");
    // The value sits right of the bar, or right of the 1x line for a bar
    // that points left, so it never runs into the row labels.
    text_over_lines(values, x1 + 5, y + bar_h / 2 + 4, ratio_text(b.value), 12);
  }
  const double one = px(1), ref = px(chart.reference);
  line(o, ref, top - 6, ref, top + plot_h, "#555", 1.2, "5 4");
  line(o, one, top - 6, one, top + plot_h, "#111", 2);
  // Both markers are named above the plot; when they are close the names
  // go to either side of their lines so they do not overlap.
  const bool close = std::abs(ref - one) < 70;
  text(o, one + (close ? -4 : 0), top - 10, "1x: as fast", 11, close ? "end" : "middle", "#111");
  char ref_label[32];
  std::snprintf(ref_label, sizeof ref_label, "%gx", chart.reference);
  text(o, ref + (close ? 4 : 0), top - 10, ref_label, 11, close ? "start" : "middle", "#555");
  line(o, left, top + plot_h, left + plot_w, top + plot_h, "#444", 1);
  o << values.str();
  text(o, left + plot_w / 2, top + plot_h + 38, chart.value_label + " (log scale)", 13, "middle");
  if (bars.empty()) text(o, left + plot_w / 2, top + plot_h / 2, "no data", 14, "middle");
  return svg_open(left + plot_w + right, top + plot_h + 50, chart.title) + o.str() + "</svg>\n";
}

}  // namespace magic
