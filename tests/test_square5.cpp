// The order-5 counter against the slow enumerator of tests/oracle (which
// shares no code with it) on slices, and against published counts.  The
// full count of 275,305,224 is a `slow` row of data/known_counts.json and a
// benchmark in perf/, not a unit test.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "magic/digest.hpp"
#include "magic/spec.hpp"
#include "oracle/square5_oracle.hpp"

namespace {

using magic::RunOptions;
using oracle::Grid;

nlohmann::json square5(const std::string& kind) {
  return {{"name", "square"}, {"order", 5}, {"kind", kind}};
}

struct Found {
  magic::RunResult r;
  std::set<Grid> canon;  // the canonical forms of everything it handed out
};

Found run_all(const nlohmann::json& spec, RunOptions ro = {}) {
  Found out;
  ro.solutions = ~std::uint64_t{0};
  ro.on_solution = [&](const nlohmann::json& s) { out.canon.insert(oracle::canonical(s.get<Grid>())); };
  out.r = magic::run_spec(spec, ro).result;
  return out;
}

magic::Digest digest_of(const std::set<Grid>& canon) {
  magic::Digest d;
  for (const Grid& g : canon) {
    std::array<std::uint8_t, 25> bytes{};
    for (int i = 0; i < 25; ++i) bytes[i] = static_cast<std::uint8_t>(g[i / 5][i % 5]);
    d.add(bytes);
  }
  return d;
}

// What the oracle found, as the engine reports it.
struct Expected {
  std::set<Grid> canon;
  std::uint64_t total = 0;
};

void expect_matches(const Found& got, const Expected& want, const std::string& what) {
  EXPECT_GT(want.total, 0u) << what << ": an empty slice checks nothing";
  EXPECT_EQ(got.r.unique, want.canon.size()) << what;
  EXPECT_EQ(got.r.total, want.total) << what;
  EXPECT_EQ(got.canon, want.canon) << what;
  EXPECT_EQ(got.r.digest, digest_of(want.canon)) << what;
  EXPECT_TRUE(got.r.exhaustive) << what;
}

std::vector<int> other_diagonal_values(const Grid& g) {
  return {g[0][0], g[1][1], g[3][3], g[4][4], g[0][4], g[1][3], g[3][1], g[4][0]};
}

// A slice: every magic square with centre c whose other 8 diagonal values
// are those of the first square the engine finds with that centre.  The
// engine reaches it through its group and (above 13) the complement map;
// the oracle tries every placement of the 8 values.
class MagicSlice : public ::testing::TestWithParam<int> {};

TEST_P(MagicSlice, DiagonalValueSliceMatchesTheSlowEnumerator) {
  const int c = GetParam();
  nlohmann::json spec = square5("magic");
  spec["center"] = c;
  RunOptions first;
  first.limit = 1;
  const Found one = run_all(spec, first);
  ASSERT_EQ(one.canon.size(), 1u);
  const std::vector<int> w = other_diagonal_values(*one.canon.begin());
  spec["diagonal"] = w;

  Expected want;
  oracle::diagonal_set_slice(c, w, [&](const Grid& g) {
    ++want.total;
    want.canon.insert(oracle::canonical(g));
  });
  expect_matches(run_all(spec), want, spec.dump());
  // Any thread count and split depth give the same digest.
  for (int threads : {1, 2})
    for (int depth : {1, 3, 5}) {
      RunOptions ro;
      ro.threads = threads;
      ro.split_depth = depth;
      expect_matches(run_all(spec, ro), want, spec.dump() + " threads " + std::to_string(threads) +
                                                   " depth " + std::to_string(depth));
    }
}

INSTANTIATE_TEST_SUITE_P(Centres, MagicSlice, ::testing::Values(1, 13, 14, 20));

// The associative and pandiagonal kinds: every square they hand out passes
// the oracle, none twice; on slices with both diagonals fixed, the oracle
// (every magic completion, filtered by kind) finds exactly their images.
class KindSlice : public ::testing::TestWithParam<std::string> {};

TEST_P(KindSlice, FixedDiagonalSlicesMatchTheSlowEnumerator) {
  const std::string kind = GetParam();
  const Found all = run_all(square5(kind));
  ASSERT_EQ(all.canon.size(), all.r.unique);
  EXPECT_EQ(all.r.total, 8 * all.r.unique);
  std::set<Grid> images;
  for (const Grid& g : all.canon) {
    ASSERT_TRUE(oracle::is_square(g, kind));
    for (const Grid& im : oracle::images(g)) images.insert(im);
  }
  EXPECT_EQ(images.size(), all.r.total);
  // A few slices spread over the list, each fixed by one square's diagonals.
  std::vector<Grid> list(all.canon.begin(), all.canon.end());
  for (std::size_t i = 0; i < list.size(); i += list.size() / 5) {
    Grid preset(5, std::vector<int>(5, 0));
    for (int k = 0; k < 5; ++k) {
      preset[k][k] = list[i][k][k];
      preset[k][4 - k] = list[i][k][4 - k];
    }
    std::set<Grid> want;
    oracle::fill5(preset, kind, [&](const Grid& g) { want.insert(g); });
    std::set<Grid> got;
    for (const Grid& g : images) {
      bool same = true;
      for (int k = 0; k < 5; ++k) same = same && g[k][k] == preset[k][k] && g[k][4 - k] == preset[k][4 - k];
      if (same) got.insert(g);
    }
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(got, want) << kind << " slice " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, KindSlice, ::testing::Values("associative", "pandiagonal"));

TEST(Square5, CentreSliceAboveThirteenIsTheMirrorOfItsComplement) {
  // Centre 25 is searched as the complements of centre 1: the two slices
  // hold the same number of squares, and complementing one gives the other.
  nlohmann::json lo = square5("magic"), hi = square5("magic");
  lo["center"] = 3;
  RunOptions first;
  first.limit = 1;
  const std::vector<int> w = other_diagonal_values(*run_all(lo, first).canon.begin());
  std::vector<int> w_mirror;
  for (int v : w) w_mirror.push_back(26 - v);
  lo["diagonal"] = w;
  hi["center"] = 23;
  hi["diagonal"] = w_mirror;
  const Found a = run_all(lo), b = run_all(hi);
  EXPECT_GT(a.r.unique, 0u);
  std::set<Grid> mirrored;
  for (Grid g : a.canon) {
    for (auto& row : g)
      for (int& v : row) v = 26 - v;
    mirrored.insert(oracle::canonical(g));
  }
  EXPECT_EQ(mirrored, b.canon);
  EXPECT_EQ(a.r.unique, b.r.unique);
}

TEST(Square5, ImpossibleSlicesAreEmptyNotErrors) {
  nlohmann::json spec = square5("magic");
  spec["center"] = 1;
  spec["diagonal"] = std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9};  // the diagonals cannot sum to 65
  const auto r = magic::run_spec(spec).result;
  EXPECT_EQ(r.unique, 0u);
  EXPECT_TRUE(r.exhaustive);
}

TEST(Square5, BadSlicesAreSpecErrors) {
  const std::vector<nlohmann::json> bad{
      {{"name", "square"}, {"order", 5}, {"center", 0}},
      {{"name", "square"}, {"order", 5}, {"center", 26}},
      {{"name", "square"}, {"order", 4}, {"center", 1}},
      {{"name", "square"}, {"order", 5}, {"kind", "semi"}, {"center", 1}},
      {{"name", "square"}, {"order", 5}, {"center", 1}, {"diagonal", {2, 3}}},
      {{"name", "square"}, {"order", 5}, {"center", 1}, {"diagonal", {1, 2, 3, 4, 5, 6, 7, 8}}},
      {{"name", "square"}, {"order", 5}, {"center", 1}, {"diagonal", {2, 2, 3, 4, 5, 6, 7, 8}}},
      {{"name", "square"}, {"order", 5}, {"center", 1}, {"diagonal", "1..8"}},
      {{"name", "square"}, {"order", 5}, {"diagonal", {2, 3, 4, 5, 6, 7, 8, 9}}},
  };
  for (const auto& spec : bad) EXPECT_THROW(magic::run_spec(spec), magic::SpecError) << spec.dump();
}

// Semi-magic squares of order 5 are far too many to finish; a limited and
// a sharded run still hand out valid, distinct squares.
TEST(Square5, SemiMagicRunsWithLimitAndShards) {
  std::set<Grid> seen;
  for (std::uint32_t shard : {0u, 1u}) {
    RunOptions ro;
    ro.limit = 40;
    ro.shard_index = shard;
    ro.shard_count = 2;
    const Found r = run_all(square5("semi"), ro);
    EXPECT_FALSE(r.r.exhaustive);
    // The pair counter (square_semi.hpp) counts a class of 3,600 at a time.
    EXPECT_EQ(r.r.unique, 3600u);
    EXPECT_EQ(r.canon.size(), 1u);
    for (const Grid& g : r.canon) {
      EXPECT_TRUE(oracle::is_square(g, "semi"));
      EXPECT_TRUE(seen.insert(g).second) << "the shards overlap";
    }
  }
}

}  // namespace
