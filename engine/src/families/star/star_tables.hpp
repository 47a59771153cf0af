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
// This header holds what the three solvers share: the spec, the bit
// helpers, the search state and the tables built from the spec.  Each
// solver has its own file (star_chain.hpp, star_kept_lines.hpp,
// star_partial_sums.hpp), and star.hpp puts them behind the problem.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/star_geometry.hpp"
#include "magic/value_masks.hpp"

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
inline constexpr const char* kStarSolverNames = "auto, chain, kept-lines, partial-sums";
std::optional<StarSolver> parse_star_solver(const std::string& name);  // nullopt: not a solver's name

// "1..12", "1,2,4,5", "1..5,8,10..12".  Throws SpecError.
std::vector<int> parse_star_numbers(std::string_view text);
// "1..12" when contiguous, else "1,2,4".
std::string format_star_numbers(const std::vector<int>& sorted);
// Fills defaults and validates; throws SpecError with a one-line reason.
StarSpec normalize_star(StarSpec spec);
StarSpec star_spec_from_json(const nlohmann::json& spec);

namespace star_detail {
using masks::above;
using masks::below;
using masks::partner;
using masks::reversed;
using masks::reversed_above;
using masks::shift_down;

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

// The points: vertices V(i) are 0..n-1, crossings I(j) are n..2n-1.
template <int N>
struct StarPoints {
  static constexpr int kPoints = 2 * N;
  static constexpr int V(int i) { return ((i % N) + N) % N; }
  static constexpr int I(int j) { return N + ((j % N) + N) % N; }
};

// What the partial-sums solver adds to the state.
struct StarPartialSumsFields {
  std::uint32_t lost;   // lines lost to the budget (complete with another sum, or out of reach)
  std::uint8_t n_lost;
};
// What the kept-lines solver adds (its all-equal class runs the chain).
struct StarKeptLinesFields {
  std::uint32_t dropped;  // the lines that must miss S (0: a chain task)
  std::uint32_t cls;      // the class of the dropped lines (StarKeptLines::classes_)
};

// One search state.  free and rfree first, 16-byte aligned: a branch copies
// the state in 16-byte pieces and then updates the two masks as one 16-byte
// value, which must not straddle two of those pieces (a stalled load).
//
//   free rfree vfloor | pos[2n] | part[n] | partial-sums or kept-lines | sum step
//
// The chain reads the masks, pos, sum and step; the other two solvers add
// the partial line sums and their own fields.  The order is the one the
// chain was timed with: moving sum by two bytes cost it 1.7% at n = 13
// (perf/results/structure.md).
template <int N>
struct alignas(16) StarState {
  std::uint64_t free;                   // positions of numbers still unused
  std::uint64_t rfree;                  // the same, bit-reversed (chain and kept-lines)
  std::uint64_t vfloor;                 // bit-reversed positions a vertex may take (chain)
  std::array<std::uint8_t, 2 * N> pos;  // bit position of the value, by internal point
  std::array<std::int16_t, N> part;     // partial line sums (partial-sums and kept-lines)
  union {
    StarPartialSumsFields psums;
    StarKeptLinesFields kept;
  };
  std::int16_t sum;  // S in positions: S - 4 * min
  std::uint8_t step;
};

// The tables every solver reads, built once from the spec.
template <int N>
struct StarTables : StarPoints<N> {
  using P = StarPoints<N>;
  using P::I;
  using P::kPoints;
  using P::V;
  using State = StarState<N>;
  using Solution = std::array<std::uint16_t, kPoints>;  // values by label
  static_assert(std::is_trivially_copyable_v<State>);

  explicit StarTables(const StarSpec& s);

  StarSpec spec;
  StarSolver solver = StarSolver::Chain;
  int base = 1;            // the smallest number: position p is value p + base
  std::uint64_t pool = 0;  // the numbers, as positions
  int k = N;               // lines that share the sum
  int budget = 0;          // n - K lines may miss it
  // The complement x -> min + max - x maps a magic star with every number of
  // a symmetric set placed onto another (S is then 2 (min + max), its own
  // image).  With the smallest vertex v and the largest w, the chain keeps
  // only stars with v + w <= min + max (vertices at most mirror - v, in
  // positions) and emits the complement of each with v + w < min + max; the
  // two are in different orbits, as v + w is the same along an orbit.
  bool complement = false;
  int mirror = 0;          // max - min: position p mirrors to mirror - p
  bool all_used = false;   // exactly 2n numbers: each is placed
  int total = 0;           // their sum, in positions (when all_used)
  std::array<std::uint8_t, kPoints> label{};
  std::array<std::array<std::uint8_t, 2>, kPoints> point_lines{};
  std::vector<std::array<int, 4>> lines;
  std::vector<int> sums;   // candidate sums S (positions)

  State root() const {
    State s{};
    s.free = pool;
    s.rfree = star_detail::reversed(pool);
    s.vfloor = ~0ull;
    return s;
  }

  // The smallest and largest sums of 4 numbers (a line) and of 2n numbers
  // (all points) the number set allows.
  struct SumBounds {
    int lo4 = 0, hi4 = 0, lo2n = 0, hi2n = 0;
  };
  SumBounds sum_bounds() const {
    const auto& v = spec.numbers;
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

  int smallest_vertex(const Solution& s) const {
    int i0 = 0;
    for (int i = 1; i < N; ++i)
      if (s[label[i]] < s[label[i0]]) i0 = i;
    return i0;
  }
  // The rotation that brings vertex i0 to V0, or that and the mirror through V0.
  Solution image(const Solution& s, int i0, bool mirror_v0) const {
    Solution a;
    for (int j = 0; j < N; ++j) {
      a[label[V(j)]] = s[label[mirror_v0 ? V(i0 - j) : V(j + i0)]];
      a[label[I(j)]] = s[label[mirror_v0 ? I(i0 - j - 1) : I(j + i0)]];
    }
    return a;
  }
  // The image the chain's symmetry breaking picks: V0 the smallest vertex
  // and I0 < I(n-1).
  Solution searched_orientation(const Solution& s) const {
    const int i0 = smallest_vertex(s);
    return image(s, i0, s[label[I(i0)]] > s[label[I(i0 - 1)]]);
  }

  // A found star, and its complement when the chain halves the search.
  // Out of line, so that the BMI2 copy's flatten leaves the emission (cold:
  // one call per star) out of the chain.
  template <class Mode>
  [[gnu::noinline]] void emit(const State& s, Mode& m) const {
    Solution sol;
    for (int p = 0; p < kPoints; ++p) sol[label[p]] = static_cast<std::uint16_t>(s.pos[p] + base);
    m.emit(sol);
    if (!complement) return;
    int top = 0;
    for (int i = 1; i < N; ++i) top = std::max<int>(top, s.pos[V(i)]);
    if (s.pos[V(0)] + top == mirror) return;  // its complement is found by the search too
    for (int p = 0; p < kPoints; ++p) sol[label[p]] = static_cast<std::uint16_t>(mirror - s.pos[p] + base);
    m.emit(searched_orientation(sol));
  }

 private:
  // Candidate sums S (positions).  All lines equal: 2 * (sum of the 2n
  // numbers used) = n * S bounds S; otherwise any sum of four numbers.
  void plan_sums() {
    const SumBounds b = sum_bounds();
    for (int s = b.lo4; s <= b.hi4; ++s) {
      if (spec.sum && s != *spec.sum) continue;
      if (budget == 0 && !fits_all_equal(s, b)) continue;
      sums.push_back(s - 4 * base);
    }
  }
};

template <int N>
StarTables<N>::StarTables(const StarSpec& s) : spec(normalize_star(s)) {
  if (spec.n != N) throw std::logic_error("star: n mismatch");
  const auto& nums = spec.numbers;
  base = nums.front();
  for (int v : nums) pool |= 1ull << (v - base), total += v - base;
  all_used = static_cast<int>(nums.size()) == kPoints;
  k = spec.equal_lines;
  budget = N - k;
  solver = spec.solver != StarSolver::Auto ? spec.solver : budget == 0 ? StarSolver::Chain : StarSolver::KeptLines;
  mirror = nums.back() - nums.front();
  complement = solver == StarSolver::Chain && all_used && spec.symmetry_breaking &&
               std::all_of(nums.begin(), nums.end(), [&](int v) { return pool >> (mirror - (v - base)) & 1; });
  for (int p = 0; p < kPoints; ++p) {
    label[p] = static_cast<std::uint8_t>(star_label(N, p));
    point_lines[p] = p < N ? std::array<std::uint8_t, 2>{std::uint8_t(p), std::uint8_t(V(p - 2))}
                           : std::array<std::uint8_t, 2>{std::uint8_t(V(p - N - 1)), std::uint8_t(p - N)};
  }
  lines = star_geometry(N).lines;
  plan_sums();
}

}  // namespace magic
