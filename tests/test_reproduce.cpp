#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <vector>
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "report/charts.hpp"
#include "report/process.hpp"
#include "report/reproduce.hpp"
#include "magic/core/error.hpp"
#include "report/svg.hpp"

namespace fs = std::filesystem;

namespace {

nlohmann::json documents() { return nlohmann::json::parse(magic::embedded_documents()); }

// Well-formed XML (xmllint), and a real renderer draws it (rsvg-convert).
void expect_renders(const fs::path& svg) {
  const std::string lint = "xmllint --noout '" + svg.string() + "' 2>/dev/null";
  ASSERT_EQ(run_shell_status(lint), 0) << svg << " is not well-formed XML";
  const fs::path png = svg.string() + ".png";
  const std::string cmd = "rsvg-convert '" + svg.string() + "' -o '" + png.string() + "' 2>/dev/null";
  ASSERT_EQ(run_shell_status(cmd), 0) << svg;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 1000u);
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void expect_renders(const std::string& svg, const fs::path& file) {
  std::ofstream(file) << svg;
  expect_renders(file);
}

// A report.json with a little of everything the charts read: circles with
// and without a timed port, plain stars, and a pentagram variant that is
// not a plain star (it belongs in the speedup bars but not on the n axis).
nlohmann::json synthetic_report() {
  auto row = [](const std::string& id, const nlohmann::json& spec, double ours) {
    return nlohmann::json{{"id", id}, {"title", id}, {"document", "003"}, {"spec", spec}, {"our_seconds", ours},
                          {"threads", 2}};
  };
  auto doc = [](double s, const std::string& what) {
    return nlohmann::json{{"seconds", s}, {"what", what}, {"language", "VB.NET"}, {"hardware", "not stated"}};
  };
  nlohmann::json c4 = row("circle-4", {{"name", "circle"}, {"n", 4}}, 2e-5);
  c4["baseline"] = {{"command", "baseline-maenjin2 4"}, {"seconds", 4e-4}};
  c4["speedup_vs_baseline"] = 20.0;
  c4["doc_times"] = {doc(0.03, "maenjin2"), doc(0.01, "billiard")};
  nlohmann::json c5 = row("circle-5", {{"name", "circle"}, {"n", 5}}, 5e-5);
  c5["baseline"] = {{"command", "baseline-maenjin2 5"}, {"seconds", 1e-4}};
  c5["speedup_vs_baseline"] = 2.0;
  c5["doc_times"] = {doc(0.03, "maenjin2"), doc(0.01, "billiard")};
  nlohmann::json c15 = row("circle-15", {{"name", "circle"}, {"n", 15}}, 3.0);
  c15["baseline"] = {{"skipped", "not timed: needs --full"}};
  c15["doc_time"] = doc(51, "maenjin2");  // an older report: the headline figure only
  nlohmann::json pentagram = row("pentagram-1-12", {{"name", "star"}, {"n", 5}, {"numbers", "1..12"}}, 1e-4);
  pentagram["baseline"] = {{"command", "baseline-seed002 --max 12"}, {"seconds", 0.7}};
  pentagram["speedup_vs_baseline"] = 7000.0;
  nlohmann::json slower = row("square-3", {{"name", "square"}, {"order", 3}}, 1e-3);
  slower["baseline"] = {{"command", "baseline-seed000"}, {"seconds", 5e-4}};
  slower["speedup_vs_baseline"] = 0.5;
  return {{"rows", {c4, c5, c15, row("hexagram", {{"name", "star"}, {"n", 6}}, 3e-5),
                    row("star-7", {{"name", "star"}, {"n", 7}}, 1e-3), pentagram, slower}}};
}

}  // namespace

TEST(Documents, DataFileIsWellFormed) {
  const auto d = documents();
  std::vector<std::string> ids;
  for (const auto& r : d.at("rows")) {
    ids.push_back(r.at("id"));
    EXPECT_TRUE(d.at("documents").contains(r.at("document").get<std::string>())) << r.at("id");
    EXPECT_TRUE(r.at("spec").contains("name"));
    EXPECT_TRUE(r.at("counts").contains("unique"));
    if (r.contains("baseline")) {
      const std::string when = r.at("baseline").value("when", "quick");
      EXPECT_TRUE(when == "quick" || when == "full" || when == "all") << r.at("id");
    }
    for (const auto& t : r.at("times")) {
      EXPECT_GT(t.at("seconds").get<double>(), 0);
      EXPECT_TRUE(t.contains("hardware"));
      EXPECT_TRUE(t.contains("language"));
    }
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << "duplicate row id";
}

TEST(Reproduce, SquareRowsMatchAndWriteEveryFile) {
  auto d = documents();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : d.at("rows"))
    if (r.at("spec").at("name") == "square" && !r.value("full_only", false)) rows.push_back(r);
  ASSERT_EQ(rows.size(), 2u);
  d["rows"] = rows;
  const ScratchDir dir("reproduce_square");
  magic::ReproduceOptions ro;
  ro.documents = d;
  ro.out_dir = dir.str();
  ro.threads = 2;
  ro.baseline_dir = fs::path(MAGIC_BIN).parent_path().string();
  const auto report = magic::reproduce(ro);
  EXPECT_TRUE(report.at("all_match").get<bool>());
  for (const auto& r : report.at("rows")) {
    EXPECT_TRUE(r.at("match").get<bool>()) << r.dump();
    const auto result = nlohmann::json::parse(std::ifstream(dir / r.at("json").get<std::string>()));
    EXPECT_EQ(result.at("counts"), r.at("our_counts"));
    EXPECT_EQ(result.at("digest"), r.at("digest"));
    expect_renders(dir / r.at("svg").get<std::string>());
  }
  // The 4x4 row has a port of seed 001 and must report its time and the ratio.
  const auto& sq4 = report.at("rows").at(1);
  ASSERT_TRUE(sq4.contains("baseline")) << sq4.dump();
  EXPECT_EQ(sq4.at("baseline").at("count"), 880);
  EXPECT_GT(sq4.at("speedup_vs_baseline").get<double>(), 0);
  EXPECT_TRUE(report.at("scaling").at("same_digest").get<bool>());
  EXPECT_TRUE(fs::exists(dir / "report.json"));
  std::ifstream md(dir / "report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| match |"), std::string::npos);
  EXPECT_NE(text.find("![square-4](square-4.svg)"), std::string::npos);
  // Both squares have a timed port: the speedup bars, and no n-axis charts.
  ASSERT_EQ(report.at("charts").size(), 1u) << report.at("charts").dump();
  EXPECT_NE(text.find("![chart-speedup](chart-speedup.svg)"), std::string::npos);
  expect_renders(dir / "chart-speedup.svg");
  EXPECT_EQ(occurrences(read_text(dir / "chart-speedup.svg"), "</title></rect>"), 2u);
  EXPECT_FALSE(fs::exists(dir / "chart-circles.svg"));
  EXPECT_FALSE(fs::exists(dir / "chart-stars.svg"));
}

// Long ports are timed only in the runs their "when" names; a skipped port
// is reported as such, never with a made-up ratio.
TEST(Reproduce, LongPortsAreTimedOnlyWhenAsked) {
  auto d = documents();
  nlohmann::json row = d.at("rows").at(1);  // 4x4, a port that takes milliseconds
  ASSERT_TRUE(row.contains("baseline"));
  row["baseline"]["when"] = "full";
  d["rows"] = nlohmann::json::array({row});
  magic::ReproduceOptions ro;
  ro.documents = d;
  const ScratchDir dir("reproduce_when");
  ro.out_dir = dir.str();
  ro.threads = 1;
  ro.baseline_dir = fs::path(MAGIC_BIN).parent_path().string();
  auto report = magic::reproduce(ro);
  const auto& quick = report.at("rows").at(0);
  EXPECT_TRUE(quick.at("baseline").contains("skipped")) << quick.dump();
  EXPECT_FALSE(quick.contains("speedup_vs_baseline"));
  EXPECT_NE(magic::report_markdown(report).find("needs --full"), std::string::npos);
  ro.full = true;
  report = magic::reproduce(ro);
  EXPECT_EQ(report.at("rows").at(0).at("baseline").at("count"), 880);
  d["rows"][0]["baseline"]["when"] = "all";
  ro.documents = d;
  report = magic::reproduce(ro);
  EXPECT_TRUE(report.at("rows").at(0).at("baseline").contains("skipped"));
  ro.all_baselines = true;
  report = magic::reproduce(ro);
  EXPECT_EQ(report.at("rows").at(0).at("baseline").at("count"), 880);
}

TEST(Reproduce, AWrongDocumentCountIsReportedAsMismatch) {
  auto d = documents();
  nlohmann::json row = d.at("rows").at(0);
  row["counts"]["unique"] = 2;  // the 3x3 square has 1
  d["rows"] = nlohmann::json::array({row});
  const ScratchDir dir("reproduce_mismatch");
  std::ofstream(dir / "docs.json") << d.dump();
  const auto r = run_cli("reproduce -q --no-baselines --out " + (dir / "out").string() + " --documents " +
                         (dir / "docs.json").string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("MISMATCH"), std::string::npos) << r.out;
}

TEST(Reproduce, BadDataFileIsAUsageError) {
  const ScratchDir dir("reproduce_bad");
  std::ofstream(dir / "bad.json") << "{not json";
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --documents " + (dir / "bad.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --documents " + (dir / "missing.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("reproduce --quick --full"));
  EXPECT_CLEAN_ERROR(run_cli("reproduce --no-baselines --all-baselines"));
  auto d = documents();
  nlohmann::json row = d.at("rows").at(1);
  row["baseline"]["when"] = "sometimes";
  d["rows"] = nlohmann::json::array({row});
  std::ofstream(dir / "when.json") << d.dump();
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --out " + (dir / "out").string() + " --documents " + (dir / "when.json").string()));
}

// Every shape reproduce() cannot use is a SpecError before any work, never a
// JSON library exception (the documents data is fuzzed: fuzz/fuzz_documents).
TEST(Reproduce, BadDataShapesAreSpecErrors) {
  EXPECT_NO_THROW(magic::validate_documents(documents()));
  const nlohmann::json good = documents().at("rows").at(1);
  auto with = [&](const std::string& key, const nlohmann::json& v) {
    nlohmann::json row = good;
    if (v.is_discarded()) row.erase(key);
    else row[key] = v;
    return nlohmann::json{{"rows", nlohmann::json::array({row})}};
  };
  const auto gone = nlohmann::json(nlohmann::json::value_t::discarded);
  for (const auto& d : {nlohmann::json::array(), nlohmann::json{{"rows", 1}}, nlohmann::json{{"rows", {1}}},
                        with("id", "../x"), with("id", gone), with("title", 3), with("counts", {1, 2}),
                        with("times", nlohmann::json::array({{{"seconds", "1"}}})), with("full_only", "yes"), with("spec", gone),
                        with("spec", {{"name", "square"}, {"order", "4"}}), with("baseline", {{"program", "../sh"}}),
                        with("baseline", {{"program", "seed001"}, {"args", {1}}})})
    EXPECT_THROW(magic::validate_documents(d), magic::SpecError) << d.dump();
  nlohmann::json twice = documents();
  twice["rows"] = nlohmann::json::array({good, good});
  EXPECT_THROW(magic::validate_documents(twice), magic::SpecError);
}

// Issue 42, row 15: a row may not take a report file's name, nor write a
// file another row writes; a document's time is a number of seconds above
// 0; a count is a whole number (not "6", -6 or 2^64).
TEST(Reproduce, RowsThatWouldOverwriteOrMisreportAreRefused) {
  const nlohmann::json good = documents().at("rows").at(1);
  auto rows = [](std::vector<nlohmann::json> list) { return nlohmann::json{{"rows", list}}; };
  auto with = [&](const std::string& key, const nlohmann::json& v) {
    nlohmann::json row = good;
    row[key] = v;
    return row;
  };
  auto with_count = [&](const nlohmann::json& v) {
    nlohmann::json row = good;
    row["counts"]["unique"] = v;
    return row;
  };
  auto with_seconds = [&](double s) {
    nlohmann::json row = good;
    row["times"] = nlohmann::json::array({{{"seconds", s}, {"language", "C"}, {"hardware", "x"}}});
    return row;
  };
  for (const char* file : magic::kReportFiles) {
    std::string id = file;
    id = id.substr(0, id.rfind('.'));
    EXPECT_THROW(magic::validate_documents(rows({with("id", id)})), magic::SpecError) << id;
  }
  EXPECT_THROW(magic::validate_documents(rows({with("id", "a"), with("id", "a.grid")})), magic::SpecError);
  for (const nlohmann::json& count : {nlohmann::json("6"), nlohmann::json(-6), nlohmann::json::parse("18446744073709551616"),
                                      nlohmann::json(2.5), nlohmann::json::object(), nlohmann::json{{"20", -1}}})
    EXPECT_THROW(magic::validate_documents(rows({with_count(count)})), magic::SpecError) << count.dump();
  for (const double s : {-1.0, 0.0})
    EXPECT_THROW(magic::validate_documents(rows({with_seconds(s)})), magic::SpecError) << s;
  nlohmann::json fine = with_count(18446744073709551615ull);
  fine["times"] = with_seconds(0.01).at("times");
  EXPECT_NO_THROW(magic::validate_documents(rows({fine})));

  // Through the command: exit 2 before any work, not a MISMATCH (exit 1).
  const ScratchDir dir("reproduce_rows");
  std::ofstream(dir / "docs.json") << rows({with_count("6")}).dump();
  const auto r = run_cli("reproduce -q --no-baselines --out " + (dir / "out").string() + " --documents " +
                         (dir / "docs.json").string());
  EXPECT_CLEAN_ERROR(r);
  EXPECT_NE(r.err.find("counts.unique"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "report.json"));
}

// Issue 42, row 15: SIGINT stops reproduce with a message and 130, and no
// report is written from rows that did not all run.
TEST(Reproduce, AnInterruptSaysWhatWasDoneAndWritesNoReport) {
  nlohmann::json d = documents();
  nlohmann::json slow;
  for (const auto& row : d.at("rows"))
    if (row.at("id") == "star-13") slow = row;
  ASSERT_FALSE(slow.is_null());
  slow.erase("full_only");
  d["rows"] = nlohmann::json::array({d.at("rows").at(0), slow});
  const ScratchDir dir("reproduce_interrupt");
  std::ofstream(dir / "docs.json") << d.dump();
  const std::string err = (dir / "err").string(), out = (dir / "out").string(), docs = (dir / "docs.json").string();
  magic::Process p = magic::start_process(
      {MAGIC_BIN, "reproduce", "-t", "1", "--no-baselines", "--out", out, "--documents", docs},
      {.output_file = "/dev/null", .error_file = err});
  // The first row (the 3x3 square) takes milliseconds; star n = 13 on one
  // thread takes seconds: the signal comes while it runs.
  const auto first = std::filesystem::path(out) / "square-3.json";
  for (int i = 0; i < 1200 && !std::filesystem::exists(first); ++i) ::usleep(50000);
  ::usleep(500000);  // past the first row's repeated timings (0.2 s)
  ::kill(p.pid(), SIGINT);
  const int code = p.wait();
  std::ifstream in(err);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(code, 128 + SIGINT) << text;
  EXPECT_NE(text.find("interrupted after 1 of 2 rows; no report was written"), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "report.json"));
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out) / "square-3.json"));
}

// Issue 43 item 6: one output contract.  A row's JSON from reproduce has
// the keys --json writes for the same spec (the star's "lines" among them).
TEST(Reproduce, RowsWriteTheKeysThatJsonWrites) {
  const nlohmann::json all = documents();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : all.at("rows"))
    if (row.at("id") == "pentagram-4-lines" || row.at("id") == "square-4" || row.at("id") == "circle-8") rows.push_back(row);
  ASSERT_EQ(rows.size(), 3u);
  const ScratchDir dir("reproduce_keys");
  std::ofstream(dir / "docs.json") << nlohmann::json{{"rows", rows}}.dump();
  const auto r = run_cli("reproduce -q --no-baselines -t 1 --out " + (dir / "out").string() + " --documents " +
                         (dir / "docs.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto keys = [](const nlohmann::json& j) {
    std::vector<std::string> k;
    for (const auto& [key, v] : j.items()) k.push_back(key);
    return k;
  };
  for (const auto& row : rows) {
    const std::string id = row.at("id");
    std::ifstream in(dir / "out" / (id + ".json"));
    const auto ours = nlohmann::json::parse(in);
    const auto& spec = row.at("spec");
    std::string args = spec.at("name").get<std::string>() + " -t 1 -q --json - --solutions 4";
    for (const auto& [key, v] : spec.items()) {
      if (key == "name") continue;
      std::string flag = key == "equal_lines" ? "equal-lines" : key;
      args += " --" + flag + " " + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    const auto cli = run_cli(args);
    ASSERT_EQ(cli.code, 0) << args << ": " << cli.err;
    const auto theirs = nlohmann::json::parse(cli.out);
    EXPECT_EQ(keys(ours), keys(theirs)) << id;
    EXPECT_EQ(ours.at("counts"), theirs.at("counts")) << id;
    EXPECT_EQ(ours.at("digest"), theirs.at("digest")) << id;
    EXPECT_EQ(keys(ours.at("run")), keys(theirs.at("run"))) << id;
  }
}

// Issue 43 item 7: the one way the reports start a program.
TEST(Process, RunsWithoutAShellAndSaysHowItEnded) {
  auto r = magic::run_process({"/bin/sh", "-c", "echo one; echo two >&2; exit 3"});
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.out, "one\n");  // stderr is not captured
  r = magic::run_process({"/bin/sh", "-c", "kill -9 $$"});
  EXPECT_EQ(r.code, 128 + 9);
  const ScratchDir dir("process");
  const auto log = (dir / "log").string();
  r = magic::run_process({"/bin/sh", "-c", "echo out; echo err >&2"}, {log, true});
  EXPECT_EQ(r.code, 0);
  std::ifstream in(log);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(text, "out\nerr\n");
  // An argument is one argument, whatever it holds: no shell reads it.
  r = magic::run_process({"/bin/echo", "a b; rm -rf /x", "$HOME"});
  EXPECT_EQ(r.out, "a b; rm -rf /x $HOME\n");
  EXPECT_THROW(magic::run_process({(dir / "no-such-program").string()}), magic::IoError);
}

TEST(Svg, SquarePictureIsValidAndRenders) {
  const ScratchDir dir("svg_square");
  const auto r = run_cli("square --order 3 -q --svg " + (dir / "s.svg").string());
  ASSERT_EQ(r.code, 0) << r.err;
  expect_renders(dir / "s.svg");
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 -q --svg /no/such/dir/s.svg"));
}

TEST(Svg, StarAndCirclePicturesAreValidAndRender) {
  const ScratchDir dir("svg_star_circle");
  for (const std::string& cmd : {std::string("star --n 5 --numbers 1..12"), std::string("star --n 7"),
                                 std::string("circle --n 8")}) {
    const fs::path f = dir / "p.svg";
    fs::remove(f);
    const auto r = run_cli(cmd + " -q --svg " + f.string());
    ASSERT_EQ(r.code, 0) << cmd << ": " << r.err;
    expect_renders(f);
  }
  EXPECT_CLEAN_ERROR(run_cli("circle --n 8 -q --svg /no/such/dir/c.svg"));
}

TEST(Svg, AFileThatIsNotXmlIsCaught) {
  const ScratchDir dir("svg_bad");
  std::ofstream(dir / "bad.svg") << "<svg><g></svg>";
  const std::string lint = "xmllint --noout '" + (dir / "bad.svg").string() + "' 2>/dev/null";
  EXPECT_NE(run_shell_status(lint), 0);
}

TEST(Svg, TheTitleIsEscaped) {
  // The title echoes the problem's fields; any text in them stays text.
  const ScratchDir dir("svg_title");
  const nlohmann::json problem{{"name", "square"}, {"order", 3}, {"note", "a & b <c> \"d\""}};
  const std::string svg = magic::render_svg(problem, {nlohmann::json{{2, 7, 6}, {9, 5, 1}, {4, 3, 8}}});
  EXPECT_NE(svg.find("a &amp; b &lt;c&gt;"), std::string::npos) << svg;
  std::ofstream(dir / "t.svg") << svg;
  expect_renders(dir / "t.svg");
}

TEST(Svg, UnknownProblemHasNoPicture) {
  EXPECT_THROW(magic::render_svg({{"name", "nope"}}, {nlohmann::json::array()}), magic::SpecError);
}

TEST(Charts, TickLabelsReadAsTimesAndRatios) {
  EXPECT_EQ(magic::seconds_tick_label(-9), "1 ns");
  EXPECT_EQ(magic::seconds_tick_label(-6), "1 µs");
  EXPECT_EQ(magic::seconds_tick_label(-5), "10 µs");
  EXPECT_EQ(magic::seconds_tick_label(-4), "100 µs");
  EXPECT_EQ(magic::seconds_tick_label(-3), "1 ms");
  EXPECT_EQ(magic::seconds_tick_label(-1), "100 ms");
  EXPECT_EQ(magic::seconds_tick_label(0), "1 s");
  EXPECT_EQ(magic::seconds_tick_label(3), "1000 s");
  EXPECT_EQ(magic::seconds_tick_label(4), "10⁴ s");
  EXPECT_EQ(magic::seconds_tick_label(-10), "10⁻¹⁰ s");
  EXPECT_EQ(magic::ratio_tick_label(-2), "0.01x");
  EXPECT_EQ(magic::ratio_tick_label(-1), "0.1x");
  EXPECT_EQ(magic::ratio_tick_label(0), "1x");
  EXPECT_EQ(magic::ratio_tick_label(3), "1000x");
  EXPECT_EQ(magic::ratio_tick_label(4), "10⁴x");
  EXPECT_EQ(magic::xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
}

TEST(Charts, TimeChartIsLabelledOnALogAxisAndRenders) {
  magic::TimeChart chart{"Times <test> & more", "n", {}};
  chart.series.push_back({"ours", {{4, 2e-5}, {5, 3e-4}, {6, 0.004}}});
  chart.series.push_back({"port & co", {{4, 1e-4}, {6, 0.02}}});
  chart.series.push_back({"document: the <old> one", {{5, 0.03}, {6, 0}}, true});  // 0: not drawable on a log axis
  chart.series.push_back({"nothing to draw", {}});
  ASSERT_TRUE(magic::has_data(chart));
  const std::string svg = magic::render_time_chart(chart);
  // 2e-5 .. 0.03 s: whole decades 10 µs .. 100 ms, and nothing beyond.
  for (const char* tick : {">10 µs<", ">100 µs<", ">1 ms<", ">10 ms<", ">100 ms<"})
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  EXPECT_EQ(svg.find(">1 µs<"), std::string::npos);
  EXPECT_EQ(svg.find(">1 s<"), std::string::npos);
  for (const char* n : {">4<", ">5<", ">6<"}) EXPECT_NE(svg.find(n), std::string::npos) << n;
  for (const char* label : {">ours<", ">port &amp; co<", ">document: the &lt;old&gt; one<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(svg.find("nothing to draw"), std::string::npos) << "an empty series has no legend entry";
  EXPECT_EQ(svg.find("<old>"), std::string::npos);
  EXPECT_EQ(occurrences(svg, "<polyline"), 3u);
  EXPECT_EQ(occurrences(svg, "stroke-dasharray"), 2u) << "the document's line and its legend sample";
  const ScratchDir dir("charts_time");
  expect_renders(svg, dir / "time.svg");

  // One point within one decade: 2 and 5 x 10^k are named too, and the
  // point is centred between n - 1 and n + 1.
  const std::string one = magic::render_time_chart({"One", "n", {{"ours", {{6, 0.005}}}}});
  for (const char* tick : {">1 ms<", ">2 ms<", ">5 ms<", ">10 ms<", ">5<", ">6<", ">7<"})
    EXPECT_NE(one.find(tick), std::string::npos) << tick;
  expect_renders(one, dir / "one.svg");
}

TEST(Charts, BarChartHasOneBarPerValueAndTheReferenceLines) {
  magic::BarChart chart{"Speedup", "port's time / our time", {{"slow", 0.5}, {"near", 1.5}, {"fast", 4890}}, 2};
  ASSERT_TRUE(magic::has_data(chart));
  const std::string svg = magic::render_bar_chart(chart);
  EXPECT_EQ(occurrences(svg, "</title></rect>"), 3u);
  for (const char* s :
       {">slow<", ">near<", ">fast<", ">0.5x<", ">1.5x<", ">4890x<", ">1x: as fast<", ">2x<", ">1x<", ">1000x<"})
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  const ScratchDir dir("charts_bar");
  expect_renders(svg, dir / "bar.svg");
}

TEST(Charts, NoDataMeansNoChart) {
  EXPECT_FALSE(magic::has_data(magic::TimeChart{"t", "n", {}}));
  EXPECT_FALSE(magic::has_data(magic::TimeChart{"t", "n", {{"zero", {{3, 0}}}}}));
  EXPECT_FALSE(magic::has_data(magic::BarChart{"b", "x", {}, 2}));
  EXPECT_FALSE(magic::has_data(magic::BarChart{"b", "x", {{"bad", 0}}, 2}));
}

TEST(Charts, ReportChartsFollowTheReportRows) {
  const auto charts = magic::report_charts(synthetic_report());
  ASSERT_EQ(charts.size(), 3u);
  EXPECT_EQ(charts[0].file, "chart-circles.svg");
  EXPECT_EQ(charts[1].file, "chart-stars.svg");
  EXPECT_EQ(charts[2].file, "chart-speedup.svg");
  for (const auto& c : charts)  // no row may take a chart's name
    EXPECT_NE(std::find_if(magic::kReportFiles.begin(), magic::kReportFiles.end(),
                           [&](const char* f) { return c.file == f; }),
              magic::kReportFiles.end())
        << c.file;
  const ScratchDir dir("charts_report");
  for (const auto& c : charts) {
    ASSERT_FALSE(c.svg.empty()) << c.file;
    EXPECT_EQ(c.caption.find('\n'), std::string::npos);
    expect_renders(c.svg, dir / c.file);
  }
  const std::string& circles = charts[0].svg;
  for (const char* label : {"ours (this run, 2 threads)", "C++ port of maenjin2 (this run)",
                            "document 003: maenjin2 in VB.NET (hardware: not stated)",
                            "document 003: billiard in VB.NET (hardware: not stated)"})
    EXPECT_NE(circles.find(">" + std::string(label) + "<"), std::string::npos) << label;
  EXPECT_NE(circles.find(">15<"), std::string::npos) << "n runs to 15";
  EXPECT_NE(circles.find(">100 s<"), std::string::npos) << "the older report's headline 51 s is on the chart";
  // Stars: the plain {n/2} rows only; the pentagram of ten of 1..12 is another problem.
  const std::string& stars = charts[1].svg;
  EXPECT_EQ(occurrences(stars, "<title>ours (this run, 2 threads): n = "), 2u);
  EXPECT_EQ(stars.find("n = 5,"), std::string::npos);
  EXPECT_EQ(stars.find("port"), std::string::npos);
  // Bars for exactly the rows whose port was timed, in the report's order.
  const std::string& bars = charts[2].svg;
  EXPECT_EQ(occurrences(bars, "</title></rect>"), 4u);
  std::size_t at = 0;
  for (const char* id : {">circle-4<", ">circle-5<", ">pentagram-1-12<", ">square-3<"}) {
    const auto found = bars.find(id, at);
    EXPECT_NE(found, std::string::npos) << id;
    at = found == std::string::npos ? at : found;
  }
  EXPECT_EQ(bars.find("circle-15"), std::string::npos);
  EXPECT_EQ(bars.find("hexagram"), std::string::npos);

  nlohmann::json squares_only = synthetic_report();
  squares_only["rows"] = nlohmann::json::array({synthetic_report().at("rows").back()});
  const auto some = magic::report_charts(squares_only);
  EXPECT_TRUE(some[0].svg.empty());
  EXPECT_TRUE(some[1].svg.empty());
  EXPECT_FALSE(some[2].svg.empty());
}

// A reproduce run writes the charts that have data, embeds them in
// report.md, and removes a chart an earlier run left that has none now.
// No ports here: a port of a microsecond is relaunched for the whole repeat
// budget, seconds per row; the square rows' run above checks the bars.
TEST(Reproduce, WritesAndEmbedsTheCharts) {
  auto d = documents();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : d.at("rows"))
    if (r.at("id") == "circle-4" || r.at("id") == "circle-5" || r.at("id") == "hexagram" || r.at("id") == "star-7")
      rows.push_back(r);
  ASSERT_EQ(rows.size(), 4u);
  d["rows"] = rows;
  const ScratchDir dir("reproduce_charts");
  std::ofstream(dir / "chart-speedup.svg") << "an earlier run's";
  magic::ReproduceOptions ro;
  ro.documents = d;
  ro.out_dir = dir.str();
  ro.threads = 1;
  const auto report = magic::reproduce(ro);
  ASSERT_EQ(report.at("charts").size(), 2u) << report.at("charts").dump();
  EXPECT_FALSE(fs::exists(dir / "chart-speedup.svg"));
  const std::string md = read_text(dir / "report.md");
  std::size_t at = md.find("\n## Charts\n");
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_LT(at, md.find("\n## Pictures\n"));
  for (const std::string name : {"chart-circles", "chart-stars"}) {
    expect_renders(dir / (name + ".svg"));
    const auto embedded = md.find("![" + name + "](" + name + ".svg)", at);
    EXPECT_NE(embedded, std::string::npos) << name;
    at = embedded == std::string::npos ? at : embedded;
  }
  EXPECT_EQ(md.find("chart-speedup"), std::string::npos);
  const std::string circles = read_text(dir / "chart-circles.svg");
  EXPECT_NE(circles.find(">ours (this run, 1 thread)<"), std::string::npos);
  EXPECT_NE(circles.find(">document 003: maenjin2 in VB.NET (hardware: not stated)<"), std::string::npos);
  EXPECT_EQ(occurrences(circles, "<title>ours (this run, 1 thread): n = "), 2u);
  EXPECT_EQ(occurrences(read_text(dir / "chart-stars.svg"), "<title>ours (this run, 1 thread): n = "), 2u);
}
