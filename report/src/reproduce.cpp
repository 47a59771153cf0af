#include "report/reproduce.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "magic/io.hpp"
#include "magic/job.hpp"
#include "report/process.hpp"
#include "magic/spec.hpp"
#include "magic/result.hpp"
#include "report/svg.hpp"

namespace magic {
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kPictured = 4;  // solutions drawn per problem

// Runs a baseline port; its last stdout line is {"count": N, "seconds": T}.
nlohmann::json run_baseline(const std::string& dir, const nlohmann::json& b, const std::string& grid_file) {
  const std::string exe = (fs::path(dir) / ("baseline-" + b.at("program").get<std::string>())).string();
  if (!fs::exists(exe)) return {{"error", "not built: " + exe}};
  std::vector<std::string> argv{exe};
  std::string shown = "baseline-" + b.at("program").get<std::string>();
  for (const auto& a : b.at("args")) {
    std::string arg = a.get<std::string>();
    if (arg == "{grid_file}") arg = grid_file;
    argv.push_back(arg);
    shown += ' ';
    shown += arg == grid_file ? fs::path(arg).filename().string() : arg;
  }
  const auto t0 = std::chrono::steady_clock::now();
  ProcessResult ran;
  try {
    ran = run_process(argv);
  } catch (const IoError& e) {
    return {{"error", e.what()}};
  }
  const int status = ran.code;
  std::string last;
  std::istringstream lines(ran.out);
  for (std::string line; std::getline(lines, line);)
    if (line.find_first_not_of(" \r") != std::string::npos) last = line;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json r{{"command", shown}, {"process_seconds", wall}};
  try {
    const auto j = nlohmann::json::parse(last);
    r["count"] = j.at("count");
    r["seconds"] = j.at("seconds");
  } catch (const std::exception&) {
    r["error"] = "unexpected output (exit status " + std::to_string(status) + ")";
  }
  return r;
}

// Whether this run times the port: "when" is quick (default), full or all.
bool baseline_due(const nlohmann::json& b, const ReproduceOptions& opt) {
  const std::string when = b.value("when", "quick");
  if (when == "all") return opt.all_baselines;
  if (when == "full") return opt.full || opt.all_baselines;
  if (when == "quick") return true;
  throw SpecError("documents data: baseline \"when\" must be quick, full or all, got \"" + when + "\"");
}

bool counts_match(const nlohmann::json& doc, const nlohmann::json& ours) {
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (!ours.contains(it.key()) || ours.at(it.key()) != it.value()) return false;
  return true;
}

std::string fmt_seconds(double s) {
  char b[32];
  if (s < 0.001) std::snprintf(b, sizeof b, "%.0f µs", s * 1e6);
  else if (s < 1) std::snprintf(b, sizeof b, "%.2f ms", s * 1e3);
  else std::snprintf(b, sizeof b, "%.2f s", s);
  return b;
}

// A row faster than kShortRow is timed again until kRepeatBudget seconds
// have passed, and its median is reported: a single short run is mostly
// first-run set-up and noise.  The port of a short row is repeated alike.
// The budget counts each rerun's whole cost (a port's process launch, our
// problem's construction), so a microsecond row ends after 0.2 s, not
// after 2000 launches.
constexpr double kShortRow = 0.05;
constexpr double kRepeatBudget = 0.2;
constexpr std::size_t kMaxRepeats = 2000;

struct Timing {
  double seconds;
  std::size_t runs;
};
Timing repeat_if_short(double first, const std::function<double()>& again) {
  std::vector<double> t{first};
  const auto t0 = std::chrono::steady_clock::now();
  auto spent = [&] { return first + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (first < kShortRow)
    while (spent() < kRepeatBudget && t.size() < kMaxRepeats) {
      const double s = again();
      if (!(s >= 0)) break;  // a failed rerun: keep what was measured
      t.push_back(s);
    }
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return {n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, n};
}

std::string runs_text(std::size_t runs) { return runs > 1 ? ", median of " + std::to_string(runs) : ""; }

std::string fmt_ratio(double r) {
  char b[32];
  std::snprintf(b, sizeof b, r >= 100 ? "%.0fx" : "%.1fx", r);
  return b;
}

// Writes the charts that have data and returns [{file, caption}] for
// report.md.  A chart left without data this time is removed, so an old
// run's picture is never taken for this one's.
nlohmann::json write_charts(const nlohmann::json& report, const std::string& out_dir) {
  nlohmann::json written = nlohmann::json::array();
  for (const auto& c : report_charts(report)) {
    const fs::path file = fs::path(out_dir) / c.file;
    if (c.svg.empty()) {
      fs::remove(file);
      continue;
    }
    AtomicFile f(file.string());
    f.write(c.svg);
    f.commit();
    written.push_back({{"file", c.file}, {"caption", c.caption}});
  }
  return written;
}

}  // namespace

nlohmann::json reproduce(const ReproduceOptions& opt) {
  validate_documents(opt.documents);  // a bad data file fails before any work
  fs::create_directories(opt.out_dir);
  nlohmann::json rows = nlohmann::json::array();
  const auto& all = opt.documents.at("rows");
  std::size_t index = 0, total = 0;
  for (const auto& row : all) total += opt.full || !row.value("full_only", false);
  nlohmann::json largest;
  RunResult largest_run;
  double largest_wall = -1;

  const auto stop_if_asked = [&] {
    if (opt.interrupt && opt.interrupt->load()) throw Interrupted{index ? index - 1 : 0, total};
  };
  for (const auto& row : all) {
    if (!opt.full && row.value("full_only", false)) continue;
    const std::string id = row.at("id");
    ++index;
    stop_if_asked();
    auto step = [&](const std::string& what) {
      if (opt.on_step) {
        std::string line = "[";  // built up: "[" + to_string(...) makes GCC 12 warn falsely (PR 105651)
        line += std::to_string(index) + "/" + std::to_string(total) + "] " + id + ": " + what;
        opt.on_step(line);
      }
    };
    step("running");
    RunOptions ro;
    ro.threads = opt.threads;
    ro.interrupt = opt.interrupt;
    ro.solutions = kPictured;
    std::vector<nlohmann::json> sols;
    ro.on_solution = [&](const nlohmann::json& s) { sols.push_back(s); };
    const Job job = Job::make(row.at("spec"));  // the row's one visit of its spec
    const RunResult r = job.run(ro);
    stop_if_asked();  // a stopped run's counts are no row's counts
    const nlohmann::json counts = counts_json(r, job.by_key_name());

    nlohmann::json result{{"problem", job.problem()}, {"solutions", sols}};
    result.update(job.result_fields(r));  // as --json writes it
    {
      AtomicFile f((fs::path(opt.out_dir) / (id + ".json")).string());
      f.write(result.dump(2) + "\n");
      f.commit();
    }
    std::string svg_file;
    if (!sols.empty()) {
      svg_file = id + ".svg";
      AtomicFile f((fs::path(opt.out_dir) / svg_file).string());
      f.write(render_svg(job.problem(), sols));
      f.commit();
    }

    const Timing ours = repeat_if_short(r.wall_seconds, [&] {
      RunOptions again;
      again.threads = opt.threads;
      again.interrupt = opt.interrupt;
      const double wall = job.run(again).wall_seconds;
      stop_if_asked();
      return wall;
    });
    nlohmann::json rep{{"id", id},
                       {"title", row.at("title")},
                       {"document", row.at("document")},
                       {"spec", row.at("spec")},
                       {"doc_counts", row.at("counts")},
                       {"our_counts", counts},
                       {"match", counts_match(row.at("counts"), counts)},
                       {"digest", r.digest.hex()},
                       {"our_seconds", ours.seconds},
                       {"our_runs", ours.runs},
                       {"threads", r.threads},
                       {"json", id + ".json"}};
    if (!svg_file.empty()) rep["svg"] = svg_file;
    if (row.contains("answer")) {
      const bool found = std::find(sols.begin(), sols.end(), row.at("answer")) != sols.end();
      rep["answer_found"] = found;
      if (!found) rep["match"] = false;
    }
    if (!row.at("times").empty()) {
      const auto& t = row.at("times").at(0);  // the document's headline time
      rep["doc_time"] = t;
      rep["doc_times"] = row.at("times");  // the charts show every figure the document gives
      rep["speedup_vs_doc"] = t.at("seconds").get<double>() / std::max(ours.seconds, 1e-9);
    }
    if (row.contains("baseline") && !opt.baseline_dir.empty() && !baseline_due(row.at("baseline"), opt)) {
      rep["baseline"] = {{"skipped", row.at("baseline").value("when", "quick") == "all"
                                         ? "not timed: needs --all-baselines"
                                         : "not timed: needs --full"}};
    } else if (row.contains("baseline") && !opt.baseline_dir.empty()) {
      step("timing the port of the document's algorithm");
      std::string grid_file;
      if (row.at("spec").contains("grid")) {
        grid_file = (fs::path(opt.out_dir) / (id + ".grid.json")).string();
        AtomicFile f(grid_file);
        f.write(row.at("spec").at("grid").dump() + "\n");
        f.commit();
      }
      nlohmann::json b = run_baseline(opt.baseline_dir, row.at("baseline"), grid_file);
      if (b.contains("seconds")) {
        const Timing port = repeat_if_short(b.at("seconds").get<double>(), [&] {
          const nlohmann::json again = run_baseline(opt.baseline_dir, row.at("baseline"), grid_file);
          return again.contains("seconds") ? again.at("seconds").get<double>() : -1.0;
        });
        b["seconds"] = port.seconds;
        b["runs"] = port.runs;
        rep["speedup_vs_baseline"] = port.seconds / std::max(ours.seconds, 1e-9);
      }
      if (!grid_file.empty()) fs::remove(grid_file);
      stop_if_asked();  // the port was stopped by the same signal: no time of its own
      rep["baseline"] = b;
    }
    if (ours.seconds > largest_wall) {
      largest_wall = ours.seconds;
      largest = row;
      largest_run = r;
    }
    rows.push_back(rep);
  }

  nlohmann::json report{{"version", BuildInfo::version()},
                        {"source", BuildInfo::source()},
                        {"compiler", BuildInfo::compiler()},
                        {"flags", BuildInfo::flags()},
                        {"mode", opt.full ? "full" : "quick"},
                        {"rows", rows}};
  if (!largest.is_null()) {
    // Thread scaling on the largest problem: its row's run on all threads
    // against one more run on 1 thread, both in this invocation.
    if (opt.on_step) opt.on_step("thread scaling: " + largest.at("id").get<std::string>() + " on 1 thread");
    RunOptions one;
    one.threads = 1;
    one.interrupt = opt.interrupt;
    const RunResult r1 = run_spec(largest.at("spec"), one).result;
    ++index;  // every row is done: only the report is left
    stop_if_asked();
    const RunResult& rn = largest_run;
    report["scaling"] = {{"id", largest.at("id")},
                         {"threads", rn.threads},
                         {"seconds_1_thread", r1.wall_seconds},
                         {"seconds_all_threads", rn.wall_seconds},
                         {"speedup", r1.wall_seconds / std::max(rn.wall_seconds, 1e-9)},
                         {"same_digest", r1.digest == rn.digest}};
  }
  bool all_match = true;
  for (const auto& r : rows) all_match = all_match && r.at("match").get<bool>();
  report["all_match"] = all_match;
  report["charts"] = write_charts(report, opt.out_dir);

  AtomicFile fj((fs::path(opt.out_dir) / "report.json").string());
  fj.write(report.dump(2) + "\n");
  fj.commit();
  AtomicFile fm((fs::path(opt.out_dir) / "report.md").string());
  fm.write(report_markdown(report));
  fm.commit();
  return report;
}

std::string report_markdown(const nlohmann::json& report) {
  std::ostringstream o;
  o << "# magicount reproduce (" << report.at("mode").get<std::string>() << ")\n\n"
    << "magicount " << report.at("version").get<std::string>() << " (source "
    << report.at("source").get<std::string>() << "), " << report.at("compiler").get<std::string>()
    << ", flags `" << report.at("flags").get<std::string>() << "`.  Our time and the port's time were measured "
    << "in this run, on this machine; the document's time is the document's own, on its own hardware.  "
    << "A run under 50 ms is repeated for 0.2 s and its median shown, ours and the port's alike.\n\n"
    << "| problem | doc | document's count | our count | | our time | threads | document's time (hardware) "
       "| port of the document's algorithm | vs port | vs document |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  auto counts_text = [](const nlohmann::json& c) {
    std::string s;
    for (auto it = c.begin(); it != c.end(); ++it) {
      if (!s.empty()) s += ", ";
      if (it->is_object()) {
        std::string m;
        for (auto kv = it->begin(); kv != it->end(); ++kv) m += (m.empty() ? "" : " ") + kv.key() + ":" + kv->dump();
        s += it.key() + " {" + m + "}";
      } else {
        s += it.key() + " " + it->dump();
      }
    }
    return s;
  };
  for (const auto& r : report.at("rows")) {
    o << "| " << r.at("title").get<std::string>() << " | " << r.at("document").get<std::string>() << " | "
      << counts_text(r.at("doc_counts")) << " | " << counts_text(r.at("our_counts")) << " | "
      << (r.at("match").get<bool>() ? "match" : "**MISMATCH**") << " | " << fmt_seconds(r.at("our_seconds"))
      << runs_text(r.value("our_runs", 1))
      << " | " << r.at("threads") << " | ";
    if (r.contains("doc_time")) {
      const auto& t = r.at("doc_time");
      o << fmt_seconds(t.at("seconds")) << " (" << t.at("language").get<std::string>() << ", "
        << t.at("hardware").get<std::string>() << ")";
    } else {
      o << "not reported";
    }
    o << " | ";
    if (r.contains("baseline")) {
      const auto& b = r.at("baseline");
      if (b.contains("seconds"))
        o << fmt_seconds(b.at("seconds")) << runs_text(b.value("runs", 1)) << " (`" << b.at("command").get<std::string>()
          << "`)";
      else o << b.value("skipped", b.value("error", "failed"));
    } else {
      o << "-";
    }
    o << " | " << (r.contains("speedup_vs_baseline") ? fmt_ratio(r.at("speedup_vs_baseline")) : "-") << " | "
      << (r.contains("speedup_vs_doc") ? fmt_ratio(r.at("speedup_vs_doc")) : "-") << " |\n";
  }
  if (report.contains("scaling")) {
    const auto& s = report.at("scaling");
    o << "\nThread scaling on the largest problem (" << s.at("id").get<std::string>() << "): "
      << fmt_seconds(s.at("seconds_1_thread")) << " on 1 thread, " << fmt_seconds(s.at("seconds_all_threads"))
      << " on " << s.at("threads") << " threads: " << fmt_ratio(s.at("speedup")) << " speedup"
      << (s.at("same_digest").get<bool>() ? ", same digest" : ", **DIGEST DIFFERS**") << ".\n";
  }
  if (report.contains("charts") && !report.at("charts").empty()) {
    o << "\n## Charts\n";
    for (const auto& c : report.at("charts")) {
      const std::string file = c.at("file");
      o << "\n![" << fs::path(file).stem().string() << "](" << file << ")\n\n" << c.at("caption").get<std::string>()
        << "\n";
    }
  }
  o << "\n## Pictures\n\n";
  for (const auto& r : report.at("rows"))
    if (r.contains("svg"))
      o << "### " << r.at("title").get<std::string>() << "\n\n![" << r.at("id").get<std::string>() << "]("
        << r.at("svg").get<std::string>() << ")\n\n";
  return o.str();
}

}  // namespace magic
