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

#include "magic/core/error.hpp"
#include "magic/family_command.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"

namespace magic {

inline constexpr int kCircleMinN = 3;
inline constexpr int kCircleMaxN = 40;
// What one level of --split-depth is, per method.
inline constexpr const char* kCircleLevels = "exhaustive: a level is one placed number (1 is placed at the root)";
inline constexpr const char* kCircleMultiplierLevels = "multiplier: a level is one orbit taken into the difference set";
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

// Throws SpecError with a one-line message for n outside 3..40.
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
// path; only where each one goes branches.
//
// What this search adds (perf/results/circle.md has the measurements):
//
//  1. Complementary arcs.  A run of placed numbers with sum s also fixes the
//     sum S - s of the complementary arc (S = n(n-1)+1, the total).  So the
//     set `used` holds s and S - s for every run; a new run sum must avoid
//     both.  Valid because the complement of a run inside the placed
//     numbers always contains an empty place, so it is a different arc from
//     any run.
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
//  4. Runs float ("path cover").  A represented sum never crosses an empty
//     place, so everything the checks see is the *set* of maximal runs of
//     placed numbers: neither where a run sits nor which run follows which
//     around the circle matters until two runs are joined.  The state is
//     that set, and m either starts a new run, extends a run at one end, or
//     joins run a (left) to run b (right) as a, m, b.  k runs need k empty
//     places between them, so k <= r.  Every circle is reached by exactly one
//     sequence of moves (each move is read off the finished circle), and the
//     states that only differ in the cyclic order of their runs are one
//     state: with k runs that merges (k-1)! states of a search that fixes
//     the order (maenjin2's, or one with ordered gaps).
//
//  5. Mirror images.  Values are distinct, so a state is its own mirror
//     image exactly when every run is a single number.  Only then do a move
//     and its mirror image (extend a run at its left end / at its right end;
//     join a, m, b / join b, m, a) lead to mirror-image subtrees, and only
//     one of each pair is taken: extend right, and join a before b when a's
//     number is smaller.  No circle is its own mirror image (n >= 3 distinct
//     values), so every class is found exactly once.
//
//  6. Sum of squares.  Over all arcs of a magic circle, sum(arc^2) equals
//     1^2 + ... + (S-1)^2.  When k = r <= 3 every empty place is a single
//     place between two runs, and joining a, m, b also fixes the cyclic
//     order of all runs; then every arc that holds some but not all empty
//     places is a run through one place or the complement of one (see
//     square_at), and those arcs must take exactly the free values.  With m
//     at one place and the others summing to a known total that is one
//     quadratic equation in one unknown, which rarely has an integer root.
//     It is checked for each join before the join's sums are.  Valid: a
//     necessary condition on every completion.
//
//  7. Lookahead.  At r = 4, a move whose child will have k = r = 3 first
//     runs that child's square checks (peek3), after the move's own sums
//     with each run and before its cross sums; almost none of those
//     children has a move.
//
//  8. Runs as bit sets.  Each run keeps the set of its suffix sums and of
//     its prefix sums as bit sets, so "m + every suffix sum of run a is
//     free" is one test: (used >> m) & suf(a) == 0, with used >> m
//     formed once per node.  This replaced a walk along the run (and its
//     mispredicted loop exits) and made the full test as cheap as the old
//     neighbour test, so the lookahead's tests for m2 are full tests too.
//
//       run a = [3 1 4]      suf(a) = {4, 5, 8}   pre(a) = {3, 4, 8}
//       a, m:  m+4, m+5, m+8 free   <=>   (used >> m) & suf(a) == 0
//       a, x:  suf(a, x) = (suf(a) << x) | {x}    (grown)
//
//   What each step gained, and what was tried and dropped: perf/results/circle.md.
// ---------------------------------------------------------------------------

// A task: the search state after the first placements (trivially copyable).
// The runs are a set; `seq` lists them in the search's own order.
struct CircleState {
  std::array<std::uint64_t, kCircleMaxWords> used;  // represented sums (s and S - s)
  std::array<std::uint16_t, 2 * kCircleMaxN> seq;    // the runs, each followed by 0
  std::uint16_t sum;    // of the placed numbers
  std::uint16_t next;   // the smallest number not represented: placed next
  std::uint8_t len;     // used part of seq
  std::uint8_t runs;
  std::uint8_t placed;
};
static_assert(std::is_trivially_copyable_v<CircleState>);

// The search proper, for sets of W words (sums 0..S and padding, see root).
// In the header so that the per-node counting and the emission go straight
// into the task context.
//
//   runs (a set):   [1 4 2]   [7]   [3 9]        k = 3 runs, r >= 3 places left
//   moves for m:    [1 4 2 m]  [m 1 4 2]  ...    extend (k <= r-1 after)
//                   [1 4 2 m 7]  [3 9 m 1 4 2]   join a, m, b (any ordered pair)
//                   [m]                          new run (k+1 <= r-1)
//
// A run lives in buf_[slot][beg_..end_), growing both ways from the middle;
// ids_[0..k) are the live slots.  Every move is undone on the way back.
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
    const int S = n * (n - 1) + 1;
    set(0);
    set(1);  // the arc {1} and its complement, the other n-1 numbers
    set(S - 1);
    for (int x = S; x < 64 * W; ++x) set(x);  // never free
    s.seq[0] = 1;
    s.seq[1] = 0;
    s.len = 2;
    s.runs = 1;
    s.placed = 1;
    s.sum = 1;
    s.next = 2;
    return s;
  }

  // Visits the states `depth` placements below `s` (or leaves reached
  // earlier) in a fixed order.
  template <class F>
  void expand(const CircleState& s, int depth, F&& sink) {
    load(s);
    ExpandMode<CircleState> ex{sink, s.placed + depth};  // levels here are placed counts
    node(u_start_, next_, ex);
  }

  template <class Ctx>
  void solve(const CircleState& s, Ctx& ctx) {
    load(s);
    SolveMode<Ctx> sv{ctx};
    node(u_start_, next_, sv);
  }

 private:
  // Per run: its prefix sums p (from the left end) and suffix sums q (from
  // the right end), as count and sums of p, p^2, q, q^2.  Enough to know
  // sum of c and c^2 over all runs through a place (see square_at).
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
      const RunStats am = a.then(m);
      RunStats r = am;
      const std::int64_t k = am.tot, j = b.tot;
      r.len += b.len;
      r.tot += b.tot;
      r.p1 += b.len * k + b.p1;
      r.p2 += b.len * k * k + 2 * k * b.p1 + b.p2;
      // suffix sums of the result: b's, then j + (suffixes of a.then(m))
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
  // sum over those c of phi(x + c), phi(s) = s^2 + (S-s)^2 (a run and its
  // complementary arc), written as al x^2 + be x + ga.
  struct Quad {
    std::int64_t al, be, ga;
  };
  Quad quad(const Through& t) const {
    const std::int64_t S = S_;
    return {2 * t.count, 4 * t.c1 - 2 * S * t.count, t.count * S * S - 2 * S * t.c1 + 2 * t.c2};
  }
  static std::int64_t eval(const Quad& q, std::int64_t x) { return (q.al * x + q.be) * x + q.ga; }
  // quad(through(x, y)) factored into a part of x (as the left run) and a
  // part of y (as the right run), so that the quads of every ordered pair
  // of a few runs cost a few multiplications each:
  //   al = 2 Lx Ly,  be = Ly ux + Lx vy,  ga = Ly gx + Lx hy + 4 q1x p1y.
  struct Sides {
    std::int64_t l, q1, u, g, p1, v, h;
  };
  Sides sides(const RunStats& r) const {
    const std::int64_t S = S_, l = r.len + 1;
    return {l, r.q1, 4 * r.q1 - 2 * S * l, l * S * S - 2 * S * r.q1 + 2 * r.q2, r.p1, 4 * r.p1, 2 * r.p2 - 2 * S * r.p1};
  }
  static Quad quad(const Sides& x, const Sides& y) {
    return {2 * x.l * y.l, y.l * x.u + x.l * y.v, y.l * x.g + x.l * y.h + 4 * x.q1 * y.p1};
  }
  std::int64_t phi(std::int64_t s) const { return s * s + (S_ - s) * (S_ - s); }

  // 6. The square identity with the r = 2 or 3 places in cyclic order
  // p[0], p[1], (p[2]) and m at p[0].  For r = 3 the arcs through one place
  // and their complements are all arcs that hold some but not all empty
  // places; for r = 2 the arcs through one place are the complements of
  // those through the other, so p[0]'s alone cover every free value once,
  // with their complements.
  // z and sum: those of the state m is placed into.
  bool square_at(const Quad* p, int r, int m, std::int64_t z, int sum) const {
    const std::int64_t target = all_squares_ - z;
    if (r == 2) return eval(p[0], m) == target;
    // x at p[1], rest - x at p[2]:  A x^2 + B x + C = 0
    const std::int64_t rest = S_ - sum - m;
    const std::int64_t A = p[1].al + p[2].al;
    const std::int64_t B = p[1].be - 2 * p[2].al * rest - p[2].be;
    const std::int64_t C = eval(p[0], m) - target + p[1].ga + eval(p[2], rest);
    const std::int64_t disc = B * B - 4 * A * C;
    if (disc < 0) return false;
    // Below 2^52 a double holds disc exactly and its rounded square root is
    // exact when disc is a square, so one product tells.
    std::int64_t q = static_cast<std::int64_t>(std::sqrt(static_cast<double>(disc)));
    if (disc >= (std::int64_t{1} << 52)) {
      while (q * q > disc) --q;
      while ((q + 1) * (q + 1) <= disc) ++q;
    }
    if (q * q != disc) return false;  // no integer root
    for (const std::int64_t num : {-B - q, -B + q}) {
      if (num % (2 * A)) continue;
      const std::int64_t x = num / (2 * A);
      if (x > m && rest - x > m && 2 * x != rest) return true;
    }
    return false;
  }
  // Joining runs at positions ia, ib (of k = r) with m: the cyclic order is
  // ia, ib, then the third run if any.
  bool square_join(int r, int ia, int ib, int m) const {
    Quad p[3]{};
    const RunStats& a = stats_[ids_[ia]];
    const RunStats& b = stats_[ids_[ib]];
    p[0] = quad(through(a, b));
    if (r == 3) {
      const RunStats& c = stats_[ids_[3 - ia - ib]];
      p[1] = quad(through(b, c));
      p[2] = quad(through(c, a));
    }
    return square_at(p, r, m, z_, sum_);
  }

  // 7. Lookahead.  A child with k = r = 3 can only join two of its runs,
  // each join checked by the square identity first, and almost all of
  // those checks fail.  So before a move that makes such a child, its checks are
  // run here, without building it: the child's runs are x0 (the run the
  // move makes, statistics j) and the runs at positions c, d; its next
  // number is m2, the smallest free number of u after m, which the caller
  // has made sure the move's new sums do not hit.  m2's tests against each
  // side of a run use u instead of the child's larger used set (and only
  // the neighbour m on x0's new end), so they pass at least as often.
  // Exact otherwise: a move rejected here is one whose child has no move.
  // (If S - m2 were a new sum, the child would fail its sum bound: its
  // new run would be longer than S - 3 m2.)
  //
  // peek_places: the places m2 may take in the child by those tests, per
  // cyclic order (3 bits each); place t of order o lies between o[t] (left)
  // and o[t + 1] (right).  No place: the child has no move.
  static constexpr int kOrder[2][3] = {{0, 1, 2}, {0, 2, 1}};
  static unsigned peek_places(unsigned j_ok_r, unsigned j_ok_l, int c, int d, std::uint64_t ok_r2,
                              std::uint64_t ok_l2) {
    const unsigned ok_r = j_ok_r | static_cast<unsigned>((ok_r2 >> c) & 1) << 1 | static_cast<unsigned>((ok_r2 >> d) & 1) << 2;
    const unsigned ok_l = j_ok_l | static_cast<unsigned>((ok_l2 >> c) & 1) << 1 | static_cast<unsigned>((ok_l2 >> d) & 1) << 2;
    unsigned places = 0;
    for (int oi = 0; oi < 2; ++oi)
      for (int t = 0; t < 3; ++t) {
        const int* o = kOrder[oi];
        places |= ((ok_r >> o[t]) & (ok_l >> o[(t + 1) % 3]) & 1u) << (3 * oi + t);
      }
    return places;
  }
  bool peek3(const RunStats& j, unsigned places, int c, int d, int m2, std::int64_t z, int sum) const {
    if (3 * m2 + 3 > S_ - sum) return false;
    const Sides x[3] = {sides(j), sides(stats_[ids_[c]]), sides(stats_[ids_[d]])};
    // Two cyclic orders of three runs, each with three places between them;
    // the three quads of an order serve all of its places.
    for (int oi = 0; oi < 2; ++oi) {
      const int* o = kOrder[oi];
      unsigned at = (places >> (3 * oi)) & 7u;
      if (!at) continue;
      const Quad q[3] = {quad(x[o[0]], x[o[1]]), quad(x[o[1]], x[o[2]]), quad(x[o[2]], x[o[0]])};
      for (; at; at &= at - 1) {
        const int t = std::countr_zero(at);
        const Quad p[3] = {q[t], q[(t + 1) % 3], q[(t + 2) % 3]};
        if (square_at(p, 3, m2, z, sum)) return true;
      }
    }
    return false;
  }
  // Is d one of the sums a join of runs a (left) and b (right) makes with m,
  // less m: a suffix sum of a, a prefix sum of b, or one of each?
  bool hits(int d, int a, int b) const {
    if (bit(suf_[a], d) || bit(pre_[b], d)) return true;
    for (int w = 0; w <= (d - 1) >> 6; ++w) {
      std::uint64_t x = suf_[a][w];
      if (w == (d - 1) >> 6) x &= ~std::uint64_t{0} >> (63 - ((d - 1) & 63));  // t < d
      for (; x; x &= x - 1)
        if (bit(pre_[b], d - (w * 64 + std::countr_zero(x)))) return true;
    }
    return false;
  }

  static bool bit(const Bits& u, int x) { return (u[x >> 6] >> (x & 63)) & 1; }
  static void set_bit(Bits& u, int x) { u[x >> 6] |= std::uint64_t{1} << (x & 63); }
  static void clear_bit(Bits& u, int x) { u[x >> 6] &= ~(std::uint64_t{1} << (x & 63)); }
  // out |= x << s (bits beyond the top are dropped).
  static void shl_or(const Bits& x, int s, Bits& out) {
    const int q = s >> 6, b = s & 63;
    for (int i = W - 1; i >= q; --i) {
      const std::uint64_t lo = i - q - 1 >= 0 ? x[i - q - 1] : 0;
      out[i] |= (x[i - q] << b) | ((lo >> 1) >> (63 - b));
    }
  }
  // The suffix sums of a run with x appended at its right end, from the
  // run's suffix sums s: x and x + s (likewise prefix sums, x prepended).
  static Bits grown(const Bits& s, int x) {
    Bits t{};
    shl_or(s, x, t);
    set_bit(t, x);
    return t;
  }
  // out = x >> s.
  static void shr(const Bits& x, int s, Bits& out) {
    const int q = s >> 6, b = s & 63;
    for (int i = 0; i < W; ++i) {
      const std::uint64_t lo = i + q < W ? x[i + q] : 0;
      const std::uint64_t hi = i + q + 1 < W ? x[i + q + 1] : 0;
      out[i] = (lo >> b) | ((hi << 1) << (63 - b));
    }
  }
  // Whether a and b meet in their first nw words: enough when every run sum
  // is below 64 nw.
  static bool meets_n(const Bits& a, const Bits& b, int nw) {
    std::uint64_t acc = a[0] & b[0];
    for (int i = 1; i < nw && i < W; ++i) acc |= a[i] & b[i];
    return acc != 0;
  }
  // Takes sum x (and so its complement); false if it is taken already, which
  // also catches two new sums that are each other's complement.
  bool add(Bits& u, int x) const {
    const std::uint64_t b = std::uint64_t{1} << (x & 63);
    if (u[x >> 6] & b) return false;
    u[x >> 6] |= b;
    set_bit(u, S_ - x);
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
    k_ = 0;
    int i = 0;
    while (i < s.len) {
      const int id = k_++;
      beg_[id] = end_[id] = kMaxN;
      while (s.seq[i]) buf_[id][end_[id]++] = s.seq[i++];
      ++i;  // the separator
      ids_[id] = static_cast<std::uint8_t>(id);
      RunStats& st = stats_[id];
      st = RunStats{};
      suf_[id] = Bits{};
      pre_[id] = Bits{};
      for (int p = beg_[id]; p < end_[id]; ++p) {
        const int x = buf_[id][p];
        suf_[id] = grown(suf_[id], x);
        set_bit(pre_[id], static_cast<int>(st.tot) + x);
        st = st.then(x);
      }
    }
    slots_ = k_;
    z_ = 0;
    for (int f = 1; f <= half_; ++f)
      if (bit(u_start_, f)) z_ += phi(f);
  }

  CircleState snapshot(const Bits& u, int m) const {
    CircleState s{};
    for (int w = 0; w < W; ++w) s.used[w] = u[w];
    int len = 0;
    for (int i = 0; i < k_; ++i) {
      const int id = ids_[i];
      for (int p = beg_[id]; p < end_[id]; ++p) s.seq[len++] = buf_[id][p];
      s.seq[len++] = 0;
    }
    s.len = static_cast<std::uint8_t>(len);
    s.runs = static_cast<std::uint8_t>(k_);
    s.placed = static_cast<std::uint8_t>(placed_);
    s.sum = static_cast<std::uint16_t>(sum_);
    s.next = static_cast<std::uint16_t>(m);
    return s;
  }

  CircleSolution complete() const {
    // One run of n-1 numbers; the last number closes the circle.
    CircleSolution c{};
    const int id = ids_[0];
    int k = 0;
    for (int p = beg_[id]; p < end_[id]; ++p) c[k++] = buf_[id][p];
    c[k] = static_cast<std::uint16_t>(S_ - sum_);
    return circle_canonical(c, n_);
  }

  // The sums of run `id` read from its right end (last, last + second last,
  // ...) into out; returns how many.
  int suffix_sums(int id, std::uint16_t* out) const {
    const std::uint16_t* lo = buf_[id] + beg_[id];
    const std::uint16_t* p = buf_[id] + end_[id];
    int t = 0, c = 0;
    while (p != lo) out[c++] = static_cast<std::uint16_t>(t += *--p);
    return c;
  }
  int prefix_sums(int id, std::uint16_t* out) const {
    const std::uint16_t* p = buf_[id] + beg_[id];
    const std::uint16_t* hi = buf_[id] + end_[id];
    int t = 0, c = 0;
    while (p != hi) out[c++] = static_cast<std::uint16_t>(t += *p++);
    return c;
  }
  // Takes m and m + every sum of sa[0..la) (and of sb, and m + sa + sb for a
  // join); false if any is taken or two coincide.
  bool take_run(Bits& v, int m, const std::uint16_t* sa, int la) const {
    bool ok = add(v, m);
    for (int i = 0; ok && i < la; ++i) ok = add(v, m + sa[i]);
    return ok;
  }
  bool take_join(Bits& v, int m, const std::uint16_t* sa, int la, const std::uint16_t* sb, int lb) const {
    if (!take_run(v, m, sa, la)) return false;
    for (int j = 0; j < lb; ++j) {
      const int base = m + sb[j];
      if (!add(v, base)) return false;
      for (int i = 0; i < la; ++i)
        if (!add(v, base + sa[i])) return false;
    }
    return true;
  }

  // One node: place m by extending, joining or opening runs.  Longer than a
  // screen on purpose: the three move loops share the lookahead computed
  // once per node (m2 and its sides), which pieces would pass or recompute.
  template <class Mode>
  void node(const Bits& u, int m, Mode& md) {
    const int r = n_ - placed_;  // numbers still to place
    if (md.enter(placed_, r == 1, [&] { return snapshot(u, m); })) return;
    if (r == 1) return md.emit(complete());
    if (r * m + r * (r - 1) / 2 > S_ - sum_) return;
    const int k = k_;
    const bool mirror = k == placed_;  // every run a single number

    // Which runs x may go right of (ok_r) and left of (ok_l): x + every
    // suffix (prefix) sum of the run is free (8.).
    const int nw = (sum_ >> 6) + 1;  // words that hold every run sum (<= W)
    auto sides_free = [&](int x, std::uint64_t& ok_r, std::uint64_t& ok_l) {
      Bits sh;
      shr(u, x, sh);
      for (int i = 0; i < k; ++i) {
        const int id = ids_[i];
        ok_r |= std::uint64_t{!meets_n(sh, suf_[id], nw)} << i;
        ok_l |= std::uint64_t{!meets_n(sh, pre_[id], nw)} << i;
      }
    };
    std::uint64_t ok_r = 0, ok_l = 0;
    sides_free(m, ok_r, ok_l);
    if (k == r && r <= 3 && !mirror) {
      endgame(u, m, r, ok_r, ok_l, md);
      return;
    }

    // Lookahead (7.) for the moves whose child has k = r = 3: extending at
    // k = 3 and joining at k = 4 when r = 4 (not at n = 6, where that child
    // is a mirror state).  m2, the child's next number, and the same tests
    // for it against u, which only the child's new sums can tighten.
    int m2 = S_;
    std::uint64_t ok_r2 = 0, ok_l2 = 0;
    if (r == 4 && placed_ != 2) {
      m2 = next_free(u, m + 1);
      if (m2 < S_) sides_free(m2, ok_r2, ok_l2);
    }
    const bool peek = m2 < S_;
    const int d2 = m2 - m;  // m2 is the child's next number unless a new sum is m2
    std::uint16_t sa[kMaxN], sb[kMaxN];
    if (k < r) {  // extending keeps k runs, which need k places: k <= r - 1
      const bool look = peek && k == 3;
      for (std::uint64_t t = ok_r; t; t &= t - 1) {
        const int i = std::countr_zero(t);
        if (look && !bit(suf_[ids_[i]], d2)) {
          const int c = i == 0 ? 1 : 0, d = i == 2 ? 1 : 2;
          const unsigned pl =
              peek_places(unsigned{!bit(u, m2 + m)}, static_cast<unsigned>((ok_l2 >> i) & 1), c, d, ok_r2, ok_l2);
          if (!pl) continue;
          const RunStats& a = stats_[ids_[i]];
          if (!peek3(a.then(m), pl, c, d, m2, z_ + phi_sum(through(a, RunStats{}), m), sum_ + m)) continue;
        }
        Bits v = u;
        if (take_run(v, m, sa, suffix_sums(ids_[i], sa))) extend_right(v, i, m, md);
      }
      if (!mirror)  // at a mirror state extending left mirrors extending right
        for (std::uint64_t t = ok_l; t; t &= t - 1) {
          const int i = std::countr_zero(t);
          if (look && !bit(pre_[ids_[i]], d2)) {
            const int c = i == 0 ? 1 : 0, d = i == 2 ? 1 : 2;
            const unsigned pl =
                peek_places(static_cast<unsigned>((ok_r2 >> i) & 1), unsigned{!bit(u, m2 + m)}, c, d, ok_r2, ok_l2);
            if (!pl) continue;
            const RunStats& a = stats_[ids_[i]];
            if (!peek3(a.after(m), pl, c, d, m2, z_ + phi_sum(through(RunStats{}, a), m), sum_ + m)) continue;
          }
          Bits v = u;
          if (take_run(v, m, sb, prefix_sums(ids_[i], sb))) extend_left(v, i, m, md);
        }
    }
    const bool look = peek && k == 4;
    for (std::uint64_t ta = ok_r; ta; ta &= ta - 1) {
      const int a = std::countr_zero(ta);
      for (std::uint64_t tb = ok_l & ~(std::uint64_t{1} << a); tb; tb &= tb - 1) {
        const int b = std::countr_zero(tb);
        // At a mirror state (all runs single numbers) a, m, b mirrors b, m, a.
        if (mirror && buf_[ids_[b]][beg_[ids_[b]]] < buf_[ids_[a]][beg_[ids_[a]]]) continue;
        if (look && !hits(d2, ids_[a], ids_[b])) {
          const int c = std::countr_zero(0xFu & ~(1u << a) & ~(1u << b));
          const int d = 6 - a - b - c;
          const unsigned pl = peek_places(static_cast<unsigned>((ok_r2 >> b) & 1),
                                          static_cast<unsigned>((ok_l2 >> a) & 1), c, d, ok_r2, ok_l2);
          if (!pl) continue;
          const RunStats& x = stats_[ids_[a]];
          const RunStats& y = stats_[ids_[b]];
          if (!peek3(RunStats::join(x, m, y), pl, c, d, m2, z_ + phi_sum(through(x, y), m), sum_ + m)) continue;
        }
        Bits v = u;
        const int la = suffix_sums(ids_[a], sa);
        if (take_join(v, m, sa, la, sb, prefix_sums(ids_[b], sb))) join(v, a, b, m, md);
      }
    }
    if (k + 1 < r) {  // a new run: k + 1 runs need k + 1 places, r - 1 are left
      Bits v = u;
      add(v, m);
      new_run(v, m, md);
    }
  }

  // k = r <= 3: every empty place lies between two runs, so m can only join
  // two runs, and that fixes the cyclic order: the square identity first.
  template <class Mode>
  void endgame(const Bits& u, int m, int r, std::uint64_t ok_r, std::uint64_t ok_l, Mode& md) {
    std::uint16_t sa[kMaxN], sb[kMaxN];
    for (std::uint64_t ta = ok_r; ta; ta &= ta - 1) {
      const int a = std::countr_zero(ta);
      int la = -1;
      for (std::uint64_t tb = ok_l & ~(std::uint64_t{1} << a); tb; tb &= tb - 1) {
        const int b = std::countr_zero(tb);
        if (!square_join(r, a, b, m)) continue;
        if (la < 0) la = suffix_sums(ids_[a], sa);
        Bits v = u;
        if (take_join(v, m, sa, la, sb, prefix_sums(ids_[b], sb))) join(v, a, b, m, md);
      }
    }
  }

  template <class Mode>
  void child(const Bits& v, int m, Mode& md) {
    sum_ += m;
    ++placed_;
    node(v, next_free(v, m + 1), md);
    --placed_;
    sum_ -= m;
  }
  template <class Mode>
  void extend_right(const Bits& v, int i, int m, Mode& md) {
    const int id = ids_[i];
    const RunStats old = stats_[id];
    const Bits old_suf = suf_[id];
    const std::int64_t old_z = z_;
    z_ += phi_sum(through(old, RunStats{}), m);
    stats_[id] = old.then(m);
    suf_[id] = grown(old_suf, m);
    set_bit(pre_[id], static_cast<int>(old.tot) + m);
    buf_[id][end_[id]++] = static_cast<std::uint16_t>(m);
    child(v, m, md);
    --end_[id];
    stats_[id] = old;
    suf_[id] = old_suf;
    clear_bit(pre_[id], static_cast<int>(old.tot) + m);
    z_ = old_z;
  }
  template <class Mode>
  void extend_left(const Bits& v, int i, int m, Mode& md) {
    const int id = ids_[i];
    const RunStats old = stats_[id];
    const Bits old_pre = pre_[id];
    const std::int64_t old_z = z_;
    z_ += phi_sum(through(RunStats{}, old), m);
    stats_[id] = old.after(m);
    pre_[id] = grown(old_pre, m);
    set_bit(suf_[id], static_cast<int>(old.tot) + m);
    buf_[id][--beg_[id]] = static_cast<std::uint16_t>(m);
    child(v, m, md);
    ++beg_[id];
    stats_[id] = old;
    pre_[id] = old_pre;
    clear_bit(suf_[id], static_cast<int>(old.tot) + m);
    z_ = old_z;
  }
  // Run at position ia, then m, then run at position ib (which leaves the set).
  template <class Mode>
  void join(const Bits& v, int ia, int ib, int m, Mode& md) {
    const int a = ids_[ia], b = ids_[ib];
    const RunStats old_a = stats_[a];
    const Bits old_suf = suf_[a], old_pre = pre_[a];
    const std::int64_t old_z = z_;
    z_ += phi_sum(through(old_a, stats_[b]), m);
    {
      const int ta = static_cast<int>(old_a.tot), tb = static_cast<int>(stats_[b].tot);
      Bits s = suf_[b];
      shl_or(old_suf, m + tb, s);
      set_bit(s, m + tb);
      suf_[a] = s;
      set_bit(pre_[a], ta + m);
      shl_or(pre_[b], ta + m, pre_[a]);
    }
    stats_[a] = RunStats::join(old_a, m, stats_[b]);
    const int saved = end_[a];
    std::uint16_t* out = buf_[a] + end_[a];
    *out++ = static_cast<std::uint16_t>(m);
    for (int p = beg_[b]; p < end_[b]; ++p) *out++ = buf_[b][p];
    end_[a] = static_cast<std::uint8_t>(out - buf_[a]);
    std::swap(ids_[ib], ids_[k_ - 1]);
    --k_;
    child(v, m, md);
    ++k_;
    std::swap(ids_[ib], ids_[k_ - 1]);
    end_[a] = static_cast<std::uint8_t>(saved);
    stats_[a] = old_a;
    suf_[a] = old_suf;
    pre_[a] = old_pre;
    z_ = old_z;
  }
  template <class Mode>
  void new_run(const Bits& v, int m, Mode& md) {
    const int id = slots_++;
    const std::int64_t old_z = z_;
    beg_[id] = end_[id] = kMaxN;
    buf_[id][end_[id]++] = static_cast<std::uint16_t>(m);
    stats_[id] = RunStats{}.then(m);
    suf_[id] = Bits{};
    set_bit(suf_[id], m);
    pre_[id] = suf_[id];
    z_ += phi(m);
    const std::uint8_t old_id = ids_[k_];  // a run a join above moved out of the set
    ids_[k_++] = static_cast<std::uint8_t>(id);
    child(v, m, md);
    ids_[--k_] = old_id;
    --slots_;
    z_ = old_z;
  }
  std::int64_t phi_sum(const Through& t, std::int64_t x) const { return eval(quad(t), x); }

  int n_, S_, half_;
  std::int64_t all_squares_ = 0;  // sum of s^2 for s = 1..S-1
  std::int64_t z_ = 0;            // sum of s^2 over the represented sums (both halves)
  std::array<RunStats, kMaxN + 1> stats_{};
  // Per slot: the run's suffix sums (from its right end) and prefix sums as bit sets.
  std::array<Bits, kMaxN + 1> suf_{}, pre_{};
  Bits u_start_{};
  int sum_ = 0, next_ = 0, placed_ = 0;
  int k_ = 0, slots_ = 0;  // live runs, slots in use (a stack)
  std::array<std::uint8_t, kMaxN + 1> ids_{};
  std::array<std::uint8_t, kMaxN + 1> beg_{}, end_{};
  std::uint16_t buf_[kMaxN + 1][2 * kMaxN + 1]{};  // each run grows both ways from the middle
};

// Calls f(CircleSearch<W>&) with a W that holds the S + 1 = n(n-1) + 2 bits
// 0..S: the smallest such W up to n = 20, beyond it the next of 8, 13, 25.
template <class F>
decltype(auto) with_circle_search(int n, F&& f) {
  const int words = (n * (n - 1) + 1) / 64 + 1;
  if (words <= 1) { CircleSearch<1> s(n); return f(s); }
  if (words <= 2) { CircleSearch<2> s(n); return f(s); }
  if (words <= 3) { CircleSearch<3> s(n); return f(s); }
  if (words <= 4) { CircleSearch<4> s(n); return f(s); }
  if (words <= 5) { CircleSearch<5> s(n); return f(s); }  // n = 17, 18
  if (words <= 6) { CircleSearch<6> s(n); return f(s); }
  if (words <= 8) { CircleSearch<8> s(n); return f(s); }
  if (words <= 13) { CircleSearch<13> s(n); return f(s); }
  CircleSearch<kCircleMaxWords> s(n);
  return f(s);
}

class CircleProblem {
 public:
  using State = CircleState;
  using Solution = CircleSolution;

  explicit CircleProblem(int n) : n_(n) { validate_circle({n, CircleMethod::Exhaustive}); }

  nlohmann::json describe() const { return {{"name", "circle"}, {"n", n_}, {"method", "exhaustive"}}; }
  static constexpr const char* kSearch = "circle/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return kCircleLevels; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }
  int n() const { return n_; }

  // The two walks, not inline, so that the library compiles them once:
  // cut in circle.cpp, solve's runner instance in run_circle.cpp (declared
  // extern at the end of this header).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& st, Ctx& ctx) const;

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
  static constexpr const char* kSearch = "circle-multiplier/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return kCircleMultiplierLevels; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }

  // Not inline, as CircleProblem's.
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

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
    const bool leaf = s.size == n_;
    if (md.enter(s.chosen, leaf, s)) return;
    if (leaf) {
      if (s.sum == 0)
        for (const Solution& c : circles_from(s)) md.emit(c);
      return;
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

template <class Ctx>
void CircleProblem::solve(const State& st, Ctx& ctx) const {
  with_circle_search(n_, [&](auto& s) { s.solve(st, ctx); });
}

template <class Ctx>
void CircleMultiplierProblem::solve(const State& s, Ctx& ctx) const {
  SolveMode<Ctx> sv{ctx};
  dfs(s, sv);
}

static_assert(Problem<CircleProblem>);
static_assert(Problem<CircleMultiplierProblem>);

// {"n": N, "solver": "exhaustive"}; "method", the field's name until
// 0.1.0, is read too, and stays the name in the echo (describe()), which
// journal headers and record results hold.  Throws SpecError.
CircleSpec circle_spec_from_json(const nlohmann::json& spec);

// The registry's entry (magic/registry.hpp).
struct CircleFamily {
  static constexpr const char* kName = "circle";
  static constexpr Picture kPicture = Picture::Circle;
  static std::string levels_help() { return std::string(kCircleLevels) + "; " + kCircleMultiplierLevels; }
  static FamilyCommand command();  // circle.cpp
  static const char* field_values(const std::string& field) {
    return field == "solver" || field == "method" ? kCircleMethodNames : nullptr;
  }
  static bool is_field_value(const std::string& field, const std::string& v) {
    return field_values(field) && parse_circle_method(v).has_value();
  }
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    const CircleSpec s = circle_spec_from_json(spec);
    if (s.method == CircleMethod::Exhaustive) return f(CircleProblem(s.n));
    return f(CircleMultiplierProblem(s.n));
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// Their cuts are compiled in engine/src/families/circle/circle.cpp, the rest in
// engine/src/families/circle/run_circle.cpp.
namespace magic {
MAGIC_RUN_AS(extern, CircleProblem)
MAGIC_RUN_AS(extern, CircleMultiplierProblem)
}  // namespace magic
