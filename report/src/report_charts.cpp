// The reproduce report's charts, drawn from report.json's rows (not from the
// run itself) so that they and report.md always show the same figures.
#include <map>
#include <set>

#include "report/charts.hpp"
#include "report/reproduce.hpp"

namespace magic {
namespace {

// A plain family member such as {"name": "circle", "n": 12}: the rows with
// more to their spec (a pentagram of ten of 1..12) are other problems and
// would not belong on a line against n.
bool plain_family_row(const nlohmann::json& row, const std::string& name) {
  if (!row.contains("spec")) return false;
  const auto& spec = row.at("spec");
  return spec.size() == 2 && spec.value("name", "") == name && spec.contains("n") && spec.at("n").is_number();
}

std::string port_program(const nlohmann::json& baseline) {
  const std::string cmd = baseline.value("command", "port");
  const std::string first = cmd.substr(0, cmd.find(' '));
  const std::string prefix = "baseline-";
  return first.rfind(prefix, 0) == 0 ? first.substr(prefix.size()) : first;
}

std::string ours_label(const std::vector<const nlohmann::json*>& rows) {
  std::set<int> threads;
  for (const auto* r : rows) threads.insert(r->value("threads", 0));
  std::string label = "ours (this run";
  if (threads.size() == 1 && *threads.begin() > 0)
    label += ", " + std::to_string(*threads.begin()) + (*threads.begin() == 1 ? " thread" : " threads");
  return label + ")";
}

std::string doc_label(const nlohmann::json& document, const nlohmann::json& t) {
  std::string label = "document " + document.get<std::string>() + ": ";
  if (t.contains("what")) label += t.at("what").get<std::string>() + " in ";
  return label + t.at("language").get<std::string>() + " (hardware: " + t.at("hardware").get<std::string>() + ")";
}

TimeChart family_chart(const nlohmann::json& report, const std::string& name, const std::string& title) {
  std::vector<const nlohmann::json*> rows;
  for (const auto& r : report.at("rows"))
    if (plain_family_row(r, name)) rows.push_back(&r);
  TimeChart chart{title, "n", {}};
  ChartSeries ours{ours_label(rows), {}};
  // Ports and the document's figures: one series per program and per
  // (document, what, language, hardware), in the order first met.
  std::vector<ChartSeries> ports, docs;
  std::map<std::string, std::size_t> port_at, doc_at;
  auto add = [](std::vector<ChartSeries>& list, std::map<std::string, std::size_t>& at, const std::string& label,
                bool dashed, ChartPoint p) {
    auto [it, fresh] = at.emplace(label, list.size());
    if (fresh) list.push_back({label, {}, dashed});
    list[it->second].points.push_back(p);
  };
  for (const auto* r : rows) {
    const double n = r->at("spec").at("n").get<double>();
    ours.points.push_back({n, r->at("our_seconds").get<double>()});
    if (r->contains("baseline") && r->at("baseline").contains("seconds"))
      add(ports, port_at, "C++ port of " + port_program(r->at("baseline")) + " (this run)", false,
          {n, r->at("baseline").at("seconds").get<double>()});
    // Older reports carry only the headline figure.
    const nlohmann::json times = r->contains("doc_times") ? r->at("doc_times")
                                 : r->contains("doc_time") ? nlohmann::json::array({r->at("doc_time")})
                                                           : nlohmann::json::array();
    for (const auto& t : times)
      add(docs, doc_at, doc_label(r->at("document"), t), true, {n, t.at("seconds").get<double>()});
  }
  chart.series.push_back(ours);
  chart.series.insert(chart.series.end(), ports.begin(), ports.end());
  chart.series.insert(chart.series.end(), docs.begin(), docs.end());
  return chart;
}

BarChart speedup_chart(const nlohmann::json& report) {
  BarChart chart{"Speedup over the port of the document's algorithm", "port's time / our time", {}, 2};
  for (const auto& r : report.at("rows"))
    if (r.contains("speedup_vs_baseline"))
      chart.bars.push_back({r.at("id").get<std::string>(), r.at("speedup_vs_baseline").get<double>()});
  return chart;
}

ReportChart drawn(std::string file, std::string caption, const TimeChart& c) {
  return {std::move(file), std::move(caption), has_data(c) ? render_time_chart(c) : std::string()};
}

}  // namespace

std::vector<ReportChart> report_charts(const nlohmann::json& report) {
  std::vector<ReportChart> out;
  out.push_back(drawn("chart-circles.svg",
                      "Magic circles: time against n, log scale. Ours and the port were timed in this run; "
                      "the dashed lines are the document's own times, on its own hardware.",
                      family_chart(report, "circle", "Magic circles: time against n")));
  out.push_back(drawn("chart-stars.svg",
                      "Magic stars {n/2}: our time against n, log scale, with the document's own times "
                      "where it gives any (dashed).",
                      family_chart(report, "star", "Magic stars {n/2}: time against n")));
  const BarChart bars = speedup_chart(report);
  out.push_back({"chart-speedup.svg",
                 "Speedup over the port of each document's algorithm, both timed in this run; rows whose port "
                 "was not timed are left out. Bars right of 1x are faster than the port.",
                 has_data(bars) ? render_bar_chart(bars) : std::string()});
  return out;
}

}  // namespace magic
