// The figure family: its group (nauty, Schreier-Sims, Puget's constraints,
// canonical forms) against brute force, its counts against a hash set of
// canonical forms over every labelling, and against the families written
// by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "magic/core/error.hpp"
#include "figure/figure.hpp"
#include "figure/figure_algebra.hpp"
#include "magic/figure_catalog.hpp"
#include "figure/figure_compiled.hpp"
#include "figure/figure_group.hpp"
#include "magic/core/stop.hpp"
#include "magic/core/task.hpp"
#include "magic/runner.hpp"
#include "magic/spec.hpp"

namespace {

using magic::PointPerm;
using magic::StabilizerChain;

PointPerm perm(std::initializer_list<int> images) { return PointPerm(images.begin(), images.end()); }

// Every element of the group the generators make, by closure.
std::vector<PointPerm> closure(const std::vector<PointPerm>& gens, int n) {
  PointPerm id(static_cast<std::size_t>(n));
  std::iota(id.begin(), id.end(), std::uint8_t{0});
  std::set<PointPerm> seen{id};
  std::vector<PointPerm> all{id};
  for (std::size_t k = 0; k < all.size(); ++k)
    for (const auto& g : gens) {
      PointPerm h(static_cast<std::size_t>(n));
      for (int q = 0; q < n; ++q) h[static_cast<std::size_t>(q)] = g[all[k][static_cast<std::size_t>(q)]];
      if (seen.insert(h).second) all.push_back(h);
    }
  return all;
}

std::vector<int> natural(int n) {
  std::vector<int> b(static_cast<std::size_t>(n));
  std::iota(b.begin(), b.end(), 0);
  return b;
}

// The least image v o g over an element list, by brute force.
std::vector<int> least_by_closure(const std::vector<int>& v, const std::vector<PointPerm>& all) {
  std::vector<int> best;
  for (const auto& g : all) {
    std::vector<int> img(v.size());
    for (std::size_t q = 0; q < v.size(); ++q) img[q] = v[g[q]];
    if (best.empty() || img < best) best = img;
  }
  return best;
}

magic::FigureSpec builtin(const std::string& name) {
  return magic::figure_spec_from_json({{"name", "figure"}, {"builtin", name}});
}

TEST(FigureGroup, SchreierSimsFindsTheOrdersOfKnownGroups) {
  // S6 from a transposition and a 6-cycle; A5 from two 3-cycles; the
  // dihedral group of a 7-gon; the trivial group.
  EXPECT_EQ(StabilizerChain(6, {perm({1, 0, 2, 3, 4, 5}), perm({1, 2, 3, 4, 5, 0})}, natural(6)).order(), 720u);
  EXPECT_EQ(StabilizerChain(5, {perm({1, 2, 0, 3, 4}), perm({0, 1, 3, 4, 2})}, natural(5)).order(), 60u);
  EXPECT_EQ(StabilizerChain(7, {perm({1, 2, 3, 4, 5, 6, 0}), perm({0, 6, 5, 4, 3, 2, 1})}, natural(7)).order(), 14u);
  EXPECT_EQ(StabilizerChain(4, {}, natural(4)).order(), 1u);
  // Any base order: the same group.
  EXPECT_EQ(StabilizerChain(6, {perm({1, 0, 2, 3, 4, 5}), perm({1, 2, 3, 4, 5, 0})}, {5, 2, 0, 4, 1, 3}).order(),
            720u);
  // S8 is 40320: a chain built by sifting, not by listing.
  EXPECT_EQ(StabilizerChain(8, {perm({1, 0, 2, 3, 4, 5, 6, 7}), perm({1, 2, 3, 4, 5, 6, 7, 0})}, natural(8)).order(),
            40320u);
}

TEST(FigureGroup, LeastImageIsTheLeastOfAllImages) {
  std::mt19937 rng(7);
  for (const std::string name : {"pentagram", "star-8-3", "square-4", "cube-3", "triangle-4"}) {
    const magic::FigureSpec f = builtin(name);
    std::vector<PointPerm> gens = f.symmetry == magic::FigureSymmetry::Generators
                                      ? std::vector<PointPerm>{}
                                      : magic::incidence_automorphisms(f.n_points(), f.lines);
    for (const auto& g : f.generators) gens.emplace_back(g.begin(), g.end());
    const StabilizerChain chain(f.n_points(), gens, natural(f.n_points()));
    const auto all = closure(gens, f.n_points());
    ASSERT_EQ(chain.order(), all.size()) << name;
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<int> v(static_cast<std::size_t>(f.n_points()));
      std::iota(v.begin(), v.end(), 1);
      std::shuffle(v.begin(), v.end(), rng);
      EXPECT_EQ(chain.least_image(v), least_by_closure(v, all)) << name;
    }
  }
}

TEST(FigureGroup, NautyFindsEveryAutomorphismOfTheIncidence) {
  const std::map<std::string, std::uint64_t> orders = {{"square-3", 8},   {"hexagon-3", 12}, {"cube-3", 48},
                                                       {"triangle-3", 6}, {"triangle-4", 48}, {"pentagram", 120},
                                                       {"hexagram", 48},  {"star-7-2", 14}};
  for (const auto& [name, order] : orders) {
    const magic::FigureSpec f = builtin(name);
    const auto gens = magic::incidence_automorphisms(f.n_points(), f.lines);
    for (const auto& g : gens) EXPECT_TRUE(magic::preserves_lines(g, f.lines)) << name;
    EXPECT_EQ(StabilizerChain(f.n_points(), gens, natural(f.n_points())).order(), order) << name;
  }
  // Brute force over every permutation of the points, for the small ones.
  for (const std::string name : {"square-3", "triangle-4", "triangle-3"}) {
    const magic::FigureSpec f = builtin(name);
    PointPerm p(static_cast<std::size_t>(f.n_points()));
    std::iota(p.begin(), p.end(), std::uint8_t{0});
    std::uint64_t n = 0;
    do n += magic::preserves_lines(p, f.lines);
    while (std::next_permutation(p.begin(), p.end()));
    EXPECT_EQ(n, orders.at(name)) << name;
  }
}

// Puget: with the pairs of a chain on any base, exactly one arrangement
// of distinct values per orbit is left.
TEST(FigureGroup, PugetPairsLeaveOneLabellingPerOrbit) {
  for (const std::string name : {"square-3", "triangle-4", "triangle-3"}) {
    const magic::FigureSpec f = builtin(name);
    const int n = f.n_points();
    const auto gens = magic::incidence_automorphisms(n, f.lines);
    const auto all = closure(gens, n);
    for (const std::vector<int>& base : {natural(n), std::vector<int>{4, 0, 8, 1, 2, 3, 5, 6, 7}}) {
      if (static_cast<int>(base.size()) != n) continue;
      const auto pairs = StabilizerChain(n, gens, base).less_than_pairs();
      std::vector<int> v(static_cast<std::size_t>(n));
      std::iota(v.begin(), v.end(), 1);
      std::set<std::vector<int>> orbits;
      std::uint64_t kept = 0;
      do {
        bool ok = true;
        for (const auto& [a, b] : pairs) ok = ok && v[static_cast<std::size_t>(a)] < v[static_cast<std::size_t>(b)];
        if (!ok) continue;
        ++kept;
        orbits.insert(least_by_closure(v, all));
      } while (std::next_permutation(v.begin(), v.end()));
      std::uint64_t fact = 1;
      for (int i = 2; i <= n; ++i) fact *= static_cast<std::uint64_t>(i);
      EXPECT_EQ(kept, fact / all.size()) << name;
      EXPECT_EQ(orbits.size(), kept) << name << ": two kept labellings in one orbit";
    }
  }
}

// ---- determined points (figure_algebra.hpp) ---------------------------------

std::uint64_t all_below(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

// The value a determination's formula gives for labelling v with sum S,
// with every point outside `open` placed; nullopt when d does not divide.
std::optional<std::int64_t> formula_value(const magic::Determination& d, const magic::FigureSpec& f,
                                          const std::vector<int>& v, int S, std::uint64_t open) {
  std::int64_t num = 0;
  for (const auto& [l, lambda] : d.lambda) {
    std::int64_t part = 0;
    for (int p : f.lines[static_cast<std::size_t>(l)])
      if (!(open >> p & 1)) part += v[static_cast<std::size_t>(p)];
    num += lambda * (S - part);
  }
  if (num % d.d != 0) return std::nullopt;
  return num / d.d;
}

TEST(FigureAlgebra, TheCentreOfTheThreeByThreeSquareIsAThirdOfTheSum) {
  const magic::FigureSpec f = builtin("square-3");
  const auto det = magic::determined_points(f.lines, all_below(f.n_lines()), all_below(9), true);
  ASSERT_EQ(det.points.size(), 1u);
  EXPECT_EQ(det.points[0].point, 4);
  EXPECT_EQ(det.points[0].d, 3);
  const std::vector<int> lo_shu = {2, 7, 6, 9, 5, 1, 4, 3, 8};
  EXPECT_EQ(formula_value(det.points[0], f, lo_shu, 15, all_below(9)), 5);
  EXPECT_TRUE(det.complete);
  EXPECT_FALSE(det.independent) << "rows and columns both sum to the whole square";
  // One line at a time sees nothing before a line is down to one point.
  EXPECT_TRUE(magic::determined_points(f.lines, all_below(f.n_lines()), all_below(9), false).points.empty());
}

// Every formula gives the labelled value on real solutions, for random sets
// of open points; single lines find a subset of what the algebra finds.
TEST(FigureAlgebra, FormulasHoldOnSolutionsOfEveryFigure) {
  std::mt19937 rng(44);
  for (const std::string name : {"square-3", "square-4", "triangle-4", "hexagon-3", "cube-3", "star-7-2", "star-8-3",
                                 "star-10-3"}) {
    const magic::FigureSpec f = builtin(name);
    std::vector<nlohmann::json> sols;
    magic::RunOptions ro{.threads = 1};
    ro.solutions = 3;
    ro.on_solution = [&](const nlohmann::json& j) { sols.push_back(j); };
    magic::run_spec({{"name", "figure"}, {"builtin", name}}, ro);
    ASSERT_FALSE(sols.empty()) << name;
    std::size_t found = 0;
    for (const auto& sol : sols) {
      const std::vector<int> v = sol.at("points").get<std::vector<int>>();
      const int S = sol.at("sum").get<int>();
      for (int trial = 0; trial < 40; ++trial) {
        std::uint64_t open = 0;
        for (int p = 0; p < f.n_points(); ++p)
          if (rng() % 3 != 0) open |= 1ull << p;
        const auto det = magic::determined_points(f.lines, all_below(f.n_lines()), open, true);
        std::uint64_t seen = 0;
        for (const auto& d : det.points) {
          EXPECT_TRUE(open >> d.point & 1) << name;
          EXPECT_FALSE(seen >> d.point & 1) << name << ": point " << d.point << " twice";
          seen |= 1ull << d.point;
          EXPECT_EQ(formula_value(d, f, v, S, open), v[static_cast<std::size_t>(d.point)]) << name << " point " << d.point;
        }
        found += det.points.size();
        for (const auto& d : magic::determined_points(f.lines, all_below(f.n_lines()), open, false).points)
          EXPECT_TRUE(seen >> d.point & 1) << name << ": a single line found point " << d.point << ", the algebra not";
      }
    }
    EXPECT_GT(found, 0u) << name << ": nothing was determined, so nothing was tested";
  }
}

// A figure where a line's last point is found through another line's
// last point in the same step, both through the free point: its single-line
// formula reads a point the step places after the free point, so it cannot
// narrow the free point's candidates (the first version did, and found 10
// of 164).  Found by random figures; the brute-force test has it too.
const nlohmann::json kChainedLines = {
    {"name", "figure"},
    {"figure",
     {{"points", {"a", "b", "c", "d", "e", "f", "g"}},
      {"lines", {{"c", "d", "e", "g"}, {"b", "d", "f", "g"}, {"a", "b", "c", "f"}}},
      {"numbers", "1..9"}}}};

// Past the elimination's budget a figure gets single lines only: the same
// counts and digest, by another order and other pruning.
TEST(FigureAlgebra, SingleLinesAloneCountTheSame) {
  const std::vector<nlohmann::json> specs = {
      {{"name", "figure"}, {"builtin", "star-9-3"}},   {{"name", "figure"}, {"builtin", "star-8-2"}},
      {{"name", "figure"}, {"builtin", "hexagon-3"}},  {{"name", "figure"}, {"builtin", "cube-3"}},
      {{"name", "figure"}, {"builtin", "square-4"}},   {{"name", "figure"}, {"builtin", "triangle-4"}},
      {{"name", "figure"}, {"builtin", "square-3"}},   {{"name", "figure"}, {"builtin", "pentagram"}, {"equal_lines", 4}},
      {{"name", "figure"}, {"builtin", "square-3"}, {"numbers", "1..10"}},
      kChainedLines,
  };
  for (const auto& spec : specs) {
    const magic::RunOptions ro{.threads = 2};
    const auto with = magic::run(magic::figure_problem(magic::figure_spec_from_json(spec), true), ro);
    const auto without = magic::run(magic::figure_problem(magic::figure_spec_from_json(spec), false), ro);
    EXPECT_GT(with.unique, 0u) << spec.dump();
    EXPECT_EQ(with.unique, without.unique) << spec.dump();
    EXPECT_EQ(with.total, without.total) << spec.dump();
    EXPECT_EQ(with.by_key, without.by_key) << spec.dump();
    EXPECT_EQ(with.digest, without.digest) << spec.dump();
  }
}

// ---- counts against brute force ----------------------------------------------

struct Brute {
  std::uint64_t unique = 0, total = 0;
  std::map<std::int64_t, std::uint64_t> by_sum;
};

// Every labelling of the figure with distinct numbers, its lines checked
// directly; uniques by a hash set of least images under the group.
Brute brute_force(const magic::FigureSpec& f, const std::vector<PointPerm>& group) {
  const int n = f.n_points(), L = f.n_lines(), k = f.k();
  std::vector<int> v(static_cast<std::size_t>(n));
  std::vector<bool> used(f.numbers.size());
  std::set<std::vector<int>> seen;
  Brute out;
  auto leaf = [&] {
    std::map<int, int> count;
    for (const auto& l : f.lines) {
      int s = 0;
      for (int p : l) s += v[static_cast<std::size_t>(p)];
      ++count[s];
    }
    for (const auto& [s, c] : count)
      if (c >= k && (!f.sum || s == *f.sum)) {
        ++out.total;
        if (seen.insert(least_by_closure(v, group)).second) ++out.by_sum[s];
      }
    (void)L;
  };
  auto place = [&](auto& self, int p) -> void {
    if (p == n) return leaf();
    for (std::size_t i = 0; i < f.numbers.size(); ++i) {
      if (used[i]) continue;
      used[i] = true;
      v[static_cast<std::size_t>(p)] = f.numbers[i];
      self(self, p + 1);
      used[i] = false;
    }
  };
  place(place, 0);
  out.unique = seen.size();
  return out;
}

std::vector<PointPerm> group_of(const nlohmann::json& problem, int n) {
  std::vector<PointPerm> gens;
  for (const auto& g : problem.at("group").at("generators")) gens.emplace_back(g.begin(), g.end());
  return closure(gens, n);
}

TEST(Figure, CountsEqualAHashSetOfCanonicalFormsOverEveryLabelling) {
  auto no_sym = magic::builtin_figure("pentagram");
  no_sym.erase("symmetry");  // the incidence group: S5, order 120
  const std::vector<nlohmann::json> specs = {
      {{"name", "figure"}, {"builtin", "square-3"}},
      {{"name", "figure"}, {"builtin", "triangle-3"}},
      {{"name", "figure"}, {"builtin", "triangle-3"}, {"numbers", "1..8"}},
      {{"name", "figure"}, {"builtin", "triangle-4"}},
      {{"name", "figure"}, {"builtin", "pentagram"}, {"equal_lines", 4}},
      {{"name", "figure"}, {"figure", no_sym}, {"equal_lines", 4}},
      {{"name", "figure"}, {"builtin", "square-3"}, {"equal_lines", 6}},
      // docs/figures.md's worked example: a perimeter magic pentagon.
      {{"name", "figure"},
       {"figure",
        {{"points", {"A", "B", "C", "D", "E", "ab", "bc", "cd", "de", "ea"}},
         {"lines", {{"A", "ab", "B"}, {"B", "bc", "C"}, {"C", "cd", "D"}, {"D", "de", "E"}, {"E", "ea", "A"}}},
         {"numbers", "1..10"}}}},
      // Lines of three lengths, a subset of the numbers, every sum.
      {{"name", "figure"},
       {"figure",
        {{"points", {"a", "b", "c", "d", "e", "f", "g"}},
         {"lines", {{"a", "b", "c"}, {"c", "d", "e"}, {"e", "f", "g", "a"}, {"b", "d", "f"}}},
         {"numbers", "1..9"}}}},
      kChainedLines,
  };
  for (const auto& spec : specs) {
    const auto run = magic::run_spec(spec, {.threads = 2});
    const magic::FigureSpec f = magic::figure_spec_from_json(spec);
    const Brute b = brute_force(f, group_of(run.problem, f.n_points()));
    EXPECT_EQ(run.result.unique, b.unique) << spec.dump();
    EXPECT_EQ(run.result.total, b.total) << spec.dump();
    EXPECT_EQ(run.result.by_key, b.by_sum) << spec.dump();
    EXPECT_GT(b.unique, 0u) << spec.dump() << ": an oracle with nothing to find";
    // The same with every labelling emitted and the canonical ones kept.
    nlohmann::json all = spec;
    all["symmetry_breaking"] = false;
    const auto images = magic::run_spec(all, {.threads = 2}).result;
    EXPECT_EQ(images.unique, b.unique) << spec.dump();
    EXPECT_EQ(images.digest, run.result.digest) << spec.dump();
  }
}

// Random small figures (lines of 2..4 points, every sum, two spare
// numbers): the search with the algebra and with single lines alone, each
// against brute force.  The random figures found kChainedLines.
TEST(Figure, RandomFiguresEqualBruteForce) {
  std::mt19937 rng(4401);
  int tried = 0;
  std::uint64_t found = 0;
  while (tried < 40) {
    const int P = 5 + static_cast<int>(rng() % 3), L = 3 + static_cast<int>(rng() % 3);
    nlohmann::json points = nlohmann::json::array(), lines = nlohmann::json::array();
    for (int p = 0; p < P; ++p) points.push_back(std::string(1, static_cast<char>('a' + p)));
    std::vector<int> on(static_cast<std::size_t>(P));
    for (int l = 0; l < L; ++l) {
      std::set<int> pts;
      while (pts.size() < 2 + rng() % 3) pts.insert(static_cast<int>(rng() % static_cast<unsigned>(P)));
      nlohmann::json line = nlohmann::json::array();
      for (int p : pts) line.push_back(points[static_cast<std::size_t>(p)]), ++on[static_cast<std::size_t>(p)];
      lines.push_back(line);
    }
    std::set<nlohmann::json> distinct(lines.begin(), lines.end());
    if (distinct.size() != lines.size() || std::count(on.begin(), on.end(), 0) > 0) continue;  // not a valid figure
    ++tried;
    const nlohmann::json spec{{"name", "figure"},
                              {"figure", {{"points", points}, {"lines", lines}, {"numbers", "1.." + std::to_string(P + 2)}}}};
    const magic::FigureSpec f = magic::figure_spec_from_json(spec);
    const auto run = magic::run_spec(spec, {.threads = 2});
    const Brute b = brute_force(f, group_of(run.problem, f.n_points()));
    EXPECT_EQ(run.result.unique, b.unique) << spec.dump();
    EXPECT_EQ(run.result.total, b.total) << spec.dump();
    EXPECT_EQ(run.result.by_key, b.by_sum) << spec.dump();
    const auto single = magic::run(magic::figure_problem(f, false), {.threads = 2});
    EXPECT_EQ(single.unique, b.unique) << spec.dump() << " (single lines)";
    EXPECT_EQ(single.digest, run.result.digest) << spec.dump() << " (single lines)";
    found += b.unique;
  }
  EXPECT_GT(found, 40u) << "the random figures had almost nothing to find";
}

// ---- against the families written by hand ---------------------------------

// by_key too for a star (by_sum); a square's by_key is something else.
void expect_same_as(const nlohmann::json& figure, const nlohmann::json& family, bool digest = true) {
  const auto a = magic::run_spec(figure, {.threads = 2}).result;
  const auto b = magic::run_spec(family, {.threads = 2}).result;
  EXPECT_EQ(a.unique, b.unique) << figure.dump();
  EXPECT_EQ(a.total, b.total) << figure.dump();
  if (family.at("name") == "star") {
    EXPECT_EQ(a.by_key, b.by_key) << figure.dump();
  }
  if (digest) {
    EXPECT_EQ(a.digest, b.digest) << figure.dump();
  }
}

TEST(Figure, StarsAgreeWithTheStarFamilyToTen) {
  expect_same_as({{"name", "figure"}, {"builtin", "pentagram"}, {"equal_lines", 4}},
                 {{"name", "star"}, {"n", 5}, {"equal_lines", 4}});
  expect_same_as({{"name", "figure"}, {"builtin", "pentagram"}, {"numbers", "1..12"}},
                 {{"name", "star"}, {"n", 5}, {"numbers", "1..12"}});
  expect_same_as({{"name", "figure"}, {"builtin", "hexagram"}}, {{"name", "star"}, {"n", 6}});
  expect_same_as({{"name", "figure"}, {"builtin", "star-7-2"}, {"equal_lines", 6}},
                 {{"name", "star"}, {"n", 7}, {"equal_lines", 6}});
  for (int n = 5; n <= 10; ++n)
    expect_same_as({{"name", "figure"}, {"builtin", "star-" + std::to_string(n) + "-2"}},
                   {{"name", "star"}, {"n", n}}, n != 5);  // n = 5: the star family keeps the documents' labels
}

TEST(Figure, SlowStarsAgreeWithTheStarFamilyToThirteen) {
  for (int n = 11; n <= 13; ++n)
    expect_same_as({{"name", "figure"}, {"builtin", "star-" + std::to_string(n) + "-2"}},
                   {{"name", "star"}, {"n", n}});
}

TEST(Figure, TheSquareAgreesWithTheSquareFamily) {
  // Same counts; the square family hashes one byte a cell, so not its digest.
  expect_same_as({{"name", "figure"}, {"builtin", "square-4"}}, {{"name", "square"}, {"order", 4}}, false);
  expect_same_as({{"name", "figure"}, {"builtin", "square-3"}}, {{"name", "square"}, {"order", 3}}, false);
}

// ---- the spec -----------------------------------------------------------------

TEST(Figure, AResultsProblemReadsBackAsTheSameProblem) {
  for (const std::string name : {"hexagon-3", "pentagram", "cube-3"}) {
    const nlohmann::json spec{{"name", "figure"}, {"builtin", name}, {"equal_lines", name == "pentagram" ? 4 : 0}};
    nlohmann::json s = spec;
    if (name != "pentagram") s.erase("equal_lines");
    const nlohmann::json problem = magic::describe_spec(s).problem;
    EXPECT_EQ(magic::describe_spec(problem).problem, problem) << name;
  }
}

TEST(Figure, EveryBuiltinReads) {
  const auto names = magic::figure_builtin_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "star-13-5"), 1);
  EXPECT_EQ(std::count(names.begin(), names.end(), "star-24-11"), 1);
  for (const auto& name : names) {
    const magic::FigureSpec f = builtin(name);
    EXPECT_GT(f.n_points(), 0) << name;
  }
  EXPECT_THROW(builtin("star-10-5"), magic::SpecError);  // {10/5} is not a star
  EXPECT_THROW(builtin("star-07-2"), magic::SpecError);
}

// data/figures/ holds every built-in as a file (scripts/figure-catalog.sh):
// the file reads as the same figure.
TEST(Figure, TheCatalogFilesAreTheBuiltins) {
  const std::filesystem::path dir = std::filesystem::path(MAGIC_SOURCE_DIR) / "data" / "figures";
  for (const auto& name : magic::figure_builtin_names()) {
    std::ifstream in(dir / (name + ".json"));
    ASSERT_TRUE(in) << name << ": run scripts/figure-catalog.sh";
    const nlohmann::json file = nlohmann::json::parse(in);
    const nlohmann::json from_file = magic::describe_spec({{"name", "figure"}, {"figure", file}}).problem;
    const nlohmann::json builtin = magic::describe_spec({{"name", "figure"}, {"builtin", name}}).problem;
    EXPECT_EQ(from_file.at("figure"), builtin.at("figure")) << name;
    EXPECT_EQ(from_file.at("group"), builtin.at("group")) << name;
    EXPECT_TRUE(std::filesystem::exists(dir / (name + ".svg"))) << name;
  }
}

TEST(Figure, BadFiguresAreRefusedWithTheirReason) {
  const nlohmann::json ok = nlohmann::json::parse(R"({"points": ["a", "b", "c"], "lines": [["a", "b"], ["b", "c"]]})");
  auto with = [&](const char* key, nlohmann::json v) {
    nlohmann::json f = ok;
    f[key] = std::move(v);
    return f;
  };
  const std::vector<std::pair<nlohmann::json, std::string>> bad = {
      {with("lines", nlohmann::json::parse(R"([["a", "x"]])")), "unknown point 'x'"},
      {with("lines", nlohmann::json::parse(R"([["a", "b"], []])")), "line 2 is empty"},
      {with("lines", nlohmann::json::parse(R"([["a"], ["b", "c"]])")), "needs at least two"},
      {with("lines", nlohmann::json::parse(R"([["a", "b", "a"], ["b", "c"]])")), "point 'a' twice"},
      {with("lines", nlohmann::json::parse(R"([["a", "b"], ["b", "a"], ["b", "c"]])")), "repeats line 1"},
      {with("lines", nlohmann::json::parse(R"([["a", "b"]])")), "'c' is on no line"},
      {with("numbers", "1..2"), "only 2 numbers"},
      {with("numbers", "0..5"), "must be positive"},
      {with("points", {"a", "b", "a"}), "named twice"},
      {with("colour", "red"), "unknown field 'colour'"},
      {with("equal_lines", 1), "equal lines must be 2..2"},
      {with("symmetry", nlohmann::json::parse(R"({"generators": [["b", "a", "c"]]})")), "does not map lines"},
      {with("symmetry", nlohmann::json::parse(R"({"generators": [["a", "a", "c"]]})")), "not a permutation"},
      {with("symmetry", "mirror"), "unknown \"symmetry\""},
      {with("points", nlohmann::json::array()), "non-empty list"},
      {nlohmann::json::array(), "a JSON object"},
  };
  for (const auto& [figure, why] : bad) {
    try {
      (void)magic::describe_spec({{"name", "figure"}, {"figure", figure}});
      ADD_FAILURE() << "accepted " << figure.dump();
    } catch (const magic::SpecError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what() << " (wanted: " << why << ")";
    }
  }
  // Beyond the engine's limits: 65 points.
  nlohmann::json big{{"points", nlohmann::json::array()}, {"lines", nlohmann::json::array()}};
  for (int i = 0; i < 65; ++i) big["points"].push_back("p" + std::to_string(i));
  big["lines"].push_back({"p0", "p1"});
  EXPECT_THROW((void)magic::describe_spec({{"name", "figure"}, {"figure", big}}), magic::SpecError);
}

// ---- compiled plans (figure_compiled.hpp) -------------------------------------

// cmake -DMAGIC_COMPILED_PLANS=OFF builds none.
#define SKIP_WITHOUT_COMPILED_PLANS() \
  if (magic::FigureCompiler::all().empty()) GTEST_SKIP() << "built with MAGIC_COMPILED_PLANS=OFF"

TEST(FigureCompiled, PlansAreCurrent) {
  SKIP_WITHOUT_COMPILED_PLANS();
  std::vector<std::string> names;
  for (const magic::FigureCompiled* c : magic::FigureCompiler::all()) names.emplace_back(c->name);
  std::ifstream in(std::string(MAGIC_SOURCE_DIR) + "/engine/src/families/figure/figure_compiled_plans.inc");
  ASSERT_TRUE(in);
  const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(committed, magic::FigureCompiler::file(names))
      << "the search's plans have changed: run scripts/figure-plans.sh and build again";
  // A figure with several plans (four of the pentagram's five lines equal)
  // has no one plan to compile.
  const magic::FigureProblem four =
      magic::figure_problem(magic::figure_spec_from_json({{"builtin", "pentagram"}, {"equal_lines", 4}}));
  try {
    (void)magic::FigureCompiler::source(four, "T");
    ADD_FAILURE() << "compiled a figure with several plans";
  } catch (const magic::SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("only a figure with one plan compiles"), std::string::npos) << e.what();
  }
}

// Each compiled plan against the general search on the same tasks: the
// same nodes and the same labellings, task by task.  A sample of a deeper
// split's tasks, spread over the whole search, keeps the big stars quick.
TEST(FigureCompiled, SearchesNodeForNodeAsTheGeneralSearch) {
  SKIP_WITHOUT_COMPILED_PLANS();
  std::uint64_t found = 0;
  for (const magic::FigureCompiled* c : magic::FigureCompiler::all()) {
    const magic::FigureProblem compiled = magic::figure_problem(builtin(c->name)),
                               general = magic::figure_problem(builtin(c->name), true, false);
    ASSERT_STREQ(compiled.compiled_plan(), c->name);
    ASSERT_EQ(general.compiled_plan(), nullptr);
    std::vector<magic::FigureState> tasks;
    compiled.cut(magic::default_split_depth(compiled) + 2,
                    [&](const magic::FigureState& s, bool) { tasks.push_back(s); });
    ASSERT_GT(tasks.size(), 100u) << c->name;
    const magic::Stop no_stop;
    std::uint64_t nodes = 0;
    for (std::size_t i = 0; i < tasks.size() && nodes < 2'000'000; i += tasks.size() / 97) {
      magic::TaskContext<magic::FigureProblem> a(compiled, {compiled.emits()}, no_stop);
      magic::TaskContext<magic::FigureProblem> b(general, {general.emits()}, no_stop);
      compiled.solve(tasks[i], a);
      general.solve(tasks[i], b);
      ASSERT_EQ(a.nodes, b.nodes) << c->name << " task " << i;
      ASSERT_EQ(a.record.unique, b.record.unique) << c->name << " task " << i;
      ASSERT_EQ(a.record.total, b.record.total) << c->name << " task " << i;
      ASSERT_EQ(a.record.by_key, b.record.by_key) << c->name << " task " << i;
      ASSERT_EQ(a.record.digest, b.record.digest) << c->name << " task " << i;
      nodes += a.nodes;
      found += a.record.unique;
    }
  }
  EXPECT_GT(found, 0u);  // the sample met labellings
}

// A figure whose plan equals a compiled one runs it; any other figure, or a
// compiled figure under other numbers, runs the general search.
TEST(FigureCompiled, OnlyTheSamePlanRunsCompiled) {
  SKIP_WITHOUT_COMPILED_PLANS();
  EXPECT_STREQ(magic::figure_problem(builtin("star-12-2")).compiled_plan(), "star-12-2");
  EXPECT_EQ(magic::figure_problem(builtin("star-12-3")).compiled_plan(), nullptr);
  EXPECT_EQ(magic::figure_problem(builtin("star-12-2"), false).compiled_plan(), nullptr);
  const auto shifted = magic::figure_spec_from_json({{"builtin", "star-12-2"}, {"numbers", "2..25"}});
  EXPECT_EQ(magic::figure_problem(shifted).compiled_plan(), nullptr);
}

}  // namespace
