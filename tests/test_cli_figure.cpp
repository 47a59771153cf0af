// `magicount figure`: files, stdin, the catalog, --show, the result file
// and its check, and one clear line (exit 2) for every bad figure.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"

namespace {

const char* kHexagon = R"({"name": "hexagon-3",
  "points": ["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s"],
  "lines": [["a","b","c"],["d","e","f","g"],["h","i","j","k","l"],["m","n","o","p"],["q","r","s"],
            ["a","d","h"],["b","e","i","m"],["c","f","j","n","q"],["g","k","o","r"],["l","p","s"],
            ["c","g","l"],["b","f","k","p"],["a","e","j","o","s"],["d","i","n","r"],["h","m","q"]],
  "numbers": "1..19", "sum": 38})";

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

TEST(FigureCli, AFileFromDiskOrStdinCountsTheHexagon) {
  const ScratchDir dir("figure_cli");
  write(dir / "hex.json", kHexagon);
  for (const CliRun& r : {run_cli("figure " + (dir / "hex.json").string() + " -t 2"), run_cli("figure - -t 2", kHexagon)}) {
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("unique 1  total 12"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("figure hexagon-3 points=19 lines=15"), std::string::npos) << r.out;
  }
}

TEST(FigureCli, TheResultFileHoldsCountsAndGroupAndVerifies) {
  const ScratchDir dir("figure_cli");
  const std::string json = (dir / "r.json").string(), svg = (dir / "r.svg").string();
  const CliRun r = run_cli("figure --builtin triangle-4 -q -t 2 --solutions all --json " + json + " --svg " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_text(json));
  EXPECT_EQ(j.at("counts").at("unique"), 18);
  EXPECT_EQ(j.at("counts").at("total"), 18 * 48);
  EXPECT_TRUE(j.at("counts").contains("by_sum"));
  EXPECT_EQ(j.at("problem").at("group").at("order"), 48);
  EXPECT_EQ(j.at("problem").at("group").at("source"), "incidence");
  EXPECT_NE(read_text(svg).find("<polyline"), std::string::npos);
  const CliRun v = run_cli("verify " + json);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
}

TEST(FigureCli, ListAndShow) {
  const CliRun list = run_cli("figure --list");
  EXPECT_EQ(list.code, 0);
  for (const char* name : {"hexagon-3", "cube-3", "star-10-3", "star-24-11"})
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  const CliRun show = run_cli("figure --builtin pentagram --show");
  ASSERT_EQ(show.code, 0) << show.err;
  const auto j = nlohmann::json::parse(show.out);
  EXPECT_EQ(j.at("group").at("order"), 10);
  EXPECT_EQ(j.at("group").at("source"), "generators");
  EXPECT_EQ(j.at("group").at("incidence_order"), 120);
}

TEST(FigureCli, BadFiguresAndArgumentsGetOneLineAndExitTwo) {
  const ScratchDir dir("figure_cli");
  const std::vector<std::pair<std::string, std::string>> files = {
      {"not json", "figure"},
      {R"({"points": ["a", "b"], "lines": [["a", "x"]]})", "unknown point 'x'"},
      {R"({"points": ["a", "b"], "lines": [["a", "b"], []]})", "line 2 is empty"},
      {R"({"points": ["a", "b", "c"], "lines": [["a", "b"]]})", "'c' is on no line"},
      {R"({"points": ["a", "b"], "lines": [["a", "b", "a"]]})", "twice"},
      {R"({"points": ["a", "b"], "lines": [["a", "b"]], "numbers": "1"})", "only 1 numbers"},
  };
  int i = 0;
  for (const auto& [text, why] : files) {
    const std::string path = (dir / ("f" + std::to_string(i++) + ".json")).string();
    write(path, text);
    const CliRun r = run_cli("figure " + path);
    EXPECT_CLEAN_ERROR(r);
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
  EXPECT_CLEAN_ERROR(run_cli("figure"));
  EXPECT_CLEAN_ERROR(run_cli("figure " + (dir / "missing.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("figure --builtin hexagon-3 " + (dir / "f1.json").string()));
  EXPECT_CLEAN_ERROR(run_cli("figure --builtin star-10-5"));
  EXPECT_CLEAN_ERROR(run_cli("figure --builtin hexagon-3 --equal-lines 0"));
  EXPECT_CLEAN_ERROR(run_cli("figure --builtin hexagon-3 --equal-lines 3"));
  EXPECT_CLEAN_ERROR(run_cli("figure --builtin hexagon-3 --numbers 1..5"));
  // The input is never overwritten by an output.
  write(dir / "hex.json", kHexagon);
  EXPECT_CLEAN_ERROR(run_cli("figure " + (dir / "hex.json").string() + " --json " + (dir / "hex.json").string()));
  EXPECT_EQ(read_text(dir / "hex.json"), kHexagon);
}

}  // namespace
