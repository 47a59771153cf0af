#include <gtest/gtest.h>


#include <algorithm>
#include <array>
#include <cstdlib>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "magic/journal.hpp"
#include "complete/complete.hpp"
#include "magic/spec.hpp"
#include "oracle/complete_oracle.hpp"
#include "oracle/square_oracle.hpp"
#include "temp_path.hpp"

namespace {

namespace fs = std::filesystem;
using magic::RunOptions;
using oracle::Grid;

struct Found {
  magic::RunResult r;
  std::vector<Grid> sols;
};

// Runs the engine through run_spec and collects every completion it hands out.
Found complete(const Grid& g, const std::string& kind = "magic", RunOptions ro = {},
               const std::string& mode = "count", bool collect = true) {
  Found f;
  if (collect) {
    if (!ro.solutions) ro.solutions = ~0ull;
    ro.on_solution = [&](const nlohmann::json& s) { f.sols.push_back(s.get<Grid>()); };
  }
  f.r = magic::run_spec({{"name", "complete"}, {"grid", g}, {"kind", kind}, {"mode", mode}}, ro).result;
  return f;
}

Grid empty(int n) { return Grid(n, std::vector<int>(n, 0)); }

// Every completion is a square of the kind, keeps the givens, and none repeats.
void expect_valid(const Grid& puzzle, const std::vector<Grid>& sols, const std::string& kind) {
  std::set<Grid> distinct;
  for (const Grid& s : sols) {
    EXPECT_TRUE(oracle::is_square(s, kind)) << nlohmann::json(s).dump() << " is not " << kind;
    EXPECT_TRUE(oracle::keeps_givens(puzzle, s)) << nlohmann::json(s).dump() << " lost a given";
    distinct.insert(s);
  }
  EXPECT_EQ(distinct.size(), sols.size()) << "a completion was emitted twice";
}

Grid read_grid(const fs::path& p) {
  std::ifstream in(p);
  Grid g;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<int> row;
    for (int v; ls >> v;) row.push_back(v);
    if (!row.empty()) g.push_back(row);
  }
  return g;
}

std::vector<fs::path> puzzle_files(const std::string& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(MAGIC_SOURCE_DIR) / "perf" / "puzzles" / dir))
    out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}


const Grid kSeed1{{2, 7, 6}, {9, 5, 1}, {4, 3, 0}};
const Grid kSeed2{{0, 0, 0}, {0, 5, 0}, {0, 0, 0}};
const Grid kSeed3{{1, 15, 14, 4}, {12, 0, 0, 9}, {8, 0, 0, 5}, {13, 3, 2, 16}};

// --- The seed's examples ---------------------------------------------------

TEST(Complete, SeedExampleOneBlank) {
  const auto first = complete(kSeed1, "magic", {}, "first");
  ASSERT_EQ(first.sols.size(), 1u);
  EXPECT_EQ(first.sols[0], (Grid{{2, 7, 6}, {9, 5, 1}, {4, 3, 8}}));
  const auto all = complete(kSeed1);
  EXPECT_EQ(all.r.unique, 1u);
  EXPECT_TRUE(all.r.exhaustive);
}

TEST(Complete, SeedExampleCentreFiveHasTheEightMagicSquares) {
  const auto all = complete(kSeed2);
  EXPECT_EQ(all.r.unique, 8u);
  ASSERT_EQ(all.sols.size(), 8u);
  expect_valid(kSeed2, all.sols, "magic");
  const auto ref = oracle::completions(kSeed2, "magic");
  EXPECT_EQ(std::set<Grid>(all.sols.begin(), all.sols.end()), std::set<Grid>(ref.begin(), ref.end()));
  // The seed accepts either answer; ours must be one of the eight.
  const auto first = complete(kSeed2, "magic", {}, "first");
  ASSERT_EQ(first.sols.size(), 1u);
  EXPECT_TRUE(std::find(ref.begin(), ref.end(), first.sols[0]) != ref.end());
}

TEST(Complete, SeedExampleMiddleBlock) {
  const auto first = complete(kSeed3, "magic", {}, "first");
  ASSERT_EQ(first.sols.size(), 1u);
  EXPECT_EQ(first.sols[0], (Grid{{1, 15, 14, 4}, {12, 6, 7, 9}, {8, 10, 11, 5}, {13, 3, 2, 16}}));
  EXPECT_EQ(complete(kSeed3).r.unique, 1u);
}

// --- Counts against the oracles ----------------------------------------------

TEST(Complete, EmptyGridsCountEveryMagicSquare) {
  // 8 and 7040 are the published counts; distinct valid squares that many
  // are therefore all of them.
  const auto three = complete(empty(3));
  EXPECT_EQ(three.r.unique, 8u);
  EXPECT_FALSE(three.r.has_total);  // completions have no symmetry group
  expect_valid(empty(3), three.sols, "magic");
  const auto ref3 = oracle::completions(empty(3), "magic");
  EXPECT_EQ(std::set<Grid>(three.sols.begin(), three.sols.end()), std::set<Grid>(ref3.begin(), ref3.end()));
  const auto four = complete(empty(4));
  EXPECT_EQ(four.r.unique, 7040u);
  EXPECT_EQ(four.sols.size(), 7040u);
  expect_valid(empty(4), four.sols, "magic");
}

TEST(Complete, SlowEmptyOrderFourEqualsTheOracleForEveryKind) {
  for (const std::string kind : {"magic", "semi", "pandiagonal", "associative", "most-perfect"}) {
    const auto f = complete(empty(4), kind);
    const auto ref = oracle::completions(empty(4), kind);
    EXPECT_EQ(f.r.unique, ref.size()) << kind;
    EXPECT_EQ(std::set<Grid>(f.sols.begin(), f.sols.end()), std::set<Grid>(ref.begin(), ref.end())) << kind;
  }
}

TEST(Complete, GeneratedPuzzleSetMatchesTheOracles) {
  for (const std::string dir : {"3x3", "4x4", "5x5"}) {
    for (const fs::path& p : puzzle_files(dir)) {
      const Grid g = read_grid(p);
      const auto f = complete(g);
      SCOPED_TRACE(p.string());
      EXPECT_TRUE(f.r.exhaustive);
      EXPECT_GE(f.r.unique, 1u);  // blanked from a real square
      EXPECT_EQ(f.sols.size(), f.r.unique);
      expect_valid(g, f.sols, "magic");
      const std::set<Grid> got(f.sols.begin(), f.sols.end());
      const std::string name = p.filename().string();
      if (dir != "5x5" || name < "b15") {  // the plain oracle is fast enough up to 13 blanks
        const auto ref = oracle::completions(g, "magic");
        EXPECT_EQ(got, std::set<Grid>(ref.begin(), ref.end()));
      }
      // The first completion is one of them.
      const auto first = complete(g, "magic", {}, "first");
      ASSERT_EQ(first.sols.size(), 1u);
      EXPECT_TRUE(got.count(first.sols[0]));
    }
  }
}

TEST(Complete, EveryKindOnRandomOrderFourPuzzlesMatchesTheOracle) {
  // Seeds for puzzles with a completion: Duerer's square (associative) and a
  // most-perfect square (also pandiagonal), in all eight orientations.
  const Grid durer{{16, 3, 2, 13}, {5, 10, 11, 8}, {9, 6, 7, 12}, {4, 15, 14, 1}};
  const Grid perfect{{1, 8, 13, 12}, {14, 11, 2, 7}, {4, 5, 16, 9}, {15, 10, 3, 6}};
  ASSERT_TRUE(oracle::is_square(durer, "associative"));
  ASSERT_TRUE(oracle::is_square(perfect, "most-perfect"));
  std::vector<Grid> pool;
  for (const Grid& g : {durer, perfect})
    for (const Grid& im : oracle::images(g)) pool.push_back(im);
  std::mt19937 rng(2024);
  for (const std::string kind : {"semi", "magic", "pandiagonal", "associative", "most-perfect"}) {
    for (int t = 0; t < 8; ++t) {
      // Half from a square, half with random givens (often no completion).
      Grid g = empty(4);
      const int givens = 4 + static_cast<int>(rng() % 7);
      std::vector<int> cells(16);
      for (int i = 0; i < 16; ++i) cells[i] = i;
      std::shuffle(cells.begin(), cells.end(), rng);
      if (t % 2 == 0) {
        const Grid& sq = pool[rng() % pool.size()];
        for (int i = 0; i < givens; ++i) g[cells[i] / 4][cells[i] % 4] = sq[cells[i] / 4][cells[i] % 4];
      } else {
        std::vector<int> vals(16);
        for (int i = 0; i < 16; ++i) vals[i] = i + 1;
        std::shuffle(vals.begin(), vals.end(), rng);
        for (int i = 0; i < givens / 2; ++i) g[cells[i] / 4][cells[i] % 4] = vals[i];
      }
      SCOPED_TRACE(kind + " " + nlohmann::json(g).dump());
      const auto ref = oracle::completions(g, kind);
      const std::set<Grid> want(ref.begin(), ref.end());
      Found f;
      try {
        f = complete(g, kind);
      } catch (const magic::SpecError&) {
        // The givens break a group already; then the oracle has nothing either.
        EXPECT_TRUE(want.empty());
        continue;
      }
      EXPECT_EQ(f.r.unique, want.size());
      expect_valid(g, f.sols, kind);
      EXPECT_EQ(std::set<Grid>(f.sols.begin(), f.sols.end()), want);
      const auto first = complete(g, kind, {}, "first");
      EXPECT_EQ(first.r.unique, want.empty() ? 0u : 1u);
      if (!first.sols.empty()) {
        EXPECT_TRUE(want.count(first.sols[0]));
      }
    }
  }
}

TEST(Complete, NoCompletionIsZeroAndExhaustive) {
  // 1 is never in a corner of a 3x3 magic square.
  const Grid corner{{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  EXPECT_TRUE(oracle::completions(corner, "magic").empty());
  for (const char* mode : {"count", "first"}) {
    const auto f = complete(corner, "magic", {}, mode);
    EXPECT_EQ(f.r.unique, 0u) << mode;
    EXPECT_TRUE(f.sols.empty());
    EXPECT_TRUE(f.r.exhaustive) << mode;
  }
  EXPECT_EQ(complete(empty(3), "pandiagonal").r.unique, 0u);
  // Orders 2 mod 4 have no pandiagonal or associative square: no search at all.
  for (const char* kind : {"pandiagonal", "associative"}) {
    const auto f = complete(empty(6), kind, {}, "first");
    EXPECT_EQ(f.r.unique, 0u);
    EXPECT_EQ(f.r.tasks, 0u);
    EXPECT_FALSE(magic::impossible_reason(6, *magic::parse_square_kind(kind)).empty());
  }
  EXPECT_TRUE(magic::impossible_reason(8, magic::SquareKind::Pandiagonal).empty());
}

TEST(Complete, FullGridIsItsOwnCompletion) {
  const Grid lo_shu{{2, 7, 6}, {9, 5, 1}, {4, 3, 8}};
  const auto f = complete(lo_shu);
  EXPECT_EQ(f.r.unique, 1u);
  ASSERT_EQ(f.sols.size(), 1u);
  EXPECT_EQ(f.sols[0], lo_shu);
  // A full semi-magic square is not magic: its diagonal is already wrong.
  const Grid semi{{1, 5, 9}, {6, 7, 2}, {8, 3, 4}};
  ASSERT_TRUE(oracle::is_square(semi, "semi"));
  EXPECT_EQ(complete(semi, "semi").r.unique, 1u);
  EXPECT_THROW(complete(semi, "magic"), magic::SpecError);
}

// --- Larger orders: first completions validate -------------------------------

TEST(Complete, FirstCompletionOfEmptyGridsUpToOrderEight) {
  struct Case {
    int n;
    const char* kind;
  };
  for (const Case c : {Case{5, "magic"}, Case{6, "magic"}, Case{7, "magic"}, Case{8, "magic"}, Case{8, "semi"},
                       Case{5, "pandiagonal"}, Case{7, "associative"}, Case{8, "associative"},
                       Case{8, "most-perfect"}}) {
    const auto f = complete(empty(c.n), c.kind, {}, "first");
    ASSERT_EQ(f.sols.size(), 1u) << c.n << " " << c.kind;
    EXPECT_TRUE(oracle::is_square(f.sols[0], c.kind)) << nlohmann::json(f.sols[0]).dump();
    EXPECT_EQ(f.r.unique, 1u);
  }
}

TEST(Complete, SolutionsModeGivesDistinctCompletions) {
  RunOptions ro;
  ro.limit = 25;
  const auto f = complete(empty(5), "magic", ro, "first");
  EXPECT_EQ(f.r.unique, 25u);
  EXPECT_EQ(f.sols.size(), 25u);
  expect_valid(empty(5), f.sols, "magic");
  // Asking for more than exist gives all of them, found by restarts.
  ro.limit = 20;
  const auto g = complete(kSeed2, "magic", ro, "first");
  EXPECT_EQ(g.r.unique, 8u);
  expect_valid(kSeed2, g.sols, "magic");
}

// --- Hard first completions (issue 21, item 5) ---------------------------------

// The kind a battery file is for: its directory, or for none/ the name's prefix.
std::string battery_kind(const fs::path& p) {
  const std::string dir = p.parent_path().filename().string();
  if (dir != "none") return dir;
  const std::string name = p.filename().string();
  return name.substr(0, name.find('_'));
}

TEST(Complete, EmptyPandiagonalSevenAndEightAreFoundBySearch) {
  // Used to run for minutes; the node bound is a loose guard against that
  // coming back (a few thousand nodes today), not a measurement.
  for (int n : {4, 5, 7, 8}) {
    const auto ref = complete(empty(n), "pandiagonal", {.threads = 1}, "first");
    ASSERT_EQ(ref.sols.size(), 1u) << n;
    EXPECT_TRUE(oracle::is_square(ref.sols[0], "pandiagonal")) << nlohmann::json(ref.sols[0]).dump();
    EXPECT_LT(ref.r.nodes, 200000u) << n;
    const auto two = complete(empty(n), "pandiagonal", {.threads = 2, .split_depth = 3}, "first");
    ASSERT_EQ(two.sols.size(), 1u);
    EXPECT_EQ(two.sols[0], ref.sols[0]) << "first completion depends on the thread count, n = " << n;
  }
  // Several completions come from both phases without repeats.
  RunOptions ro;
  ro.limit = 5;
  const auto five = complete(empty(7), "pandiagonal", ro, "first");
  EXPECT_EQ(five.sols.size(), 5u);
  expect_valid(empty(7), five.sols, "pandiagonal");
}

// Every "odd rectangle" of a most-perfect square of order n (rows r, r+m and
// columns c, c+k, with m and k odd, wrapping) adds up to 2(n²+1); checked
// cell by cell here, apart from the engine's groups.
bool odd_rectangles_hold(const Grid& g) {
  const int n = static_cast<int>(g.size());
  for (int r = 0; r < n; ++r)
    for (int m = 1; m < n; m += 2)
      for (int c = 0; c < n; ++c)
        for (int k = 1; k < n; k += 2)
          if (g[r][c] + g[r][(c + k) % n] + g[(r + m) % n][c] + g[(r + m) % n][(c + k) % n] != 2 * (n * n + 1))
            return false;
  return true;
}

TEST(Complete, MostPerfectEightWithThreeGivensIsFoundBySearch) {
  // battery most-perfect/8x8_g05_0: took 208,410 nodes (3.7 s) before the
  // odd rectangles were added as hints; about 2,000 with them.  The bound
  // guards against that coming back; it is not a measurement.
  const Grid g = read_grid(fs::path(MAGIC_SOURCE_DIR) / "perf/puzzles/battery/most-perfect/8x8_g05_0.txt");
  const auto f = complete(g, "most-perfect", {.threads = 1}, "first");
  ASSERT_EQ(f.sols.size(), 1u);
  EXPECT_TRUE(oracle::is_square(f.sols[0], "most-perfect")) << nlohmann::json(f.sols[0]).dump();
  EXPECT_TRUE(oracle::keeps_givens(g, f.sols[0]));
  EXPECT_LT(f.r.nodes, 50000u);
  // The same grid as pandiagonal takes the same hints (most-perfect first).
  const auto p = complete(g, "pandiagonal", {.threads = 1}, "first");
  ASSERT_EQ(p.sols.size(), 1u);
  EXPECT_TRUE(oracle::is_square(p.sols[0], "pandiagonal"));
  EXPECT_TRUE(oracle::keeps_givens(g, p.sols[0]));
}

TEST(Complete, OddRectanglesAreImpliedByMostPerfect) {
  // The hints must lose nothing.  Count every completion of a most-perfect
  // 8x8 that keeps only its first column (the count has no hints; 48 today),
  // and check each one by hand: the odd rectangles hold in all of them.
  Grid full = empty(8);
  {
    const auto f = complete(empty(8), "most-perfect", {.threads = 1}, "first");
    ASSERT_EQ(f.sols.size(), 1u);
    full = f.sols[0];
  }
  Grid g = full;
  for (int c = 0; c < 64; ++c)
    if (c % 8 != 0) g[c / 8][c % 8] = 0;
  RunOptions ro;
  const auto all = complete(g, "most-perfect", ro);
  ASSERT_GE(all.sols.size(), 2u);
  EXPECT_TRUE(all.r.exhaustive);
  for (const Grid& s : all.sols) {
    EXPECT_TRUE(oracle::is_square(s, "most-perfect"));
    EXPECT_TRUE(odd_rectangles_hold(s)) << nlohmann::json(s).dump();
  }
  // First-completion mode (with the hints) asked for more than exist finds
  // the same set.
  RunOptions many;
  many.limit = 1000;
  auto firsts = complete(g, "most-perfect", many, "first").sols;
  auto counted = all.sols;
  std::sort(firsts.begin(), firsts.end());
  std::sort(counted.begin(), counted.end());
  EXPECT_EQ(firsts, counted);
  // The hand check can fail: two cells swapped break it.
  Grid swapped = full;
  std::swap(swapped[0][0], swapped[0][2]);
  EXPECT_TRUE(odd_rectangles_hold(full));
  EXPECT_FALSE(odd_rectangles_hold(swapped));
}

TEST(Complete, HintsDoNotChangeWhatIsCounted) {
  // The hints are for first completions only: a pandiagonal 4x4 with one
  // given still counts every completion, most-perfect or not.
  Grid g = empty(4);
  g[0][0] = 1;
  const auto f = complete(g, "pandiagonal");
  const auto ref = oracle::completions(g, "pandiagonal");
  EXPECT_EQ(f.r.unique, ref.size());
  EXPECT_TRUE(f.r.exhaustive);
}

TEST(Complete, SparseBatteryGridsOfEveryKind) {
  // A sample of perf/puzzles/battery (gen_battery.py): grids keeping 10 or
  // 20 % of a real square of the kind, orders 5..8, and every grid of none/
  // (orders 9..16 too: ten blanks and a moved given, proved by the tree).
  std::vector<fs::path> files;
  for (const std::string kind : {"magic", "semi", "pandiagonal", "associative", "most-perfect"})
    for (const fs::path& p : puzzle_files("battery/" + kind)) {
      const std::string name = p.filename().string();
      if (name[0] >= '5' && name[1] == 'x' && (name.find("_g10_0") != std::string::npos || name.find("_g20_1") != std::string::npos))
        files.push_back(p);
    }
  ASSERT_GE(files.size(), 20u);
  for (const fs::path& p : puzzle_files("battery/none")) files.push_back(p);
  for (const fs::path& p : files) {
    const Grid g = read_grid(p);
    const std::string kind = battery_kind(p);
    SCOPED_TRACE(p.string());
    const bool none = p.parent_path().filename() == "none";
    const auto f = complete(g, kind, {.threads = 1}, "first");
    if (none) {
      EXPECT_TRUE(f.sols.empty());
      EXPECT_TRUE(f.r.exhaustive);
      continue;
    }
    ASSERT_EQ(f.sols.size(), 1u);
    EXPECT_TRUE(oracle::is_square(f.sols[0], kind)) << nlohmann::json(f.sols[0]).dump();
    EXPECT_TRUE(oracle::keeps_givens(g, f.sols[0]));
    EXPECT_LT(f.r.nodes, 2000000u);
  }
}

// --- Determinism and the runner's invariants ----------------------------------

TEST(Complete, FirstCompletionIsTheSameForAnyThreadCount) {
  std::vector<Grid> puzzles{kSeed2, empty(4), empty(5), empty(6), empty(7)};
  for (const auto& p : puzzle_files("5x5")) puzzles.push_back(read_grid(p));
  for (const Grid& g : puzzles) {
    const auto ref = complete(g, "magic", {.threads = 1}, "first");
    ASSERT_EQ(ref.sols.size(), 1u);
    for (unsigned t : {2u, 8u})
      for (int d : {-1, 0, 3}) {
        const auto f = complete(g, "magic", {.threads = t, .split_depth = d}, "first");
        ASSERT_EQ(f.sols.size(), 1u);
        EXPECT_EQ(f.sols[0], ref.sols[0]) << nlohmann::json(g).dump() << " threads " << t << " depth " << d;
      }
  }
}

// --- Input ----------------------------------------------------------------------

TEST(CompleteInput, JsonAndTextFormsAgree) {
  const auto a = magic::parse_puzzle(std::string_view("[[1,15,14,4],[12,0,0,9],[8,0,0,5],[13,3,2,16]]"));
  const auto b = magic::parse_puzzle(std::string_view("1 15 14 4\n12 0 0 9\n\n8 . . 5   # comment\n13,3,2,16\n"));
  const auto c = magic::parse_puzzle(std::string_view("\xEF\xBB\xBF  [[1, 15, 14, 4],\r\n [12,0,0,9],[8,0,0,5],[13,3,2,16]]\n"));
  EXPECT_EQ(a.order, 4);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_EQ(a.cells, c.cells);
  EXPECT_EQ(a.cells[5], 0);
  EXPECT_EQ(a.cells[15], 16);
  // The spec takes either form too.
  const auto r = magic::run_spec({{"name", "complete"}, {"grid", "2 7 6\n9 5 1\n4 3 0"}}).result;
  EXPECT_EQ(r.unique, 1u);
}

std::string error_of(const std::string& text, const std::string& kind = "magic") {
  try {
    const auto p = magic::parse_puzzle(std::string_view(text));
    magic::check_puzzle(p, *magic::parse_square_kind(kind));
  } catch (const magic::SpecError& e) {
    return e.what();
  }
  return "";
}

TEST(CompleteInput, BadInputNamesTheProblem) {
  auto has = [](const std::string& msg, const std::string& part) {
    return msg.find(part) != std::string::npos && msg.find('\n') == std::string::npos;
  };
  EXPECT_TRUE(has(error_of(""), "empty input"));
  EXPECT_TRUE(has(error_of(" \n\t "), "empty input"));
  EXPECT_TRUE(has(error_of("[[1,2,3],[4,5,6]"), "malformed JSON"));
  EXPECT_TRUE(has(error_of("[[1,2,3],[4,5,6],[7,8]]"), "ragged"));
  EXPECT_TRUE(has(error_of("1 2 3\n4 5\n6 7 8"), "ragged"));
  EXPECT_TRUE(has(error_of("[[1,2,3],[4,5,6]]"), "not square"));
  EXPECT_TRUE(has(error_of("[[0,0],[0,0]]"), "order 2"));
  EXPECT_TRUE(has(error_of("[[0]]"), "order 1"));
  EXPECT_TRUE(has(error_of("[]"), "empty grid"));
  EXPECT_TRUE(has(error_of("[[]]"), "row 1 is empty"));
  std::string seventeen;  // one past the orders supported
  for (int r = 0; r < 17; ++r) {
    std::string row;
    for (int c = 0; c < 17; ++c) row += c ? ",0" : "0";
    seventeen += (r ? ",[" : "[[") + row + "]";
  }
  seventeen += "]";
  EXPECT_TRUE(has(error_of(seventeen), "order 17 is not supported (orders 3 to 16)"));
  EXPECT_TRUE(has(error_of("[[1.5,0,0],[0,0,0],[0,0,0]]"), "whole number"));
  EXPECT_TRUE(has(error_of("[[\"a\",0,0],[0,0,0],[0,0,0]]"), "row 1, column 1"));
  EXPECT_TRUE(has(error_of("[[null,0,0],[0,0,0],[0,0,0]]"), "whole number"));
  EXPECT_TRUE(has(error_of("[[[1],0,0],[0,0,0],[0,0,0]]"), "whole number"));
  EXPECT_TRUE(has(error_of("[1,2,3]"), "row 1 is not a list"));
  EXPECT_TRUE(has(error_of("{\"grid\":1}"), "whole number"));
  EXPECT_TRUE(has(error_of("1 2 x\n0 0 0\n0 0 0"), "'x'"));
  EXPECT_TRUE(has(error_of("1 2 3.0\n0 0 0\n0 0 0"), "whole number"));
  EXPECT_TRUE(has(error_of("0 0 99999999999999999999999\n0 0 0\n0 0 0"), "too large"));
  EXPECT_TRUE(has(error_of("[[0,0,99999999999999999999999],[0,0,0],[0,0,0]]"), "whole number"));
  EXPECT_TRUE(has(error_of("[[0,0,18446744073709551615],[0,0,0],[0,0,0]]"), "18446744073709551615 is far too large"));
  EXPECT_TRUE(has(error_of("[[0,0,-3],[0,0,0],[0,0,0]]"), "negative number -3 at row 1, column 3"));
  EXPECT_TRUE(has(error_of("[[0,0,10],[0,0,0],[0,0,0]]"), "above 9"));
  EXPECT_TRUE(has(error_of("[[0,0,0],[0,7,0],[0,0,7]]"), "7 is given twice"));
  EXPECT_TRUE(has(error_of("[[0,0,0],[9,8,0],[0,0,0]]"), "row 2 already sums to 17"));
  EXPECT_TRUE(has(error_of("[[9,0,0],[8,0,0],[0,0,0]]"), "column 1 already sums to 17"));
  EXPECT_TRUE(has(error_of("[[9,0,0],[0,8,0],[0,0,0]]"), "main diagonal"));
  EXPECT_TRUE(has(error_of("[[1,2,3],[0,0,0],[0,0,0]]"), "row 1 is full but sums to 6"));
  EXPECT_TRUE(has(error_of("[[0,0,9],[0,8,0],[0,0,0]]"), "anti-diagonal"));
  EXPECT_EQ(error_of("[[0,0,9],[0,8,0],[0,0,0]]", "semi"), "");  // semi has no diagonals
  EXPECT_TRUE(has(error_of("[[0,0,0],[0,0,0],[0,0,0]]", "most-perfect"), "divisible by 4"));
  EXPECT_EQ(error_of("[[0,0,0],[0,0,0],[0,0,0]]"), "");
}

TEST(CompleteInput, FuzzedInputNeverCrashes) {
  std::mt19937 rng(7);
  const std::string alphabet = "[[[]]],,,0123456789 0 0 \n\n-.e+\"x{}:nul\t\x01\xff";
  std::uint64_t accepted = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string s;
    const int len = static_cast<int>(rng() % 80);
    for (int j = 0; j < len; ++j) s += alphabet[rng() % alphabet.size()];
    if (i % 4 == 0) {  // near-valid: a random grid, then damaged
      const int n = 2 + static_cast<int>(rng() % 8);
      s.clear();
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
          const int v = rng() % 3 ? 0 : static_cast<int>(rng() % (n * n + 4)) - 1;
          s += std::to_string(v) + " ";
        }
        s += "\n";
      }
      if (rng() % 2) s[rng() % s.size()] = alphabet[rng() % alphabet.size()];
    }
    try {
      const auto p = magic::parse_puzzle(std::string_view(s));
      magic::check_puzzle(p, magic::SquareKind::Magic);
      ++accepted;
      if (p.order <= 4) {  // small enough to search to the end
        const auto r = magic::run_spec({{"name", "complete"}, {"grid", s}}, {.threads = 1}).result;
        EXPECT_TRUE(r.exhaustive);
      }
    } catch (const magic::SpecError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected " << e.what() << " for " << nlohmann::json(s).dump();
    }
  }
  EXPECT_GT(accepted, 0u);
}

TEST(CompleteInput, RejectsBadSpecs) {
  EXPECT_THROW(magic::run_spec({{"name", "complete"}}), std::exception);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", empty(3)}, {"kind", "bogus"}}),
               magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", empty(3)}, {"mode", "often"}}),
               magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", 5}}), magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", empty(17)}}), magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", empty(3)}, {"mode", "first"}, {"budget", -1}}),
               magic::SpecError);
  EXPECT_THROW(magic::run_spec({{"name", "complete"}, {"grid", empty(3)}, {"mode", "first"}, {"budget", "lots"}}),
               magic::SpecError);
}

}  // namespace
