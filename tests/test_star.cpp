#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "magic/registry.hpp"
#include "magic/result.hpp"
#include "star/star.hpp"
#include "oracle/star_oracle.hpp"
#include "temp_path.hpp"

namespace {

using magic::RunOptions;
using nlohmann::json;

magic::RunResult run(const json& spec, RunOptions ro = {}) { return magic::run_spec(spec, ro).result; }

json spec(int n, const std::string& numbers = "", int k = 0, std::optional<int> sum = std::nullopt) {
  json j{{"name", "star"}, {"n", n}};
  if (!numbers.empty()) j["numbers"] = numbers;
  if (k) j["equal_lines"] = k;
  if (sum) j["sum"] = *sum;
  return j;
}

json with(json j, const std::string& key, const json& v) {
  j[key] = v;
  return j;
}

std::vector<json> all_solutions(const json& s, RunOptions ro = {}) {
  std::vector<json> out;
  ro.solutions = ~0ull;
  ro.on_solution = [&](const json& x) { out.push_back(x); };
  run(s, ro);
  return out;
}

std::vector<int> numbers_of(const json& s) {
  const int n = s.at("n").get<int>();
  if (!s.contains("numbers")) {
    std::vector<int> v;
    for (int i = 1; i <= 2 * n; ++i) v.push_back(i);
    return v;
  }
  return magic::parse_star_numbers(s.at("numbers").get<std::string>());
}

const std::vector<std::vector<int>> kDocLines = {{0, 2, 5, 8}, {0, 3, 6, 9}, {1, 2, 3, 4}, {1, 5, 7, 9}, {4, 6, 7, 8}};

// ---- geometry -------------------------------------------------------------

TEST(StarGeometry, PentagramUsesTheDocumentsLabels) {
  const auto g = magic::star_geometry(5);
  ASSERT_EQ(g.lines.size(), 5u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(std::vector<int>(g.lines[i].begin(), g.lines[i].end()), kDocLines[i]);
  // The oracle derives the same from the document's corner cycle and coordinates.
  EXPECT_EQ(oracle::star_shape(5).lines, kDocLines);
  for (int p : {0, 1, 4, 8, 9}) EXPECT_TRUE(g.is_vertex[p]);
  for (int p : {2, 3, 5, 6, 7}) EXPECT_FALSE(g.is_vertex[p]);
}

TEST(StarGeometry, EngineTableMatchesCoordinatesForEveryN) {
  for (int n = magic::kStarMinN; n <= magic::kStarMaxN; ++n) {
    const auto g = magic::star_geometry(n);
    const auto o = oracle::star_shape(n);
    std::vector<std::vector<int>> lines;
    for (const auto& l : g.lines) lines.emplace_back(l.begin(), l.end());
    EXPECT_EQ(lines, o.lines) << "n = " << n;
    std::vector<int> on(2 * n, 0);
    for (const auto& l : lines)
      for (int p : l) ++on[p];
    for (int p = 0; p < 2 * n; ++p) {
      EXPECT_EQ(on[p], 2) << "n = " << n << " point " << p;
      EXPECT_EQ(g.is_vertex[p], o.vertex[p]) << "n = " << n << " point " << p;
    }
    // Every line: two corners, two crossings; the group has 2n distinct elements.
    for (const auto& l : lines)
      EXPECT_EQ(std::count_if(l.begin(), l.end(), [&](int p) { return o.vertex[p]; }), 2);
    EXPECT_EQ(std::set<std::vector<int>>(o.group.begin(), o.group.end()).size(), static_cast<std::size_t>(2 * n));
  }
}

template <int N>
void expect_canonical_matches_oracle(unsigned seed) {
  magic::StarProblem<N> p(magic::StarSpec{N});
  const auto shape = oracle::star_shape(N);
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> a(2 * N);
    std::iota(a.begin(), a.end(), 1);
    std::shuffle(a.begin(), a.end(), rng);
    typename magic::StarProblem<N>::Solution s;
    for (int i = 0; i < 2 * N; ++i) s[i] = static_cast<std::uint16_t>(a[i]);
    const auto c = p.canonical(s);
    EXPECT_EQ(std::vector<int>(c.begin(), c.end()), oracle::canonical(shape, a)) << "n = " << N;
    EXPECT_EQ(p.orbit_size(c), oracle::orbit_size(shape, a));
  }
}

TEST(StarGeometry, CanonicalFormIsTheSmallestImageUnderTheOraclesGroup) {
  expect_canonical_matches_oracle<5>(1);
  expect_canonical_matches_oracle<6>(2);
  expect_canonical_matches_oracle<7>(3);
  expect_canonical_matches_oracle<12>(4);
  expect_canonical_matches_oracle<24>(5);
}

// ---- the documents' answers -------------------------------------------------

TEST(Star, DocumentsPrintedAnswersAreAmongTheEnginesSolutions) {
  // Seed 000, 1..10 with 4 equal lines: the first answer it prints per sum.
  const std::vector<std::pair<std::vector<int>, int>> four = {
      {{1, 2, 4, 8, 7, 10, 3, 5, 6, 9}, 21},
      {{1, 2, 4, 9, 3, 10, 7, 5, 8, 6}, 23},
      {{1, 3, 2, 10, 9, 7, 5, 6, 4, 8}, 24},
      {{1, 3, 6, 7, 4, 8, 2, 9, 5, 10}, 20}};
  // Seed 000, ten of 1..12 with all five lines equal: all 24 printed answers.
  const std::vector<std::pair<std::vector<int>, int>> ten_of_12 = {
      {{1, 2, 4, 12, 6, 9, 3, 5, 10, 8}, 24}, {{1, 2, 8, 9, 5, 12, 10, 6, 3, 4}, 24},
      {{1, 3, 7, 10, 8, 9, 5, 4, 11, 12}, 28}, {{1, 3, 9, 12, 4, 7, 5, 8, 11, 10}, 28},
      {{1, 4, 5, 11, 8, 12, 7, 3, 10, 9}, 28}, {{1, 4, 9, 12, 3, 11, 10, 8, 7, 5}, 28},
      {{1, 5, 3, 10, 6, 8, 4, 2, 12, 9}, 24}, {{1, 5, 8, 9, 2, 3, 4, 6, 12, 10}, 24},
      {{1, 6, 3, 10, 5, 12, 9, 2, 8, 4}, 24}, {{1, 6, 4, 12, 2, 10, 8, 5, 9, 3}, 24},
      {{1, 8, 5, 11, 4, 10, 9, 3, 12, 7}, 28}, {{1, 8, 7, 10, 3, 11, 12, 4, 9, 5}, 28},
      {{2, 3, 5, 6, 10, 8, 4, 1, 9, 12}, 24}, {{2, 10, 5, 6, 3, 9, 12, 1, 8, 4}, 24},
      {{3, 4, 1, 10, 9, 12, 5, 2, 8, 6}, 24}, {{3, 5, 4, 8, 11, 12, 7, 1, 9, 10}, 28},
      {{3, 9, 1, 10, 4, 8, 6, 2, 12, 5}, 24}, {{3, 11, 4, 8, 5, 9, 10, 1, 12, 7}, 28},
      {{4, 5, 2, 9, 8, 6, 1, 3, 12, 10}, 24}, {{4, 7, 3, 8, 10, 9, 5, 1, 12, 11}, 28},
      {{4, 10, 3, 8, 7, 12, 11, 1, 9, 5}, 28}, {{5, 7, 1, 11, 9, 10, 4, 3, 12, 8}, 28},
      {{6, 9, 2, 5, 8, 4, 3, 1, 12, 10}, 24}, {{8, 9, 3, 4, 12, 7, 5, 1, 10, 11}, 28}};
  const auto shape = oracle::star_shape(5);
  auto points = [](const std::vector<json>& sols) {
    std::map<std::vector<int>, int> m;
    for (const auto& s : sols) m[s.at("points").get<std::vector<int>>()] = s.at("sum").get<int>();
    return m;
  };
  const auto got4 = points(all_solutions(spec(5, "1..10", 4)));
  EXPECT_EQ(got4.size(), 168u);
  std::vector<int> one_to_ten(10), one_to_12(12);
  std::iota(one_to_ten.begin(), one_to_ten.end(), 1);
  std::iota(one_to_12.begin(), one_to_12.end(), 1);
  for (const auto& [a, sum] : four) {
    EXPECT_EQ(oracle::check_star(shape, one_to_ten, 4, a), sum);
    ASSERT_TRUE(got4.count(a)) << "missing a printed answer";
    EXPECT_EQ(got4.at(a), sum);
  }
  // Same symmetry convention as the document, so the two lists are equal.
  const auto got12 = points(all_solutions(spec(5, "1..12", 5)));
  std::map<std::vector<int>, int> doc12(ten_of_12.begin(), ten_of_12.end());
  EXPECT_EQ(doc12.size(), 24u);
  for (const auto& [a, sum] : ten_of_12) EXPECT_EQ(oracle::check_star(shape, one_to_12, 5, a), sum);
  EXPECT_EQ(got12, doc12);
}

TEST(Star, KnownAnswersWithSums) {
  auto by_sum = [](const magic::RunResult& r) { return std::map<std::int64_t, std::uint64_t>(r.by_key); };
  const auto four = run(spec(5, "1..10", 4));
  EXPECT_EQ(four.unique, 168u);
  EXPECT_EQ(four.total, 1680u);
  EXPECT_EQ(by_sum(four), (std::map<std::int64_t, std::uint64_t>{{20, 24}, {21, 60}, {23, 60}, {24, 24}}));
  const auto twelve = run(spec(5, "1..12"));
  EXPECT_EQ(twelve.unique, 24u);
  EXPECT_EQ(by_sum(twelve), (std::map<std::int64_t, std::uint64_t>{{24, 12}, {28, 12}}));
  EXPECT_EQ(run(spec(5)).unique, 0u);
  const auto hexagram = run(spec(6));
  EXPECT_EQ(hexagram.unique, 80u);
  EXPECT_EQ(by_sum(hexagram), (std::map<std::int64_t, std::uint64_t>{{26, 80}}));
  // --sum keeps one sum of the by_sum table.
  EXPECT_EQ(run(spec(5, "1..12", 5, 28)).unique, 12u);
  EXPECT_EQ(run(spec(5, "1..10", 4, 23)).unique, 60u);
  EXPECT_EQ(run(spec(5, "1..10", 4, 22)).unique, 0u);
}

// ---- independent brute force --------------------------------------------------

struct BruteCase {
  json spec;
  const char* name;
};
void PrintTo(const BruteCase& c, std::ostream* os) { *os << c.name; }

void expect_engine_agrees_with_oracle(const json& s) {
  const int n = s.at("n").get<int>();
  const int k = s.value("equal_lines", n);
  std::optional<int> sum;
  if (s.contains("sum")) sum = s.at("sum").get<int>();
  const auto shape = oracle::star_shape(n);
  const auto nums = numbers_of(s);
  const oracle::StarCounts want = oracle::brute_force(shape, nums, k, sum);

  const auto r = run(s);
  EXPECT_EQ(r.unique, want.canon.size());
  EXPECT_EQ(r.total, want.total);
  std::map<std::int64_t, std::uint64_t> wb(want.by_sum.begin(), want.by_sum.end());
  EXPECT_EQ(r.by_key, wb);

  // Every emitted solution checks out, and their orbits are exactly the oracle's.
  std::set<oracle::Arrangement> canon;
  for (const auto& sol : all_solutions(s)) {
    const auto a = sol.at("points").get<std::vector<int>>();
    const int got = oracle::check_star(shape, nums, k, a);
    ASSERT_GE(got, 0) << sol.dump();
    EXPECT_EQ(got, sol.at("sum").get<int>());
    if (sum) {
      EXPECT_EQ(got, *sum);
    }
    EXPECT_EQ(oracle::orbit_size(shape, a), static_cast<std::size_t>(2 * n));
    EXPECT_TRUE(canon.insert(oracle::canonical(shape, a)).second) << "two solutions in one orbit";
  }
  EXPECT_EQ(canon, want.canon);
}

class StarBrute : public ::testing::TestWithParam<BruteCase> {};

TEST_P(StarBrute, EngineAgreesWithTheOracle) { expect_engine_agrees_with_oracle(GetParam().spec); }

std::string case_name(const ::testing::TestParamInfo<BruteCase>& i) { return i.param.name; }

INSTANTIATE_TEST_SUITE_P(
    Cases, StarBrute,
    ::testing::Values(BruteCase{spec(5, "1..10", 3), "pentagram_3_lines"},
                      BruteCase{spec(5, "1..10", 4), "pentagram_4_lines"},
                      BruteCase{spec(5, "1..10", 5), "pentagram_magic"},
                      BruteCase{spec(5, "1..12", 5), "pentagram_ten_of_12"},
                      BruteCase{spec(5, "1..12", 5, 24), "pentagram_ten_of_12_sum_24"},
                      BruteCase{spec(5, "1..13", 5), "pentagram_ten_of_13"},
                      BruteCase{spec(5, "1..12", 4, 26), "pentagram_ten_of_12_4_lines_sum_26"},
                      BruteCase{spec(5, "101..112", 5), "pentagram_offset_numbers"},
                      BruteCase{spec(5, "1,2,3,5,7,11,13,17,19,23,29,31", 5), "pentagram_sparse_numbers"},
                      BruteCase{spec(6, "1..12", 6), "hexagram"},
                      BruteCase{spec(6, "1..13", 6), "hexagram_twelve_of_13"},
                      BruteCase{spec(6, "1..12", 5, 26), "hexagram_5_lines_sum_26"},
                      BruteCase{spec(7, "1..14", 7), "heptagram"}),
    case_name);

// Minutes with the plain oracle: only under the `slow` label.
class StarBruteSlow : public ::testing::TestWithParam<BruteCase> {};

TEST_P(StarBruteSlow, EngineAgreesWithTheOracle) {
  expect_engine_agrees_with_oracle(GetParam().spec);
}

INSTANTIATE_TEST_SUITE_P(Cases, StarBruteSlow,
                         ::testing::Values(BruteCase{spec(8, "1..16", 8), "octagram"},
                                           BruteCase{spec(6, "1..12", 4), "hexagram_4_lines"},
                                           BruteCase{spec(7, "1..15", 7), "heptagram_14_of_15"},
                                           BruteCase{spec(7, "1..14", 6, 27), "heptagram_6_lines_sum_27"}),
                         case_name);

// ---- the two solvers and the three dedup paths ---------------------------------

TEST(Star, ChainAndPartialSumSolversAgree) {
  for (const json& s : {spec(5, "1..12"), spec(5, "1..14"), spec(6), spec(6, "1..14"), spec(7), spec(8), spec(9),
                        spec(7, "3..20", 7, 42)}) {
    const auto chain = run(s);
    const auto partial = run(with(s, "solver", "partial-sums"));
    EXPECT_EQ(partial.digest, chain.digest) << s.dump();
    EXPECT_EQ(partial.unique, chain.unique) << s.dump();
    EXPECT_EQ(partial.by_key, chain.by_key) << s.dump();
    EXPECT_GT(partial.nodes, chain.nodes) << "the chain solver should visit fewer nodes";
  }
}

TEST(Star, SolverChoiceIsChecked) {
  EXPECT_EQ(run(with(spec(8), "solver", "chain")).digest, run(spec(8)).digest);
  EXPECT_THROW(run(with(spec(5, "1..10", 4), "solver", "chain")), magic::SpecError);
  EXPECT_THROW(run(with(spec(5), "solver", "bogus")), magic::SpecError);
  EXPECT_EQ(magic::run_spec(with(spec(6), "solver", "partial-sums")).problem.at("solver"), "partial-sums");
  EXPECT_EQ(magic::run_spec(with(spec(5, "1..10", 4), "solver", "kept-lines")).problem.at("solver"), "kept-lines");
  // Kept-lines with all lines equal is the chain search.
  EXPECT_EQ(run(with(spec(7), "solver", "kept-lines")).digest, run(spec(7)).digest);
}

// ---- kept-lines (the K < n default) against partial-sums ------------------------

void expect_same_counts(const magic::RunResult& r, const magic::RunResult& want, const std::string& what) {
  EXPECT_EQ(r.digest, want.digest) << what;
  EXPECT_EQ(r.unique, want.unique) << what;
  EXPECT_EQ(r.total, want.total) << what;
  EXPECT_EQ(r.by_key, want.by_key) << what;
}

// The same solution set on 1 and 2 threads and at several split depths,
// with and without forced adaptive splitting; partial-sums runs once.
void expect_kept_matches_partial_sums(const json& s, std::uint64_t unique) {
  const auto want = run(with(s, "solver", "partial-sums"), {.threads = 1});
  EXPECT_EQ(want.unique, unique) << s.dump();
  const auto auto_run = run(s, {.threads = 1});
  expect_same_counts(auto_run, want, s.dump() + " auto");
  if (s.value("equal_lines", s.at("n").get<int>()) < s.at("n").get<int>()) {
    EXPECT_EQ(magic::run_spec(s).result.split_level, magic::kStarKeptLevels) << s.dump();
    EXPECT_LT(auto_run.nodes, want.nodes) << s.dump();
  }
  const json kept = with(s, "solver", "kept-lines");
  for (unsigned t : {1u, 2u})
    for (int d : {-1, 0, 2, 4}) {
      RunOptions ro{.threads = t, .split_depth = d};
      expect_same_counts(run(kept, ro), want, s.dump() + " threads " + std::to_string(t) + " depth " + std::to_string(d));
    }
  RunOptions split{.threads = 2, .split_depth = 0};
  split.split_always = true;
  split.split_nodes = 3;
  expect_same_counts(run(kept, split), want, s.dump() + " forced splits");
}

TEST(StarKeptLines, AgreesWithPartialSums) {
  const std::vector<std::pair<json, std::uint64_t>> cases = {
      {spec(5, "1..10", 4), 168},
      {spec(5, "1..10", 3), 6024},
      {spec(5, "1..10", 4, 23), 60},
      {spec(5, "1..10", 4, 22), 0},   // 22 only with all five lines equal, and there are none
      {spec(5, "1..12", 4), 5520},    // ten of twelve: the other line's sum is not known
      {spec(5, "1..12", 3, 24), 36720},
      {spec(5, "1..10,12,14", 4), 4644},
      {spec(5, "101..112", 4, 426), 312},  // 1..12 with sum 26, moved up by 100
      {spec(6, "1..12", 5), 616},
      {spec(6, "1..12", 4, 24), 5328},
      {spec(6, "1..13", 5, 27), 1020},
      {spec(7, "1..14", 6, 30), 72},
      {spec(7, "1..14", 6, 27), 63},
      {spec(7, "1..14", 5, 40), 0},
      {spec(8, "1..16", 7, 31), 398},
      {spec(8, "1..16", 7, 50), 0},
      {spec(8, "1..18", 6, 58), 0},
  };
  for (const auto& [s, unique] : cases) expect_kept_matches_partial_sums(s, unique);
}

// Large n with small K keeps no plans and builds one per task
// (kMaxPlanBytes); with the limit at 0 small problems take that path too.
template <int N>
void expect_plans_per_task_agree(const json& s) {
  const magic::StarSpec sp = magic::star_spec_from_json(s);
  const magic::StarProblem<N> stored(sp), per_task(sp, 0);
  for (unsigned t : {1u, 2u})
    for (int d : {-1, 0, 3}) {
      const RunOptions ro{.threads = t, .split_depth = d};
      expect_same_counts(magic::run(per_task, ro), magic::run(stored, ro),
                         s.dump() + " threads " + std::to_string(t) + " depth " + std::to_string(d));
    }
}

TEST(StarKeptLines, PlansBuiltPerTaskAgree) {
  expect_plans_per_task_agree<5>(spec(5, "1..10", 4));
  expect_plans_per_task_agree<5>(spec(5, "1..12", 3, 24));
  expect_plans_per_task_agree<6>(spec(6, "1..12", 5));
  expect_plans_per_task_agree<7>(spec(7, "1..14", 6, 30));
  expect_plans_per_task_agree<8>(spec(8, "1..16", 7, 31));
  EXPECT_EQ(magic::run(magic::StarProblem<5>(magic::star_spec_from_json(spec(5, "1..10", 4)), 0), {}).unique, 168u);
}

TEST(StarKeptLines, AllOrientationsAgree) {
  for (const json& s : {spec(5, "1..10", 4), spec(5, "1..10", 3, 20), spec(6, "1..12", 5, 26)}) {
    const json all = with(s, "symmetry_breaking", false);
    expect_same_counts(run(all), run(with(all, "solver", "partial-sums")), s.dump());
    expect_same_counts(run(all, {.threads = 2, .split_depth = 3}), run(s), s.dump() + " against breaking");
  }
  // Too slow for partial-sums: against the symmetry-broken kept-lines run.
  for (const json& s : {spec(7, "1..14", 5, 26), spec(8, "1..16", 7, 31)})
    expect_same_counts(run(with(s, "symmetry_breaking", false), {.threads = 2}), run(s), s.dump());
}

// A kept-lines solution is emitted as the member of its orbit the other
// solvers emit: V0 the smallest corner, I0 below I(n-1).
TEST(StarKeptLines, EmitsTheSameRepresentatives) {
  auto points = [](const json& s) {
    std::set<std::vector<int>> out;
    for (const auto& x : all_solutions(s)) out.insert(x.at("points").get<std::vector<int>>());
    return out;
  };
  for (const json& s : {spec(5, "1..10", 4), spec(6, "1..12", 5), spec(7, "1..14", 6, 27)})
    EXPECT_EQ(points(s), points(with(s, "solver", "partial-sums"))) << s.dump();
}

// ---- the complement (K = n, every number of a symmetric set placed) ------------

// The chain searches only stars whose smallest and largest vertex add up to at
// most min + max and emits the complement of the others.  Kept-lines with all
// lines equal is the same chain without the complement, and
// --all-orientations filters every image: all three give one solution set.
TEST(StarComplement, SameSolutionsAsWithout) {
  for (const json& s : {spec(6), spec(7), spec(8), spec(9), spec(10), spec(11), spec(7, "3..16"), spec(9, "2..19"),
                        spec(8, "1..16", 8, 34), spec(8, "1..16", 8, 35), spec(7, "1,3..15"), spec(6, "1..11,13")}) {
    const auto with_complement = run(s);
    const auto plain = run(with(s, "solver", "kept-lines"));
    expect_same_counts(with_complement, plain, s.dump());
    // The larger stars once each: the grid below is the runner's, the same
    // for every size.
    if (s.at("n").get<int>() > 9) continue;
    expect_same_counts(run(with(s, "symmetry_breaking", false)), plain, s.dump());
    for (unsigned t : {1u, 2u})
      for (int d : {0, 3, 6, 40})
        expect_same_counts(run(s, {.threads = t, .split_depth = d}), plain,
                           s.dump() + " threads " + std::to_string(t) + " depth " + std::to_string(d));
  }
  // Every listed solution is in the searched orientation: V0 the smallest
  // vertex, I0 below I(n-1) (labels n and 2n-1).
  RunOptions ro;
  ro.solutions = 1000;
  std::size_t listed = 0;
  ro.on_solution = [&](const json& j) {
    const auto pts = j.at("points").get<std::vector<int>>();
    for (int i = 1; i < 9; ++i) EXPECT_LT(pts[0], pts[i]) << j.dump();
    EXPECT_LT(pts[9], pts[17]) << j.dump();
    ++listed;
  };
  run(spec(9), ro);
  EXPECT_EQ(listed, 1000u);
}

TEST(StarComplement, VisitsFewerNodes) {
  const auto with_complement = run(spec(11), {.threads = 1});
  const auto plain = run(with(spec(11), "solver", "kept-lines"), {.threads = 1});
  EXPECT_EQ(with_complement.unique, 53528u);  // OEIS A200720
  EXPECT_LT(with_complement.nodes * 10, plain.nodes * 7) << "expected at least 30% fewer nodes";
  // Not symmetric (1 and 3..15): no complement, the plain chain's nodes.
  const json lopsided = spec(7, "1,3..15");
  EXPECT_EQ(run(lopsided).nodes, run(with(lopsided, "solver", "kept-lines")).nodes);
}

// ---- the chain's BMI2 copy ---------------------------------------------------------

// Sets MAGIC_PORTABLE for one scope and puts back what was there.
class PortableEnv {
 public:
  explicit PortableEnv(const char* value) {
    if (const char* v = std::getenv("MAGIC_PORTABLE")) old_ = v;
    if (value) ::setenv("MAGIC_PORTABLE", value, 1);
    else ::unsetenv("MAGIC_PORTABLE");
  }
  ~PortableEnv() {
    if (old_) ::setenv("MAGIC_PORTABLE", old_->c_str(), 1);
    else ::unsetenv("MAGIC_PORTABLE");
  }

 private:
  std::optional<std::string> old_;
};

// The same source compiled twice: the copy the processor runs and the
// portable one must walk the same tree and find the same stars.
TEST(StarBmi2Copy, WalksTheSameTreeAsThePortableCopy) {
  const json nine = spec(9);
  {
    PortableEnv portable("1");
    EXPECT_FALSE(magic::StarProblem<9>(magic::star_spec_from_json(nine)).uses_bmi2_copy());
  }
  PortableEnv unset(nullptr);
  if (!magic::StarProblem<9>(magic::star_spec_from_json(nine)).uses_bmi2_copy())
    GTEST_SKIP() << "this build or processor has no separate BMI2 copy";
  for (const json& s : {spec(7), spec(9), spec(10), spec(11), spec(7, "3..16"), spec(8, "1..16", 8, 34),
                        with(spec(8), "solver", "kept-lines"), with(spec(8), "symmetry_breaking", false)}) {
    for (unsigned t : {1u, 2u})
      for (int d : {0, 3, 6}) {
        const RunOptions ro{.threads = t, .split_depth = d};
        const std::string what = s.dump() + " threads " + std::to_string(t) + " depth " + std::to_string(d);
        const auto fast = run(s, ro);
        magic::RunResult slow;
        {
          PortableEnv portable("1");
          slow = run(s, ro);
        }
        expect_same_counts(fast, slow, what);
        EXPECT_EQ(fast.nodes, slow.nodes) << what;
      }
  }
}

// The run names the copy of the chain it ran, so that a timed record says
// which one it timed; the other solvers have one copy and name none.
TEST(StarBmi2Copy, RunNamesItsKernel) {
  const json seven = spec(7);
  {
    PortableEnv portable("1");
    const auto r = run(seven, RunOptions{.threads = 1});
    EXPECT_EQ(r.kernel, "portable");
    EXPECT_EQ(magic::run_json(r).at("kernel"), "portable");
  }
  PortableEnv unset(nullptr);
  const bool bmi2 = magic::StarProblem<7>(magic::star_spec_from_json(seven)).uses_bmi2_copy();
  EXPECT_EQ(run(seven, RunOptions{.threads = 1}).kernel, bmi2 ? "bmi2" : "portable");
  const auto kept = run(with(spec(8), "solver", "kept-lines"), RunOptions{.threads = 1});
  EXPECT_EQ(kept.kernel, "");
  EXPECT_FALSE(magic::run_json(kept).contains("kernel"));
}

// ---- input checking -------------------------------------------------------------

TEST(Star, ParsesNumberLists) {
  using V = std::vector<int>;
  EXPECT_EQ(magic::parse_star_numbers("1..5"), (V{1, 2, 3, 4, 5}));
  EXPECT_EQ(magic::parse_star_numbers("4,2,9"), (V{2, 4, 9}));
  EXPECT_EQ(magic::parse_star_numbers("1..3, 7,10..11"), (V{1, 2, 3, 7, 10, 11}));
  for (const char* bad : {"", "1..", "..4", "a", "1,,2", "0..4", "-1..4", "5..1", "1,2,2", "1..4,3", "1..100000",
                          "70000", "1.5", "1...4"})
    EXPECT_THROW(magic::parse_star_numbers(bad), magic::SpecError) << bad;
  EXPECT_EQ(magic::format_star_numbers({1, 2, 3, 4}), "1..4");
  EXPECT_EQ(magic::format_star_numbers({1, 2, 4}), "1,2,4");
}

TEST(Star, RejectsBadSpecs) {
  EXPECT_THROW(run(spec(4)), magic::SpecError);
  EXPECT_THROW(run(spec(25)), magic::SpecError);
  EXPECT_THROW(run(spec(5, "1..9")), magic::SpecError);           // fewer than 2n numbers
  EXPECT_THROW(run(spec(5, "1..10", 2)), magic::SpecError);       // K <= n/2
  EXPECT_THROW(run(spec(6, "1..12", 3)), magic::SpecError);
  EXPECT_THROW(run(spec(5, "1..10", 6)), magic::SpecError);       // K > n
  EXPECT_THROW(run(spec(5, "1..10", -1)), magic::SpecError);
  EXPECT_THROW(run(spec(5, "1..10", 5, 0)), magic::SpecError);    // sum must be positive
  EXPECT_THROW(run(spec(5, "1,100")), magic::SpecError);
  EXPECT_THROW(run(with(spec(5), "numbers", json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10}))), magic::SpecError);
  EXPECT_THROW(run(with(spec(5), "numbers", json::array({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))), magic::SpecError);
  EXPECT_THROW(run(with(spec(5), "numbers", json::array({1, 70, 71, 72, 73, 74, 75, 76, 77, 78}))),
               magic::SpecError);  // wider than 64
  EXPECT_THROW(run(with(spec(5), "n", "five")), magic::SpecError);
  EXPECT_THROW(run(json{{"name", "star"}}), magic::SpecError);
  // Numbers as a JSON list work like the string form.
  EXPECT_EQ(run(with(spec(5), "numbers", json::array({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))).unique, 24u);
}

TEST(Star, DescribeEchoesTheSpec) {
  const auto d = magic::run_spec(spec(5, "1..12", 5, 24)).problem;
  EXPECT_EQ(d.at("name"), "star");
  EXPECT_EQ(d.at("n"), 5);
  EXPECT_EQ(d.at("numbers"), "1..12");
  EXPECT_EQ(d.at("equal_lines"), 5);
  EXPECT_EQ(d.at("sum"), 24);
  const auto plain = magic::run_spec(spec(6)).problem;
  EXPECT_EQ(plain.at("numbers"), "1..12");
  EXPECT_EQ(plain.at("equal_lines"), 6);
  EXPECT_FALSE(plain.contains("sum"));
  // The echo runs again to the same result (checkpoints and `reproduce` rely on it).
  EXPECT_EQ(run(d).digest, run(spec(5, "1..12", 5, 24)).digest);
}

}  // namespace
