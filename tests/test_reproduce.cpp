#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "magic/reproduce.hpp"
#include "magic/core/error.hpp"
#include "magic/svg.hpp"

namespace fs = std::filesystem;

namespace {

nlohmann::json documents() { return nlohmann::json::parse(magic::embedded_documents()); }

// Well-formed XML (xmllint), and a real renderer draws it (rsvg-convert).
void expect_renders(const fs::path& svg) {
  const std::string lint = "xmllint --noout '" + svg.string() + "' 2>/dev/null";
  ASSERT_EQ(std::system(lint.c_str()), 0) << svg << " is not well-formed XML";
  const fs::path png = svg.string() + ".png";
  const std::string cmd = "rsvg-convert '" + svg.string() + "' -o '" + png.string() + "' 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << svg;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 1000u);
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
  const auto r = run_cli("reproduce -q --no-baselines --out " + (dir / "out").string() + " --data " +
                         (dir / "docs.json").string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("MISMATCH"), std::string::npos) << r.out;
}

TEST(Reproduce, BadDataFileIsAUsageError) {
  const ScratchDir dir("reproduce_bad");
  std::ofstream(dir / "bad.json") << "{not json";
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --data " + (dir / "bad.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --data " + (dir / "missing.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("reproduce --quick --full"));
  EXPECT_CLEAN_ERROR(run_cli("reproduce --no-baselines --all-baselines"));
  auto d = documents();
  nlohmann::json row = d.at("rows").at(1);
  row["baseline"]["when"] = "sometimes";
  d["rows"] = nlohmann::json::array({row});
  std::ofstream(dir / "when.json") << d.dump();
  EXPECT_CLEAN_ERROR(run_cli("reproduce -q --out " + (dir / "out").string() + " --data " + (dir / "when.json").string()));
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
  EXPECT_NE(std::system(lint.c_str()), 0);
}

TEST(Svg, UnknownProblemHasNoPicture) {
  EXPECT_THROW(magic::render_svg({{"name", "nope"}}, {nlohmann::json::array()}), magic::SpecError);
}
