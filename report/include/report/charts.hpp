#pragma once
// Simple SVG charts for the reproduce report, written by hand: a log-scale
// time chart and a log-scale bar chart of ratios.  Pure functions of their
// data, so the tests can draw a chart from a few made-up points.
#include <string>
#include <vector>

namespace magic {

struct ChartPoint {
  double x;
  double y;
};

struct ChartSeries {
  std::string label;  // shown in the legend
  std::vector<ChartPoint> points;
  bool dashed = false;  // e.g. figures measured elsewhere, not in this run
};

// Seconds (log scale, ticks at powers of ten labelled "1 ms", "10 s", ...)
// against an integer x such as n.  Points with y <= 0 cannot be drawn on a
// log scale and are left out.
struct TimeChart {
  std::string title;
  std::string x_label;
  std::vector<ChartSeries> series;  // drawn in this order, one colour and marker each
};

struct ChartBar {
  std::string label;
  double value;  // a ratio such as a speedup; must be > 0
};

// Horizontal bars on a log scale, each from the 1x line to its value, so a
// value under 1 points the other way; a dashed line marks `reference`.
struct BarChart {
  std::string title;
  std::string value_label;  // what the axis measures, e.g. "speedup over the port"
  std::vector<ChartBar> bars;
  double reference = 2;
};

// Whether the chart has anything to draw.
bool has_data(const TimeChart& chart);
bool has_data(const BarChart& chart);

// The whole SVG document.
std::string render_time_chart(const TimeChart& chart);
std::string render_bar_chart(const BarChart& chart);

// "1 µs", "10 ms", "1 s", "1000 s", "10⁴ s": the label of a power-of-ten tick.
std::string seconds_tick_label(int power_of_ten);
// "0.1x", "1x", "100x", "10⁴x".
std::string ratio_tick_label(int power_of_ten);
std::string xml_escape(const std::string& text);

}  // namespace magic
