#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>


#include "magic/problems.hpp"
#include "magic/square.hpp"
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

TEST(Square, DigestIndependentOfThreadsAndSplitDepth) {
  const auto ref = run_square(4, "magic", {.threads = 1, .split_depth = 0});
  for (unsigned t : {1u, 2u, 3u, 8u})
    for (int d : {0, 1, 2, 3, 5, 8, 16, 40}) {
      const auto r = run_square(4, "magic", {.threads = t, .split_depth = d});
      EXPECT_EQ(r.digest, ref.digest) << "threads " << t << " depth " << d;
      EXPECT_EQ(r.unique, 880u);
      EXPECT_EQ(r.total, 7040u);
    }
}

TEST(Square, SolutionOrderIndependentOfThreads) {
  auto first = [](unsigned t) {
    RunOptions ro{.threads = t};
    ro.solutions = 50;
    std::vector<std::string> out;
    ro.on_solution = [&](const nlohmann::json& s) { out.push_back(s.dump()); };
    run_square(4, "semi", ro);
    return out;
  };
  const auto a = first(1);
  EXPECT_EQ(a.size(), 50u);
  EXPECT_EQ(a, first(2));
  EXPECT_EQ(a, first(8));
}

TEST(Square, ShardsAddUpToTheWhole) {
  const auto whole = run_square(4, "semi");
  for (unsigned m : {2u, 3u, 7u}) {
    magic::Digest d;
    std::uint64_t unique = 0, total = 0;
    for (unsigned i = 0; i < m; ++i) {
      const auto r = run_square(4, "semi", {.shard_index = i, .shard_count = m});
      d.merge(r.digest);
      unique += r.unique;
      total += r.total;
    }
    EXPECT_EQ(d, whole.digest) << m << " shards";
    EXPECT_EQ(unique, whole.unique);
    EXPECT_EQ(total, whole.total);
  }
}

TEST(Square, ThreeDedupPathsAgree) {
  for (const char* kind : {"magic", "semi", "pandiagonal"}) {
    const auto gen = run_square(4, kind);  // symmetry breaking, no hash set
    const auto filter = run_square(4, kind, {}, false);  // all images, canonical filter
    RunOptions hs;
    hs.dedup = magic::DedupMode::HashSet;
    const auto set_all = run_square(4, kind, hs, false);  // all images through the hash set
    const auto set_gen = run_square(4, kind, hs);
    EXPECT_EQ(gen.dedup, "generator");
    EXPECT_EQ(filter.dedup, "canonical-filter");
    EXPECT_EQ(set_all.dedup, "hash-set");
    for (const auto* r : {&filter, &set_all, &set_gen}) {
      EXPECT_EQ(r->digest, gen.digest) << kind;
      EXPECT_EQ(r->unique, gen.unique) << kind;
      EXPECT_EQ(r->total, gen.total) << kind;
    }
    EXPECT_EQ(filter.total, 8 * filter.unique);
  }
}

TEST(Square, HashSetRespectsItsMemoryLimit) {
  RunOptions ro;
  ro.dedup = magic::DedupMode::HashSet;
  ro.dedup_memory = 64 << 10;
  EXPECT_THROW(run_square(4, "semi", ro), magic::MemoryLimitError);
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

TEST(Square, StopAfterGivesTheFirstSolutionsInTaskOrder) {
  RunOptions all;
  all.solutions = 5;
  std::vector<std::string> ref;
  all.on_solution = [&](const nlohmann::json& s) { ref.push_back(s.dump()); };
  run_square(4, "magic", all);
  for (unsigned t : {1u, 2u, 4u}) {
    RunOptions ro{.threads = t};
    ro.solutions = 5;
    ro.stop_after = 5;
    std::vector<std::string> got;
    ro.on_solution = [&](const nlohmann::json& s) { got.push_back(s.dump()); };
    const auto r = run_square(4, "magic", ro);
    EXPECT_EQ(got, ref);
    EXPECT_EQ(r.unique, 5u);
    EXPECT_FALSE(r.exhaustive);
  }
}

TEST(Square, CheckpointResumeGivesTheSameDigest) {
  const auto whole = run_square(4, "semi");
  const std::string path = unique_temp_path("square_ck") + ".json";
  std::filesystem::remove(path);
  const nlohmann::json sig{{"test", "ck"}};
  {
    // One thread merges each task as it finishes, so the stop lands soon
    // after task 100 of ~2400 whatever the load (two threads could finish
    // them all before the flag is read).
    std::atomic<bool> stop{false};
    magic::Checkpoint ck(path, sig, 0.0);
    RunOptions ro{.threads = 1};
    ro.interrupt = &stop;
    ro.checkpoint = &ck;
    ro.on_progress = [&](const magic::Progress& p) {
      if (p.tasks_done > 100) stop = true;
    };
    ro.progress_interval = 0;
    const auto part = run_square(4, "semi", ro);
    EXPECT_TRUE(part.interrupted);
    EXPECT_FALSE(part.exhaustive);
    EXPECT_LT(part.unique, whole.unique);
  }
  magic::Checkpoint ck(path, sig);
  ASSERT_TRUE(ck.load());
  EXPECT_GT(ck.done().size(), 0u);
  RunOptions ro;
  ro.checkpoint = &ck;
  const auto rest = run_square(4, "semi", ro);
  EXPECT_GT(rest.tasks_resumed, 0u);
  EXPECT_TRUE(rest.exhaustive);
  EXPECT_EQ(rest.digest, whole.digest);
  EXPECT_EQ(rest.unique, whole.unique);
  EXPECT_EQ(rest.total, whole.total);
  magic::Checkpoint other(path, nlohmann::json{{"test", "other"}});
  EXPECT_THROW(other.load(), std::runtime_error);
}

TEST(Square, RejectsBadSpecs) {
  EXPECT_THROW(run_square(2, "magic"), std::invalid_argument);
  EXPECT_THROW(run_square(6, "magic"), std::invalid_argument);
  EXPECT_THROW(run_square(3, "most-perfect"), std::invalid_argument);
  EXPECT_THROW(run_square(4, "bogus"), std::invalid_argument);
  EXPECT_THROW(run_square(4, "magic", {.shard_index = 2, .shard_count = 2}), std::invalid_argument);
}

}  // namespace
