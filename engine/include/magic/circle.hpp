#pragma once
// Magic circles (魔円陣, seed 003): n positive integers on a circle such that
// the sums of the n(n-1) arcs of 1..n-1 consecutive numbers are 1..n(n-1),
// each exactly once.  Counted up to rotation and reflection.
//
// Two independent methods:
//
//  * "exhaustive" (CircleProblem): the seed's search, 1 first and then always
//    the smallest number not yet represented, placed as a single element,
//    made much faster (see the notes at CircleSearch).  No number theory.
//
//  * "multiplier" (CircleMultiplierProblem): circles are planar cyclic
//    difference sets modulo v = n^2-n+1, and every prime p | n-1 is a
//    multiplier, so only unions of orbits of x -> p*x need to be searched.
//
// Both emit one circle per dihedral orbit, already in the document's print
// form: 1 first and the second number smaller than the last.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/problems.hpp"
#include "magic/runner.hpp"

namespace magic {

inline constexpr int kCircleMinN = 3;
inline constexpr int kCircleMaxN = 40;
// Arc sums are below S = n(n-1)+1 <= 1561; bit S and the padding above are
// kept set so that no sum ever reaches them.
inline constexpr int kCircleMaxWords = (kCircleMaxN * (kCircleMaxN - 1) + 1) / 64 + 1;  // 25

enum class CircleMethod { Exhaustive, Multiplier };
std::optional<CircleMethod> parse_circle_method(const std::string& s);
std::string to_string(CircleMethod m);
inline constexpr const char* kCircleMethodNames = "exhaustive, multiplier";

struct CircleSpec {
  int n = 3;
  CircleMethod method = CircleMethod::Exhaustive;
};

// Throws std::invalid_argument with a one-line message for n outside 3..40.
void validate_circle(const CircleSpec& spec);

// A circle, padded with zeros.  uint16: values stay below n(n-1)+1 <= 1561.
using CircleSolution = std::array<std::uint16_t, kCircleMaxN>;
static_assert(std::has_unique_object_representations_v<CircleSolution>);

// 1 first, then the direction in which the second number is smaller than the
// last (the document's print form).  Any rotation or reflection of the same
// circle maps to the same result.
CircleSolution circle_canonical(const CircleSolution& s, int n);
nlohmann::json circle_to_json(const CircleSolution& s, int n);
// The multiplier data: primes of n-1, orbits of <primes> on Z_v.
struct CircleOrbits {
  int v = 0;
  std::vector<int> multipliers;            // the primes dividing n-1
  std::vector<std::vector<int>> orbits;    // every orbit of x -> p*x (all p) on Z_v
};
CircleOrbits circle_orbits(int n);

// ---------------------------------------------------------------------------
// Exhaustive search.
//
// maenjin2 places, after 1, always the smallest number m not yet represented
// by a run of placed numbers, as a single element.  (Valid: every smaller
// number is represented already, so no unplaced element is below m, and a
// run of two or more elements summing to m would consist of placed elements
// only, so m would be represented.)  The values are therefore fixed by the
// path; only the position of each one branches.
//
// What this search adds, each measured on n = 13..15 (perf/results/circle.md):
//
//  1. Complementary arcs.  A run of placed numbers with sum s also fixes the
//     sum S - s of the complementary arc (S = n(n-1)+1, the total).  So the
//     set `used` holds s and S - s for every run (as one folded bit); a new
//     run sum must avoid both.  (Another arc with sum S - s would repeat that value.)
//     Valid because the complement of a run inside the placed numbers always
//     contains every empty place, so it is a different arc from any run.
//
//  2. The last element is free.  With n-1 numbers placed they form one run,
//     `used` holds all of its n(n-1)/2 sub-runs and their complements, i.e.
//     every value 1..S-1 exactly once, and the arcs through the last place
//     are exactly those complements.  So once n-1 numbers are placed the
//     circle is complete: the last number is S - sum and needs no check.
//
//  3. Sum bound.  The r numbers still to place are distinct and at least m,
//     and they sum to S - sum: r*m + r(r-1)/2 <= S - sum.
//
//  4. Positions inside a gap are not decided early ("lazy gaps").  A run
//     sum never crosses an empty place, so two partial circles that differ
//     only in where the runs sit inside the empty stretches have the same
//     checks and the same future.  The state is the cyclic sequence of runs
//     with gaps of undetermined size >= 1 between them, and a number either
//     extends a run at one end (the gap stays open), fills a gap of size one
//     (joining two runs), or starts a new run inside a gap.  The sizes only
//     have to add up: gaps <= empty places.  The final circle fixes them
//     all, so each circle is still found exactly once.  This cuts the nodes
//     with 5+ empty places several times over; near the leaves, where the
//     gaps are single places, it changes nothing.
//
//  5. Mirror images.  The only states equal to their own mirror image (the
//     reflection through 1) are the root [1] and [1] gap [2] gap.  At the
//     root 2 only goes right of 1 or apart; at [1] _ [2] _ only the gap that
//     follows 1 is branched on.  Every later state differs from its mirror
//     image, and its mirror is explored in the other branch, so every
//     circle appears exactly once per rotation/reflection class.
//
//   Tried and dropped (perf/results/circle.md has the node counts): a
//   stronger sum bound with the r smallest free values (-1% nodes); when
//   every gap is one place, a check that each gap still has a value whose
//   runs through it are all free, even with an exact assignment of distinct
//   such values with the right total (-0.4% nodes); a counting bound, free
//   values <= T against the arcs through empty places that can be <= T
//   (-0.3%).  The tree is alive until the square identity below bites.  Per
//   node, ~800 instructions spread evenly over the neighbour tests, sum
//   walks and bookkeeping; lazy run statistics, an unfolded sum set and a
//   flat-array endgame moved nothing or were slower.
// ---------------------------------------------------------------------------

// Represented sums are kept folded: s and S - s are the same bit, min(s, S-s),
// so the set has n(n-1)/2 + 1 bits.  (By 1. a sum is taken exactly when its
// complement is.)
inline constexpr int kCircleFoldWords = (kCircleMaxN * (kCircleMaxN - 1) / 2) / 64 + 1;  // 13

// A task: the search state after the first placements (trivially copyable).
struct CircleState {
  std::array<std::uint64_t, kCircleFoldWords> used;  // folded represented sums
  std::array<std::uint16_t, 2 * kCircleMaxN> seq;    // runs in cyclic order, each followed by 0 (a gap)
  std::uint16_t sum;    // of the placed numbers
  std::uint16_t next;   // the smallest number not represented: placed next
  std::uint8_t len;     // used part of seq
  std::uint8_t gaps;
  std::uint8_t placed;
  std::uint8_t mirror;  // the state is its own mirror image
};
static_assert(std::is_trivially_copyable_v<CircleState>);

// The search proper, for folded sets of W words.  In the header so that the
// per-node counting and the emission go straight into the task context.
//
//        gap g                      ring_ = [a, b, c]: run ids in cyclic order,
//   ..a a a] _ [b b b b] _ [c c..   gap g lies between ring_[g] and ring_[g+1].
//
// Runs live in buf_[id][beg_..end_), growing both ways from the middle, so
// every move is O(1) to do and undo except joining two runs (copies one).
template <int W>
class CircleSearch {
 public:
  using Bits = std::array<std::uint64_t, W>;
  static constexpr int kMaxN = kCircleMaxN;

  explicit CircleSearch(int n) : n_(n), S_(n * (n - 1) + 1), half_(n * (n - 1) / 2) {
    for (std::int64_t x = 1; x < S_; ++x) all_squares_ += x * x;
  }

  static CircleState root(int n) {
    CircleState s{};
    auto set = [&](int x) { s.used[x >> 6] |= std::uint64_t{1} << (x & 63); };
    set(0);
    set(1);  // the arc {1} (and its complement, the other n-1 numbers)
    for (int x = n * (n - 1) / 2 + 1; x < 64 * W; ++x) set(x);  // beyond the fold: never free
    s.seq[0] = 1;
    s.seq[1] = 0;
    s.len = 2;
    s.gaps = 1;
    s.placed = 1;
    s.sum = 1;
    s.next = 2;
    s.mirror = 1;
    return s;
  }

  // Visits the states `depth` placements below `s` (or leaves reached
  // earlier) in a fixed order.
  template <class F>
  void expand(const CircleState& s, int depth, F&& on_prefix) {
    load(s);
    ExpandMode<F> ex{on_prefix, s.placed + depth};  // levels here are placed counts
    node(u_start_, ex);
  }

  template <class Ctx>
  void solve(const CircleState& s, Ctx& ctx) {
    load(s);
    SolveMode<Ctx> sv{ctx};
    node(u_start_, sv);
  }

 private:
  // Per run: its prefix sums p (from the left end) and suffix sums q (from
  // the right end), as count and sums of p, p^2, q, q^2.  Enough to know
  // sum of c and c^2 over all runs through a gap (see square_check).
  struct RunStats {
    std::int64_t len = 0, tot = 0, p1 = 0, p2 = 0, q1 = 0, q2 = 0;
    // The run with m appended at its right end.
    RunStats then(std::int64_t m) const {
      RunStats r;
      r.len = len + 1;
      r.tot = tot + m;
      r.p1 = p1 + tot + m;
      r.p2 = p2 + (tot + m) * (tot + m);
      r.q1 = q1 + len * m + m;
      r.q2 = q2 + 2 * m * q1 + (len + 1) * m * m;
      return r;
    }
    // The run with m prepended at its left end.
    RunStats after(std::int64_t m) const {
      RunStats r;
      r.len = len + 1;
      r.tot = tot + m;
      r.p1 = p1 + len * m + m;
      r.p2 = p2 + 2 * m * p1 + (len + 1) * m * m;
      r.q1 = q1 + tot + m;
      r.q2 = q2 + (tot + m) * (tot + m);
      return r;
    }
    // a, then m, then b.
    static RunStats join(const RunStats& a, std::int64_t m, const RunStats& b) {
      RunStats r = a.then(m);
      const std::int64_t k = a.tot + m;
      r.len += b.len;
      r.tot += b.tot;
      r.p1 += b.len * k + b.p1;
      r.p2 += b.len * k * k + 2 * k * b.p1 + b.p2;
      const std::int64_t j = b.tot;
      // suffix sums of the result: b's, then j + (suffixes of a.then(m))
      const RunStats am = a.then(m);
      r.q1 = b.q1 + am.len * j + am.q1;
      r.q2 = b.q2 + am.len * j * j + 2 * j * am.q1 + am.q2;
      return r;
    }
  };
  // The runs through one place between runs a (left) and b (right): the
  // numbers c = (suffix of a or empty) + (prefix of b or empty).
  struct Through {
    std::int64_t count, c1, c2;  // how many, sum of c, sum of c^2
  };
  static Through through(const RunStats& a, const RunStats& b) {
    return {(a.len + 1) * (b.len + 1), (b.len + 1) * a.q1 + (a.len + 1) * b.p1,
            (b.len + 1) * a.q2 + (a.len + 1) * b.p2 + 2 * a.q1 * b.p1};
  }
  // sum over those c of phi(v + c), phi(s) = s^2 + (S-s)^2 (a run and its
  // complementary arc).
  std::int64_t phi_sum(const Through& t, std::int64_t v) const {
    const std::int64_t S = S_;
    return t.count * (2 * v * v - 2 * S * v + S * S) + (4 * v - 2 * S) * t.c1 + 2 * t.c2;
  }
  std::int64_t phi(std::int64_t s) const { return s * s + (S_ - s) * (S_ - s); }

  // 6. Sum of squares.  Over all arcs of a magic circle, sum(arc^2) equals
  // 1^2 + ... + (S-1)^2.  When every gap is a single place the positions are
  // fixed, and with r <= 3 every arc that holds some but not all empty places
  // is a run through exactly one place, or the complement of one (r = 3;
  // for r = 2 the two are the same arcs).  Those arcs must take exactly the
  // free values, so with x_g the number at place g
  //     sum over g of phi_sum(through(g), x_g)  =  sum of f^2 over free f
  // (halved for r = 2).  With m at one place and the rest summing to a known
  // total this is one quadratic equation in one unknown, which rarely has an
  // integer root.  Valid: a necessary condition on any completion.
  bool square_check(int r, int m) const {
    Through t[3];
    for (int g = 0; g < r; ++g) t[g] = through(stats_[ring_[g]], stats_[ring_[g + 1 == r ? 0 : g + 1]]);
    return square_check(t, r, z_, sum_, m);
  }
  // The same for given places (any order): their runs-through statistics,
  // the represented squares z, the placed sum and the next number m.
  bool square_check(const Through* t, int r, std::int64_t z, int sum, int m) const {
    const std::int64_t target = all_squares_ - z;
    const std::int64_t S = S_;
    // phi_sum(through(g), v) = al[g] v^2 + be[g] v + ga[g]
    std::int64_t al[3], be[3], ga[3];
    for (int g = 0; g < r; ++g) {
      al[g] = 2 * t[g].count;
      be[g] = 4 * t[g].c1 - 2 * S * t[g].count;
      ga[g] = t[g].count * S * S - 2 * S * t[g].c1 + 2 * t[g].c2;
    }
    const std::int64_t mm = m;
    if (r == 2) {
      // m on one side, the last number on the other; the runs through one
      // place are the complements of those through the other, so one side
      // already covers every free value once, with its complements.
      for (int g = 0; g < 2; ++g)
        if (al[g] * mm * mm + be[g] * mm + ga[g] == target) return true;
      return false;
    }
    const std::int64_t rest = S - sum - m;  // the other two numbers
    for (int i = 0; i < 3; ++i) {
      const int j = i == 2 ? 0 : i + 1, k = i == 0 ? 2 : i - 1;
      // x at j, rest - x at k:  A x^2 + B x + C = 0
      const std::int64_t A = al[j] + al[k];
      const std::int64_t B = be[j] - 2 * al[k] * rest - be[k];
      const std::int64_t C = al[i] * mm * mm + be[i] * mm + ga[i] - target + ga[j] + al[k] * rest * rest +
                             be[k] * rest + ga[k];
      const std::int64_t disc = B * B - 4 * A * C;
      if (disc < 0) continue;
      std::int64_t q = static_cast<std::int64_t>(std::sqrt(static_cast<double>(disc)));
      while (q * q > disc) --q;
      while ((q + 1) * (q + 1) <= disc) ++q;
      if (q * q != disc) continue;  // no integer root
      for (const std::int64_t num : {-B - q, -B + q}) {
        if (num % (2 * A)) continue;
        const std::int64_t x = num / (2 * A);
        if (x > m && rest - x > m && 2 * x != rest) return true;
      }
    }
    return false;
  }

  int fold(int x) const { return x <= half_ ? x : S_ - x; }
  static bool bit(const Bits& u, int f) { return (u[f >> 6] >> (f & 63)) & 1; }
  bool has(const Bits& u, int x) const { return bit(u, fold(x)); }
  // Takes sum x (and so its complement); false if it is taken already, which
  // also catches two new sums that are each other's complement.
  bool add(Bits& u, int x) const {
    const int f = fold(x);
    const std::uint64_t b = std::uint64_t{1} << (f & 63);
    if (u[f >> 6] & b) return false;
    u[f >> 6] |= b;
    return true;
  }
  static int next_free(const Bits& u, int from) {
    int w = from >> 6;
    std::uint64_t x = ~u[w] & (~std::uint64_t{0} << (from & 63));
    while (!x && ++w < W) x = ~u[w];
    return w < W ? w * 64 + std::countr_zero(x) : 64 * W;
  }

  void load(const CircleState& s) {
    for (int w = 0; w < W; ++w) u_start_[w] = s.used[w];
    sum_ = s.sum;
    next_ = s.next;
    placed_ = s.placed;
    mirror_ = s.mirror;
    gaps_ = 0;
    runs_ = 0;
    int i = 0;
    while (i < s.len) {
      const int id = runs_++;
      beg_[id] = end_[id] = kMaxN;
      while (s.seq[i]) buf_[id][end_[id]++] = s.seq[i++];
      ++i;  // the gap after the run
      ring_[gaps_++] = static_cast<std::uint8_t>(id);
      RunStats& st = stats_[id];
      st = RunStats{};
      for (int p = beg_[id]; p < end_[id]; ++p) st = st.then(buf_[id][p]);
    }
    z_ = 0;
    for (int f = 1; f <= half_; ++f)
      if (bit(u_start_, f)) z_ += phi(f);
  }

  CircleState snapshot(const Bits& u) const {
    CircleState s{};
    for (int w = 0; w < W; ++w) s.used[w] = u[w];
    int len = 0;
    for (int g = 0; g < gaps_; ++g) {
      const int id = ring_[g];
      for (int p = beg_[id]; p < end_[id]; ++p) s.seq[len++] = buf_[id][p];
      s.seq[len++] = 0;
    }
    s.len = static_cast<std::uint8_t>(len);
    s.gaps = static_cast<std::uint8_t>(gaps_);
    s.placed = static_cast<std::uint8_t>(placed_);
    s.sum = static_cast<std::uint16_t>(sum_);
    s.next = static_cast<std::uint16_t>(next_);
    s.mirror = static_cast<std::uint8_t>(mirror_);
    return s;
  }

  CircleSolution complete() const {
    // One run of n-1 numbers; the last number closes the circle.
    CircleSolution c{};
    const int id = ring_[0];
    int k = 0;
    for (int p = beg_[id]; p < end_[id]; ++p) c[k++] = buf_[id][p];
    c[k] = static_cast<std::uint16_t>(S_ - sum_);
    return circle_canonical(c, n_);
  }

  enum Move { kJoinLeft, kJoinRight, kFill, kNewRun };

  // Applies move `mv` at gap g with value m, recurses, undoes.
  template <class Mode>
  void descend(const Bits& v, Mode& md, Move mv, int g, int m, int child_mirror) {
    const int a = ring_[g];
    const int gi = g + 1 == gaps_ ? 0 : g + 1;
    const int b = ring_[gi];
    int saved = 0;
    const RunStats old_a = stats_[a], old_b = stats_[b];
    const std::int64_t old_z = z_;
    switch (mv) {
      case kJoinLeft:
        z_ += phi_sum(through(old_a, RunStats{}), m);
        stats_[a] = old_a.then(m);
        break;
      case kJoinRight:
        z_ += phi_sum(through(RunStats{}, old_b), m);
        stats_[b] = old_b.after(m);
        break;
      case kFill:
        z_ += phi_sum(through(old_a, old_b), m);
        stats_[a] = RunStats::join(old_a, m, old_b);
        break;
      case kNewRun: z_ += phi(m); break;
    }
    switch (mv) {
      case kJoinLeft: buf_[a][end_[a]++] = static_cast<std::uint16_t>(m); break;
      case kJoinRight: buf_[b][--beg_[b]] = static_cast<std::uint16_t>(m); break;
      case kFill: {
        saved = end_[a];
        std::uint16_t* out = buf_[a] + end_[a];
        *out++ = static_cast<std::uint16_t>(m);
        for (int p = beg_[b]; p < end_[b]; ++p) *out++ = buf_[b][p];
        end_[a] = static_cast<std::uint8_t>(out - buf_[a]);
        for (int k = gi; k + 1 < gaps_; ++k) ring_[k] = ring_[k + 1];
        --gaps_;
        break;
      }
      case kNewRun: {
        const int id = runs_++;
        beg_[id] = end_[id] = kMaxN;
        buf_[id][end_[id]++] = static_cast<std::uint16_t>(m);
        stats_[id] = RunStats{}.then(m);
        for (int k = gaps_; k > g + 1; --k) ring_[k] = ring_[k - 1];
        ring_[g + 1] = static_cast<std::uint8_t>(id);
        ++gaps_;
        break;
      }
    }
    const int old_next = next_, old_mirror = mirror_;
    next_ = next_free(v, m + 1);
    mirror_ = child_mirror;
    sum_ += m;
    ++placed_;
    node(v, md);
    --placed_;
    sum_ -= m;
    next_ = old_next;
    mirror_ = old_mirror;
    z_ = old_z;
    stats_[a] = old_a;
    stats_[b] = old_b;
    switch (mv) {
      case kJoinLeft: --end_[a]; break;
      case kJoinRight: ++beg_[b]; break;
      case kFill: {
        end_[a] = static_cast<std::uint8_t>(saved);
        for (int k = gaps_; k > gi; --k) ring_[k] = ring_[k - 1];
        ring_[gi] = static_cast<std::uint8_t>(b);
        ++gaps_;
        break;
      }
      case kNewRun: {
        for (int k = g + 1; k + 1 < gaps_; ++k) ring_[k] = ring_[k + 1];
        --gaps_;
        --runs_;
        break;
      }
    }
  }

  // Run sums through m that reach into run a (its last k numbers) or run b
  // (its first k), tested as they are formed; false at the first taken one.
  bool walk_left(const Bits& u, int m, int a, int* sa, int& la) const {
    const std::uint16_t* lo = buf_[a] + beg_[a];
    const std::uint16_t* p = buf_[a] + end_[a] - 1;
    int t = *p;  // the neighbour itself was tested already
    sa[0] = t;
    la = 1;
    while (p != lo) {
      t += *--p;
      sa[la++] = t;
      if (has(u, m + t)) return false;
    }
    return true;
  }
  bool walk_right(const Bits& u, int m, int b, int* sb, int& lb) const {
    const std::uint16_t* p = buf_[b] + beg_[b];
    const std::uint16_t* hi = buf_[b] + end_[b];
    int t = *p++;
    sb[0] = t;
    lb = 1;
    while (p != hi) {
      t += *p++;
      sb[lb++] = t;
      if (has(u, m + t)) return false;
    }
    return true;
  }

  template <class Mode>
  void node(const Bits& u, Mode& md) {
    const int r = n_ - placed_;  // numbers still to place
    if constexpr (Mode::kExpand) {
      if (r == 1 || placed_ == md.depth) {
        md.on_prefix(snapshot(u));
        return;
      }
    } else {
      ++md.ctx.nodes;
      if (md.ctx.stopped()) return;
      if (r == 1) {
        md.ctx.emit(complete());
        return;
      }
    }
    const int m = next_;
    if (r * m + r * (r - 1) / 2 > S_ - sum_) return;
    if (r <= 3 && gaps_ == r && !square_check(r, m)) return;

    const bool root = placed_ == 1;
    const bool room = gaps_ <= r - 1;       // a gap may stay open
    const bool split = gaps_ + 1 <= r - 1;  // a gap may be split by a new run
    const bool fill_ok = gaps_ > 1;         // with one gap, filling it is the last number
    const int gap_count = mirror_ ? 1 : gaps_;

    // Most placements already fail next to a neighbour: m + (last number of
    // the run left of the gap) and m + (first number of the run right of
    // it).  Test all gaps first, without branching, as two bit masks.
    std::uint64_t near_a = 0, near_b = 0;
    for (int g = 0; g < gap_count; ++g) {
      const int a = ring_[g];
      const int b = ring_[g + 1 == gaps_ ? 0 : g + 1];
      near_a |= std::uint64_t{!has(u, m + buf_[a][end_[a] - 1])} << g;
      near_b |= std::uint64_t{!has(u, m + buf_[b][beg_[b]])} << g;
    }
    const std::uint64_t fill_mask = fill_ok ? near_a & near_b : 0;
    const std::uint64_t left_mask = room ? near_a : 0;
    const std::uint64_t right_mask = room && !root ? near_b : 0;
    const std::uint64_t all = gap_count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << gap_count) - 1;
    const std::uint64_t todo = (fill_mask | left_mask | right_mask) | (split ? all : 0);

    int sa[kMaxN], sb[kMaxN];
    for (std::uint64_t t = todo; t; t &= t - 1) {
      const int g = std::countr_zero(t);
      const std::uint64_t gbit = std::uint64_t{1} << g;
      const int a = ring_[g];
      const int b = ring_[g + 1 == gaps_ ? 0 : g + 1];
      int la = 0, lb = 0;
      const bool ok_a = ((fill_mask | left_mask) & gbit) && walk_left(u, m, a, sa, la);
      const bool ok_b = ((fill_mask | right_mask) & gbit) && walk_right(u, m, b, sb, lb);
      if (ok_a && (left_mask & gbit)) {
        Bits v = u;
        bool ok = add(v, m);
        for (int k = 0; ok && k < la; ++k) ok = add(v, m + sa[k]);
        if (ok) descend(v, md, kJoinLeft, g, m, 0);
      }
      if (ok_b && (right_mask & gbit)) {  // at the root this is the mirror image of joining left
        Bits v = u;
        bool ok = add(v, m);
        for (int k = 0; ok && k < lb; ++k) ok = add(v, m + sb[k]);
        if (ok) descend(v, md, kJoinRight, g, m, 0);
      }
      if (ok_a && ok_b && (fill_mask & gbit)) {
        // Every run through m reaching into both runs, straight into a copy.
        Bits v = u;
        bool ok = add(v, m);
        for (int k = 0; ok && k < la; ++k) ok = add(v, m + sa[k]);
        for (int k = 0; ok && k < lb; ++k) ok = add(v, m + sb[k]);
        for (int i = 0; ok && i < la; ++i) {
          const int base = m + sa[i];
          for (int j = 0; j < lb; ++j)
            if (!add(v, base + sb[j])) {
              ok = false;
              break;
            }
        }
        if (ok) descend(v, md, kFill, g, m, 0);
      }
      if (split) {
        Bits v = u;
        add(v, m);
        descend(v, md, kNewRun, g, m, root ? 1 : 0);
      }
    }
  }

  int n_, S_, half_;
  std::int64_t all_squares_ = 0;  // sum of s^2 for s = 1..S-1
  std::int64_t z_ = 0;            // sum of s^2 over the represented sums (both halves)
  std::array<RunStats, kMaxN + 1> stats_{};
  Bits u_start_{};
  int sum_ = 0, next_ = 0, placed_ = 0, mirror_ = 0;
  int gaps_ = 0, runs_ = 0;
  std::array<std::uint8_t, kMaxN + 1> ring_{};  // run ids in cyclic order; gap g follows ring_[g]
  std::array<std::uint8_t, kMaxN + 1> beg_{}, end_{};
  std::uint16_t buf_[kMaxN + 1][2 * kMaxN + 1]{};  // each run grows both ways from the middle
};

// Calls f(CircleSearch<W>&) with the smallest W that holds n(n-1)/2 + 1 bits.
template <class F>
decltype(auto) with_circle_search(int n, F&& f) {
  const int words = (n * (n - 1) / 2) / 64 + 1;
  if (words <= 1) { CircleSearch<1> s(n); return f(s); }
  if (words <= 2) { CircleSearch<2> s(n); return f(s); }
  if (words <= 3) { CircleSearch<3> s(n); return f(s); }
  if (words <= 4) { CircleSearch<4> s(n); return f(s); }
  if (words <= 6) { CircleSearch<6> s(n); return f(s); }
  if (words <= 8) { CircleSearch<8> s(n); return f(s); }
  CircleSearch<kCircleFoldWords> s(n);
  return f(s);
}

class CircleProblem {
 public:
  using State = CircleState;
  using Solution = CircleSolution;

  explicit CircleProblem(int n) : n_(n) { validate_circle({n, CircleMethod::Exhaustive}); }

  nlohmann::json describe() const { return {{"name", "circle"}, {"n", n_}, {"method", "exhaustive"}}; }
  int default_split_depth() const;
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }
  int n() const { return n_; }

  template <class F>
  void expand(int depth, F&& on_prefix) const {
    with_circle_search(n_, [&](auto& s) {
      using S = std::remove_reference_t<decltype(s)>;
      s.expand(S::root(n_), depth, on_prefix);
    });
  }

  template <class Ctx>
  void solve(const State& st, Ctx& ctx) const {
    with_circle_search(n_, [&](auto& s) { s.solve(st, ctx); });
  }

  Solution canonical(const Solution& s) const { return circle_canonical(s, n_); }
  std::uint64_t orbit_size(const Solution&) const { return 2 * static_cast<std::uint64_t>(n_); }
  nlohmann::json to_json(const Solution& s) const { return circle_to_json(s, n_); }

 private:
  int n_;
};

// ---------------------------------------------------------------------------
// Multiplier method.
//
// Write the circle's partial sums d_i = a_1 + ... + a_i mod v, v = n^2-n+1.
// The arc sums are exactly the differences d_j - d_i, so a magic circle is a
// planar cyclic difference set D of size n in Z_v (every nonzero residue is
// a difference exactly once), read off in cyclic order; translating D rotates
// the circle and negating it reflects the circle.
//
// First multiplier theorem (Hall 1947): a prime p dividing n - lambda = n-1
// (p > lambda = 1, gcd(p, v) = 1 since v = 1 mod p) is a multiplier: pD is a
// translate of D.  As gcd(n, v) = 1 exactly one translate of D has element
// sum 0 mod v, and every multiplier maps that translate to a translate with
// sum 0, i.e. to itself.  So each rotation class has exactly one
// representative D with sum 0, fixed by every p | n-1: a union of orbits of
// x -> p*x.  Its mirror class is represented by -D.
//
// The search is a clique search over those orbits (pairwise compatible:
// their union repeats no difference), with the full difference check on top.
// One more symmetry: t*D is again such a set for every unit t of Z_v.  So
//   branch 0 only looks for sets containing 1, and a set found there is
//            expanded to all its multiples t*D, but only from the one member
//            of {y^-1 * D : y a unit in D} that sorts first;
//   branch 1 looks for sets without any unit (all of them; usually none).
// Each set D with sum 0 is then emitted, as a circle, when D <= -D (sorted):
// one per circle class.
// ---------------------------------------------------------------------------

// Orbit sets are bit sets over the orbit list (at most v <= 1561 orbits).
using CircleOrbitBits = std::array<std::uint64_t, kCircleMaxWords>;

struct CircleMultiplierState {
  std::array<std::uint64_t, kCircleMaxWords> diffs;  // differences used so far
  CircleOrbitBits cand;                              // orbits that may still be added
  std::array<std::uint16_t, kCircleMaxN> elems;      // elements of D so far
  std::uint16_t sum;                                 // of the elements, mod v
  std::uint8_t size;
  std::uint8_t chosen;                               // orbits taken (the depth)
  std::uint8_t branch;                               // 0: contains 1, 1: no unit
};
static_assert(std::is_trivially_copyable_v<CircleMultiplierState>);

class CircleMultiplierProblem {
 public:
  using State = CircleMultiplierState;
  using Solution = CircleSolution;

  explicit CircleMultiplierProblem(int n);

  nlohmann::json describe() const {
    return {{"name", "circle"}, {"n", n_}, {"method", "multiplier"}, {"multipliers", orb_.multipliers},
            {"orbits", orb_.orbits.size()}};
  }
  int default_split_depth() const { return 2; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }

  template <class F>
  void expand(int depth, F&& on_prefix) const {
    ExpandMode<F> ex{on_prefix, depth};
    for (const State& r : roots_) dfs(r, ex);
  }

  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    SolveMode<Ctx> sv{ctx};
    dfs(s, sv);
  }

  Solution canonical(const Solution& s) const { return circle_canonical(s, n_); }
  std::uint64_t orbit_size(const Solution&) const { return 2 * static_cast<std::uint64_t>(n_); }
  nlohmann::json to_json(const Solution& s) const { return circle_to_json(s, n_); }

  // The circle of a difference set given by its n elements; nullopt when
  // -D sorts below D (then -D stands for the class).
  std::optional<Solution> circle_of(const std::uint16_t* elems) const;
  // The circles to emit for a complete set D with sum 0 (see above).
  std::vector<Solution> circles_from(const State& s) const;

 private:
  static bool test(const State& s, int x) { return (s.diffs[x >> 6] >> (x & 63)) & 1; }
  static void set(State& s, int x) { s.diffs[x >> 6] |= std::uint64_t{1} << (x & 63); }

  // Adds orbit k to D in t; false if a difference repeats.  (Pairwise
  // compatibility is known already; this catches x-y = z-w across 3-4 orbits.)
  bool take(State& t, int k) const {
    const int v = orb_.v;
    for (int x : orb_.orbits[k]) {
      for (int i = 0; i < t.size; ++i) {
        const int y = t.elems[i];
        const int d1 = x - y < 0 ? x - y + v : x - y;
        const int d2 = v - d1;
        if (test(t, d1) || test(t, d2)) return false;
        set(t, d1);
        set(t, d2);
      }
      t.elems[t.size++] = static_cast<std::uint16_t>(x);
      t.sum = static_cast<std::uint16_t>((t.sum + x) % v);
    }
    return true;
  }

  // Most elements the candidate orbits could still add.
  int room(const CircleOrbitBits& c) const {
    int total = 0;
    for (std::size_t s = 0; s < size_masks_.size(); ++s) {
      int cnt = 0;
      for (int w = 0; w < words_; ++w) cnt += std::popcount(c[w] & size_masks_[s][w]);
      total += cnt * sizes_[s];
    }
    return total;
  }

  template <class Mode>
  void dfs(const State& s, Mode& md) const {
    if constexpr (Mode::kExpand) {
      if (s.chosen == md.depth || s.size == n_) {
        md.on_prefix(s);
        return;
      }
    } else {
      ++md.ctx.nodes;
      if (md.ctx.stopped()) return;
      if (s.size == n_) {
        if (s.sum == 0)
          for (const Solution& c : circles_from(s)) md.ctx.emit(c);
        return;
      }
    }
    const int need = n_ - s.size;
    if (room(s.cand) < need) return;
    for (int w = 0; w < words_; ++w)
      for (std::uint64_t bits = s.cand[w]; bits; bits &= bits - 1) {
        const int k = w * 64 + std::countr_zero(bits);
        const int len = static_cast<int>(orb_.orbits[k].size());
        // The orbits after k must still be able to make up the rest exactly.
        if (len > need || !((reach_[k + 1] >> (need - len)) & 1)) continue;
        State t = s;
        // Orbits are taken in increasing order, each compatible with all taken.
        for (int x = 0; x < words_; ++x) t.cand[x] &= compat_[k][x];
        for (int x = 0; x < w; ++x) t.cand[x] = 0;
        t.cand[w] &= (k & 63) == 63 ? 0 : ~std::uint64_t{0} << ((k & 63) + 1);
        ++t.chosen;
        if (take(t, k)) dfs(t, md);
      }
  }

  int n_;
  int words_ = 1;  // of an orbit bit set
  CircleOrbits orb_;
  // reach_[k] bit s: some set of orbits k, k+1, ... has s elements in total.
  std::vector<std::uint64_t> reach_;
  // compat_[k]: orbits whose union with orbit k repeats no difference.
  std::vector<CircleOrbitBits> compat_;
  std::vector<int> sizes_;                     // distinct orbit sizes
  std::vector<CircleOrbitBits> size_masks_;    // orbits of each size
  std::vector<State> roots_;                   // the two branches
  std::vector<int> inverse_;                   // of each unit mod v, 0 for non-units
};

// Runs {"name":"circle","n":N,"method":...} (see problems.cpp).
SpecRun run_circle_spec(const nlohmann::json& spec, const RunOptions& ro);

}  // namespace magic
