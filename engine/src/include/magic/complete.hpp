#pragma once
// Completing a partly filled magic square (seed 004, the CheckiO task).
//
// Blank cells (0) get the missing values of 1..N² so that every sum group of
// the chosen kind (rows, columns, diagonals, ...) hits its target.  The count
// is of completions of *this* grid: there is no symmetry group, every
// completion is emitted exactly once.
//
// Search.  Candidates are bitmasks (bit v-1: value v, so 64 values fit) and
// all-different holds over the whole grid.  At every node `settle` runs to a
// fixed point:
//
//   group g, k blanks, rest = target - placed sum; each blank gets
//     rest - (others' largest) <= v <= rest - (others' smallest)
//     where "others' largest" is the smaller of the other blanks' maxima
//     and the k-1 largest values any of them can hold (min likewise);
//     with k = 2 or 3 a candidate also needs a supporting sum of the others.
//     k = 1 is the last free cell of a line: it is forced.
//   a blank with one candidate        -> place it
//   two blanks needing the same value -> dead end
//   a free value no blank can take    -> dead end (all N² values are used)
//   a free value only one blank takes -> place it there
//
// then branches on the blank with the fewest candidates (most groups, then
// lowest index on ties), extreme values first.
//
// Modes.  Counting and --all split the tree into tasks for the runner and
// search exhaustively.  A first completion (or a few) uses restarts instead:
// empty and sparse grids are heavy-tailed, one unlucky early choice can cost
// hours.  Attempt 0 is the plain heuristic with a budget of 64 nodes; each
// next attempt breaks ties pseudo-randomly (seeded by the attempt number)
// with a budget 1.5 times larger, until one finds what was asked for or ends
// inside its budget (then it saw the whole tree, so no completion is
// missed).  The attempts run serially in one task, so the first completion
// depends only on the input, never on the thread count.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "magic/square_most_perfect.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

inline constexpr int kCompleteMinOrder = 3;
inline constexpr int kCompleteMaxOrder = 8;
// What one level of --split-depth is.
inline constexpr const char* kCompleteLevels = "a level is one branching decision; forced cells settle within it";

// A grid as given: order N and N² cells, row-major, 0 = blank.  Values are
// kept wide so that out-of-range input can be reported as it was written.
struct Puzzle {
  int order = 0;
  std::vector<std::int64_t> cells;
};

// Reads the CheckiO JSON form ([[2,7,6],[9,5,1],[4,3,0]]) or a plain-text
// grid (whitespace-separated numbers, one row per line; '.' is a blank, '#'
// starts a comment).  Checks the shape only; throws SpecError
// with a one-line message.
Puzzle parse_puzzle(std::string_view text);
Puzzle parse_puzzle(const nlohmann::json& rows);

// Checks the order, the range of every number, repeated givens and groups the
// givens already break (over the target, or full with the wrong sum).
// Throws SpecError naming the problem; returns the kind's groups.
std::vector<SumGroup> check_puzzle(const Puzzle& p, SquareKind kind);

// Orders and kinds for which no square of that kind exists at all, so every
// grid has no completion; returns the reason or "" (the search would have to
// prove it the hard way, which takes far too long for order 6).
std::string impossible_reason(int order, SquareKind kind);

// Optional groups a first-completion search tries first: the structure of
// the classical constructions of the kind (for pandiagonal squares of
// doubly even order, the most-perfect pairs and 2x2 blocks), and groups the
// kind implies but does not list (the most-perfect odd rectangles).
// They only narrow where the search looks first; a run that cannot meet
// them falls back to the kind's own groups, so no completion is lost.
// Empty when the kind has none.
std::vector<SumGroup> structure_hints(int order, SquareKind kind);

// Human name of a sum group of an order-n square ("row 2", "main diagonal").
std::string group_name(int n, const SumGroup& g);

struct CompleteSpec {
  Puzzle puzzle;
  SquareKind kind = SquareKind::Magic;
  bool exhaustive = true;  // counting / --all: tasks; false: a few completions by restarts
};

// {"grid": [[...]] or "text grid", "kind": "magic", "mode": "count" | "first"}
// ("first": restarts, see above); throws SpecError.
CompleteSpec complete_spec_from_json(const nlohmann::json& spec);

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
    if (spec.puzzle.order != N) throw SpecError("order mismatch");
    auto groups = check_puzzle(spec.puzzle, spec.kind);
    if (static_cast<int>(groups.size()) > G) throw std::logic_error("too many sum groups for this instantiation");
    n_groups_ = static_cast<int>(groups.size());
    if (!spec.exhaustive) add_hints(groups, structure_hints(N, spec.kind));
    n_all_groups_ = static_cast<int>(groups.size());
    cell_groups_.fill({});
    n_cell_groups_.fill(0);
    root_ = State{};
    for (int g = 0; g < n_all_groups_; ++g) {
      for (int c : groups[g].cells) {
        if (n_cell_groups_[c] == kMaxPerCell) throw std::logic_error("cell in too many sum groups");
        cell_groups_[c][n_cell_groups_[c]++] = static_cast<GroupIx>(g);
        group_cells_[g] |= std::uint64_t{1} << c;
      }
      root_.rest[g] = static_cast<std::int16_t>(groups[g].target);
      root_.left[g] = static_cast<std::uint8_t>(groups[g].cells.size());
    }
    root_.free = kAllValues;
    root_.blank = kAllCells;
    for (int c = 0; c < kCells; ++c)
      if (spec.puzzle.cells[c] != 0) place(root_, c, static_cast<int>(spec.puzzle.cells[c]));
    impossible_ = !impossible_reason(N, spec.kind).empty();
    // A full hint group the givens break is never narrowed again (settle
    // skips full groups), so it must be caught here.
    for (int g = n_groups_; g < n_all_groups_; ++g)
      if (root_.rest[g] < 0 || (root_.left[g] == 0 && root_.rest[g] != 0)) n_all_groups_ = n_groups_;
    seed_ = grid_seed(spec);
    for (int c = 0; c < kCells; ++c)
      for (int i = 0; i < n_cell_groups_[c]; ++i)
        if (const int g = cell_groups_[c][i]; g < n_groups_ && std::popcount(group_cells_[g]) == N)
          line_mates_[c] |= group_cells_[g];
    for (int c = 0; c < kCells; ++c) line_mates_[c] &= ~(std::uint64_t{1} << c);
    for (int v = 0; v < kCells; ++v)
      for (int w = 0; w < kCells; ++w)
        if (v / N == w / N || v % N == w % N) shares_digit_[v] |= std::uint64_t{1} << w;
    digit_hint_ = !spec.exhaustive && spec.kind == SquareKind::Pandiagonal && N % 2 == 1 && N % 3 != 0 &&
                  digits_fit_givens();
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

  // Restarts are one task: a first solution would wait for every task before it.
  static constexpr const char* kSearch = "complete/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return kCompleteLevels; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return false; }
  Solution canonical(const Solution& s) const { return s; }
  std::uint64_t orbit_size(const Solution&) const { return 1; }
  const State& root() const { return root_; }

  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

  template <class F>
  void expand(int depth, F&& sink) const {
    cut(depth, sink);
  }
  // The two walks, defined below the class and not inline, so that the
  // library compiles each instance's walks once (declared extern at the
  // end of this header).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

 private:
  static constexpr int kMaxPerCell = 24;
  using GroupIx = std::conditional_t<(G > 255), std::uint16_t, std::uint8_t>;
  static constexpr double kFirstBudget = 64;
  static constexpr std::uint64_t kAllValues = kCells == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kCells) - 1;
  static constexpr std::uint64_t kAllCells = kAllValues;

  // The search plus the restart's own state; with kBudget, a node-budgeted
  // attempt (exhausted: it failed).  The exhaustive search has no budget, so
  // its tasks may split (core/split.hpp).
  template <class Ctx, bool kBudget>
  struct Solver : SolveMode<Ctx, kBudget> {
    std::uint32_t attempt = 0;           // 0: the plain heuristic; else a seed for tie-breaks
    int active = 0;                      // groups in force: the kind's, or with the hints (0: the kind's)
    bool digits = false;                 // with the digit hint (see digit_hint_)
    std::set<Solution>* seen = nullptr;  // completions already emitted by earlier restarts
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

  static int lowest(std::uint64_t m) { return std::countr_zero(m) + 1; }
  static int highest(std::uint64_t m) { return 64 - std::countl_zero(m); }

  // Narrows the blanks of group g; returns false on a dead end.  Narrowed
  // cells mark their groups dirty.
  //
  //   bounds:  a blank gets what the group still needs after the other k-1
  //            blanks take their largest / smallest candidates, or the k-1
  //            largest / smallest values any of them can hold (distinct).
  //   support: with 2 or 3 blanks, a candidate stays only if the others can
  //            make up the rest from their candidates (sum sets as bitmasks).
  bool narrow_group(const State& s, int g, std::array<std::uint64_t, kCells>& cand,
                    std::array<std::uint8_t, G>& dirty, bool& any_dirty) const {
    const int k = s.left[g];
    const int rest = s.rest[g];
    const std::uint64_t cells = group_cells_[g] & s.blank;
    auto narrowed = [&](int c, std::uint64_t m) {
      cand[c] = m;
      for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
      any_dirty = true;
    };
    int smin = 0, smax = 0;
    std::uint64_t uni = 0;
    for (std::uint64_t e = cells; e; e &= e - 1) {
      const std::uint64_t m = cand[std::countr_zero(e)];
      smin += lowest(m);
      smax += highest(m);
      uni |= m;
    }
    if (smin > rest || smax < rest || std::popcount(uni) < k) return false;
    int ulow = 0, uhigh = 0;
    for (std::uint64_t a = uni, b = uni, j = 1; j < static_cast<std::uint64_t>(k); ++j) {
      ulow += lowest(a);
      uhigh += highest(b);
      a &= a - 1;
      b &= ~(std::uint64_t{1} << (63 - std::countl_zero(b)));
    }
    for (std::uint64_t e = cells; e; e &= e - 1) {
      const int c = std::countr_zero(e);
      const std::uint64_t old = cand[c];
      const int others_min = std::max(smin - lowest(old), ulow);
      const int others_max = std::min(smax - highest(old), uhigh);
      const std::uint64_t m = old & window(rest - others_max, rest - others_min);
      if (m == old) continue;
      if (!m) return false;
      smin += lowest(m) - lowest(old);
      smax += highest(m) - highest(old);
      narrowed(c, m);
    }
    if (k > 3 || k < 2) return true;
    int c[3], n = 0;
    std::uint64_t rev[3];  // bit 64-v: v is a candidate (mirrored masks turn sums into shifts)
    for (std::uint64_t e = cells; e; e &= e - 1) {
      c[n] = std::countr_zero(e);
      rev[n] = reverse(cand[c[n]]);
      ++n;
    }
    for (int i = 0; i < k; ++i) {
      std::uint64_t ok;  // values v for which the others can make rest - v
      if (k == 2) {
        ok = shift(rev[1 - i], rest - 65);  // v = rest - z
        if (rest % 2 == 0 && rest >= 2 && rest / 2 <= kCells) ok &= ~(std::uint64_t{1} << (rest / 2 - 1));  // z != v
      } else {
        const int j = i == 0 ? 1 : 0, l = i == 2 ? 1 : 2;
        ok = 0;
        for (std::uint64_t f = cand[c[j]]; f; f &= f - 1) {  // v = rest - y - z, z != y
          const int y = std::countr_zero(f) + 1;
          ok |= shift(rev[l] & ~(std::uint64_t{1} << (64 - y)), rest - y - 65);
        }
      }
      const std::uint64_t keep = cand[c[i]] & ok;
      if (!keep) return false;
      if (keep != cand[c[i]]) {
        narrowed(c[i], keep);
        rev[i] = reverse(keep);
      }
    }
    return true;
  }

  static std::uint64_t reverse(std::uint64_t x) {
    x = __builtin_bswap64(x);
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0Full) | (x & 0x0F0F0F0F0F0F0F0Full) << 4;
    x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
    x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
    return x;
  }
  // x << s for s >= 0, x >> -s otherwise; 0 once everything is shifted out.
  static std::uint64_t shift(std::uint64_t x, int s) {
    if (s >= 64 || s <= -64) return 0;
    return s >= 0 ? x << s : x >> -s;
  }

  // Propagates to a fixed point; on Branch, `cell` and `cands` say where.
  Status settle(State& s, std::uint32_t attempt, int active, bool digits, int& cell, std::uint64_t& cands) const {
    std::array<std::uint64_t, kCells> cand;
    std::array<std::uint8_t, G> dirty{};
    for (std::uint64_t e = s.blank; e; e &= e - 1) {
      const int c = std::countr_zero(e);
      cand[c] = s.free;
      if (digits)
        for (std::uint64_t p = line_mates_[c] & ~s.blank; p; p &= p - 1) cand[c] &= ~shares_digit_[s.v[std::countr_zero(p)] - 1];
    }
    for (int g = 0; g < active; ++g) dirty[g] = s.left[g] > 0;
    bool any_dirty = true;
    for (;;) {
      if (!s.blank) return Status::Solved;
      while (any_dirty) {
        any_dirty = false;
        for (int g = 0; g < active; ++g) {
          if (!dirty[g]) continue;
          dirty[g] = 0;
          if (s.left[g] && !narrow_group(s, g, cand, dirty, any_dirty)) return Status::Dead;
        }
      }
      // Naked singles: place them all at once.
      std::uint64_t once = 0, twice = 0, placed = 0;
      for (std::uint64_t e = s.blank; e; e &= e - 1) {
        const int c = std::countr_zero(e);
        const std::uint64_t m = cand[c];
        if (!m) return Status::Dead;  // emptied by a digit placed in this pass
        if (m & (m - 1)) {
          twice |= once & m;
          once |= m;
          continue;
        }
        if (placed & m) return Status::Dead;  // two cells need the same value
        placed |= m;
        place(s, c, lowest(m));
        for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
        any_dirty = true;
        if (digits) drop_digits(s, c, cand, dirty);
      }
      if (placed) {
        for (std::uint64_t e = s.blank; e; e &= e - 1) {
          const int c = std::countr_zero(e);
          if (!(cand[c] & placed)) continue;
          cand[c] &= ~placed;
          if (!cand[c]) return Status::Dead;
          for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
        }
        continue;
      }
      if (once != s.free) return Status::Dead;  // a value with no place left
      // Hidden singles: a value with one place left goes there.
      if (const std::uint64_t hidden = once & ~twice) {
        for (std::uint64_t e = s.blank; e; e &= e - 1) {
          const int c = std::countr_zero(e);
          const std::uint64_t m = cand[c] & hidden;
          if (!m) continue;
          if (m & (m - 1)) return Status::Dead;  // one cell, two values
          cand[c] = m;
          for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
        }
        any_dirty = true;
        continue;
      }
      // Branch on the fewest candidates, then the most groups (diagonal
      // cells); further ties by index, or pseudo-randomly in restarts.
      std::uint32_t best_key = ~std::uint32_t{0};
      for (std::uint64_t e = s.blank; e; e &= e - 1) {
        const int c = std::countr_zero(e);
        const std::uint32_t key =
            static_cast<std::uint32_t>(std::popcount(cand[c]) * 32 + (31 - n_cell_groups_[c])) << 16 |
            (attempt ? mix(seed_ + attempt, s.depth, c) & 0xffff : static_cast<std::uint32_t>(c));
        if (key < best_key) {
          best_key = key;
          cell = c;
        }
      }
      cands = cand[cell];
      return Status::Branch;
    }
  }

  // The digit hint: the blanks on a line through c lose the values sharing
  // a digit with c's (an emptied one is caught by the caller).
  void drop_digits(const State& s, int c, std::array<std::uint64_t, kCells>& cand,
                   std::array<std::uint8_t, G>& dirty) const {
    const std::uint64_t gone = shares_digit_[s.v[c] - 1];
    for (std::uint64_t e = line_mates_[c] & s.blank; e; e &= e - 1) {
      const int d = std::countr_zero(e);
      if (!(cand[d] & gone)) continue;
      cand[d] &= ~gone;
      for (int i = 0; i < n_cell_groups_[d]; ++i) dirty[cell_groups_[d][i]] = 1;
    }
  }

  static std::uint32_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t z = a * 0x9E3779B97F4A7C15ull + b * 0xBF58476D1CE4E5B9ull + c * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  }

  // Values whose base-N digits (v-1 = N*hi + lo) are new to every line
  // through the cell come first: Euler's squares (N*A + B + 1 from two
  // orthogonal Latin squares) have every digit once per line, so each line
  // sums right by itself and this is where a first completion is densest.
  // Orders 5 and 7 only: pandiagonal Latin squares exist exactly when N is
  // not divisible by 2 or 3 (other orders were not tried).
  int value_order(const State& s, int cell, std::uint64_t cands, std::array<int, 64>& out) const {
    int n = 0;
    if constexpr (N % 2 == 1 && N % 3 != 0) {
      unsigned hi = 0, lo = 0;
      for (std::uint64_t e = line_mates_[cell] & ~s.blank; e; e &= e - 1) {
        const int v = s.v[std::countr_zero(e)] - 1;
        hi |= 1u << (v / N);
        lo |= 1u << (v % N);
      }
      std::uint64_t fresh = 0;
      for (std::uint64_t e = cands; e; e &= e - 1) {
        const int v = std::countr_zero(e);
        if (!(hi >> (v / N) & 1) && !(lo >> (v % N) & 1)) fresh |= std::uint64_t{1} << v;
      }
      n = extremes_first(fresh, out.data());
      cands &= ~fresh;
    }
    return n + extremes_first(cands, out.data() + n);
  }

  // Extreme values first: they fit in the fewest places, so a wrong choice
  // shows early.  Ties (equal distance from the middle) go to the low one.
  static int extremes_first(std::uint64_t cands, int* out) {
    int n = 0;
    while (cands) {
      const int lo = lowest(cands), hi = highest(cands);
      const int v = 2 * hi - (kCells + 1) > (kCells + 1) - 2 * lo ? hi : lo;
      out[n++] = v;
      cands &= ~(std::uint64_t{1} << (v - 1));
    }
    return n;
  }

  template <class Mode>
  void dfs(State s, Mode& m) const {
    if (m.enter(s.depth, false, s)) return;
    std::uint32_t attempt = 0;
    int active = n_groups_;
    bool digits = false;
    if constexpr (!Mode::kExpand) {
      attempt = m.attempt;
      if (m.active) active = m.active;
      digits = m.digits;
    }
    int cell = -1;
    std::uint64_t cands = 0;
    switch (settle(s, attempt, active, digits, cell, cands)) {
      case Status::Dead:
        return;
      case Status::Solved:
        if constexpr (Mode::kExpand) {
          m.sink(s, true);
        } else if (!m.seen || m.seen->insert(s.v).second) {
          m.emit(s.v);
        }
        return;
      case Status::Branch:
        break;
    }
    std::array<int, 64> order;
    const int n = value_order(s, cell, cands, order);
    for (int i = 0; i < n; ++i) {
      State t = s;
      place(t, cell, order[i]);
      ++t.depth;
      dfs(t, m);
      if (m.aborted()) return;
    }
  }

  // Mixed into the restarts' tie-breaks, so that two grids do not share one
  // sequence of orders; a function of the input only (determinism).
  static std::uint32_t grid_seed(const CompleteSpec& spec) {
    std::uint64_t h = static_cast<std::uint64_t>(spec.kind) + 1;
    for (const std::int64_t v : spec.puzzle.cells) h = h * 0x100000001B3ull ^ static_cast<std::uint64_t>(v);
    return mix(h, 0, 0);
  }

  // Adds the hint groups the kind does not have already, if they fit.
  static void add_hints(std::vector<SumGroup>& groups, const std::vector<SumGroup>& hints) {
    std::set<std::vector<int>> have;
    for (const SumGroup& g : groups) {
      auto c = g.cells;
      std::sort(c.begin(), c.end());
      have.insert(c);
    }
    std::vector<SumGroup> extra;
    for (const SumGroup& g : hints) {
      auto c = g.cells;
      std::sort(c.begin(), c.end());
      if (have.insert(c).second) extra.push_back(g);
    }
    if (groups.size() + extra.size() <= static_cast<std::size_t>(G))
      groups.insert(groups.end(), extra.begin(), extra.end());
  }

  CompleteSpec spec_;
  int n_groups_ = 0;      // the kind's groups
  int n_all_groups_ = 0;  // and the hints after them (first completions only)
  std::uint32_t seed_ = 0;
  std::array<std::uint64_t, kCells> line_mates_{};  // cells sharing a line (N cells) with the cell
  std::array<std::uint64_t, kCells> shares_digit_{};  // bit w: values v+1, w+1 share a base-N digit
  // Pandiagonal orders 5 and 7, first completions: a first phase looks only
  // at Euler-type squares, every base-N digit of v-1 once per line (there
  // the lines sum right by themselves, and the two digit squares are
  // orthogonal pandiagonal Latin squares, which exist exactly for orders not
  // divisible by 2 or 3).  Off when two givens on a line share a digit.
  bool digit_hint_ = false;

  bool digits_fit_givens() const {
    for (int c = 0; c < kCells; ++c)
      if (root_.v[c])
        for (std::uint64_t e = line_mates_[c] & ~root_.blank; e; e &= e - 1)
          if (shares_digit_[root_.v[c] - 1] >> (root_.v[std::countr_zero(e)] - 1) & 1) return false;
    return true;
  }
  std::array<std::array<GroupIx, kMaxPerCell>, kCells> cell_groups_;
  std::array<std::uint64_t, G> group_cells_{};
  std::array<std::uint8_t, kCells> n_cell_groups_;
  State root_;
  bool impossible_ = false;
};

template <int N, int G>
void CompleteProblem<N, G>::cut(int depth, SinkRef<State> sink) const {
  if (impossible_) return;
  if (!spec_.exhaustive) {
    sink(root_, true);  // restarts are one serial task
    return;
  }
  ExpandMode<State> ex{sink, depth};
  dfs(root_, ex);
}

template <int N, int G>
template <class Ctx>
void CompleteProblem<N, G>::solve(const State& s, Ctx& ctx) const {
  if (spec_.exhaustive) {
    Solver<Ctx, false> sv{{ctx}};
    dfs(s, sv);
    return;
  }
  // Restarts (see the top of the file); `seen` keeps a completion found
  // again by a later attempt from being emitted twice.
  std::set<Solution> seen;
  double budget = kFirstBudget;
  bool hinted = n_all_groups_ > n_groups_ || digit_hint_;
  for (std::uint32_t attempt = 0;; ++attempt, budget = std::min(budget * 1.5, 1e18)) {
    if (hinted) {
      Solver<Ctx, true> sv{{ctx, static_cast<std::uint64_t>(budget)}, attempt, n_all_groups_, digit_hint_, &seen};
      dfs(s, sv);
      if (ctx.aborted()) return;
      hinted = sv.exhausted;  // the structured part of the tree is done
    }
    Solver<Ctx, true> sv{{ctx, static_cast<std::uint64_t>(budget)}, attempt, n_groups_, false, &seen};
    dfs(s, sv);
    if (ctx.aborted() || !sv.exhausted) return;
  }
}

static_assert(Problem<CompleteProblem<3, 4 * 3 + 8>>);

// Group capacities: plain lines (rows, columns, (broken) diagonals and a few
// implied groups), the rich kinds with pairs and 2x2 blocks, or those with
// the odd rectangles too.
template <int N>
inline constexpr int kCompleteLineGroups = 4 * N + 8;
template <int N>
inline constexpr int kCompleteRichGroups = 4 * N + 3 * N * N / 2 + 8;
// Doubly even first completions also carry the odd rectangles (structure_hints).
template <int N>
inline constexpr int kCompleteHintedGroups = kCompleteRichGroups<N> + N * N * N * N / 16 - N * N;

// Calls f(problem) with the instantiation that fits the spec; returns its result.
template <class F>
decltype(auto) with_complete_problem(const CompleteSpec& spec, F&& f) {
  // Pandiagonal first completions carry their structure hints (structure_hints).
  const bool rich = spec.kind == SquareKind::Associative || spec.kind == SquareKind::MostPerfect ||
                    (spec.kind == SquareKind::Pandiagonal && !spec.exhaustive);
  const bool rectangles = !spec.exhaustive && spec.puzzle.order % 4 == 0 &&
                          (spec.kind == SquareKind::MostPerfect || spec.kind == SquareKind::Pandiagonal);
  auto pick = [&]<int N>(std::integral_constant<int, N>) -> decltype(auto) {
    if constexpr (N % 4 == 0)
      if (rectangles) return f(CompleteProblem<N, kCompleteHintedGroups<N>>(spec));
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
  check_puzzle(spec.puzzle, spec.kind);  // names what is wrong with the order
  throw SpecError("unsupported order");
}

// The registry's entry (magic/registry.hpp).
struct CompleteFamily {
  static constexpr const char* kName = "complete";
  static constexpr Picture kPicture = Picture::Grid;
  static std::string levels_help() { return kCompleteLevels; }
  static const char* field_values(const std::string& field) { return field == "kind" ? kSquareKindNames : nullptr; }
  static bool is_field_value(const std::string& field, const std::string& v) {
    return field == "kind" && parse_square_kind(v).has_value();
  }
  // A kind with no square of the grid's order (most-perfect 6x6, say).
  static std::string no_solution_reason(const nlohmann::json& spec) {
    const CompleteSpec s = complete_spec_from_json(spec);
    check_puzzle(s.puzzle, s.kind);
    return impossible_reason(s.puzzle.order, s.kind);
  }
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    const CompleteSpec s = complete_spec_from_json(spec);
    // Counting an empty most-perfect 8x8 grid is counting the squares:
    // square_most_perfect.hpp's search, emitting every one of them.
    if (s.exhaustive && s.kind == SquareKind::MostPerfect && s.puzzle.order == 8 &&
        std::all_of(s.puzzle.cells.begin(), s.puzzle.cells.end(), [](std::int64_t v) { return v == 0; })) {
      const nlohmann::json zeros = nlohmann::json::array({0, 0, 0, 0, 0, 0, 0, 0});
      return f(MostPerfect8Problem(MostPerfect8Problem::Emit::Images,
                                   {{"name", "complete"}, {"order", 8}, {"kind", "most-perfect"}, {"givens", 0},
                                    {"grid", nlohmann::json::array({zeros, zeros, zeros, zeros, zeros, zeros, zeros, zeros})}}));
    }
    return with_complete_problem(s, f);
  }
  // "first" means one completion unless the run asks for more.
  static std::uint64_t default_stop_after(const nlohmann::json& spec) {
    return spec.value("mode", "count") == "first" ? 1 : 0;
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// The complete problem's instances (with_complete_problem): every order with
// its plain lines and with the rich groups, and order 8 with the odd
// rectangles too (order 4 has none: its hinted capacity is the rich one).
#define MAGIC_COMPLETE_INSTANCES(X)                                                        \
  X(3, kCompleteLineGroups<3>) X(3, kCompleteRichGroups<3>) X(4, kCompleteLineGroups<4>)   \
  X(4, kCompleteRichGroups<4>) X(5, kCompleteLineGroups<5>) X(5, kCompleteRichGroups<5>)   \
  X(6, kCompleteLineGroups<6>) X(6, kCompleteRichGroups<6>) X(7, kCompleteLineGroups<7>)   \
  X(7, kCompleteRichGroups<7>) X(8, kCompleteLineGroups<8>) X(8, kCompleteRichGroups<8>)   \
  X(8, kCompleteHintedGroups<8>)
#define MAGIC_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(, CompleteProblem<N, G>)
#define MAGIC_EXTERN_RUN_COMPLETE(N, G) MAGIC_SEARCH_AS(extern, CompleteProblem<N, G>)

namespace magic {
static_assert(kCompleteMinOrder == 3 && kCompleteMaxOrder == 8 && kCompleteHintedGroups<4> == kCompleteRichGroups<4>,
              "MAGIC_COMPLETE_INSTANCES must list every instance");
MAGIC_COMPLETE_INSTANCES(MAGIC_EXTERN_RUN_COMPLETE)
}  // namespace magic
