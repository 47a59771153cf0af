#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "oracle/complete_oracle.hpp"
#include "oracle/square_oracle.hpp"

namespace fs = std::filesystem;
using oracle::Grid;

namespace {

const std::string kSeed2 = "[[0,0,0],[0,5,0],[0,0,0]]";

}  // namespace

TEST(CliComplete, FirstCompletionFromStdinAndFile) {
  const auto r = run_cli("complete", "[[2,7,6],[9,5,1],[4,3,0]]");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("  2  7  6\n  9  5  1\n  4  3  8\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unique 1"), std::string::npos);
  const ScratchPath f("seed3");
  std::ofstream(f.path()) << "1 15 14 4\n12 0 0 9\n8 0 0 5\n13 3 2 16\n";
  const auto j = run_cli("complete " + f.str() + " --json -");
  ASSERT_EQ(j.code, 0) << j.err;
  const auto res = nlohmann::json::parse(j.out);
  EXPECT_EQ(res.at("problem").at("name"), "complete");
  EXPECT_EQ(res.at("problem").at("order"), 4);
  EXPECT_EQ(res.at("problem").at("givens"), 12);
  EXPECT_EQ(res.at("mode"), "first");
  EXPECT_EQ(res.at("counts").at("unique"), 1);
  ASSERT_EQ(res.at("solutions").size(), 1u);
  EXPECT_EQ(res.at("solutions")[0].get<Grid>(), (Grid{{1, 15, 14, 4}, {12, 6, 7, 9}, {8, 10, 11, 5}, {13, 3, 2, 16}}));
  EXPECT_FALSE(res.at("counts").contains("total"));
}

TEST(CliComplete, Modes) {
  const auto count = run_cli("complete --count --json -", kSeed2);
  ASSERT_EQ(count.code, 0) << count.err;
  const auto c = nlohmann::json::parse(count.out);
  EXPECT_EQ(c.at("counts").at("unique"), 8);
  EXPECT_EQ(c.at("mode"), "count");
  EXPECT_TRUE(c.at("exhaustive").get<bool>());
  EXPECT_FALSE(c.contains("solutions"));

  const auto all = run_cli("complete --all --json -", kSeed2);
  ASSERT_EQ(all.code, 0) << all.err;
  const auto a = nlohmann::json::parse(all.out);
  ASSERT_EQ(a.at("solutions").size(), 8u);
  for (const auto& s : a.at("solutions")) {
    EXPECT_TRUE(oracle::is_square(s.get<Grid>(), "magic"));
    EXPECT_EQ(s[1][1], 5);
  }
  EXPECT_EQ(a.at("digest"), c.at("digest"));

  const auto some = run_cli("complete --solutions 3 --json -", kSeed2);
  ASSERT_EQ(some.code, 0) << some.err;
  EXPECT_EQ(nlohmann::json::parse(some.out).at("solutions").size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(some.out).at("counts").at("unique"), 3);

  // Human output of --all prints every grid.
  const auto human = run_cli("complete --all", kSeed2);
  ASSERT_EQ(human.code, 0);
  EXPECT_EQ(std::count(human.out.begin(), human.out.end(), '\n'), 8 * 4 + 3) << human.out;

  const ScratchPath jsonl("c_jsonl");
  const auto file = run_cli("complete --all --quiet --solutions-file " + jsonl.str(), kSeed2);
  ASSERT_EQ(file.code, 0) << file.err;
  EXPECT_TRUE(file.out.empty());
  std::ifstream in(jsonl.path());
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += oracle::is_square(nlohmann::json::parse(line).get<Grid>(), "magic");
  EXPECT_EQ(n, 8);
}

TEST(CliComplete, KindsApply) {
  const std::string empty4 = "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n";
  for (const char* kind : {"semi", "pandiagonal", "associative", "most-perfect"}) {
    const auto r = run_cli(std::string("complete --json - --kind ") + kind, empty4);
    ASSERT_EQ(r.code, 0) << kind << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("problem").at("kind"), kind);
    EXPECT_TRUE(oracle::is_square(j.at("solutions")[0].get<Grid>(), kind)) << kind;
  }
  const auto p = run_cli("complete --count --json - --kind pandiagonal", empty4);
  EXPECT_EQ(nlohmann::json::parse(p.out).at("counts").at("unique"), 384);
}

TEST(CliComplete, NoCompletionExitsOne) {
  const auto r = run_cli("complete --json -", "1 0 0\n0 0 0\n0 0 0\n");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("counts").at("unique"), 0);
  EXPECT_NE(r.err.find("no completion"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  const auto c = run_cli("complete --count", "1 0 0\n0 0 0\n0 0 0\n");
  EXPECT_EQ(c.code, 1);
  EXPECT_NE(c.out.find("unique 0"), std::string::npos);
  const auto six = run_cli("complete --kind pandiagonal", "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n"
                                                         "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n");
  EXPECT_EQ(six.code, 1);
  EXPECT_NE(six.err.find("order 6"), std::string::npos) << six.err;
}

TEST(CliComplete, BadInputIsACleanError) {
  for (const char* in : {"", "   \n", "[[2,7,6],[9,5,1],[4,3,0]", "[[1,2],[3]]", "[[1,2,3],[4,5,6]]", "[[0,0],[0,0]]",
                         "[[1.5,0,0],[0,0,0],[0,0,0]]", "[[\"x\",0,0],[0,0,0],[0,0,0]]", "[[-1,0,0],[0,0,0],[0,0,0]]",
                         "[[10,0,0],[0,0,0],[0,0,0]]", "[[4,4,0],[0,0,0],[0,0,0]]", "[[9,8,0],[0,0,0],[0,0,0]]",
                         "[[1,2,3],[0,0,0],[0,0,0]]", "[[[[[[]]]]]]", "{}", "null", "garbage\n", "1 2 3\n4 5 6\n7 8\n",
                         "0 0 99999999999999999999999999\n0 0 0\n0 0 0\n", "[[1e400,0,0],[0,0,0],[0,0,0]]"}) {
    SCOPED_TRACE(in);
    EXPECT_CLEAN_ERROR(run_cli("complete", in));
  }
  std::string grid17;  // one past the orders supported
  for (int r = 0; r < 17; ++r) {
    for (int c = 0; c < 17; ++c) grid17 += "0 ";
    grid17 += "\n";
  }
  EXPECT_CLEAN_ERROR(run_cli("complete", grid17));
  EXPECT_CLEAN_ERROR(run_cli("complete --count --budget 5", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --budget -1", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete /no/such/file"));
  EXPECT_CLEAN_ERROR(run_cli("complete " + ::testing::TempDir()));  // a directory
  EXPECT_CLEAN_ERROR(run_cli("complete --kind bogus", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --kind most-perfect", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --count --all", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --count --solutions 2", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --all --solutions 2", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --solutions lots", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --checkpoint x.json", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --count --solutions-file x.jsonl", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete --threads 0", kSeed2));
  EXPECT_CLEAN_ERROR(run_cli("complete a b", kSeed2));
  // An endless stream stops at the size cap instead of hanging.
  EXPECT_CLEAN_ERROR(run_cli("complete", std::string(3 << 20, '0')));
}

TEST(CliComplete, FirstCompletionIgnoresThreadCount) {
  const std::string empty6 = "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n";
  const auto one = run_cli("complete --json - -t 1", empty6);
  ASSERT_EQ(one.code, 0) << one.err;
  const auto sol = nlohmann::json::parse(one.out).at("solutions");
  EXPECT_TRUE(oracle::is_square(sol[0].get<Grid>(), "magic"));
  for (const char* t : {"2", "8"}) {
    const auto r = run_cli(std::string("complete --json - -t ") + t, empty6);
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out).at("solutions"), sol) << t;
  }
}

TEST(CliComplete, HelpListsTheOptions) {
  const auto h = run_cli("complete --help");
  EXPECT_EQ(h.code, 0);
  for (const char* opt : {"--count", "--all", "--solutions", "--kind", "--threads", "--json", "--split-depth",
                          "--quiet", "--solutions-file"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
}
