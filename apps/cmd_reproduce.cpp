#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <unistd.h>

#include "cli_common.hpp"
#include "commands.hpp"
#include "layout.hpp"
#include "magic/io.hpp"
#include "report/records.hpp"
#include "report/reproduce.hpp"

namespace cli {
namespace {

struct ReproduceArgs {
  std::string out = "results";
  bool full = false;
  unsigned threads = 0;
  std::string documents;
  std::string data;  // the data directory (layout.hpp), "" for the default
  bool no_baselines = false;
  bool all_baselines = false;
  bool quiet = false;
  bool records = false;
  std::string records_dir;  // "" for <data>/records
  double rerun_under = 600;
};

// The layout, with --data checked: a directory, not the documents file
// this option once took.
Layout layout_of(const ReproduceArgs& a) {
  std::error_code ec;
  if (!a.data.empty() && !std::filesystem::is_directory(a.data, ec))
    throw UsageError("--data " + a.data + " is not a directory (--data names the data directory, with records/; " +
                     "a documents file goes to --documents)");
  return find_layout(a.data);
}

std::function<void(const std::string&)> step_printer(bool quiet, bool& tty) {
  tty = !quiet && live_progress();
  if (tty) return [](const std::string& s) { std::cerr << "\r\033[K" << s << std::flush; };
  if (!quiet) return [](const std::string& s) { std::cerr << s << "\n"; };
  return nullptr;
}

// `reproduce --records`: every record run checked; exit 1 if one differs.
int check_records(const ReproduceArgs& a) {
  magic::RecordsOptions ro;
  ro.dir = a.records_dir.empty() ? require_data(layout_of(a), "--records") + "/records" : a.records_dir;
  ro.self = self_path();
  ro.out_dir = (std::filesystem::path(a.out) / "records").string();
  ro.threads = a.threads;
  ro.rerun_seconds = a.rerun_under;
  bool tty = false;
  ro.on_step = step_printer(a.quiet, tty);
  try {
    std::filesystem::create_directories(ro.out_dir);
  } catch (const std::exception& e) {
    throw UsageError("cannot create --out directory " + ro.out_dir + ": " + e.what());
  }
  const auto checks = magic::check_records(ro);
  if (tty) std::cerr << "\r\033[K";
  bool all = true;
  for (const auto& c : checks) {
    std::cout << c.name << ": " << c.status << "\n";
    for (const auto& line : c.checks) std::cout << "  " << line << "\n";
    all = all && c.status != "differs";
  }
  if (!all) std::cerr << "magicount: error: some records do not agree (see above)\n";
  return all ? kOk : kNoSolution;
}

void add_reproduce(CLI::App& app, Action& action) {
  auto a = std::make_shared<ReproduceArgs>();
  CLI::App* sub = app.add_subcommand(
      "reproduce", "rerun every result of the source documents and compare counts and times side by side");
  sub->add_option("--out", a->out, "directory for the per-problem JSON/SVG and report.json/report.md")
      ->capture_default_str();
  auto* quick = sub->add_flag("--quick")->description(
      "circles up to n=15, stars up to n=11, about 15 seconds on 2 cores (default)");
  sub->add_flag("--full", a->full, "also circles n=16 and 17, stars n=12 and 13, all 5x5 magic squares (about 1 minute), and the maenjin2 port at n=15")->excludes(quick);
  sub->add_option("--threads,-t", a->threads, "worker threads (default: all cores)")->transform(whole_number() & CLI::Range(1u, 4096u));
  sub->add_option("--documents", a->documents, "documents data file (default: the copy built in)");
  sub->add_option("--data", a->data,
                  "data directory, with records/ and figures/ (default: share/magicount when installed, the "
                  "source tree's data/ when run from the build)");
  auto* none = sub->add_flag("--no-baselines", a->no_baselines, "skip timing the ports of the documents' algorithms");
  sub->add_flag("--all-baselines", a->all_baselines,
                "also time the ports that take many minutes (maenjin2 at n=16 and 17, about an hour)")
      ->excludes(none);
  sub->add_flag("--quiet,-q", a->quiet, "print only the final table");
  sub->add_flag("--records", a->records,
                "check the record runs instead: rerun each whose run takes under --rerun-under seconds here, add up each "
                "journal, verify listed solutions");
  sub->add_option("--records-dir", a->records_dir,
                  "where the records are, one folder per count (default: records/ in the data directory)");
  sub->add_option("--rerun-under", a->rerun_under,
                  "with --records: rerun a record whose run would take fewer seconds than this here (its CPU "
                  "seconds / threads); 0 checks the saved files only")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  sub->callback([a, &action] {
    action = [a]() -> int {
      if (a->records) return check_records(*a);
      magic::ReproduceOptions ro;
      const Layout layout = layout_of(*a);
      ro.documents = magic::parse_json(a->documents.empty() ? std::string(magic::embedded_documents())
                                                            : magic::read_file(a->documents),
                                       "documents data file");
      if (!ro.documents.is_object() || !ro.documents.contains("rows") || !ro.documents.at("rows").is_array())
        throw UsageError("bad documents data file: no \"rows\" array");
      ro.out_dir = a->out;
      ro.full = a->full;
      ro.all_baselines = a->all_baselines;
      ro.threads = a->threads;
      if (!a->no_baselines) ro.baseline_dir = layout.helpers;
      bool tty = false;
      ro.on_step = step_printer(a->quiet, tty);
      try {
        std::filesystem::create_directories(ro.out_dir);
      } catch (const std::exception& e) {
        throw UsageError("cannot create --out directory " + ro.out_dir + ": " + e.what());
      }
      install_signal_handlers();
      ro.interrupt = &interrupt_flag();
      nlohmann::json report;
      try {
        report = magic::reproduce(ro);
      } catch (const magic::Interrupted& stop) {
        if (tty) std::cerr << "\r\033[K";
        std::cerr << "interrupted after " << std::min(stop.rows_done, stop.rows) << " of " << stop.rows
                  << " rows; no report was written (the rows' JSON files so far are in " << ro.out_dir << ")\n";
        return interrupt_exit_code();
      }
      if (tty) std::cerr << "\r\033[K";
      const std::string md = magic::report_markdown(report);
      // The terminal gets the table; the charts and pictures are for report.md.
      std::cout << md.substr(0, md.find("\n## ")) << "\nWritten to " << ro.out_dir
                << "/ (report.md, report.json, charts, one JSON and SVG per problem)\n";
      if (!report.at("all_match").get<bool>()) {
        std::cerr << "magicount: error: some results do not match the documents (see report.md)\n";
        return kNoSolution;
      }
      return kOk;
    };
  });
}

const RegisterCommand reg_reproduce(90, add_reproduce);

}  // namespace
}  // namespace cli
