#pragma once
// Magic stars {n/2}, n = 5..24: numbers on the 2n points of a star so that
// at least K of its n lines share one sum (K = n: a magic star).
//
// Geometry.  Vertices V0..V(n-1) go counterclockwise from the top; line i
// joins V(i) and V(i+2) and is crossed by lines i-1 and i+1 only.  Crossing
// I(j) is the inner point between V(j) and V(j+1).  Along line i:
//
//     V(i) -- I(i) -- I(i+1) -- V(i+2)          every point is on 2 lines:
//                                               V(i) on lines i and i-2,
//                                               I(j) on lines j-1 and j.
// Labels (the numbering users see):
//
//     point     general n     n = 5 (the documents' numbering)
//     V(i)      i             V0..V4 -> 0 1 8 9 4
//     I(j)      n + j         I0..I4 -> 2 5 7 6 3
//
// so for n = 5 the lines are those of seeds 000/002:
//
//                     0                      lines (sorted labels):
//                    / \                       [0,2,5,8]  [0,3,6,9]
//         1 ------- 2 - 3 ------- 4            [1,2,3,4]  [1,5,7,9]
//           ` .    /     \    . '              [4,6,7,8]
//               ` 5       6 '
//                / ` .  . ' \                V0..V4 = 0 1 8 9 4
//               /    . 7 .   \               I0..I4 = 2 5 7 6 3
//              /  . '     ' . \              (counterclockwise)
//             8 '             ' 9
//
// Symmetry: the dihedral group of order 2n.  Values are distinct, so every
// orbit has exactly 2n members.  Symmetry breaking (the documents' rule):
// V0 holds the smallest vertex value (fixes the rotation) and I0 < I(n-1),
// the two crossings next to V0 (fixes the mirror through V0).  With every
// number of a symmetric set placed (1..2n), the chain also halves the
// search with the complement x -> min + max - x (see complement_).
//
// Search (K = n).  S is fixed per task.  Values are bit positions p = v - min
// in 64-bit masks, so "both a and R - a are free" is one AND with a
// reversed copy of the free mask.  Order:
//   V0, I(n-1), I0;  V1 -> V(n-1) forced by line n-1;
//   chain level L = 0..n-5: pick I(L+1) -> V(L+2) forced by line L;
//   the last three unknowns I(n-3), V(n-2), I(n-2) solve lines n-4..n-2
//   as a 3x3 system.  I(n-3) does not depend on I(n-4), so it is known one
//   level early and filters that level's candidates with one more mask.
// n free choices in all, the other n points are forced.
//
// K < n (kept-lines, the default): every arrangement has one exact set E of
// lines with the common sum S (unique, as |E| >= K > n/2).  The search runs
// once per class of E under the symmetries and per S, in a point order made
// for that E: a line of E with one unknown forces it, points that several
// lines of E fix together are solved (found by elimination), and each choice
// is filtered by masks on the values it forces, as in the chain.  The lines
// outside E must end with another sum.  E = all lines is the chain search.
//
// K < n (partial-sums, the cross-check): a general partial-sum search in the
// chain's point order; lines that are complete with another sum, or can no
// longer reach S, spend a budget of n - K; once it is spent the last point
// of each line is forced.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "magic/star_geometry.hpp"

namespace magic {

// ---- problem spec ---------------------------------------------------------

// How the search runs.  Auto: chain for K = n, kept-lines for K < n.
// Partial-sums also runs K = n, and kept-lines any K (K = n is the chain):
// they cross-check each other.
enum class StarSolver { Auto, Chain, PartialSums, KeptLines };

struct StarSpec {
  int n = 5;
  std::vector<int> numbers;        // sorted, distinct; empty means 1..2n
  int equal_lines = 0;             // K; 0 means n
  std::optional<int> sum;          // fixed common sum
  bool symmetry_breaking = true;
  StarSolver solver = StarSolver::Auto;
};
const char* to_string(StarSolver s);

// "1..12", "1,2,4,5", "1..5,8,10..12".  Throws SpecError.
std::vector<int> parse_star_numbers(std::string_view text);
// "1..12" when contiguous, else "1,2,4".
std::string format_star_numbers(const std::vector<int>& sorted);
// Fills defaults and validates; throws SpecError with a one-line reason.
StarSpec normalize_star(StarSpec spec);
StarSpec star_spec_from_json(const nlohmann::json& spec);

namespace star_detail {
// Bit c of the result is set iff bit R - c of the mask m is set, where rm is
// m bit-reversed (bit 63 - p for every p in m).
inline std::uint64_t partner(std::uint64_t rm, int r) {
  if (r < 0 || r > 126) return 0;
  return r <= 63 ? rm >> (63 - r) : rm << (r - 63);
}
// m >> k for any k (negative: left), zero when everything shifts out.
inline std::uint64_t shift_down(std::uint64_t m, int k) {
  if (k >= 64 || k <= -64) return 0;
  return k >= 0 ? m >> k : m << -k;
}
inline std::uint64_t above(int p) { return p < 0 ? ~0ull : p >= 63 ? 0 : ~0ull << (p + 1); }
inline std::uint64_t below(int p) { return p <= 0 ? 0 : p >= 64 ? ~0ull : (1ull << p) - 1; }
// above(p) in bit-reversed form.
inline std::uint64_t reversed_above(int p) { return p >= 63 ? 0 : (1ull << (63 - p)) - 1; }
inline std::uint64_t reversed(std::uint64_t m) {
  std::uint64_t r = 0;
  for (; m; m &= m - 1) r |= 1ull << (63 - std::countr_zero(m));
  return r;
}

// The chain moves its masks by variable amounts, and without BMI2 a
// variable 64-bit shift is three micro-operations on Intel cores (shlx and
// shrx are one).  So a portable build also carries a copy of the chain
// compiled for BMI2 and takes it when the processor has BMI2; the copy is
// the same source, so it finds the same stars.  MAGIC_PORTABLE=1 in the
// environment keeps the portable copy (to compare the two).
// A sanitizer build (MAGIC_NO_BMI2_COPY) runs the portable copy, the same
// source: the copy only doubles the chain's build there.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__BMI2__) && \
    !defined(MAGIC_NO_BMI2_COPY)
#define MAGIC_STAR_BMI2_COPY 1
#else
#define MAGIC_STAR_BMI2_COPY 0
#endif
inline bool star_chain_uses_bmi2() {
#if MAGIC_STAR_BMI2_COPY
  const char* portable = std::getenv("MAGIC_PORTABLE");
  if (portable && *portable && std::string_view(portable) != "0") return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}
}  // namespace star_detail

template <int N>
class StarProblem {
 public:
  static constexpr int kPoints = 2 * N;
  static constexpr int kLastLevel = N - 5;      // chain level that solves the 3x3 system
  static constexpr int kGenericSteps = kPoints + 1;
  static_assert(N >= kStarMinN && N <= kStarMaxN);

  using Solution = std::array<std::uint16_t, kPoints>;  // values by label
  // free and rfree first, 16-byte aligned: a branch copies the state in
  // 16-byte pieces and then updates the two masks as one 16-byte value,
  // which must not straddle two of those pieces (a stalled load).
  struct alignas(16) State {
    std::uint64_t free;                     // positions of numbers still unused
    std::uint64_t rfree;                    // the same, bit-reversed (magic and kept-lines solvers)
    std::uint64_t vfloor;                   // bit-reversed positions a vertex may take
    std::array<std::uint8_t, kPoints> pos;  // bit position of the value, by internal point
    std::array<std::int16_t, N> part;       // partial line sums (partial-sum and kept-lines solvers)
    std::uint32_t bad;                      // lines lost to the budget (partial-sum solver),
                                            // lines that must miss S (kept-lines solver)
    std::uint32_t kset;                     // class of the equal lines (kept-lines solver)
    std::int16_t sum;                       // S in positions: S - 4 * min
    std::uint8_t step;
    std::uint8_t n_bad;
  };
  static_assert(std::is_trivially_copyable_v<State>);

  // max_plan_bytes: see kMaxPlanBytes (tests lower it to reach the per-task plans).
  // Builds the tables and plans; defined below the class and not inline,
  // as the walks are, so that only the library compiles it for each size.
  explicit StarProblem(const StarSpec& spec, std::size_t max_plan_bytes = kMaxPlanBytes);

  nlohmann::json describe() const {
    nlohmann::json j{{"name", "star"}, {"n", N}, {"numbers", format_star_numbers(spec_.numbers)},
                     {"equal_lines", k_}};
    if (spec_.sum) j["sum"] = *spec_.sum;
    if (!spec_.symmetry_breaking) j["symmetry_breaking"] = false;
    if (spec_.solver != StarSolver::Auto) j["solver"] = to_string(spec_.solver);
    return j;
  }
  // 2: the complement's symmetry became part of the task tree (7,905 tasks
  // at n = 16, depth 4, became 4,185), after the {16/2} record was journalled.
  static constexpr const char* kSearch = "star/2";  // core/problem.hpp: bump on a new task tree
  const char* describe_levels() const {
    return magic_ ? kStarChainLevels : solver_ == StarSolver::KeptLines ? kStarKeptLevels : kStarPointLevels;
  }
  Emits emits() const { return spec_.symmetry_breaking ? Emits::OnePerOrbit : Emits::AllImages; }
  // The chain runs its copy compiled for BMI2 (see star_chain_uses_bmi2).
  bool uses_bmi2_copy() const { return bmi2_; }
  // The run block names the chain's copy: the same stars either way, but
  // not the same speed, so a timed record says which one it timed.
  const char* kernel() const { return !magic_ ? "" : bmi2_ ? "bmi2" : "portable"; }
  bool has_group() const { return true; }

  template <class F>
  void expand(int depth, F&& sink) const {
    cut(depth, sink);
  }
  // The two walks, defined below the class and not inline, so that the
  // library compiles each size's walks once (declared extern at the end of
  // this header) and no other file again.
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

  // The lexicographically smallest of the 2n images (labels in order).  The
  // smallest image puts the smallest vertex value on V0 (label 0), so only
  // the rotation and the mirror through that vertex compete.
  Solution canonical(const Solution& s) const {
    const int i0 = smallest_vertex(s);
    return std::min(image(s, i0, false), image(s, i0, true));
  }
  // The image the chain's symmetry breaking picks: V0 the smallest vertex
  // and I0 < I(n-1) (canonical() may choose the other mirror image).
  Solution searched_orientation(const Solution& s) const {
    const int i0 = smallest_vertex(s);
    return image(s, i0, s[label_[I(i0)]] > s[label_[I(i0 - 1)]]);
  }
  int smallest_vertex(const Solution& s) const {
    int i0 = 0;
    for (int i = 1; i < N; ++i)
      if (s[label_[i]] < s[label_[i0]]) i0 = i;
    return i0;
  }
  // The rotation that brings vertex i0 to V0, or that and the mirror through V0.
  Solution image(const Solution& s, int i0, bool mirror) const {
    Solution a;
    for (int k = 0; k < N; ++k) {
      a[label_[V(k)]] = s[label_[mirror ? V(i0 - k) : V(k + i0)]];
      a[label_[I(k)]] = s[label_[mirror ? I(i0 - k - 1) : I(k + i0)]];
    }
    return a;
  }
  // Distinct values: a symmetry other than the identity moves some point
  // and so changes the arrangement.
  std::uint64_t orbit_size(const Solution&) const { return kPoints; }

  // The common sum: the one that at least K > n/2 lines share.
  std::int64_t key(const Solution& s) const {
    std::array<int, N> sums = line_sums(s);
    for (int i = 0; i < N; ++i)
      if (std::count(sums.begin(), sums.end(), sums[i]) >= k_) return sums[i];
    return 0;
  }
  std::array<int, N> line_sums(const Solution& s) const {
    std::array<int, N> out{};
    for (int i = 0; i < N; ++i)
      for (int p : lines_[i]) out[i] += s[p];
    return out;
  }
  nlohmann::json to_json(const Solution& s) const {
    const auto sums = line_sums(s);
    return {{"points", std::vector<int>(s.begin(), s.end())},
            {"sum", key(s)},
            {"line_sums", std::vector<int>(sums.begin(), sums.end())}};
  }
  // The lines, by label, beside the counts in a result file.
  nlohmann::json result_extra() const { return {{"lines", lines_}}; }

 private:
  static constexpr int V(int i) { return ((i % N) + N) % N; }
  static constexpr int I(int j) { return N + ((j % N) + N) % N; }

  State root() const {
    State s{};
    s.free = pool_;
    s.rfree = star_detail::reversed(pool_);
    s.vfloor = ~0ull;
    return s;
  }

  // Candidate sums S (positions).  All lines equal: 2 * (sum of the 2n
  // numbers used) = n * S bounds S; otherwise any sum of four numbers.
  void plan_sums() {
    const SumBounds b = sum_bounds();
    for (int s = b.lo4; s <= b.hi4; ++s) {
      if (spec_.sum && s != *spec_.sum) continue;
      if (budget_ == 0 && !fits_all_equal(s, b)) continue;
      sums_.push_back(s - 4 * base_);
    }
  }

  // The smallest and largest sums of 4 numbers (a line) and of 2n numbers
  // (all points) the number set allows.
  struct SumBounds {
    int lo4 = 0, hi4 = 0, lo2n = 0, hi2n = 0;
  };
  SumBounds sum_bounds() const {
    const auto& v = spec_.numbers;
    const int m = static_cast<int>(v.size());
    SumBounds b;
    for (int i = 0; i < 4; ++i) b.lo4 += v[i], b.hi4 += v[m - 1 - i];
    for (int i = 0; i < kPoints; ++i) b.lo2n += v[i], b.hi2n += v[m - 1 - i];
    return b;
  }
  // All n lines summing to S: every point is on two lines, so n * S is twice
  // the total of the 2n numbers used.
  static bool fits_all_equal(int S, const SumBounds& b) {
    return (N * S) % 2 == 0 && N * S / 2 >= b.lo2n && N * S / 2 <= b.hi2n;
  }

  // Out of line, so that the BMI2 copy's flatten leaves the emission (cold:
  // one call per star) out of the chain.
  template <class Mode>
  [[gnu::noinline]] void emit(const State& s, Mode& m) const {
    Solution sol;
    for (int p = 0; p < kPoints; ++p) sol[label_[p]] = static_cast<std::uint16_t>(s.pos[p] + base_);
    m.emit(sol);
    if (!complement_) return;
    int top = 0;
    for (int i = 1; i < N; ++i) top = std::max<int>(top, s.pos[V(i)]);
    if (s.pos[V(0)] + top == mirror_) return;  // its complement is found by the search too
    for (int p = 0; p < kPoints; ++p) sol[label_[p]] = static_cast<std::uint16_t>(mirror_ - s.pos[p] + base_);
    m.emit(searched_orientation(sol));
  }

  // ---- magic solver (K = n) ----------------------------------------------

  template <class Mode>
  void magic_top(State& s, Mode& m) const {
    using namespace star_detail;
    if (m.enter(s.step, false, s)) return;
    const std::uint64_t fr = s.free;
    auto take = [&](State& t, int point, int p) {
      t.pos[point] = static_cast<std::uint8_t>(p);
      t.free &= ~(1ull << p);
      t.rfree &= ~(1ull << (63 - p));
    };
    switch (s.step) {
      case 0:
        for (int S : sums_) {
          State t = s;
          t.sum = static_cast<std::int16_t>(S);
          t.step = 1;
          magic_top(t, m);
        }
        return;
      case 1:  // V0; with breaking the other n-1 vertices lie above it
        for (std::uint64_t f = fr; f; f &= f - 1) {
          const int p = std::countr_zero(f);
          if (spec_.symmetry_breaking && std::popcount(fr & vertex_window(p)) < N - 1) break;
          State t = s;
          take(t, V(0), p);
          if (spec_.symmetry_breaking) t.vfloor = reversed(vertex_window(p));
          t.step = 2;
          magic_top(t, m);
        }
        return;
      case 2:  // I(n-1)
        for (std::uint64_t f = fr; f; f &= f - 1) {
          State t = s;
          take(t, I(N - 1), std::countr_zero(f));
          t.step = 3;
          magic_top(t, m);
        }
        return;
      case 3: {  // I0, below I(n-1) with breaking
        const std::uint64_t c = spec_.symmetry_breaking ? fr & below(s.pos[I(N - 1)]) : fr;
        for (std::uint64_t f = c; f; f &= f - 1) {
          State t = s;
          take(t, I(0), std::countr_zero(f));
          t.step = 4;
          magic_top(t, m);
        }
        return;
      }
      case 4: {  // V1, and V(n-1) from line n-1
        const int r = s.sum - s.pos[I(N - 1)] - s.pos[I(0)];
        for (std::uint64_t f = fr & vertex_mask(s) & partner(s.rfree & s.vfloor, r); f; f &= f - 1) {
          const int c = std::countr_zero(f), w = r - c;
          if (c == w) continue;
          State t = s;
          take(t, V(1), c);
          take(t, V(N - 1), w);
          t.step = 5;
          chain_from(0, t, m);
        }
        return;
      }
    }
  }

  // Vertices other than V0 must exceed V0 when breaking symmetry.
  std::uint64_t vertex_mask(const State& s) const {
    return spec_.symmetry_breaking ? vertex_window(s.pos[V(0)]) : ~0ull;
  }
  // The positions the other vertices may take when V0 holds position p: above
  // it, and with the complement (see complement_) at most mirror - p.
  std::uint64_t vertex_window(int p) const {
    const std::uint64_t up = star_detail::above(p);
    return complement_ ? up & star_detail::below(mirror_ - p + 1) : up;
  }

  // The chain from `level` on, in the copy this processor runs fastest.
  template <class Mode>
  void chain_from(int level, State& s, Mode& m) const {
#if MAGIC_STAR_BMI2_COPY
    if constexpr (!Mode::kExpand) {
      if (bmi2_) return enter_chain<0, true>(level, s, m);
    }
#endif
    enter_chain<0, false>(level, s, m);
  }
#if MAGIC_STAR_BMI2_COPY
  // The BMI2 copy, one level at a time: flatten inlines the level's body
  // (and at the level before the last three, the tail and the 3x3 solve),
  // so it is compiled for BMI2, but stops at the next level's copy, which
  // is noinline.  Flattening the whole chain from each entry level instead
  // compiles the deep levels once per entry, and the build time grows with
  // the square of n (perf/results/build.md).
  template <int L, class Mode>
  [[gnu::target("bmi,bmi2"), gnu::flatten, gnu::noinline]] void chain_bmi2(State& s, std::uint64_t fr,
                                                                           std::uint64_t rf, Mode& m) const {
    chain<L, Mode, true>(s, fr, rf, m);
  }
#endif
  // Level L of the chain, in the portable copy or the BMI2 one.
  template <int L, bool kBmi2, class Mode>
  void chain_level(State& s, std::uint64_t fr, std::uint64_t rf, Mode& m) const {
#if MAGIC_STAR_BMI2_COPY
    if constexpr (kBmi2) return chain_bmi2<L>(s, fr, rf, m);
#endif
    chain<L, Mode, false>(s, fr, rf, m);
  }

  template <int L, bool kBmi2, class Mode>
  void enter_chain(int level, State& s, Mode& m) const {
    if constexpr (L <= kLastLevel) {
      if (level == L) chain_level<L, kBmi2>(s, s.free, s.rfree, m);
      else enter_chain<L + 1, kBmi2>(level, s, m);
    }
  }

  // Level L picks I(L+1); line L forces V(L+2).  `s.pos` is shared down the
  // recursion (each level writes only its own points); the masks are copied.
  // Longer than a screen: the 3x3 solve of the last level and the filter of
  // the level before it are `if constexpr` branches, so each level's
  // instance holds only its own code.
  template <int L, class Mode, bool kBmi2>
  void chain(State& s, std::uint64_t fr, std::uint64_t rf, Mode& m) const {
    using namespace star_detail;
    // The last levels are too near the leaves for the stop poll to pay.
    const auto task = [&] {
      s.free = fr;
      s.rfree = rf;
      s.step = static_cast<std::uint8_t>(5 + L);
      return s;
    };
    if (m.template enter<(L + 2 < kLastLevel)>(5 + L, L == kLastLevel, task)) return;
    if constexpr (!Mode::kExpand && L == kLastLevel - 2) return tail(s, fr, rf, m);
    const auto& p = s.pos;
    const int S = s.sum;
    const std::uint64_t rvf = rf & s.vfloor;          // free vertex values, reversed
    const int r = S - p[V(L)] - p[I(L)];             // I(L+1) + V(L+2)
    std::uint64_t cand = fr & partner(rvf, r);
    if constexpr (L == kLastLevel) {
      // Lines n-4, n-3, n-2 with x = I(n-3), y = V(n-2), z = I(n-2),
      // c = I(n-4), w = V(n-3) = r - c:
      //   x + y = a0 - c,  x + z = b0 + c,  y + z = d.
      const int d = S - p[I(N - 1)] - p[V(0)];
      const int a0 = S - p[V(N - 4)];
      const int b0 = S - r - p[V(N - 1)];
      const int t = a0 + b0 - d;
      if (t & 1) return;
      const int x = t / 2;
      if (x < 0 || x > 63 || !(fr >> x & 1)) return;
      std::uint64_t hits = cand & partner(rvf, a0 - x) & shift_down(fr, b0 - x);
      for (; hits; hits &= hits - 1) {
        const int c = std::countr_zero(hits);
        const int w = r - c, y = a0 - x - c, z = b0 - x + c;
        if (c == w || c == x || c == y || c == z || w == x || w == y || w == z || x == y || x == z || y == z)
          continue;
        if constexpr (!Mode::kExpand) {
          s.pos[I(L + 1)] = static_cast<std::uint8_t>(c);
          s.pos[V(L + 2)] = static_cast<std::uint8_t>(w);
          s.pos[I(N - 3)] = static_cast<std::uint8_t>(x);
          s.pos[V(N - 2)] = static_cast<std::uint8_t>(y);
          s.pos[I(N - 2)] = static_cast<std::uint8_t>(z);
          emit(s, m);
        }
      }
    } else {
      if constexpr (L == kLastLevel - 1) {
        // x = I(n-3) = I(n-5) + t0 / 2, so I(n-5) (this level's pick) needs x free.
        const int d = S - p[I(N - 1)] - p[V(0)];
        const int t0 = p[V(N - 6)] + p[I(N - 6)] + p[V(N - 5)] - p[V(N - 1)] - d;
        if (t0 & 1) return;
        cand &= shift_down(fr, t0 / 2);
      }
      for (; cand; cand &= cand - 1) {
        const int c = std::countr_zero(cand);
        const int w = r - c;
        if (c == w) continue;
        s.pos[I(L + 1)] = static_cast<std::uint8_t>(c);
        s.pos[V(L + 2)] = static_cast<std::uint8_t>(w);
        chain_level<L + 1, kBmi2>(s, fr & ~(1ull << c) & ~(1ull << w), rf & ~(1ull << (63 - c)) & ~(1ull << (63 - w)),
                                  m);
        if constexpr (!Mode::kExpand && L + 3 < kLastLevel)
          if (m.aborted()) return;  // deeper levels finish their few siblings
      }
    }
  }

  // The last three levels in one piece (n >= 7), for the search only: the
  // level-(n-5) offset K of x = I(n-3) does not depend on this level's pick,
  // and y, z depend only on the last pick c5, so everything is hoisted and a
  // pick with no continuation costs a few mask operations, not a call.
  //   c7 = I(n-6), w7 = V(n-5) = r7 - c7        (line n-7)
  //   c6 = I(n-5), w6 = V(n-4) = r6 - c6,  x = I(n-3) = c6 + K
  //   c5 = I(n-4), w5 = V(n-3) = t5 - c6 - c5,  y = V(n-2) = y0 - c5,  z = I(n-2) = z0 + c5
  template <class Mode>
  void tail(State& s, std::uint64_t fr, std::uint64_t rf, Mode& m) const {
    using namespace star_detail;
    const auto& p = s.pos;
    const int S = s.sum;
    const std::uint64_t rvf = rf & s.vfloor;
    const int r7 = S - p[V(N - 7)] - p[I(N - 7)];
    const int d = S - p[I(N - 1)] - p[V(0)];
    const int last = p[V(N - 1)];
    const int t0 = p[V(N - 6)] + r7 - last - d;
    if (t0 & 1) return;
    const int k = t0 / 2;
    const int t6 = S - p[V(N - 6)];
    for (std::uint64_t c7s = fr & partner(rvf, r7); c7s; c7s &= c7s - 1) {
      const int c7 = std::countr_zero(c7s), w7 = r7 - c7;
      if (c7 == w7) continue;
      const std::uint64_t fr7 = fr & ~(1ull << c7) & ~(1ull << w7);
      const std::uint64_t rvf7 = rvf & ~(1ull << (63 - c7)) & ~(1ull << (63 - w7));
      const int r6 = t6 - c7;
      std::uint64_t c6s = fr7 & partner(rvf7, r6) & shift_down(fr7, k);
      if (!c6s) continue;
      ++m.ctx.nodes;
      const int t5 = S - w7, y0 = S - r6 - k, z0 = w7 - last - k;
      const std::uint64_t c5s = fr7 & partner(rvf7, y0) & shift_down(fr7, z0);
      if (!c5s) continue;
      for (; c6s; c6s &= c6s - 1) {
        const int c6 = std::countr_zero(c6s), w6 = r6 - c6, x = c6 + k;
        if (c6 == w6) continue;
        ++m.ctx.nodes;
        const std::uint64_t rvf6 = rvf7 & ~(1ull << (63 - c6)) & ~(1ull << (63 - w6));
        for (std::uint64_t hits = c5s & partner(rvf6, t5 - c6); hits; hits &= hits - 1) {
          const int c5 = std::countr_zero(hits), w5 = t5 - c6 - c5, y = y0 - c5, z = z0 + c5;
          std::uint64_t seen = 0;
          bool distinct = true;
          for (int q : {c6, w6, x, c5, w5, y, z}) {
            distinct = distinct && !(seen >> q & 1);
            seen |= 1ull << q;
          }
          if (!distinct) continue;
          s.pos[I(N - 6)] = static_cast<std::uint8_t>(c7);
          s.pos[V(N - 5)] = static_cast<std::uint8_t>(w7);
          s.pos[I(N - 5)] = static_cast<std::uint8_t>(c6);
          s.pos[V(N - 4)] = static_cast<std::uint8_t>(w6);
          s.pos[I(N - 4)] = static_cast<std::uint8_t>(c5);
          s.pos[V(N - 3)] = static_cast<std::uint8_t>(w5);
          s.pos[I(N - 3)] = static_cast<std::uint8_t>(x);
          s.pos[V(N - 2)] = static_cast<std::uint8_t>(y);
          s.pos[I(N - 2)] = static_cast<std::uint8_t>(z);
          emit(s, m);
        }
      }
    }
  }

  // ---- partial-sum solver (K < n, and K = n as a cross-check) -------------

  struct GStep {
    std::uint8_t point;
    bool floor;                  // a vertex other than V0: above V0 when breaking
    std::int8_t less_than;       // point whose value must be larger, or -1
    std::array<std::uint8_t, 2> line;
    std::array<std::uint8_t, 2> left;  // unknown points of the line after this step
  };

  void plan_generic() {
    std::vector<int> order = {V(0), I(N - 1), I(0), V(1), V(N - 1)};
    for (int l = 0; l <= N - 5; ++l) order.push_back(I(l + 1)), order.push_back(V(l + 2));
    order.push_back(I(N - 3));
    order.push_back(V(N - 2));
    order.push_back(I(N - 2));
    std::array<int, N> unknown;
    unknown.fill(4);
    for (int k = 0; k < kPoints; ++k) {
      const int p = order[k];
      GStep st{};
      st.point = static_cast<std::uint8_t>(p);
      st.floor = spec_.symmetry_breaking && p < N && p != V(0);
      st.less_than = static_cast<std::int8_t>(spec_.symmetry_breaking && p == I(0) ? I(N - 1) : -1);
      const std::array<int, 2> ls = p < N ? std::array<int, 2>{p, V(p - 2)} : std::array<int, 2>{p - N, V(p - N - 1)};
      for (int j = 0; j < 2; ++j) {
        st.line[j] = static_cast<std::uint8_t>(ls[j]);
        st.left[j] = static_cast<std::uint8_t>(--unknown[ls[j]]);
      }
      gsteps_[k] = st;
    }
  }

  // Smallest / largest sum of k distinct positions from f (k <= 3).
  static int low_sum(std::uint64_t f, int k) {
    int s = 0;
    for (int i = 0; i < k; ++i, f &= f - 1) {
      if (!f) return 1 << 20;
      s += std::countr_zero(f);
    }
    return s;
  }
  static int high_sum(std::uint64_t f, int k) {
    int s = 0;
    for (int i = 0; i < k; ++i) {
      if (!f) return -(1 << 20);
      const int top = 63 - std::countl_zero(f);
      s += top;
      f &= ~(1ull << top);
    }
    return s;
  }

  template <class Mode>
  void generic(State& s, Mode& m) const {
    using namespace star_detail;
    const bool leaf = s.step == kGenericSteps;
    if (m.enter(s.step, leaf, s)) return;
    if (leaf) return emit(s, m);
    if (s.step == 0) {
      if (budget_ > 0 && !spec_.sum) {  // S is chosen by the first line that keeps it
        State t = s;
        t.sum = -1;
        t.step = 1;
        return generic(t, m);
      }
      for (int S : sums_) {
        State t = s;
        t.sum = static_cast<std::int16_t>(S);
        t.step = 1;
        generic(t, m);
      }
      return;
    }
    if (s.sum < 0) return generic_open(s, m);
    const GStep& st = gsteps_[s.step - 1];
    std::uint64_t cand = s.free;
    if (st.floor) cand &= above(s.pos[V(0)]);
    if (st.less_than >= 0) cand &= below(s.pos[st.less_than]);
    // With the budget spent, a line's last point is forced.
    if (s.n_bad == budget_) {
      for (int j = 0; j < 2; ++j)
        if (st.left[j] == 0 && !(s.bad >> st.line[j] & 1)) {
          const int v = s.sum - s.part[st.line[j]];
          cand &= v >= 0 && v < 64 ? 1ull << v : 0;
        }
    }
    for (; cand; cand &= cand - 1) {
      const int v = std::countr_zero(cand);
      const std::uint64_t rest_free = s.free & ~(1ull << v);
      State t = s;
      for (int j = 0; j < 2; ++j) {
        const int l = st.line[j];
        t.part[l] = static_cast<std::int16_t>(t.part[l] + v);
        if (t.bad >> l & 1) continue;
        const int need = s.sum - t.part[l];
        const int left = st.left[j];
        const bool lost = left == 0 ? need != 0 : need < low_sum(rest_free, left) || need > high_sum(rest_free, left);
        if (lost) {
          t.bad |= 1u << l;
          ++t.n_bad;
        }
      }
      if (t.n_bad > budget_) continue;
      t.pos[st.point] = static_cast<std::uint8_t>(v);
      t.free = rest_free;
      ++t.step;
      generic(t, m);
    }
  }

  // K < n before S is known: every line completed so far was lost.  A line
  // that completes now is either kept (its sum becomes S, and no lost line
  // may have that sum, so each arrangement is found once) or lost.
  template <class Mode>
  void generic_open(State& s, Mode& m) const {
    using namespace star_detail;
    const GStep& st = gsteps_[s.step - 1];
    std::uint64_t cand = s.free;
    if (st.floor) cand &= above(s.pos[V(0)]);
    if (st.less_than >= 0) cand &= below(s.pos[st.less_than]);
    for (; cand; cand &= cand - 1) {
      const int v = std::countr_zero(cand);
      State t = s;
      std::array<int, 2> done{};
      int n_done = 0;
      for (int j = 0; j < 2; ++j) {
        t.part[st.line[j]] = static_cast<std::int16_t>(t.part[st.line[j]] + v);
        if (st.left[j] == 0) done[n_done++] = st.line[j];
      }
      t.pos[st.point] = static_cast<std::uint8_t>(v);
      t.free &= ~(1ull << v);
      ++t.step;
      for (int kept = 0; kept < (1 << n_done); ++kept) {
        State u = t;
        int S = -1;
        bool ok = true;
        for (int i = 0; i < n_done; ++i) {
          if (kept >> i & 1) {
            ok = ok && (S < 0 || S == u.part[done[i]]);
            S = u.part[done[i]];
          } else {
            u.bad |= 1u << done[i];
            ++u.n_bad;
          }
        }
        if (!ok || u.n_bad > budget_) continue;
        if (S >= 0) {
          for (std::uint32_t b = u.bad; b; b &= b - 1) ok = ok && u.part[std::countr_zero(b)] != S;
          if (!ok) continue;
          u.sum = static_cast<std::int16_t>(S);
          for (int j = 0; j < 2; ++j) {
            const int l = st.line[j], left = st.left[j];
            if (left == 0 || (u.bad >> l & 1)) continue;
            const int need = S - u.part[l];
            if (need < low_sum(u.free, left) || need > high_sum(u.free, left)) {
              u.bad |= 1u << l;
              ++u.n_bad;
            }
          }
          if (u.n_bad > budget_) continue;
        }
        generic(u, m);
      }
    }
  }

  // ---- kept-lines solver (K < n) -------------------------------------------
  //
  // The equal set E is fixed first, up to the symmetries (a class of line
  // sets), then S, then the points in an order made for E.  The arrangements
  // with equal set E0 fall into orbits of Stab(E0), the symmetries that keep
  // E0; the search keeps the lexicographically smallest member (in placement
  // order) of each.  Against g in Stab(E0) that is decided at the first point
  // q that g moves: x[q] < x[g q] (over the whole group this is the same as
  // comparing with g^-1).  So each such g is one inequality between two
  // points, checked where the later one is placed.  A found arrangement is
  // emitted as the member of its orbit the other solvers emit (V0 the
  // smallest vertex, I0 < I(n-1)), or as all 2n images.
  //
  // A plan is a list of ops, one per point: a Pick is a choice (a split
  // level); a Forced point is the last unknown of a line with a known sum; a
  // Solved point is fixed by several such lines together (the chain's 3x3
  // solve, found here by elimination).  A Pick and the ops after it up to
  // the next Pick are placed together, and since each of their values is
  // a + k * pick, most dead picks are cut by masks before any is placed.

  enum class KOpKind : std::uint8_t { Pick, Forced, Solved };
  struct KOp {
    std::uint64_t above = 0;  // placed points this point's value must exceed
    std::uint32_t eq = 0;     // lines this point completes that must sum to S (the forcing line aside)
    std::uint32_t ne = 0;     // lines this point completes that must not
    std::uint32_t pairs = 0;  // Pick: lines left with two unknowns once its ops are placed
    std::uint32_t lines = 0;  // Solved: den * value = sum of coef[l] * need(l) over these
    std::array<std::int8_t, N> coef{};
    std::int8_t den = 1;
    std::uint8_t point = 0;
    std::uint8_t line = 0;    // Forced: the line that forces the point
    KOpKind kind = KOpKind::Pick;
    std::uint8_t level = 0;   // Pick: the split level
    bool last = false;        // the last Pick: its node is a leaf
  };
  // One per class of E: the points in order.
  struct KeptPlan {
    std::array<KOp, kPoints> ops{};
  };
  struct KeptClass {
    std::uint32_t dropped;  // lines outside E
    int n_dropped;
  };
  // Above this many bytes of plans, a plan is rebuilt per task instead (large
  // n with small K, where a task is long anyway).
  static constexpr std::size_t kMaxPlanBytes = std::size_t{8} << 20;

  // Line l under rotation by r after an optional mirror through V0.
  static constexpr int map_line(int l, int r, bool f) { return V((f ? -l - 2 : l) + r); }
  static constexpr int map_point(int p, int r, bool f) {
    return p < N ? V((f ? -p : p) + r) : I((f ? -(p - N) - 1 : p - N) + r);
  }
  static constexpr std::uint32_t map_lines(std::uint32_t set, int r, bool f) {
    std::uint32_t out = 0;
    for (; set; set &= set - 1) out |= 1u << map_line(std::countr_zero(set), r, f);
    return out;
  }

  void plan_kept() {
    for (int d = 0; d <= budget_; ++d) {
      // The d-line sets in increasing order (Gosper's hack).
      for (std::uint32_t set = (1u << d) - 1; set < (1u << N);) {
        if (is_class_rep(set)) classes_.push_back({set, d});
        if (set == 0) break;
        const std::uint32_t low = set & -set, up = set + low;
        set = up | (((set ^ up) >> 2) / low);
      }
      kept_sums_.push_back(kept_sums(d));
    }
    if (classes_.size() * sizeof(KeptPlan) <= max_plan_bytes_)
      for (const KeptClass& c : classes_) plans_.push_back(c.dropped ? make_kept_plan(c.dropped) : KeptPlan{});
  }

  // The smallest of its images, as a bit pattern, represents a class.
  // Rotations are bit rotations; the mirror is done once.
  static bool is_class_rep(std::uint32_t set) {
    constexpr std::uint32_t all = (1u << N) - 1;
    for (std::uint32_t img : {set, map_lines(set, 0, true)})
      for (int r = 0; r < N; ++r)
        if ((((img << r) | (img >> (N - r))) & all) < set) return false;
    return true;
  }

  // Sums (positions) for d lines outside E.  The n line sums add up to twice
  // the 2n numbers used, so (n - d) * S plus the d other sums lies between
  // twice the smallest and twice the largest total of 2n numbers.
  std::vector<int> kept_sums(int d) const {
    if (d == 0) return sums_for_all_equal();
    const SumBounds b = sum_bounds();
    std::vector<int> out;
    for (int s = b.lo4; s <= b.hi4; ++s) {
      if (spec_.sum && s != *spec_.sum) continue;
      const int rest_lo = 2 * b.lo2n - (N - d) * s, rest_hi = 2 * b.hi2n - (N - d) * s;
      if (rest_hi < d * b.lo4 || rest_lo > d * b.hi4) continue;
      // One other line, all numbers used: its sum is fixed and must differ.
      if (d == 1 && all_used_ && rest_lo == s) continue;
      out.push_back(s - 4 * base_);
    }
    return out;
  }
  std::vector<int> sums_for_all_equal() const {
    if (budget_ == 0) return sums_;
    const SumBounds b = sum_bounds();
    std::vector<int> out;
    for (int s : sums_)
      if (fits_all_equal(s + 4 * base_, b)) out.push_back(s);
    return out;
  }

  // The lines whose sum is not known.  With every number used and one line
  // dropped, the n sums add up to twice the total, so the dropped line's is
  // known too: D = 2T - (n-1)S, and the search closes it like a kept line.
  std::uint32_t open_lines(std::uint32_t dropped) const {
    return all_used_ && std::popcount(dropped) == 1 ? 0 : dropped;
  }

  // Greedy: a line with a known sum and one unknown point forces it; points
  // the lines with known sums fix together are solved; a line with two
  // unknowns is closed next (pick one, the line forces the other); otherwise
  // pick a point that completes a symmetry inequality (it halves what
  // follows), else the point that advances the lines most.
  KeptPlan make_kept_plan(std::uint32_t dropped) const {
    KeptPlan plan;
    const auto stab = stabilizer(dropped);
    const std::uint32_t open = open_lines(dropped);
    PlanBoard b{open};
    int k = 0;
    auto put = [&](int p, KOpKind kind) -> KOp& {
      KOp& op = plan.ops[k++];
      op = KOp{.point = std::uint8_t(p), .kind = kind};
      b.place(p, point_lines_);
      return op;
    };
    while (k < kPoints) {
      if (const int l = b.line_with(1); l >= 0) {
        put(b.open_points(l)[0], KOpKind::Forced).line = static_cast<std::uint8_t>(l);
      } else if (const KOp sv = solved_point(b); sv.lines) {
        KOp& op = put(sv.point, KOpKind::Solved);
        op.lines = sv.lines;
        op.coef = sv.coef;
        op.den = sv.den;
      } else if (const int two = best_pair_line(b); two >= 0) {
        put(b.open_points(two)[0], KOpKind::Pick);  // the line forces the other next
      } else {
        put(best_free_point(b, stab), KOpKind::Pick);
      }
    }
    finish_plan(plan, dropped, open);
    return plan;
  }

  // Which points are placed and how many each line still lacks.
  struct PlanBoard {
    std::uint32_t open;  // lines with no known sum
    std::uint64_t placed = 0;
    std::array<int, N> unknown = filled(4);

    static std::array<int, N> filled(int v) {
      std::array<int, N> a;
      a.fill(v);
      return a;
    }
    bool known(int l) const { return !(open >> l & 1); }
    void place(int p, const std::array<std::array<std::uint8_t, 2>, kPoints>& lines) {
      placed |= 1ull << p;
      for (int l : lines[p]) --unknown[l];
    }
    std::array<int, 4> open_points(int l) const {
      std::array<int, 4> out{};
      int c = 0;
      for (int q : star_line_points(N, l))
        if (!(placed >> q & 1)) out[c++] = q;
      return out;
    }
    // The first line with a known sum and u unknowns, or -1.
    int line_with(int u) const {
      for (int l = 0; l < N; ++l)
        if (known(l) && unknown[l] == u) return l;
      return -1;
    }
  };

  // A point the lines with known sums fix, as den * value = sum of coef[l]
  // * need(l), by Gauss-Jordan elimination over the unknown points (integer
  // rows, each carrying the combination of lines it stands for); none: a
  // KOp with no lines.  Combinations too large for the op are left alone:
  // the point is then picked, and its lines checked when complete.
  KOp solved_point(const PlanBoard& b) const {
    struct Row {
      std::array<long long, kPoints> x{};  // coefficients of the unknown points
      std::array<long long, N> c{};        // the combination of lines
    };
    std::vector<Row> rows;
    for (int l = 0; l < N; ++l) {
      if (!b.known(l) || b.unknown[l] == 0) continue;
      Row r;
      for (int q : star_line_points(N, l))
        if (!(b.placed >> q & 1)) r.x[q] = 1;
      r.c[l] = 1;
      rows.push_back(r);
    }
    std::size_t rank = 0;
    for (int col = 0; col < kPoints && rank < rows.size(); ++col) {
      std::size_t piv = rank;
      while (piv < rows.size() && rows[piv].x[col] == 0) ++piv;
      if (piv == rows.size()) continue;
      std::swap(rows[piv], rows[rank]);
      const Row& pr = rows[rank];
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == rank || rows[i].x[col] == 0) continue;
        Row& r = rows[i];
        const long long a = pr.x[col], f = r.x[col];
        long long g = 0;
        for (int q = 0; q < kPoints; ++q) g = std::gcd(g, r.x[q] = r.x[q] * a - pr.x[q] * f);
        for (int l = 0; l < N; ++l) g = std::gcd(g, r.c[l] = r.c[l] * a - pr.c[l] * f);
        if (g > 1) {
          for (auto& e : r.x) e /= g;
          for (auto& e : r.c) e /= g;
        }
      }
      ++rank;
    }
    for (const Row& r : rows) {
      int point = -1, nonzero = 0;
      for (int q = 0; q < kPoints; ++q)
        if (r.x[q] != 0) point = q, ++nonzero;
      if (nonzero != 1) continue;
      KOp op{.point = static_cast<std::uint8_t>(point)};
      const long long sign = r.x[point] < 0 ? -1 : 1;
      if (r.x[point] * sign > 127) continue;
      op.den = static_cast<std::int8_t>(r.x[point] * sign);
      bool fits = true;
      for (int l = 0; l < N; ++l) {
        if (r.c[l] == 0) continue;
        fits = fits && r.c[l] * sign >= -128 && r.c[l] * sign <= 127;
        op.coef[l] = static_cast<std::int8_t>(r.c[l] * sign);
        op.lines |= 1u << l;
      }
      if (fits) return op;
    }
    return {};
  }
  int other_line(int p, int l) const { return point_lines_[p][0] == l ? point_lines_[p][1] : point_lines_[p][0]; }

  // The line with two unknowns whose points' other lines are furthest on.
  int best_pair_line(const PlanBoard& b) const {
    int best = -1, best_score = -1;
    for (int l = 0; l < N; ++l) {
      if (!b.known(l) || b.unknown[l] != 2) continue;
      const auto q = b.open_points(l);
      const int score = progress(b, other_line(q[0], l)) + progress(b, other_line(q[1], l));
      if (score > best_score) best = l, best_score = score;
    }
    return best;
  }
  // How far a line with a known sum is: 0 for a line without one.
  static int progress(const PlanBoard& b, int l) { return b.known(l) ? 5 - b.unknown[l] : 0; }

  int best_free_point(const PlanBoard& b, const std::vector<std::pair<int, bool>>& stab) const {
    int best = -1, best_score = -1;
    for (int p = 0; p < kPoints; ++p) {
      if (b.placed >> p & 1) continue;
      int score = 0;
      for (int l : point_lines_[p]) score += 4 * progress(b, l);
      for (const auto& [r, f] : stab) {
        const int q = map_point(p, r, f);
        if (q != p) score += b.placed >> q & 1 ? 1000 : 1;
      }
      if (score > best_score) best = p, best_score = score;
    }
    return best;
  }

  // The symmetries other than the identity that keep the dropped lines.
  static std::vector<std::pair<int, bool>> stabilizer(std::uint32_t dropped) {
    std::vector<std::pair<int, bool>> out;
    for (int r = 0; r < N; ++r)
      for (bool f : {false, true})
        if ((r != 0 || f) && map_lines(dropped, r, f) == dropped) out.emplace_back(r, f);
    return out;
  }

  // Levels, the line checks and the symmetry inequalities of a point order.
  void finish_plan(KeptPlan& plan, std::uint32_t dropped, std::uint32_t open) const {
    PlanBoard b{open};
    std::array<int, kPoints> at{};  // op index by point
    int level = 1, pick = -1;
    for (int k = 0; k < kPoints; ++k) {
      KOp& op = plan.ops[k];
      at[op.point] = k;
      if (op.kind == KOpKind::Pick) {
        if (pick >= 0) plan.ops[pick].pairs = lines_with_two(b);
        op.level = static_cast<std::uint8_t>(level++);
        pick = k;
      }
      b.place(op.point, point_lines_);
      for (int l : point_lines_[op.point]) {
        if (b.unknown[l] != 0 || (op.kind == KOpKind::Forced && l == op.line)) continue;
        (b.known(l) ? op.eq : op.ne) |= 1u << l;
      }
    }
    plan.ops[pick].last = true;
    for (const auto& [r, f] : stabilizer(dropped)) {
      int k = 0;
      while (map_point(plan.ops[k].point, r, f) == plan.ops[k].point) ++k;
      const int q = plan.ops[k].point, p = map_point(q, r, f);  // p is placed after q
      plan.ops[at[p]].above |= 1ull << q;
    }
  }
  static std::uint32_t lines_with_two(const PlanBoard& b) {
    std::uint32_t out = 0;
    for (int l = 0; l < N; ++l)
      if (b.known(l) && b.unknown[l] == 2) out |= 1u << l;
    return out;
  }

  template <class Mode>
  void kept_top(State& s, Mode& m) const {
    if (m.enter(0, false, s)) return;
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      const KeptClass& kc = classes_[c];
      State t = s;
      t.step = 1;
      if (kc.dropped == 0) {
        for (int S : kept_sums_[0]) {
          t.sum = static_cast<std::int16_t>(S);
          magic_top(t, m);
        }
        continue;
      }
      t.bad = kc.dropped;
      t.kset = c;
      const bool closed = open_lines(kc.dropped) != kc.dropped;
      with_plan(c, [&](const KeptPlan& plan) {
        for (int S : kept_sums_[kc.n_dropped]) {
          State u = t;
          u.sum = static_cast<std::int16_t>(S);
          // The dropped line needs D: start it at S - D, as if its sum were S.
          if (closed) u.part[std::countr_zero(kc.dropped)] = static_cast<std::int16_t>(S - (2 * total_ - (N - 1) * S));
          kept(u, plan, m);
        }
      });
    }
  }

  template <class Mode>
  void kept_resume(State& s, Mode& m) const {
    with_plan(s.kset, [&](const KeptPlan& plan) { kept(s, plan, m); });
  }

  // Calls f with the plan of class c, built here when not kept.
  template <class F>
  void with_plan(std::uint32_t c, F&& f) const {
    if (c < plans_.size()) return f(plans_[c]);
    const KeptPlan plan = make_kept_plan(classes_[c].dropped);
    f(plan);
  }

  // A node whose pick has no candidate is not entered: the parent looks one
  // pick ahead, so the walk (and the task list) holds live nodes only.
  template <class Mode>
  void kept(State& s, const KeptPlan& plan, Mode& m) const {
    if (const std::uint64_t cand = kept_candidates(s, plan)) kept_node(s, plan, cand, m);
  }
  std::uint64_t kept_candidates(const State& s, const KeptPlan& plan) const {
    const int i = s.step - 1;
    const std::uint64_t c = s.free & bounds_mask(s, plan.ops[i]);
    return c ? c & pick_mask(s, plan, i) : 0;
  }

  // One Pick (op s.step - 1) and the ops after it.
  template <class Mode>
  void kept_node(State& s, const KeptPlan& plan, std::uint64_t cand, Mode& m) const {
    const int i = s.step - 1;
    const KOp& op = plan.ops[i];
    if (m.enter(op.level, op.last, s)) return;
    for (; cand; cand &= cand - 1) {
      State t = s;
      if (!kept_place(t, op, std::countr_zero(cand))) continue;
      int j = i + 1;
      bool ok = true;
      for (; ok && j < kPoints && plan.ops[j].kind != KOpKind::Pick; ++j) ok = kept_follow(t, plan.ops[j]);
      if (!ok || !pairs_left(t, op.pairs)) continue;
      if (j == kPoints) {
        kept_emit(t, m);
        continue;
      }
      t.step = static_cast<std::uint8_t>(j + 1);
      kept(t, plan, m);
    }
  }

  // What is left of line l's sum: S - part, and for the pick's own ops
  // a + k * pick less.  The pick mask tracks those as a, k per line.
  struct Affine {
    std::array<int, N> a, k;
    std::uint32_t touched = 0;
    void add(int l, int va, int vk) {
      if (!(touched >> l & 1)) a[l] = 0, k[l] = 0, touched |= 1u << l;
      a[l] += va;
      k[l] += vk;
    }
  };

  // The picks at op i that masks can tell are not dead.  Each value the op
  // and its followers place is a + k * pick (until a cycle halves an odd k),
  // so "it is free" is a shifted or mirrored free mask (k = +-1), a
  // completed line pins the pick to one value, and a line left with two
  // unknowns needs a pick that leaves it a sum of two free values.
  std::uint64_t pick_mask(const State& s, const KeptPlan& plan, int i) const {
    Affine on;  // the op's placed values on each line
    auto need = [&](int l, int& a, int& k) {
      const bool t = on.touched >> l & 1;
      a = s.sum - s.part[l] - (t ? on.a[l] : 0);
      k = t ? -on.k[l] : 0;
    };
    auto place = [&](const KOp& op, int a, int k) {
      for (int l : point_lines_[op.point]) on.add(l, a, k);
    };
    std::uint64_t mask = ~0ull;
    place(plan.ops[i], 0, 1);
    mask &= line_checks(s, plan.ops[i], on);
    int j = i + 1;
    for (; mask && j < kPoints && plan.ops[j].kind != KOpKind::Pick; ++j) {
      const KOp& f = plan.ops[j];
      int a = 0, k = 0;
      if (f.kind == KOpKind::Forced) {
        need(f.line, a, k);
      } else {
        for (std::uint32_t ls = f.lines; ls; ls &= ls - 1) {
          const int l = std::countr_zero(ls);
          int la, lk;
          need(l, la, lk);
          a += f.coef[l] * la, k += f.coef[l] * lk;
        }
        // den * value = a + k * pick.  Past a pick-dependent remainder the
        // values are no longer a + k * pick: keep what is known so far.
        if (k % f.den != 0) return f.den == 2 ? mask & (a & 1 ? kOdd : ~kOdd) : mask;
        if (a % f.den != 0) return 0;
        a /= f.den, k /= f.den;
      }
      mask &= value_mask(s, a, k);
      place(f, a, k);
      mask &= line_checks(s, f, on);
    }
    for (std::uint32_t ls = plan.ops[i].pairs & on.touched; mask && ls; ls &= ls - 1) {
      int a, k;
      need(std::countr_zero(ls), a, k);
      if (k == 1 || k == -1) mask &= pair_sum_picks(s, a, k);
    }
    return mask;
  }
  static constexpr std::uint64_t kOdd = 0xaaaaaaaaaaaaaaaaull;

  // Picks c for which a + k * c is a free value.
  static std::uint64_t value_mask(const State& s, int a, int k) {
    using namespace star_detail;
    if (k == -1) return partner(s.rfree, a);
    if (k == 1) return shift_down(s.free, a);
    if (k == 0) return a >= 0 && a < 64 && (s.free >> a & 1) ? ~(1ull << a) : 0;
    return ~0ull;
  }
  // Picks c for which the lines op completes end right: S, or not S.
  std::uint64_t line_checks(const State& s, const KOp& op, const Affine& on) const {
    std::uint64_t mask = ~0ull;
    for (std::uint32_t ls = op.eq | op.ne; ls; ls &= ls - 1) {
      const int l = std::countr_zero(ls);
      const int a = s.sum - s.part[l] - on.a[l], k = on.k[l];  // the line ends right iff k * c == a
      const std::uint64_t hit = k == 0 ? (a == 0 ? ~0ull : 0) : a % k == 0 && a / k >= 0 && a / k < 64 ? 1ull << (a / k) : 0;
      mask &= op.eq >> l & 1 ? hit : ~hit;
    }
    return mask;
  }
  // Picks c with a + k * c (k = +-1) a sum of two distinct free values.
  static std::uint64_t pair_sum_picks(const State& s, int a, int k) {
    using namespace star_detail;
    std::uint64_t out = 0;
    for (std::uint64_t f = s.free; f; f &= f - 1) {
      const int x = std::countr_zero(f);  // the smaller of the two
      out |= k < 0 ? partner(s.rfree & reversed_above(x), a - x) : shift_down(s.free & above(x), a - x);
    }
    return out;
  }

  // Each line with two unknowns still has two free values with its sum.
  static bool pairs_left(const State& t, std::uint32_t lines) {
    using namespace star_detail;
    for (; lines; lines &= lines - 1) {
      const int need = t.sum - t.part[std::countr_zero(lines)];
      std::uint64_t pm = t.free & partner(t.rfree, need);
      if (!(need & 1) && need >= 0 && need < 128) pm &= ~(1ull << (need / 2));
      if (!pm) return false;
    }
    return true;
  }

  static std::uint64_t bounds_mask(const State& s, const KOp& op) {
    using namespace star_detail;
    std::uint64_t mask = ~0ull;
    for (std::uint64_t b = op.above; b; b &= b - 1) mask &= above(s.pos[std::countr_zero(b)]);
    return mask;
  }

  // A Forced or Solved op: its one possible value must be free and within
  // the symmetry bounds.
  bool kept_follow(State& t, const KOp& op) const {
    int v = t.sum - t.part[op.line];
    if (op.kind == KOpKind::Solved) {
      v = 0;
      for (std::uint32_t ls = op.lines; ls; ls &= ls - 1) {
        const int l = std::countr_zero(ls);
        v += op.coef[l] * (t.sum - t.part[l]);
      }
      if (v % op.den != 0) return false;
      v /= op.den;
    }
    if (v < 0 || v > 63 || !(t.free >> v & 1) || !(bounds_mask(t, op) >> v & 1)) return false;
    return kept_place(t, op, v);
  }

  // Puts position v on op's point; false when a line it completes fails.
  bool kept_place(State& t, const KOp& op, int v) const {
    t.pos[op.point] = static_cast<std::uint8_t>(v);
    t.free &= ~(1ull << v);
    t.rfree &= ~(1ull << (63 - v));
    for (int l : point_lines_[op.point]) t.part[l] = static_cast<std::int16_t>(t.part[l] + v);
    for (std::uint32_t e = op.eq; e; e &= e - 1)
      if (t.part[std::countr_zero(e)] != t.sum) return false;
    for (std::uint32_t e = op.ne; e; e &= e - 1)
      if (t.part[std::countr_zero(e)] == t.sum) return false;
    return true;
  }

  template <class Mode>
  void kept_emit(const State& t, Mode& m) const {
    if (!spec_.symmetry_breaking) {
      for (int r = 0; r < N; ++r)
        for (bool f : {false, true}) m.emit(image(t, r, f));
      return;
    }
    int i0 = 0;
    for (int i = 1; i < N; ++i)
      if (t.pos[V(i)] < t.pos[V(i0)]) i0 = i;
    m.emit(image(t, i0, t.pos[I(i0)] > t.pos[I(i0 - 1)]));
  }
  // The arrangement turned so V(r) comes to V0, mirrored through V0 if f.
  Solution image(const State& t, int r, bool f) const {
    Solution sol;
    for (int k = 0; k < N; ++k) {
      sol[label_[V(k)]] = static_cast<std::uint16_t>(t.pos[V(f ? r - k : r + k)] + base_);
      sol[label_[I(k)]] = static_cast<std::uint16_t>(t.pos[I(f ? r - k - 1 : r + k)] + base_);
    }
    return sol;
  }

  StarSpec spec_;
  std::size_t max_plan_bytes_;
  int base_ = 1;
  std::uint64_t pool_ = 0;
  int k_ = N;
  int budget_ = 0;
  StarSolver solver_ = StarSolver::Chain;
  bool magic_ = true;
  bool bmi2_ = false;  // the chain runs its BMI2 copy (star_chain_uses_bmi2)
  // The complement x -> min + max - x maps a magic star with every number of
  // a symmetric set placed onto another (S is then 2 (min + max), its own
  // image).  With the smallest vertex v and the largest w, the chain keeps
  // only stars with v + w <= min + max (vertices at most mirror_ - v, in
  // positions) and emits the complement of each with v + w < min + max; the
  // two are in different orbits, as v + w is the same along an orbit.
  bool complement_ = false;
  int mirror_ = 0;  // max - min: position p mirrors to mirror_ - p
  bool all_used_ = false;  // exactly 2n numbers: each is placed
  int total_ = 0;          // their sum, in positions (when all_used_)
  std::array<std::uint8_t, kPoints> label_{};
  std::vector<std::array<int, 4>> lines_;
  std::vector<int> sums_;
  std::array<GStep, kPoints> gsteps_{};
  std::array<std::array<std::uint8_t, 2>, kPoints> point_lines_{};
  std::vector<KeptClass> classes_;           // classes of E, by size of the complement
  std::vector<std::vector<int>> kept_sums_;  // by size of the complement
  std::vector<KeptPlan> plans_;              // by class, unless too many
};

template <int N>
StarProblem<N>::StarProblem(const StarSpec& spec, std::size_t max_plan_bytes)
    : spec_(normalize_star(spec)), max_plan_bytes_(max_plan_bytes) {
  if (spec_.n != N) throw std::logic_error("star: n mismatch");
  const auto& nums = spec_.numbers;
  base_ = nums.front();
  for (int v : nums) pool_ |= 1ull << (v - base_), total_ += v - base_;
  all_used_ = static_cast<int>(nums.size()) == kPoints;
  k_ = spec_.equal_lines;
  budget_ = N - k_;
  solver_ = spec_.solver != StarSolver::Auto ? spec_.solver
            : budget_ == 0                   ? StarSolver::Chain
                                             : StarSolver::KeptLines;
  magic_ = solver_ == StarSolver::Chain;
  bmi2_ = star_detail::star_chain_uses_bmi2();
  mirror_ = nums.back() - nums.front();
  complement_ = magic_ && all_used_ && spec_.symmetry_breaking &&
                std::all_of(nums.begin(), nums.end(), [&](int v) { return pool_ >> (mirror_ - (v - base_)) & 1; });
  for (int p = 0; p < kPoints; ++p) {
    label_[p] = static_cast<std::uint8_t>(star_label(N, p));
    point_lines_[p] = p < N ? std::array<std::uint8_t, 2>{std::uint8_t(p), std::uint8_t(V(p - 2))}
                            : std::array<std::uint8_t, 2>{std::uint8_t(V(p - N - 1)), std::uint8_t(p - N)};
  }
  const StarGeometry g = star_geometry(N);
  lines_ = g.lines;
  plan_sums();
  plan_generic();
  if (solver_ == StarSolver::KeptLines) plan_kept();
}

template <int N>
void StarProblem<N>::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  State s = root();
  if (magic_) magic_top(s, ex);
  else if (solver_ == StarSolver::KeptLines) kept_top(s, ex);
  else generic(s, ex);
}

template <int N>
template <class Ctx>
void StarProblem<N>::solve(const State& s, Ctx& ctx) const {
  SolveMode<Ctx> sv{ctx};
  State w = s;
  if (solver_ == StarSolver::PartialSums) return generic(w, sv);
  if (solver_ == StarSolver::KeptLines) {
    if (w.step == 0) return kept_top(w, sv);
    if (w.bad) return kept_resume(w, sv);
  }
  // All lines equal: a chain task, also below the kept-lines solver's top.
  if (w.step <= 4) magic_top(w, sv);
  else chain_from(w.step - 5, w, sv);
}

static_assert(Problem<StarProblem<5>>);

// The registry's entry (magic/registry.hpp).
struct StarFamily {
  static constexpr const char* kName = "star";
  static constexpr const char* kByKey = "by_sum";
  static constexpr Picture kPicture = Picture::Star;
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    return visit_n<kStarMinN>(star_spec_from_json(spec), f);
  }

 private:
  template <int N, class F>
  static decltype(auto) visit_n(const StarSpec& s, F& f) {
    if constexpr (N == kStarBuiltMaxN) {
      if (N < kStarMaxN && s.n != N)
        throw SpecError("star: n = " + std::to_string(s.n) + " is not compiled in this build, which stops at n = " +
                        std::to_string(N) + " (-DMAGIC_STAR_MAX_N=" + std::to_string(N) + ")");
      return f(StarProblem<N>(s));
    } else {
      if (s.n == N) return f(StarProblem<N>(s));
      return visit_n<N + 1>(s, f);
    }
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// The star sizes in five groups, one file each (run_star_<first size>.cpp);
// those past kStarBuiltMaxN are empty.
#define MAGIC_STAR_SIZES_5(X) X(5) X(6) X(7) X(8)
#define MAGIC_STAR_SIZES_9(X) X(9) X(10) X(11) X(12)
#if MAGIC_STAR_BUILT_MAX_N >= 16
#define MAGIC_STAR_SIZES_13(X) X(13) X(14) X(15) X(16)
#else
#define MAGIC_STAR_SIZES_13(X)
#endif
#if MAGIC_STAR_BUILT_MAX_N == 24
#define MAGIC_STAR_SIZES_17(X) X(17) X(18) X(19) X(20)
#define MAGIC_STAR_SIZES_21(X) X(21) X(22) X(23) X(24)
#else
#define MAGIC_STAR_SIZES_17(X)
#define MAGIC_STAR_SIZES_21(X)
#endif
#define MAGIC_STAR_SIZES(X) \
  MAGIC_STAR_SIZES_5(X) MAGIC_STAR_SIZES_9(X) MAGIC_STAR_SIZES_13(X) MAGIC_STAR_SIZES_17(X) MAGIC_STAR_SIZES_21(X)
// A star's constructor (its tables and plans) too.
#define MAGIC_STAR_AS(PREFIX, N) \
  MAGIC_SEARCH_AS(PREFIX, StarProblem<N>) PREFIX template StarProblem<N>::StarProblem(const StarSpec&, std::size_t);
#define MAGIC_RUN_STAR(N) MAGIC_STAR_AS(, N)
#define MAGIC_EXTERN_RUN_STAR(N) MAGIC_STAR_AS(extern, N)

namespace magic {
static_assert(kStarMinN == 5 && kStarMaxN == 24 && (kStarBuiltMaxN == 12 || kStarBuiltMaxN == 16 || kStarBuiltMaxN == 24),
              "MAGIC_STAR_SIZES must list every star size this build compiles");
MAGIC_STAR_SIZES(MAGIC_EXTERN_RUN_STAR)
}  // namespace magic
