#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "oracle/star_oracle.hpp"

namespace {

std::vector<int> range(int a, int b) {
  std::vector<int> v(b - a + 1);
  std::iota(v.begin(), v.end(), a);
  return v;
}

TEST(CliStar, BadArgumentsGiveACleanError) {
  for (const char* args :
       {"star --n 4", "star --n 25", "star --n x", "star --n", "star --numbers", "star --numbers ''",
        "star --numbers 1..9", "star --numbers 0..12", "star --numbers -3..10", "star --numbers 1,1,2..12",
        "star --numbers 1..5,5..12", "star --numbers abc", "star --numbers 1..x", "star --numbers 12..1",
        "star --numbers 1..100", "star --numbers 1,2,3,4,5,6,7,8,9,99", "star --numbers 1..70000",
        "star --equal-lines 2", "star --equal-lines 6", "star --equal-lines 0", "star --equal-lines -1",
        "star --n 8 --equal-lines 4", "star --equal-lines x", "star --sum 0", "star --sum -5", "star --sum x",
        "star --threads 0", "star --bogus", "star --solver bogus", "star --numbers 1..10 -k 4 --solver chain", "star --n 5 --json /no/such/dir/out.json", "star --shard 2/2"}) {
    SCOPED_TRACE(args);
    EXPECT_CLEAN_ERROR(run_cli(args));
  }
}

TEST(CliStar, HelpListsTheOptions) {
  const auto h = run_cli("star --help");
  EXPECT_EQ(h.code, 0);
  for (const char* opt : {"--n", "--numbers", "--equal-lines", "--sum", "--all-orientations", "--threads",
                          "--split-depth", "--json", "--solutions", "--shard", "--checkpoint"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
}

TEST(CliStar, HumanOutputShowsCountsBySum) {
  const auto r = run_cli("star --n 5 --numbers 1..10 --equal-lines 4 -t 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("unique 168"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total 1680"), std::string::npos);
  for (const char* line : {"by_sum 20: 24", "by_sum 21: 60", "by_sum 23: 60", "by_sum 24: 24"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  const auto zero = run_cli("star");
  ASSERT_EQ(zero.code, 0) << zero.err;
  EXPECT_NE(zero.out.find("unique 0"), std::string::npos);
  const auto hex = run_cli("star --n 6 --solutions 1");
  ASSERT_EQ(hex.code, 0) << hex.err;
  EXPECT_NE(hex.out.find("sum 26  lines 26 26 26 26 26 26"), std::string::npos) << hex.out;
}

TEST(CliStar, JsonContractAndSolutionsValidate) {
  const auto r = run_cli("star --n 5 --numbers 1..12 --json - --solutions all -t 2");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("problem").at("name"), "star");
  EXPECT_EQ(j.at("problem").at("n"), 5);
  EXPECT_EQ(j.at("problem").at("numbers"), "1..12");
  EXPECT_EQ(j.at("problem").at("equal_lines"), 5);
  EXPECT_EQ(j.at("counts").at("unique"), 24);
  EXPECT_EQ(j.at("counts").at("total"), 240);
  EXPECT_EQ(j.at("counts").at("by_sum").at("24"), 12);
  EXPECT_EQ(j.at("counts").at("by_sum").at("28"), 12);
  EXPECT_EQ(j.at("lines"), (std::vector<std::vector<int>>{{0, 2, 5, 8}, {0, 3, 6, 9}, {1, 2, 3, 4}, {1, 5, 7, 9}, {4, 6, 7, 8}}));
  const auto shape = oracle::star_shape(5);
  ASSERT_EQ(j.at("solutions").size(), 24u);
  for (const auto& s : j.at("solutions")) {
    const auto pts = s.at("points").get<std::vector<int>>();
    EXPECT_EQ(oracle::check_star(shape, range(1, 12), 5, pts), s.at("sum").get<int>()) << s.dump();
    for (int t : s.at("line_sums")) EXPECT_EQ(t, s.at("sum").get<int>());
  }
  // The same run with --sum, a number list and another thread count.
  const auto f = nlohmann::json::parse(
      run_cli("star --numbers 1,2,3,4,5,6,7,8,9,10,11,12 --sum 28 --json - -t 1").out);
  EXPECT_EQ(f.at("counts").at("unique"), 12);
  EXPECT_EQ(f.at("problem").at("sum"), 28);
  // Digest does not depend on threads.
  const auto a = nlohmann::json::parse(run_cli("star --n 9 --json - -t 1").out);
  const auto b = nlohmann::json::parse(run_cli("star --n 9 --json - -t 2 --split-depth 3").out);
  EXPECT_EQ(a.at("digest"), b.at("digest"));
  EXPECT_EQ(a.at("counts").at("unique"), 3014);
}

TEST(CliStar, AllOrientationsGivesTheSameCounts) {
  const auto a = nlohmann::json::parse(run_cli("star --n 7 --json -").out);
  const auto b = nlohmann::json::parse(run_cli("star --n 7 --all-orientations --json -").out);
  EXPECT_EQ(a.at("counts"), b.at("counts"));
  EXPECT_EQ(a.at("digest"), b.at("digest"));
  EXPECT_EQ(b.at("run").at("dedup"), "canonical-filter");
  const auto c = nlohmann::json::parse(run_cli("star --n 7 --solver partial-sums --json -").out);
  EXPECT_EQ(a.at("digest"), c.at("digest"));
  EXPECT_EQ(c.at("problem").at("solver"), "partial-sums");
}

TEST(CliStar, KeptLinesAndPartialSumsAgree) {
  const auto a = nlohmann::json::parse(run_cli("star --n 5 --equal-lines 4 --json -").out);
  const auto b = nlohmann::json::parse(run_cli("star --n 5 --equal-lines 4 --solver kept-lines --json -").out);
  const auto c = nlohmann::json::parse(run_cli("star --n 5 --equal-lines 4 --solver partial-sums --json -").out);
  EXPECT_EQ(a.at("counts"), c.at("counts"));
  EXPECT_EQ(a.at("digest"), c.at("digest"));
  EXPECT_EQ(b.at("digest"), c.at("digest"));
  EXPECT_EQ(b.at("problem").at("solver"), "kept-lines");
}

}  // namespace
