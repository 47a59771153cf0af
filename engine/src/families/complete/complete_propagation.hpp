#pragma once
// The completion's model and its propagation (complete.hpp searches with it).
//
// Candidates are bitmasks (bit v-1: value v; 64-bit words up to order 8,
// wider sets past it: wide_bits.hpp) and all-different holds over the whole
// grid.  At every node `settle` runs to a fixed point:
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
// and says where to branch: the blank with the fewest candidates (most
// groups, then lowest index on ties, or a seeded tie-break in restarts).
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "complete/complete_spec.hpp"
#include "magic/core/error.hpp"
#include "magic/sum_groups.hpp"
#include "magic/wide_bits.hpp"

namespace magic {

template <int N, int G>
class CompleteGrid {
 public:
  static constexpr int kCells = N * N;
  static constexpr int kGroups = G;
  // Values and cells as bits: one word up to order 8, wider past it.
  using Mask = bits::MaskFor<kCells>;
  using Value = std::conditional_t<(kCells <= 255), std::uint8_t, std::uint16_t>;
  using Solution = std::array<Value, kCells>;
  // A node's candidates are its parent's fixed point narrowed by the
  // decision, so settle re-narrows only the groups the decision touched
  // (the fixed point is the same as from scratch: every rule only narrows).
  struct State {
    std::array<Value, kCells> v;        // 0 = blank
    std::array<Mask, kCells> cand;      // a blank's candidates so far (unless fresh)
    std::array<std::int16_t, G> rest;   // target minus the sum placed so far
    std::array<std::uint8_t, G> left;   // blank cells of the group
    Mask free;                          // bit v-1: value v still to be placed
    Mask blank;                         // bit c: cell c is blank
    Mask touched;                       // bit c: cell c placed or narrowed since the last fixed point
    std::uint16_t depth;                // branching decisions taken
    bool fresh;                         // cand not built yet (the root's)
  };
  static_assert(std::is_trivially_copyable_v<State>);
  static_assert(std::is_trivially_copyable_v<State>);

  explicit CompleteGrid(const CompleteSpec& spec) : spec_(spec) {
    if (spec.puzzle.order != N) throw SpecError("order mismatch");
    auto groups = check_puzzle(spec.puzzle, spec.kind);
    if (static_cast<int>(groups.size()) > G) throw std::logic_error("too many sum groups for this instantiation");
    n_groups_ = static_cast<int>(groups.size());
    if (!spec.exhaustive) add_hints(groups, structure_hints(N, spec.kind));
    n_all_groups_ = static_cast<int>(groups.size());
    cell_groups_.fill({});
    n_cell_groups_.fill(0);
    root_ = State{};
    root_.fresh = true;
    for (int g = 0; g < n_all_groups_; ++g) {
      for (int c : groups[g].cells) {
        if (n_cell_groups_[c] == kMaxPerCell) throw std::logic_error("cell in too many sum groups");
        cell_groups_[c][n_cell_groups_[c]++] = static_cast<GroupIx>(g);
        group_cells_[g] |= bits::one<Mask>(c);
      }
      root_.rest[g] = static_cast<std::int16_t>(groups[g].target);
      root_.left[g] = static_cast<std::uint8_t>(groups[g].cells.size());
    }
    root_.free = all_values();
    root_.blank = all_values();
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
        if (const int g = cell_groups_[c][i]; g < n_groups_ && bits::pop(group_cells_[g]) == N)
          line_mates_[c] |= group_cells_[g];
    for (int c = 0; c < kCells; ++c) line_mates_[c] &= ~bits::one<Mask>(c);
    // The digit table (N^4 pairs) only where the hint can hold: a small
    // completion's start paid 6,561 pairs for nothing at order 9.
    if (!spec.exhaustive && spec.kind == SquareKind::Pandiagonal && N % 2 == 1 && N % 3 != 0) {
      for (int v = 0; v < kCells; ++v)
        for (int w = 0; w < kCells; ++w)
          if (v / N == w / N || v % N == w % N) shares_digit_[v] |= bits::one<Mask>(w);
      digit_hint_ = digits_fit_givens();
    }
  }

 protected:
  static constexpr int kMaxPerCell = 24;
  using GroupIx = std::conditional_t<(G > 255), std::uint16_t, std::uint8_t>;
  static constexpr int kWidth = bits::kWidth<Mask>;
  static Mask all_values() { return bits::lowest<Mask>(kCells); }

  enum class Status { Dead, Solved, Branch };

  void place(State& s, int c, int v) const {
    s.v[c] = static_cast<Value>(v);
    s.free &= ~bits::one<Mask>(v - 1);
    s.blank &= ~bits::one<Mask>(c);
    for (int i = 0; i < n_cell_groups_[c]; ++i) {
      const int g = cell_groups_[c][i];
      s.rest[g] = static_cast<std::int16_t>(s.rest[g] - v);
      --s.left[g];
    }
  }

  // Values lo..hi (1-based, clamped) as a mask.
  static Mask window(int lo, int hi) { return bits::window<Mask>(std::max(lo, 1) - 1, std::min(hi, kCells) - 1); }

  static int lowest(const Mask& m) { return bits::low(m) + 1; }
  static int highest(const Mask& m) { return bits::high(m) + 1; }

  // Marks the groups through cell c for narrowing.
  void mark_groups(int c, std::array<std::uint8_t, G>& dirty) const {
    for (int i = 0; i < n_cell_groups_[c]; ++i) dirty[cell_groups_[c][i]] = 1;
  }

  // Narrows the blanks of group g; returns false on a dead end.  Narrowed
  // cells mark their groups dirty.
  //
  //   bounds:  a blank gets what the group still needs after the other k-1
  //            blanks take their largest / smallest candidates, or the k-1
  //            largest / smallest values any of them can hold (distinct).
  //   support: with 2 or 3 blanks, a candidate stays only if the others can
  //            make up the rest from their candidates (sum sets as bitmasks).
  bool narrow_group(const State& s, int g, std::array<Mask, kCells>& cand,
                    std::array<std::uint8_t, G>& dirty, bool& any_dirty) const {
    const int k = s.left[g];
    const int rest = s.rest[g];
    const Mask cells = group_cells_[g] & s.blank;
    auto narrowed = [&](int c, const Mask& m) {
      cand[c] = m;
      mark_groups(c, dirty);
      any_dirty = true;
    };
    int smin = 0, smax = 0;
    Mask uni{};
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      const Mask& m = cand[bits::low(e)];
      smin += lowest(m);
      smax += highest(m);
      uni |= m;
    }
    if (smin > rest || smax < rest) return false;
    // The k-1 smallest and largest values of the union; fewer than k values
    // in all is a dead end (counted by dropping, not by a popcount).
    int ulow = 0, uhigh = 0;
    Mask a = uni, b = uni;
    for (int j = 1; j < k; ++j) {
      if (!bits::any(a)) return false;
      ulow += lowest(a);
      uhigh += highest(b);
      a = bits::drop_low(a);
      b = bits::drop_high(b);
    }
    if (!bits::any(a)) return false;
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e);
      const Mask old = cand[c];
      const int others_min = std::max(smin - lowest(old), ulow);
      const int others_max = std::min(smax - highest(old), uhigh);
      const int lo = rest - others_max, hi = rest - others_min;
      if (lo <= lowest(old) && highest(old) <= hi) continue;  // nothing to cut (no window built)
      const Mask m = old & window(lo, hi);
      if (!bits::any(m)) return false;
      smin += lowest(m) - lowest(old);
      smax += highest(m) - highest(old);
      narrowed(c, m);
    }
    if (k > 3 || k < 2) return true;
    int c[3], n = 0;
    Mask rev[3];  // bit kWidth - v: v is a candidate (mirrored masks turn sums into shifts)
    for (Mask e = cells; bits::any(e); e = bits::drop_low(e)) {
      c[n] = bits::low(e);
      rev[n] = bits::reversed(cand[c[n]]);
      ++n;
    }
    for (int i = 0; i < k; ++i) {
      Mask ok{};  // values v for which the others can make rest - v
      if (k == 2) {
        ok = bits::shifted(rev[1 - i], rest - kWidth - 1);  // v = rest - z
        if (rest % 2 == 0 && rest >= 2 && rest / 2 <= kCells) ok &= ~bits::one<Mask>(rest / 2 - 1);  // z != v
      } else {
        const int j = i == 0 ? 1 : 0, l = i == 2 ? 1 : 2;
        ok = supported_by_two(cand[c[i]], rev[j], rev[l], rest);
      }
      const Mask keep = cand[c[i]] & ok;
      if (!bits::any(keep)) return false;
      if (keep != cand[c[i]]) {
        narrowed(c[i], keep);
        rev[i] = bits::reversed(keep);
      }
    }
    return true;
  }

  // The values v of `want` with v + y + z = rest for some y, z of the two
  // other blanks (mirrored: bit kWidth - y), y != z.  y runs over ry; its
  // bit there is the one z = y takes in rz.  It stops once all of `want`
  // has support.
  static Mask supported_by_two(const Mask& want, const Mask& ry, const Mask& rz, int rest) {
    Mask ok{};
    for (Mask f = ry; bits::any(f);) {
      const Mask rest_of_f = bits::drop_low(f);
      const Mask y_bit = f & ~rest_of_f;
      ok |= bits::shifted(rz & ~y_bit, rest + bits::low(f) - 2 * kWidth - 1);
      if (!bits::any(want & ~ok)) break;
      f = rest_of_f;
    }
    return ok;
  }

  // Propagates to a fixed point; on Branch, `cell` and `cands` say where.
  Status settle(State& s, std::uint32_t attempt, int active, bool digits, int& cell, Mask& cands) const {
    std::array<Mask, kCells>& cand = s.cand;
    std::array<std::uint8_t, G> dirty{};
    if (s.fresh) {
      build_candidates(s, digits);
      for (int g = 0; g < active; ++g) dirty[g] = s.left[g] > 0;
    } else {
      for (Mask e = s.touched; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);  // a narrowed blank, or the decision's cell (its groups' sums moved)
        if (bits::test(s.blank, c) && !bits::any(cand[c])) return Status::Dead;  // emptied by the decision
        mark_groups(c, dirty);
      }
    }
    s.touched = Mask{};
    bool any_dirty = true;
    for (;;) {
      if (!bits::any(s.blank)) return Status::Solved;
      while (any_dirty) {
        any_dirty = false;
        for (int g = 0; g < active; ++g) {
          if (!dirty[g]) continue;
          dirty[g] = 0;
          if (s.left[g] && !narrow_group(s, g, cand, dirty, any_dirty)) return Status::Dead;
        }
      }
      // Naked singles: place them all at once.
      Mask once{}, twice{}, placed{};
      for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        const Mask m = cand[c];
        if (!bits::any(m)) return Status::Dead;  // emptied by a digit placed in this pass
        if (!bits::single(m)) {
          twice |= once & m;
          once |= m;
          continue;
        }
        if (bits::any(placed & m)) return Status::Dead;  // two cells need the same value
        placed |= m;
        place(s, c, lowest(m));
        mark_groups(c, dirty);
        any_dirty = true;
        if (digits)
          drop_digits(s, c, [&](int d) { mark_groups(d, dirty); });
      }
      if (bits::any(placed)) {
        for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
          const int c = bits::low(e);
          if (!bits::any(cand[c] & placed)) continue;
          cand[c] &= ~placed;
          if (!bits::any(cand[c])) return Status::Dead;
          mark_groups(c, dirty);
        }
        continue;
      }
      if (once != s.free) return Status::Dead;  // a value with no place left
      // Hidden singles: a value with one place left goes there.
      if (const Mask hidden = once & ~twice; bits::any(hidden)) {
        for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
          const int c = bits::low(e);
          const Mask m = cand[c] & hidden;
          if (!bits::any(m)) continue;
          if (!bits::single(m)) return Status::Dead;  // one cell, two values
          cand[c] = m;
          mark_groups(c, dirty);
        }
        any_dirty = true;
        continue;
      }
      // Branch on the fewest candidates, then the most groups (diagonal
      // cells); further ties by index, or pseudo-randomly in restarts.
      std::uint32_t best_key = ~std::uint32_t{0};
      for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
        const int c = bits::low(e);
        const std::uint32_t key =
            static_cast<std::uint32_t>(bits::pop(cand[c]) * 32 + (31 - n_cell_groups_[c])) << 16 |
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

  // The root's candidates: the free values, less (with the digit hint)
  // those sharing a digit with a given on a line through the cell.
  void build_candidates(State& s, bool digits) const {
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int c = bits::low(e);
      s.cand[c] = s.free;
      if (digits)
        for (Mask p = line_mates_[c] & ~s.blank; bits::any(p); p = bits::drop_low(p))
          s.cand[c] &= ~shares_digit_[s.v[bits::low(p)] - 1];
    }
    s.fresh = false;
  }

  // The digit hint: the blanks on a line through c lose the values sharing
  // a digit with c's (an emptied one is caught by the caller).  Each one
  // narrowed is passed to `narrowed`.
  template <class F>
  void drop_digits(State& s, int c, F&& narrowed) const {
    const Mask gone = shares_digit_[s.v[c] - 1];
    for (Mask e = line_mates_[c] & s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int d = bits::low(e);
      if (!bits::any(s.cand[d] & gone)) continue;
      s.cand[d] &= ~gone;
      narrowed(d);
    }
  }

  // A branching decision: cell c takes v, which leaves the other blanks'
  // candidates; what it narrows is settled by the child's settle.
  void decide(State& s, int c, int v, bool digits) const {
    place(s, c, v);
    s.touched |= bits::one<Mask>(c);
    const Mask bit = bits::one<Mask>(v - 1);
    for (Mask e = s.blank; bits::any(e); e = bits::drop_low(e)) {
      const int d = bits::low(e);
      if (!bits::any(s.cand[d] & bit)) continue;
      s.cand[d] &= ~bit;
      s.touched |= bits::one<Mask>(d);
    }
    if (digits) drop_digits(s, c, [&](int d) { s.touched |= bits::one<Mask>(d); });
  }

  static std::uint32_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t z = a * 0x9E3779B97F4A7C15ull + b * 0xBF58476D1CE4E5B9ull + c * 0x94D049BB133111EBull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  }

  // sol keeps the givens, holds every value once and meets every group of
  // the kind: the check, from scratch, of each completion the local search
  // or a construction emits (first completions: solve() starts at root_).
  bool is_completion(const Solution& sol) const {
    Mask values{};
    for (int c = 0; c < kCells; ++c) {
      const int v = sol[c];
      if (v < 1 || v > kCells || bits::test(values, v - 1) || (root_.v[c] && root_.v[c] != v)) return false;
      values |= bits::one<Mask>(v - 1);
    }
    for (int g = 0; g < n_groups_; ++g) {
      int sum = 0;
      for (int c = 0; c < kCells; ++c)
        if (bits::test(group_cells_[g], c) && root_.v[c] == 0) sum += sol[c];
      if (sum != root_.rest[g]) return false;
    }
    return true;
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
  std::array<Mask, kCells> line_mates_{};    // cells sharing a line (N cells) with the cell
  std::array<Mask, kCells> shares_digit_{};  // bit w: values v+1, w+1 share a base-N digit
  // Pandiagonal orders 5 and 7, first completions: a first phase looks only
  // at Euler-type squares, every base-N digit of v-1 once per line (there
  // the lines sum right by themselves, and the two digit squares are
  // orthogonal pandiagonal Latin squares, which exist exactly for orders not
  // divisible by 2 or 3).  Off when two givens on a line share a digit.
  bool digit_hint_ = false;

  bool digits_fit_givens() const {
    for (int c = 0; c < kCells; ++c)
      if (root_.v[c])
        for (Mask e = line_mates_[c] & ~root_.blank; bits::any(e); e = bits::drop_low(e))
          if (bits::test(shares_digit_[root_.v[c] - 1], root_.v[bits::low(e)] - 1)) return false;
    return true;
  }
  std::array<std::array<GroupIx, kMaxPerCell>, kCells> cell_groups_;
  std::array<Mask, G> group_cells_{};
  std::array<std::uint8_t, kCells> n_cell_groups_;
  State root_;
  bool impossible_ = false;
};

}  // namespace magic
