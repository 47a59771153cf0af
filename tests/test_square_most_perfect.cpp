// The order-8 most-perfect counter (square/square_most_perfect.hpp) against
// the cell-by-cell completion solver, which shares no code with it: the
// squares it finds with a given first row (or first row and column) are
// exactly the completions of that grid.  The whole count is the
// Ollerenshaw-Brée formula's (data/known_counts.json).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "magic/core/error.hpp"
#include "magic/digest.hpp"
#include "magic/spec.hpp"
#include "resume_check.hpp"

namespace {

using magic::RunOptions;
using magic::RunResult;
using Grid = std::vector<std::vector<int>>;

const nlohmann::json kSquare{{"name", "square"}, {"order", 8}, {"kind", "most-perfect"}};

std::string text_of(const Grid& g) {
  std::string t;
  for (const auto& row : g) {
    for (std::size_t c = 0; c < row.size(); ++c) t += std::to_string(row[c]) + (c + 1 < row.size() ? " " : "\n");
  }
  return t;
}

using Cells = std::array<std::uint8_t, 64>;

Cells cells_of(const nlohmann::json& rows) {
  Cells c{};
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 8; ++k) c[static_cast<std::size_t>(r * 8 + k)] = rows.at(r).at(k).get<std::uint8_t>();
  return c;
}

Grid grid_of(const Cells& c) {
  Grid g(8, std::vector<int>(8));
  for (int i = 0; i < 64; ++i) g[i / 8][i % 8] = c[static_cast<std::size_t>(i)];
  return g;
}

// The grid's 8 rotations and reflections of a square.
std::array<Cells, 8> orientations(const Cells& c) {
  std::array<Cells, 8> out{};
  for (int t = 0; t < 8; ++t)
    for (int r = 0; r < 8; ++r)
      for (int k = 0; k < 8; ++k) {
        int sr = r, sc = k;
        if (t & 1) sr = 7 - sr;        // flip rows
        if (t & 2) sc = 7 - sc;        // flip columns
        if (t & 4) std::swap(sr, sc);  // transpose
        out[static_cast<std::size_t>(t)][static_cast<std::size_t>(r * 8 + k)] = c[static_cast<std::size_t>(sr * 8 + sc)];
      }
  return out;
}

// The generic completion solver on `g` (0 = blank): the completions.
std::set<Cells> completions(const Grid& g) {
  std::set<Cells> out;
  RunOptions ro{.threads = 2};
  ro.solutions = ~std::uint64_t{0};
  ro.on_solution = [&](const nlohmann::json& s) { out.insert(cells_of(s)); };
  const RunResult r =
      magic::run_spec({{"name", "complete"}, {"grid", text_of(g)}, {"kind", "most-perfect"}, {"mode", "count"}}, ro)
          .result;
  EXPECT_EQ(r.unique, out.size());
  return out;
}

// `square` lists one square per class up to rotation and reflection; their
// orientations are every most-perfect square.  Those are, once each, what
// `complete` of the empty grid finds (count and digest); the classes are
// distinct; and for three squares' first rows (and first row and column),
// the squares with them are the generic solver's completions of that grid.
TEST(MostPerfect8, EverySquareOnceAndTheCompletionsOfAnyRow) {
  std::vector<Cells> listed;
  RunOptions ro{.threads = 2};
  ro.solutions = ~std::uint64_t{0};
  ro.on_solution = [&](const nlohmann::json& s) { listed.push_back(cells_of(s)); };
  const RunResult square = magic::run_spec(kSquare, ro).result;
  ASSERT_EQ(listed.size(), 368640u);  // Frénicle standard form (Ollerenshaw and Brée; OEIS A051235)

  std::vector<Cells> least;  // each class's least orientation
  magic::Digest all;
  std::vector<std::set<Cells>> by_row(3), by_both(3);
  const std::array<Cells, 3> seeds{listed[0], listed[listed.size() / 3], listed.back()};
  for (const Cells& c : listed) {
    const auto images = orientations(c);
    least.push_back(*std::min_element(images.begin(), images.end()));
    for (const Cells& t : images) {
      all.add(t);
      for (std::size_t i = 0; i < 3; ++i)
        if (std::equal(t.begin(), t.begin() + 8, seeds[i].begin())) {
          by_row[i].insert(t);
          bool column = true;
          for (int r = 0; r < 8; ++r) column = column && t[static_cast<std::size_t>(8 * r)] == seeds[i][static_cast<std::size_t>(8 * r)];
          if (column) by_both[i].insert(t);
        }
    }
  }
  std::sort(least.begin(), least.end());
  EXPECT_EQ(std::adjacent_find(least.begin(), least.end()), least.end()) << "a class listed twice";

  const Grid empty(8, std::vector<int>(8, 0));
  const RunResult every =
      magic::run_spec({{"name", "complete"}, {"grid", text_of(empty)}, {"kind", "most-perfect"}, {"mode", "count"}},
                      {.threads = 2})
          .result;
  EXPECT_EQ(every.unique, 8 * listed.size());
  EXPECT_EQ(every.unique, square.total);
  EXPECT_EQ(every.digest, all);

  for (std::size_t i = 0; i < 3; ++i) {
    Grid row(8, std::vector<int>(8, 0)), both = row;
    const Grid s = grid_of(seeds[i]);
    row[0] = both[0] = s[0];
    for (int k = 0; k < 8; ++k) both[k][0] = s[k][0];
    EXPECT_GT(by_both[i].size(), 0u);
    EXPECT_EQ(by_row[i], completions(row)) << "seed " << i << ": first row";
    EXPECT_EQ(by_both[i], completions(both)) << "seed " << i << ": first row and column";
  }
}

TEST(MostPerfect8, SquareCountsUpToRotationAndReflection) {
  const RunResult r = magic::run_spec(kSquare, {.threads = 2}).result;
  EXPECT_EQ(r.unique, 368640u);  // Frénicle standard form, as the formula counts
  EXPECT_EQ(r.total, 2949120u);
}

TEST(MostPerfect8, ThreadsSplitsShardsAndResumeChangeNothing) {
  const RunResult ref = magic::run_spec(kSquare, {.threads = 2}).result;
  for (const RunOptions& ro : {RunOptions{.threads = 1, .split_depth = 1}, RunOptions{.threads = 2, .split_depth = 3}}) {
    const RunResult r = magic::run_spec(kSquare, ro).result;
    EXPECT_EQ(r.unique, ref.unique) << ro.threads << " threads, depth " << ro.split_depth;
    EXPECT_EQ(r.digest, ref.digest) << ro.threads << " threads, depth " << ro.split_depth;
  }
  std::uint64_t unique = 0;
  magic::Digest digest;
  for (std::uint32_t i = 0; i < 3; ++i) {
    const RunResult r = magic::run_spec(kSquare, {.threads = 2, .split_depth = 1, .shard_index = i, .shard_count = 3}).result;
    unique += r.unique;
    digest.merge(r.digest);
  }
  EXPECT_EQ(unique, ref.unique);
  EXPECT_EQ(digest, ref.digest);
  const auto [part, rest] = stop_and_resume(
      [](const RunOptions& ro) { return magic::run_spec(kSquare, ro).result; }, 2, "most-perfect-journal");
  EXPECT_FALSE(part.exhaustive);
  EXPECT_GT(rest.tasks_resumed, 0u);
  EXPECT_EQ(rest.unique, ref.unique);
  EXPECT_EQ(rest.digest, ref.digest);
}

TEST(MostPerfect8, OtherOrder8SquaresAreSpecErrors) {
  for (const char* kind : {"magic", "semi", "pandiagonal", "associative"})
    EXPECT_THROW(magic::run_spec({{"name", "square"}, {"order", 8}, {"kind", kind}}, {}), magic::SpecError) << kind;
  EXPECT_THROW(magic::run_spec({{"name", "square"}, {"order", 8}, {"kind", "most-perfect"}, {"symmetry_breaking", false}}, {}),
               magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "square"}, {"order", 7}, {"kind", "most-perfect"}}, {}), magic::SpecError);
}

}  // namespace
