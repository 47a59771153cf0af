#pragma once
// Completing a partly filled magic square (seed 004, the CheckiO task).
//
// Blank cells (0) get the missing values of 1..N² so that every sum group of
// the chosen kind (rows, columns, diagonals, ...) hits its target.  The count
// is of completions of *this* grid: there is no symmetry group, every
// completion is emitted exactly once.
//
// Search, at every node (`settle`):
//
//   free values  F = {values not yet placed}            (bit v-1 of a uint64)
//   group g      rest_g = target - placed sum, k_g blank cells
//                a blank cell of g holds v with
//                  rest_g - (sum of k_g-1 largest of F) <= v <= rest_g - (sum of k_g-1 smallest of F)
//   cell c       cand_c = F ∩ window of every group through c
//
//   cand_c empty                     -> dead end
//   cand_c a single value            -> place it (a group's last blank is forced this way)
//   a free value in no cand_c        -> dead end (all N² values must be used)
//   a free value in exactly one cand -> place it there
//   repeat until nothing changes, then branch on the blank with the fewest
//   candidates (lowest index on ties), values in ascending order.
//
// The state is a small struct copied on every branch; the order of the
// search is fixed, so the first completion is the same for any thread count
// and split depth (the runner merges tasks in this order).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/runner.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

inline constexpr int kCompleteMinOrder = 3;
inline constexpr int kCompleteMaxOrder = 8;

// A grid as given: order N and N² cells, row-major, 0 = blank.  Values are
// kept wide so that out-of-range input can be reported as it was written.
struct Puzzle {
  int order = 0;
  std::vector<std::int64_t> cells;
};

// Reads the CheckiO JSON form ([[2,7,6],[9,5,1],[4,3,0]]) or a plain-text
// grid (whitespace-separated numbers, one row per line; '.' is a blank, '#'
// starts a comment).  Checks the shape only; throws std::invalid_argument
// with a one-line message.
Puzzle parse_puzzle(std::string_view text);
Puzzle parse_puzzle(const nlohmann::json& rows);

// Checks the order, the range of every number, repeated givens and groups the
// givens already break (over the target, or full with the wrong sum).
// Throws std::invalid_argument naming the problem.
void check_puzzle(const Puzzle& p, SquareKind kind);

// Orders and kinds for which no square of that kind exists at all, so every
// grid has no completion; returns the reason or "" (the search would have to
// prove it the hard way, which takes far too long for order 6).
std::string impossible_reason(int order, SquareKind kind);

// Human name of a sum group of an order-n square ("row 2", "main diagonal").
std::string group_name(int n, const SumGroup& g);

struct CompleteSpec {
  Puzzle puzzle;
  SquareKind kind = SquareKind::Magic;
  bool exhaustive = true;  // counting / --all; false: a few solutions (affects the default split only)
};

template <int N, int G>
class CompleteProblem {
 public:
  static constexpr int kCells = N * N;
  static constexpr int kGroups = G;
  using Solution = std::array<std::uint8_t, kCells>;
  struct State {
    std::array<std::uint8_t, kCells> v;  // 0 = blank
    std::array<std::int16_t, G> rest;    // target minus the sum placed so far
    std::array<std::uint8_t, G> left;    // blank cells of the group
    std::uint64_t free;                  // bit v-1: value v still to be placed
    std::uint64_t blank;                 // bit c: cell c is blank
    std::uint16_t depth;                 // branching decisions taken
  };
  static_assert(std::is_trivially_copyable_v<State>);
  static_assert(kCells <= 64, "values and cells must fit in a uint64 mask");

  explicit CompleteProblem(const CompleteSpec& spec) : spec_(spec) {
    if (spec.puzzle.order != N) throw std::invalid_argument("order mismatch");
    check_puzzle(spec.puzzle, spec.kind);
    const auto groups = square_groups(N, spec.kind);
    if (static_cast<int>(groups.size()) > G) throw std::logic_error("too many sum groups for this instantiation");
    n_groups_ = static_cast<int>(groups.size());
    cell_groups_.fill({});
    n_cell_groups_.fill(0);
    root_ = State{};
    for (int g = 0; g < n_groups_; ++g) {
      for (int c : groups[g].cells) {
        if (n_cell_groups_[c] == kMaxPerCell) throw std::logic_error("cell in too many sum groups");
        cell_groups_[c][n_cell_groups_[c]++] = static_cast<std::uint8_t>(g);
      }
      root_.rest[g] = static_cast<std::int16_t>(groups[g].target);
      root_.left[g] = static_cast<std::uint8_t>(groups[g].cells.size());
    }
    root_.free = kAllValues;
    root_.blank = kAllCells;
    for (int c = 0; c < kCells; ++c)
      if (spec.puzzle.cells[c] != 0) place(root_, c, static_cast<int>(spec.puzzle.cells[c]));
    impossible_ = !impossible_reason(N, spec.kind).empty();
  }

  nlohmann::json describe() const {
    nlohmann::json rows = nlohmann::json::array();
    int givens = 0;
    for (int r = 0; r < N; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (int c = 0; c < N; ++c) {
        row.push_back(spec_.puzzle.cells[r * N + c]);
        givens += spec_.puzzle.cells[r * N + c] != 0;
      }
      rows.push_back(row);
    }
    return {{"name", "complete"}, {"order", N}, {"kind", to_string(spec_.kind)}, {"givens", givens},
            {"grid", rows}};
  }

  // Counting wants enough tasks to balance; a first solution wants few, since
  // every task before the one holding it must finish anyway.
  int default_split_depth() const { return spec_.exhaustive ? 3 : 1; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return false; }
  Solution canonical(const Solution& s) const { return s; }
  std::uint64_t orbit_size(const Solution&) const { return 1; }
  const State& root() const { return root_; }

  nlohmann::json to_json(const Solution& s) const {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < N; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (int c = 0; c < N; ++c) row.push_back(s[r * N + c]);
      rows.push_back(row);
    }
    return rows;
  }

  template <class F>
  void expand(int depth, F&& on_prefix) const {
    if (impossible_) return;
    Expander<F> ex{on_prefix, depth};
    dfs(root_, ex);
  }

  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    Solver<Ctx> sv{ctx};
    dfs(s, sv);
  }

 private:
  static constexpr int kMaxPerCell = 12;
  static constexpr std::uint64_t kAllValues = kCells == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kCells) - 1;
  static constexpr std::uint64_t kAllCells = kAllValues;

  template <class F>
  struct Expander {
    F& on_prefix;
    int depth;
    static constexpr bool kExpand = true;
  };
  template <class Ctx>
  struct Solver {
    Ctx& ctx;
    static constexpr bool kExpand = false;
  };

  enum class Status { Dead, Solved, Branch };

  void place(State& s, int c, int v) const {
    s.v[c] = static_cast<std::uint8_t>(v);
    s.free &= ~(std::uint64_t{1} << (v - 1));
    s.blank &= ~(std::uint64_t{1} << c);
    for (int i = 0; i < n_cell_groups_[c]; ++i) {
      const int g = cell_groups_[c][i];
      s.rest[g] = static_cast<std::int16_t>(s.rest[g] - v);
      --s.left[g];
    }
  }

  // Values lo..hi (1-based, clamped) as a mask.
  static std::uint64_t window(int lo, int hi) {
    lo = std::max(lo, 1);
    hi = std::min(hi, kCells);
    if (lo > hi) return 0;
    const std::uint64_t upto_hi = hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
    return upto_hi & ~((std::uint64_t{1} << (lo - 1)) - 1);
  }

  // Propagates to a fixed point; on Branch, `cell` and `cands` say where.
  Status settle(State& s, int& cell, std::uint64_t& cands) const {
    constexpr int kBig = 1 << 14;
    for (;;) {
      if (!s.blank) return Status::Solved;
      // low[j] / high[j]: sum of the j smallest / largest free values.
      std::array<int, N> low{}, high{};
      {
        std::uint64_t a = s.free, b = s.free;
        for (int j = 1; j < N; ++j) {
          if (a) {
            low[j] = low[j - 1] + std::countr_zero(a) + 1;
            high[j] = high[j - 1] + 64 - std::countl_zero(b);
            a &= a - 1;
            b &= ~(std::uint64_t{1} << (63 - std::countl_zero(b)));
          } else {
            low[j] = kBig;
            high[j] = -kBig;
          }
        }
      }
      std::array<std::uint64_t, G> win;
      for (int g = 0; g < n_groups_; ++g) {
        const int k = s.left[g];
        if (k == 0) continue;
        const int rest = s.rest[g];
        win[g] = window(rest - high[k - 1], rest - low[k - 1]);
        if (!win[g]) return Status::Dead;
      }
      std::array<std::uint64_t, kCells> cand;
      std::uint64_t once = 0, twice = 0;
      int best = -1, best_n = 65;
      bool forced = false;
      for (std::uint64_t e = s.blank; e; e &= e - 1) {
        const int c = std::countr_zero(e);
        std::uint64_t m = s.free;
        for (int i = 0; i < n_cell_groups_[c]; ++i) m &= win[cell_groups_[c][i]];
        if (!m) return Status::Dead;
        if (!(m & (m - 1))) {
          place(s, c, std::countr_zero(m) + 1);
          forced = true;
          break;
        }
        cand[c] = m;
        twice |= once & m;
        once |= m;
        const int n = std::popcount(m);
        if (n < best_n) {
          best_n = n;
          best = c;
        }
      }
      if (forced) continue;
      if (once != s.free) return Status::Dead;
      if (const std::uint64_t single = once & ~twice) {
        const std::uint64_t bit = single & -single;
        for (std::uint64_t e = s.blank; e; e &= e - 1) {
          const int c = std::countr_zero(e);
          if (cand[c] & bit) {
            place(s, c, std::countr_zero(bit) + 1);
            break;
          }
        }
        continue;
      }
      cell = best;
      cands = cand[best];
      return Status::Branch;
    }
  }

  template <class Mode>
  void dfs(State s, Mode& m) const {
    if constexpr (Mode::kExpand) {
      if (s.depth >= m.depth) {
        m.on_prefix(s);
        return;
      }
    } else {
      ++m.ctx.nodes;
      if (m.ctx.stopped()) return;
    }
    int cell = -1;
    std::uint64_t cands = 0;
    switch (settle(s, cell, cands)) {
      case Status::Dead:
        return;
      case Status::Solved:
        if constexpr (Mode::kExpand) m.on_prefix(s);
        else m.ctx.emit(s.v);
        return;
      case Status::Branch:
        break;
    }
    for (std::uint64_t f = cands; f; f &= f - 1) {
      State t = s;
      place(t, cell, std::countr_zero(f) + 1);
      ++t.depth;
      dfs(t, m);
      if constexpr (!Mode::kExpand)
        if (m.ctx.aborted()) return;
    }
  }

  CompleteSpec spec_;
  int n_groups_ = 0;
  std::array<std::array<std::uint8_t, kMaxPerCell>, kCells> cell_groups_;
  std::array<std::uint8_t, kCells> n_cell_groups_;
  State root_;
  bool impossible_ = false;
};

// Group capacities: plain lines (rows, columns, (broken) diagonals and a few
// implied groups) or the rich kinds with pairs and 2x2 blocks.
template <int N>
inline constexpr int kCompleteLineGroups = 4 * N + 8;
template <int N>
inline constexpr int kCompleteRichGroups = 4 * N + 3 * N * N / 2 + 8;

// Calls f(problem) with the instantiation that fits the spec; returns its result.
template <class F>
decltype(auto) with_complete_problem(const CompleteSpec& spec, F&& f) {
  check_puzzle(spec.puzzle, spec.kind);
  const bool rich = spec.kind == SquareKind::Associative || spec.kind == SquareKind::MostPerfect;
  auto pick = [&]<int N>(std::integral_constant<int, N>) -> decltype(auto) {
    if (rich) return f(CompleteProblem<N, kCompleteRichGroups<N>>(spec));
    return f(CompleteProblem<N, kCompleteLineGroups<N>>(spec));
  };
  switch (spec.puzzle.order) {
    case 3: return pick(std::integral_constant<int, 3>{});
    case 4: return pick(std::integral_constant<int, 4>{});
    case 5: return pick(std::integral_constant<int, 5>{});
    case 6: return pick(std::integral_constant<int, 6>{});
    case 7: return pick(std::integral_constant<int, 7>{});
    case 8: return pick(std::integral_constant<int, 8>{});
  }
  throw std::invalid_argument("unsupported order");
}

}  // namespace magic
