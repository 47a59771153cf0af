#pragma once
// Orders 9..16, first completions: a completion built from digit squares
// (construct_completion, complete_construct.cpp) and the local search that
// runs after each restart's tree (complete.hpp's walk).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "complete/complete_propagation.hpp"

namespace magic {

template <int N, int G>
class CompleteLocalSearch : public CompleteGrid<N, G> {
  using Grid = CompleteGrid<N, G>;

 public:
  using typename Grid::Mask;
  using typename Grid::Solution;
  using typename Grid::State;
  using typename Grid::Value;
  using Grid::kCells;

  explicit CompleteLocalSearch(const CompleteSpec& spec) : Grid(spec) {
    if (!spec.exhaustive && kAnneals) kind_groups_ = check_puzzle(spec.puzzle, spec.kind);
    paired_ = spec.kind == SquareKind::Associative;
  }

 protected:
  using Grid::cell_groups_;
  using Grid::group_cells_;
  using Grid::is_completion;
  using Grid::n_cell_groups_;
  using Grid::n_groups_;
  using Grid::seed_;
  using Grid::spec_;

  // Orders 9 on: each restart runs the local search after its tree, with
  // this many steps per node of the tree's attempt.  A node with 128-bit
  // masks (orders 9..11) costs about a third of what it did with two 64-bit
  // words, when 64 steps were tuned, so it buys a quarter of the steps: the
  // local search's share of the time stays about as it was.  Fewer steps
  // favour dense grids (the tree finds them), more favour sparse ones
  // (associative 16x16 needs 64).
  static constexpr bool kAnneals = N >= 9;
  static constexpr std::uint64_t kAnnealSteps = std::is_same_v<Mask, bits::U128> ? 16 : 64;

  // ---- Local search (orders 9..16, first completions) ----------------------
  //
  // The tree's restarts alone find a first completion of a sparse grid of
  // order 9 or more only by luck.  Between them runs a local search: the
  // blanks hold a permutation of the values still free, the cost is the sum
  // of |sum - target| over the kind's groups, and a step swaps the values
  // of two blanks.  A step picks a group off its sum and a blank c in it,
  // and swaps c with the blank that holds the value c would need to put the
  // group right (else, one time in eight or when no blank holds it, with a
  // random blank); it keeps a swap that does not raise the cost, and one
  // that does with probability exp(-rise / T), T falling linearly to 0
  // over the attempt (simulated annealing).  It finds completions, never
  // proves there is none: that is the tree's.  Seeded by the grid and the
  // attempt, so the first completion depends only on the input.
  struct Rng {
    std::uint64_t x;
    std::uint64_t next() {
      x += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  };
  struct Annealing {
    std::array<int, kCells> at{};          // the value by cell
    std::array<int, kCells + 1> where{};   // the cell by value
    std::array<int, kCells> slot{};        // a blank's index in `blanks`, or -1 (a given)
    std::vector<int> blanks;
    std::vector<std::vector<int>> group_blanks;
    std::vector<int> err;                  // each group's sum minus its target
    long cost = 0;
    bool paired = false;                   // mirrored blanks move in pairs (fill_paired)
  };
  static constexpr int kAnnealRandomSwap = 8;  // one step in 8 swaps with a random blank

  Annealing anneal_start(const State& s, Rng& rng) const {
    Annealing a;
    for (int c = 0; c < kCells; ++c) a.at[c] = s.v[c];
    a.paired = paired_ && fill_paired(s, a, rng);
    if (!a.paired) {
      a.blanks.clear();
      for (int c = 0; c < kCells; ++c) a.at[c] = s.v[c];
      fill_plain(s, a, rng);
    }
    a.slot.fill(-1);
    for (std::size_t i = 0; i < a.blanks.size(); ++i) a.slot[a.blanks[i]] = static_cast<int>(i);
    for (int c = 0; c < kCells; ++c) a.where[a.at[c]] = c;
    a.group_blanks.resize(static_cast<std::size_t>(n_groups_));
    a.err.assign(static_cast<std::size_t>(n_groups_), 0);
    for (int g = 0; g < n_groups_; ++g) {
      a.err[g] = -s.rest[g];
      for (Mask e = group_cells_[g] & s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        a.err[g] += a.at[c];
        if (a.slot[c] >= 0) a.group_blanks[g].push_back(c);
      }
      a.cost += std::abs(a.err[g]);
    }
    return a;
  }

  // Fisher-Yates, with the search's own generator (determinism).
  static void shuffle(std::vector<int>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<int>(i))]);
  }

  // The blanks' first values: the free values in random order.
  static void fill_plain(const State& s, Annealing& a, Rng& rng) {
    std::vector<int> values;
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) a.blanks.push_back(bits::low(e));
    for (Mask e = s.free; bits::any(e); e = bits::drop_low(e)) values.push_back(bits::low(e) + 1);
    shuffle(values, rng);
    for (std::size_t i = 0; i < a.blanks.size(); ++i) a.at[a.blanks[i]] = values[i];
  }

  // Associative squares: a blank whose mirror cell is given (and the
  // centre) gets its forced value and never moves; mirrored blanks get
  // complementary pairs of the free values, in random order and
  // orientation, and move in pairs (anneal), so that the pair groups stay
  // met.  false when the free values do not pair up (then fill_plain).
  static bool fill_paired(const State& s, Annealing& a, Rng& rng) {
    Mask free = s.free;
    std::vector<int> pairs;  // c < mirror(c), both blank
    const auto take = [&](int c, int v) {
      if (!bits::test(free, v - 1)) return false;
      a.at[c] = v;
      free &= ~bits::one<Mask>(v - 1);
      return true;
    };
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e), m = kCells - 1 - c;
      if (!bits::test(s.blank, m)) {
        if (!take(c, kCells + 1 - s.v[m])) return false;
      } else if (c == m) {
        if (!take(c, (kCells + 1) / 2)) return false;
      } else if (c < m) {
        pairs.push_back(c);
      }
    }
    std::vector<int> lows;
    for (Mask e = free; bits::any(e); e = bits::drop_low(e)) {
      const int v = bits::low(e) + 1;
      if (!bits::test(free, kCells - v)) return false;  // kCells + 1 - v is not free
      if (2 * v < kCells + 1) lows.push_back(v);
    }
    if (lows.size() != pairs.size()) return false;
    shuffle(lows, rng);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const int c = pairs[i], v = rng.below(2) ? lows[i] : kCells + 1 - lows[i];
      a.at[c] = v;
      a.at[kCells - 1 - c] = kCells + 1 - v;
      a.blanks.push_back(c);
      a.blanks.push_back(kCells - 1 - c);
    }
    return true;
  }

  // The cost's change if cells x and y swapped values.
  long swap_rise(const Annealing& a, int x, int y) const {
    const int d = a.at[y] - a.at[x];
    long rise = 0;
    for (int i = 0; i < n_cell_groups_[x]; ++i)
      if (const int g = cell_groups_[x][i]; g < n_groups_ && !bits::test(group_cells_[g], y))
        rise += std::abs(a.err[g] + d) - std::abs(a.err[g]);
    for (int i = 0; i < n_cell_groups_[y]; ++i)
      if (const int g = cell_groups_[y][i]; g < n_groups_ && !bits::test(group_cells_[g], x))
        rise += std::abs(a.err[g] - d) - std::abs(a.err[g]);
    return rise;
  }

  void swap_cells(Annealing& a, int x, int y, long rise) const {
    const int d = a.at[y] - a.at[x];
    for (int i = 0; i < n_cell_groups_[x]; ++i)
      if (const int g = cell_groups_[x][i]; g < n_groups_) a.err[g] += d;
    for (int i = 0; i < n_cell_groups_[y]; ++i)
      if (const int g = cell_groups_[y][i]; g < n_groups_) a.err[g] -= d;
    std::swap(a.at[x], a.at[y]);
    a.where[a.at[x]] = x;
    a.where[a.at[y]] = y;
    a.cost += rise;
  }

  // The blank to swap with x to put group g right, or a random one.
  int partner_for(const Annealing& a, int g, int x, Rng& rng) const {
    const int w = a.at[x] - a.err[g];
    if (rng.below(kAnnealRandomSwap) != 0 && w >= 1 && w <= kCells && a.slot[a.where[w]] >= 0) return a.where[w];
    return a.blanks[static_cast<std::size_t>(rng.below(static_cast<int>(a.blanks.size())))];
  }

  // Orders 9..16: a completion built from digit squares where the grid
  // allows one (construct_completion), before any search; checked here.
  template <class Ctx>
  std::optional<Solution> construct(Ctx& ctx) const {
    const std::uint64_t limit = spec_.budget ? std::min(kConstructNodes, spec_.budget) : kConstructNodes;
    const std::vector<int> built = construct_completion(spec_.puzzle, kind_groups_, limit, ctx.nodes);
    if (built.empty()) return std::nullopt;
    Solution sol{};
    for (int c = 0; c < kCells; ++c) sol[c] = static_cast<Value>(built[static_cast<std::size_t>(c)]);
    if (!is_completion(sol)) throw std::logic_error("complete: a constructed square broke a group");
    return sol;
  }

  // One attempt of `steps` steps; true when it emitted a completion.  The
  // steps count as nodes.
  template <class Ctx, class Mode>
  bool anneal(const State& s, std::uint64_t steps, std::uint32_t attempt, Ctx& ctx, Mode& m) const {
    Rng rng{seed_ * 0x100000001B3ull + attempt};
    Annealing a = anneal_start(s, rng);
    for (int g = 0; g < n_groups_; ++g)  // off its sum with no blank free to move: out of reach
      if (a.err[g] != 0 && a.group_blanks[g].empty()) return false;
    const double t0 = 2.0 + N / 4.0;
    for (std::uint64_t i = 0;; ++i) {
      if (a.cost == 0) {  // (also after the last step)
        ctx.nodes += i;
        Solution sol{};
        for (int c = 0; c < kCells; ++c) sol[c] = static_cast<Value>(a.at[c]);
        if (!is_completion(sol)) throw std::logic_error("complete: the local search's cost was wrong");
        if (!m.seen || m.seen->insert(sol).second) m.emit(sol);
        return true;
      }
      if (i == steps || ((i & 255) == 0 && ctx.stopped())) {
        ctx.nodes += i;
        return false;
      }
      int g = rng.below(n_groups_);
      while (a.err[g] == 0) g = g + 1 == n_groups_ ? 0 : g + 1;
      const auto& in_g = a.group_blanks[g];
      const int x = in_g[static_cast<std::size_t>(rng.below(static_cast<int>(in_g.size())))];
      const int y = partner_for(a, g, x, rng);
      if (y == x) continue;
      const double t = t0 * (1.0 - static_cast<double>(i) / static_cast<double>(steps));
      const auto keep = [&](long rise) {
        return rise <= 0 || (t > 0 && rng.unit() < std::exp(-static_cast<double>(rise) / t));
      };
      if (!a.paired || y == kCells - 1 - x) {
        if (const long rise = swap_rise(a, x, y); keep(rise)) swap_cells(a, x, y, rise);
        continue;
      }
      // Paired: x, y and their mirror cells swap together.
      const int mx = kCells - 1 - x, my = kCells - 1 - y;
      const long r1 = swap_rise(a, x, y);
      swap_cells(a, x, y, r1);
      const long r2 = swap_rise(a, mx, my);
      swap_cells(a, mx, my, r2);
      if (!keep(r1 + r2)) {
        swap_cells(a, mx, my, -r2);
        swap_cells(a, x, y, -r1);
      }
    }
  }

  std::vector<SumGroup> kind_groups_;  // the kind's groups, for construct()
  bool paired_ = false;                // associative: the local search moves mirrored pairs
};

}  // namespace magic
