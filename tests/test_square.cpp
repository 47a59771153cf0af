#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>


#include "magic/runner.hpp"
#include "magic/spec.hpp"
#include "square/square.hpp"
#include "oracle/square_oracle.hpp"
#include "temp_path.hpp"

namespace {

using magic::RunOptions;
using magic::SquareKind;
using magic::SquareProblem;

oracle::Grid to_grid(const nlohmann::json& rows) { return rows.get<oracle::Grid>(); }

magic::RunResult run_square(int order, const std::string& kind, RunOptions ro = {},
                            bool breaking = true) {
  return magic::run_spec({{"name", "square"}, {"order", order}, {"kind", kind},
                          {"symmetry_breaking", breaking}},
                         ro)
      .result;
}

// One brute-force pass over all semi-magic squares classifies every kind.
const std::map<std::string, oracle::Counts>& brute_counts(int n) {
  static std::map<int, std::map<std::string, oracle::Counts>> cache;
  auto& m = cache[n];
  if (m.empty()) {
    m["semi"] = oracle::brute_force(n, "semi", [&](const oracle::Grid& g) {
      const bool canon = oracle::canonical(g) == g;
      for (const char* k : {"magic", "pandiagonal", "associative", "most-perfect"}) {
        if (!oracle::is_square(g, k)) continue;
        ++m[k].total;
        m[k].unique += canon;
      }
    });
  }
  return m;
}

// One test per order: the brute-force pass is shared by all five kinds.
class SquareBrute : public ::testing::TestWithParam<int> {};

TEST_P(SquareBrute, EngineAgreesWithBruteForceForEveryKind) {
  const int n = GetParam();
  const auto& b = brute_counts(n);
  EXPECT_GT(b.at("semi").total, 0u);
  for (const std::string kind : {"magic", "semi", "pandiagonal", "associative", "most-perfect"}) {
    if (kind == "most-perfect" && n % 4) continue;
    const oracle::Counts expect = b.count(kind) ? b.at(kind) : oracle::Counts{};
    const auto r = run_square(n, kind);
    EXPECT_EQ(r.unique, expect.unique) << kind;
    EXPECT_EQ(r.total, expect.total) << kind;
  }
}

INSTANTIATE_TEST_SUITE_P(Orders, SquareBrute, ::testing::Values(3, 4));

TEST(Square, EverySolutionPassesTheIndependentChecker) {
  for (const char* kind : {"magic", "semi", "pandiagonal", "associative", "most-perfect"}) {
    RunOptions ro;
    ro.solutions = ~0ull;
    std::uint64_t seen = 0;
    std::set<oracle::Grid> canon;
    ro.on_solution = [&](const nlohmann::json& s) {
      const auto g = to_grid(s);
      ASSERT_TRUE(oracle::is_square(g, kind)) << s.dump();
      canon.insert(oracle::canonical(g));
      ++seen;
    };
    const auto r = run_square(4, kind, ro);
    EXPECT_EQ(seen, r.unique) << kind;
    EXPECT_EQ(canon.size(), r.unique) << kind << ": emitted squares must be pairwise inequivalent";
  }
}

// The straight-code kernel (orders 3 and 4) against the generic solver,
// kind by kind: the same counts, digest, by_center and canonical solutions.
template <int N>
void expect_kernel_matches_generic(const std::string& kind_name) {
  const SquareKind kind = *magic::parse_square_kind(kind_name);
  auto collect = [](const auto& p, unsigned threads) {
    RunOptions ro;
    ro.threads = threads;
    ro.solutions = ~0ull;
    std::set<oracle::Grid> canon;
    ro.on_solution = [&](const nlohmann::json& s) { canon.insert(oracle::canonical(to_grid(s))); };
    return std::make_pair(magic::run(p, ro), canon);
  };
  const auto [generic, generic_set] = collect(SquareProblem<N>({N, kind, true}), 1);
  for (unsigned threads : {1u, 2u}) {
    const auto [fast, fast_set] = collect(magic::SmallSquareProblem<N>(kind), threads);
    EXPECT_EQ(fast.unique, generic.unique) << N << " " << kind_name;
    EXPECT_EQ(fast.total, generic.total) << N << " " << kind_name;
    EXPECT_EQ(fast.digest, generic.digest) << N << " " << kind_name;
    EXPECT_EQ(fast.by_key, generic.by_key) << N << " " << kind_name;
    EXPECT_EQ(fast_set, generic_set) << N << " " << kind_name;
  }
}

TEST(Square, StraightCodeKernelMatchesTheGenericSolverForEveryKind) {
  for (const char* kind : {"magic", "pandiagonal", "associative"}) {
    expect_kernel_matches_generic<3>(kind);
    expect_kernel_matches_generic<4>(kind);
  }
  expect_kernel_matches_generic<4>("most-perfect");
  // Which solver the registry picks: the kernel unless semi or all orientations.
  EXPECT_GT(run_square(4, "magic").nodes, 0u);
  EXPECT_TRUE(magic::square_small_handles({4, SquareKind::Magic, true}));
  EXPECT_FALSE(magic::square_small_handles({4, SquareKind::Semi, true}));
  EXPECT_FALSE(magic::square_small_handles({4, SquareKind::Magic, false}));
  EXPECT_FALSE(magic::square_small_handles({5, SquareKind::Magic, true}));
}

TEST(Square, AllEightImagesShareOneCanonicalForm) {
  SquareProblem<4> p({4, SquareKind::Magic, true});
  const SquareProblem<4>::Solution s{1, 15, 14, 4, 12, 6, 7, 9, 8, 10, 11, 5, 13, 3, 2, 16};
  const auto c = p.canonical(s);
  EXPECT_EQ(p.orbit_size(c), 8u);
  for (const auto& perm : magic::square_symmetries(4)) {
    SquareProblem<4>::Solution img;
    for (int i = 0; i < 16; ++i) img[i] = s[perm[i]];
    EXPECT_EQ(p.canonical(img), c);
  }
  EXPECT_LE(c, s);
  // The 8 symmetries are distinct permutations (a group of order 8).
  auto syms = magic::square_symmetries(4);
  std::set<std::vector<int>> distinct(syms.begin(), syms.end());
  EXPECT_EQ(distinct.size(), 8u);
}

TEST(Square, PlanForcesTheLastCellOfEveryLine) {
  const auto groups = magic::square_groups(4, SquareKind::Magic);
  const auto plan = magic::make_plan(16, groups, {}, {});
  std::vector<int> pos(16);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) pos[plan.steps[i].cell] = static_cast<int>(i);
  EXPECT_EQ(plan.steps.size(), 16u);
  // Fixed-sum 4x4 magic squares form a 7-dimensional affine space (16 cells,
  // rank-9 line constraints), so 7 branching cells is the least possible.
  EXPECT_EQ(plan.free_cells().size(), 7u);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    int last = -1;
    for (int c : groups[g].cells) last = std::max(last, pos[c]);
    const auto& st = plan.steps[last];
    const bool forced_here = st.forced_by == static_cast<int>(g);
    const bool checked_here = std::count(st.check.begin(), st.check.end(), static_cast<int>(g)) == 1;
    EXPECT_TRUE(forced_here || checked_here) << "group " << g;
    EXPECT_EQ(st.forced_by >= 0, true) << "the last cell of group " << g << " must be forced";
  }
}

TEST(Square, RejectsBadSpecs) {
  EXPECT_THROW(run_square(2, "magic"), magic::SpecError);
  EXPECT_THROW(run_square(6, "magic"), magic::SpecError);
  EXPECT_THROW(run_square(3, "most-perfect"), magic::SpecError);
  EXPECT_THROW(run_square(4, "bogus"), magic::SpecError);
  EXPECT_THROW(run_square(4, "magic", {.shard_index = 2, .shard_count = 2}), magic::SpecError);
}

}  // namespace
