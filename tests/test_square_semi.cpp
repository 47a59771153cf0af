// The semi-magic pair counter (square/square_semi.hpp) against the
// cell-by-cell solvers, which share no code with it: at orders 3 and 4 the
// classes it emits are exactly the classes of the generic solver's squares,
// with the same counts; at order 5 its first-row (and column) slices give
// the completions `complete --kind semi` finds on the same grid, digest
// included.  The full order-5 count (A271103) is a `slow` row of
// data/known_counts.json.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "magic/core/error.hpp"
#include "magic/digest.hpp"
#include "magic/runner.hpp"
#include "magic/spec.hpp"
#include "square/square_semi.hpp"
#include "resume_check.hpp"

namespace {

using magic::RunOptions;
using magic::RunResult;
using magic::SemiPairsProblem;

magic::SquareSpec semi(int n) {
  magic::SquareSpec s;
  s.order = n;
  s.kind = magic::SquareKind::Semi;
  return s;
}

template <int N>
typename SemiPairsProblem<N>::Solution cells(const nlohmann::json& grid) {
  typename SemiPairsProblem<N>::Solution s{};
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) s[static_cast<std::size_t>(i * N + j)] = grid.at(i).at(j).get<std::uint8_t>();
  return s;
}

template <int N>
struct Listed {
  RunResult r;
  std::set<typename SemiPairsProblem<N>::Solution> classes;  // the representative of each square handed out
  std::uint64_t handed = 0;
};

template <int N, class Run>
Listed<N> listed(Run&& run, RunOptions ro = {}) {
  Listed<N> out;
  ro.solutions = ~std::uint64_t{0};
  ro.on_solution = [&](const nlohmann::json& s) {
    ++out.handed;
    out.classes.insert(SemiPairsProblem<N>::representative(cells<N>(s)));
  };
  out.r = run(ro);
  return out;
}

template <int N>
Listed<N> pairs(RunOptions ro = {}) {
  return listed<N>([](const RunOptions& o) { return magic::run(SemiPairsProblem<N>(semi(N)), o); }, ro);
}

template <int N>
Listed<N> generic() {
  return listed<N>([](const RunOptions& o) {
    return magic::run_spec({{"name", "square"}, {"order", N}, {"kind", "semi"}}, o).result;
  });
}

template <int N>
void expect_same_classes() {
  const Listed<N> p = pairs<N>(), g = generic<N>();
  ASSERT_GT(g.r.unique, 0u);
  EXPECT_EQ(p.r.unique, g.r.unique);
  EXPECT_EQ(p.r.total, g.r.total);
  // Every class is found once, as its own representative.
  EXPECT_EQ(p.handed, p.classes.size());
  EXPECT_EQ(p.classes, g.classes);
  // unique = classes x (N!)^2 / 4, the factor the header derives.
  const std::uint64_t f = N == 3 ? 6 : 24;
  EXPECT_EQ(p.r.unique, p.classes.size() * f * f / 4);
  magic::Digest d;
  for (const auto& c : p.classes) d.add(c);
  EXPECT_EQ(p.r.digest, d);
}

TEST(SemiPairs, Order3EmitsTheClassesOfTheCellSolversSquares) { expect_same_classes<3>(); }
TEST(SemiPairs, Order4EmitsTheClassesOfTheCellSolversSquares) { expect_same_classes<4>(); }

TEST(SemiPairs, RepresentativeIsTheSameForEveryImageOfAClass) {
  // A square of the class, its rows and columns permuted and transposed.
  const Listed<4> p = pairs<4>({.threads = 1});
  const auto rep = *p.classes.begin();
  auto s = rep;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s[static_cast<std::size_t>(i * 4 + j)] = rep[static_cast<std::size_t>(((3 - j) % 4) * 4 + (i + 1) % 4)];
  EXPECT_NE(s, rep);
  EXPECT_EQ(SemiPairsProblem<4>::representative(s), rep);
}

TEST(SemiPairs, ThreadsSplitsShardsAndResumeChangeNothing) {
  const RunResult ref = magic::run(SemiPairsProblem<4>(semi(4)), {.threads = 1});
  for (unsigned t : {1u, 2u, 4u})
    for (int d : {0, 1, 2, 3, 4}) {
      const RunResult r = magic::run(SemiPairsProblem<4>(semi(4)), {.threads = t, .split_depth = d});
      EXPECT_EQ(r.unique, ref.unique) << t << " threads, depth " << d;
      EXPECT_EQ(r.total, ref.total);
      EXPECT_EQ(r.digest, ref.digest);
    }
  std::uint64_t unique = 0;
  magic::Digest digest;
  for (std::uint32_t i = 0; i < 5; ++i) {
    const RunResult r =
        magic::run(SemiPairsProblem<4>(semi(4)), {.threads = 2, .split_depth = 3, .shard_index = i, .shard_count = 5});
    unique += r.unique;
    digest.merge(r.digest);
  }
  EXPECT_EQ(unique, ref.unique);
  EXPECT_EQ(digest, ref.digest);

  // Stopped after a few tasks, then resumed from the journal on two threads.
  const auto [part, rest] = stop_and_resume(
      [](const RunOptions& ro) { return magic::run(SemiPairsProblem<4>(semi(4)), ro); }, 3, "semi-pairs-journal");
  EXPECT_FALSE(part.exhaustive);
  EXPECT_GT(rest.tasks_resumed, 0u);
  EXPECT_EQ(rest.unique, ref.unique);
  EXPECT_EQ(rest.digest, ref.digest);
}

TEST(SemiPairs, Order5ShardIsTheSameOnAnyThreads) {
  const nlohmann::json spec{{"name", "square"}, {"order", 5}, {"kind", "semi"}};
  const RunResult a = magic::run_spec(spec, {.threads = 1, .split_depth = 2, .shard_index = 3, .shard_count = 2000}).result;
  const RunResult b = magic::run_spec(spec, {.threads = 2, .split_depth = 2, .shard_index = 3, .shard_count = 2000}).result;
  EXPECT_GT(a.unique, 0u);
  EXPECT_EQ(a.unique % 3600, 0u);  // whole classes
  EXPECT_EQ(a.total, 8 * a.unique);
  EXPECT_EQ(a.unique, b.unique);
  EXPECT_EQ(a.digest, b.digest);
}

// A 5x5 grid with the first row and, if given, the first column filled.
std::string grid(const std::vector<int>& row, const std::vector<int>& col) {
  std::string g;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      int v = 0;
      if (i == 0) v = row[static_cast<std::size_t>(j)];
      else if (j == 0 && !col.empty()) v = col[static_cast<std::size_t>(i)];
      g += std::to_string(v) + (j < 4 ? " " : "\n");
    }
  }
  return g;
}

void expect_slice_matches_completion(const std::vector<int>& row, const std::vector<int>& col) {
  nlohmann::json slice{{"name", "square"}, {"order", 5}, {"kind", "semi"}, {"first_row", row}};
  if (!col.empty()) slice["first_column"] = col;
  const RunResult s = magic::run_spec(slice, {.threads = 2}).result;
  const RunResult c =
      magic::run_spec({{"name", "complete"}, {"grid", grid(row, col)}, {"kind", "semi"}, {"mode", "count"}},
                      {.threads = 2})
          .result;
  EXPECT_GT(c.unique, 0u) << slice.dump();
  EXPECT_EQ(s.unique, c.unique) << slice.dump();
  EXPECT_EQ(s.digest, c.digest) << slice.dump();
  EXPECT_FALSE(s.has_total);
}

TEST(SemiPairs, Order5RowAndColumnSlicesAreTheCompletionsOfThatGrid) {
  expect_slice_matches_completion({1, 2, 13, 24, 25}, {1, 3, 17, 21, 23});
  expect_slice_matches_completion({7, 25, 1, 20, 12}, {7, 2, 24, 18, 14});
  expect_slice_matches_completion({25, 24, 1, 2, 13}, {25, 3, 4, 11, 22});
}

TEST(SemiPairs, Order5RowSliceIsTheCompletionsOfThatRow) {
  // 42,031,392 completions: the cell solver takes minutes; the shard is the
  // part of it CI runs, the whole one is under `slow` (test name).
  const std::vector<int> row{3, 5, 14, 19, 24};
  nlohmann::json slice{{"name", "square"}, {"order", 5}, {"kind", "semi"}, {"first_row", row}};
  const RunResult s = magic::run_spec(slice, {.threads = 2}).result;
  const RunResult again = magic::run_spec(slice, {.threads = 1, .split_depth = 4}).result;
  EXPECT_EQ(s.unique, again.unique);
  EXPECT_EQ(s.digest, again.digest);
  EXPECT_EQ(s.unique % 24, 0u);  // the four other rows in any order
}

TEST(SemiPairsSlow, Order5RowSliceEqualsTheCellSolversCount) {
  const std::vector<int> row{1, 2, 13, 24, 25};
  const RunResult s = magic::run_spec({{"name", "square"}, {"order", 5}, {"kind", "semi"}, {"first_row", row}}, {})
                          .result;
  const RunResult c =
      magic::run_spec({{"name", "complete"}, {"grid", grid(row, {})}, {"kind", "semi"}, {"mode", "count"}}, {}).result;
  EXPECT_EQ(s.unique, c.unique);
  EXPECT_EQ(s.digest, c.digest);
}

TEST(SemiPairs, BadSlicesAndWholeSearchesThatCannotFinishAreSpecErrors) {
  auto run = [](nlohmann::json spec, RunOptions ro = {}) { return magic::run_spec(spec, ro); };
  const nlohmann::json base{{"name", "square"}, {"order", 5}, {"kind", "semi"}};
  auto with = [&](const char* k, nlohmann::json v) {
    nlohmann::json s = base;
    s[k] = v;
    return s;
  };
  EXPECT_THROW(run(with("first_row", {1, 2, 3, 4, 5})), magic::SpecError);         // sum 15
  EXPECT_THROW(run(with("first_row", {1, 1, 13, 25, 25})), magic::SpecError);      // repeats
  EXPECT_THROW(run(with("first_row", {1, 2, 13, 24})), magic::SpecError);          // four
  EXPECT_THROW(run(with("first_row", {0, 3, 13, 24, 25})), magic::SpecError);      // out of range
  EXPECT_THROW(run(with("first_column", {1, 3, 17, 21, 23})), magic::SpecError);  // no row
  nlohmann::json both = with("first_row", {1, 2, 13, 24, 25});
  both["first_column"] = {2, 3, 17, 21, 22};  // does not start with the row's first
  EXPECT_THROW(run(both), magic::SpecError);
  EXPECT_THROW(run({{"name", "square"}, {"order", 4}, {"kind", "semi"}, {"first_row", {1, 2, 15, 16}}}),
               magic::SpecError);
  EXPECT_THROW(run({{"name", "square"}, {"order", 5}, {"first_row", {1, 2, 13, 24, 25}}}), magic::SpecError);
  // Order 5 cell by cell, every orientation: refused whole, a part runs.
  nlohmann::json all = base;
  all["symmetry_breaking"] = false;
  EXPECT_THROW(run(all), magic::SpecError);
  EXPECT_EQ(run(all, {.limit = 3}).result.unique, 3u);
  all["kind"] = "associative";
  EXPECT_EQ(run(all).result.unique, 48544u);
}

}  // namespace
