#pragma once
// `magicount reproduce`: runs every result the documents report (listed in
// data/documents.json), times the C++ ports of the documents' algorithms
// side by side, and writes one JSON + SVG per problem plus report.json/.md
// and charts of the times and speedups.
#include <array>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace magic {

struct ReproduceOptions {
  nlohmann::json documents;  // contents of data/documents.json
  std::string out_dir = "results";
  bool full = false;         // include rows marked full_only
  bool all_baselines = false;  // also time ports marked "when": "all" (hours)
  unsigned threads = 0;      // 0 = all cores
  std::string baseline_dir;  // where bin/baseline-* live; empty = skip baselines
  std::function<void(const std::string& line)> on_step;  // progress, one short line
  // Set (by a signal): the run in progress stops, and reproduce() throws
  // Interrupted before it writes the report.
  const std::atomic<bool>* interrupt = nullptr;
};

// reproduce() was stopped through ReproduceOptions::interrupt.  Not an
// Error: the caller maps it to 128 + the signal.
struct Interrupted {
  std::size_t rows_done, rows;
};

// The files a report writes besides one per row (report_charts' files
// among them): a row's id may not take their names.
inline constexpr std::array<const char*, 5> kReportFiles{"report.json", "report.md", "chart-circles.svg",
                                                         "chart-stars.svg", "chart-speedup.svg"};

// Runs everything and returns report.json's content; writes the files.
// Calls validate_documents first.
nlohmann::json reproduce(const ReproduceOptions& opt);
// Throws SpecError naming the row and field of the documents data that
// reproduce() cannot use (a wrong type, a missing field, a bad spec), so a
// bad data file fails before any work and never as a JSON library error.
void validate_documents(const nlohmann::json& documents);
std::string report_markdown(const nlohmann::json& report);

// The report's charts: time against n for the circles and for the stars
// {n/2} (ours, the ports, the documents' own figures) and each row's speedup
// over its port, drawn from report.json's content.  Always the same three
// files, in this order; `svg` is empty for a chart with nothing to draw.
struct ReportChart {
  std::string file;
  std::string caption;  // one line, for report.md
  std::string svg;
};
std::vector<ReportChart> report_charts(const nlohmann::json& report);

// The documents' data file, compiled in at build time.
const char* embedded_documents();
// data/known_counts.json: the literature's counts that are not the documents'.
const char* embedded_known_counts();

}  // namespace magic
