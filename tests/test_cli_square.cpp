#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "oracle/square_oracle.hpp"

namespace fs = std::filesystem;

TEST(CliSquare, BadArgumentsGiveACleanError) {
  EXPECT_CLEAN_ERROR(run_cli("square --order 0"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 99"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --kind bogus"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 3 --kind most-perfect"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --threads 0"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --threads -3"));
  EXPECT_CLEAN_ERROR(run_cli("square --order x"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --json /no/such/dir/out.json"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --solutions lots"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --shard 3/2"));
  // A shard is written one way only, as result files and journals print it.
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --shard 01/2"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --shard 1/02"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --shard +0/2"));
  EXPECT_CLEAN_ERROR(run_cli("square --order 4 --split-depth -1"));
  EXPECT_CLEAN_ERROR(run_cli("square"));
  EXPECT_CLEAN_ERROR(run_cli("nosuchcommand"));
  EXPECT_CLEAN_ERROR(run_cli(""));
}

TEST(CliSquare, HelpAndVersion) {
  const auto h = run_cli("square --help");
  EXPECT_EQ(h.code, 0);
  for (const char* opt : {"--order", "--kind", "--threads", "--split-depth", "--json", "--solutions",
                          "--solutions-file", "--quiet", "--shard", "--checkpoint"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
  EXPECT_EQ(run_cli("--version").code, 0);
}

// A result names the commit its binary was built from, so a record can be
// rebuilt from exactly that source.
TEST(CliSquare, ResultNamesTheSourceCommit) {
  const CliRun r = run_cli("circle --n 7 -q --json -");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string source = nlohmann::json::parse(r.out).at("run").at("source").get<std::string>();
  const CliRun v = run_cli("--version");
  EXPECT_NE(v.out.find("(source " + source + ", "), std::string::npos) << v.out;
  if (source == "unknown") GTEST_SKIP() << "built outside a git checkout";
  const bool dirty = source.size() == 18 && source.substr(12) == "-dirty";
  ASSERT_TRUE(source.size() == 12 || dirty) << source;
  const std::string commit = source.substr(0, 12);
  EXPECT_TRUE(std::all_of(commit.begin(), commit.end(), [](char c) { return std::isxdigit(c) && !std::isupper(c); }))
      << source;
  const std::string git = "git -C '" MAGIC_SOURCE_DIR "' cat-file -e " + commit + "^{commit} 2>/dev/null";
  EXPECT_EQ(run_shell_status(git), 0) << "no commit " << commit << " in " MAGIC_SOURCE_DIR;
}

TEST(CliSquare, HumanSummaryEchoesTheRun) {
  const auto r = run_cli("square --order 4 --threads 2 --split-depth 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("square"), std::string::npos);
  EXPECT_NE(r.out.find("threads=2"), std::string::npos);
  EXPECT_NE(r.out.find("split-depth=2"), std::string::npos);
  EXPECT_NE(r.out.find("shard=0/1"), std::string::npos);
  EXPECT_NE(r.out.find("unique 880"), std::string::npos);
  EXPECT_NE(r.out.find("total 7040"), std::string::npos);
}

TEST(CliSquare, JsonContract) {
  const auto r = run_cli("square --order 4 --json - --solutions 3 --threads 2");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("problem").at("name"), "square");
  EXPECT_EQ(j.at("problem").at("order"), 4);
  EXPECT_EQ(j.at("problem").at("kind"), "magic");
  EXPECT_EQ(j.at("counts").at("unique"), 880);
  EXPECT_EQ(j.at("counts").at("total"), 7040);
  EXPECT_EQ(j.at("digest").get<std::string>().size(), 32u);
  EXPECT_EQ(j.at("solutions").size(), 3u);
  for (const auto& s : j.at("solutions")) EXPECT_TRUE(oracle::is_square(s.get<oracle::Grid>(), "magic"));
  const auto& run = j.at("run");
  for (const char* k : {"threads", "split_depth", "split_level", "tasks", "nodes", "wall_seconds", "cpu_seconds", "version",
                        "compiler", "flags"})
    EXPECT_TRUE(run.contains(k)) << k;
  EXPECT_EQ(run.at("threads"), 2);
  // Without --solutions there is no solutions field.
  const auto plain = nlohmann::json::parse(run_cli("square --order 3 --json -").out);
  EXPECT_FALSE(plain.contains("solutions"));
  EXPECT_EQ(plain.at("digest"), nlohmann::json::parse(run_cli("square --order 3 --json - -t 1").out).at("digest"));
}

TEST(CliSquare, FilesAreWrittenWholeAndJsonLinesStream) {
  const ScratchDir scratch("cli_square_files");
  const fs::path dir = scratch.path();
  const auto r = run_cli("square --order 4 --json " + (dir / "r.json").string() + " --solutions-file " +
                         (dir / "s.jsonl").string() + " --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  std::ifstream in(dir / "s.jsonl");
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    EXPECT_TRUE(oracle::is_square(nlohmann::json::parse(line).get<oracle::Grid>(), "magic"));
    ++n;
  }
  EXPECT_EQ(n, 880u);
  std::ifstream jf(dir / "r.json");
  const auto j = nlohmann::json::parse(jf);
  EXPECT_EQ(j.at("counts").at("unique"), 880);
  EXPECT_EQ(j.at("solutions").size(), 880u);
  // Only the two finished files: no temporaries left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2u);
}
