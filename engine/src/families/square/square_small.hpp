#pragma once
// Orders 3 and 4 in straight code: the line plan written out as nested
// loops over bitmasks, for the kinds that are magic squares with extra
// lines (magic, associative, pandiagonal, most-perfect).  The generic
// solver (square.hpp) stays the oracle in the tests, and runs the rest
// (semi-magic, --all-orientations).
//
// Symmetry breaking as in the generic solver: the top-left corner is the
// smallest corner and the top-right is below the bottom-left, one square per
// orbit of the 8 rotations and reflections.  The tree is one level: the
// top-left value; each such node is searched in one piece.
//
//   order 4:   a  x  q  b     corners a b c d, inner e f g h;
//              y  e  g  z     x, y are the only free choices,
//              w  h  f  u     every other cell is forced by a line.
//              c  r  t  d
//
// - The corners sum to 34: rows 0 and 3 plus both diagonals count the
//   corners twice and the other cells of rows 0 and 3 and the inner four
//   once, i.e. columns 1 and 2; so 2(a+b+c+d) = 4*34 - 2*34.
// - Then the inner four sum to 34 too, and the outer ring splits into two
//   cycles of forced cells: x -> q (row 0), r (column 1), t (row 3), with
//   column 2 then holding by the two sums above; y -> z (row 1), w
//   (column 0), u (row 2), with column 3 holding.  A completion is a pair
//   of cycles with disjoint values.
//
//   order 3:   a  x  .        a is the smallest corner; x and the centre
//              .  m  .        are the only choices, every other cell is
//              .  .  .        forced by a line.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "square/square_d4.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

struct SquareSpec;
// Whether orders 3 and 4 of this spec run here (else: the generic solver).
bool square_small_handles(const SquareSpec& spec);

template <int N>
class SmallSquareProblem {
  static_assert(N == 3 || N == 4);

 public:
  static constexpr int kCells = N * N;
  static constexpr int kLine = N * (kCells + 1) / 2;
  using Solution = std::array<std::uint8_t, kCells>;
  struct State {
    std::uint8_t level;
    std::uint8_t a;  // the top-left value
  };
  static_assert(std::is_trivially_copyable_v<State>);

  explicit SmallSquareProblem(SquareKind kind) : kind_(kind) {
    if (kind == SquareKind::Semi || (kind == SquareKind::MostPerfect && N != 4))
      throw std::logic_error("SmallSquareProblem: kind not handled");
  }

  nlohmann::json describe() const {
    return {{"name", "square"}, {"order", N}, {"kind", to_string(kind_)}, {"symmetry_breaking", true}};
  }
  static constexpr const char* kSearch = "square-small/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return "orders 3 and 4: 1 the top-left corner, searched in one piece"; }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return true; }
  Solution canonical(const Solution& s) const { return d4_.canonical(s); }
  static constexpr std::uint64_t kOrbitBound = 8;  // count_solution
  std::uint64_t orbit_size(const Solution&) const { return kOrbitBound; }
  std::int64_t key(const Solution& s) const
    requires(N % 2 == 1)
  {
    return s[kCells / 2];
  }
  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

  // The two walks, defined below the class and not inline, so that the
  // library compiles them once (declared extern at the end of square.hpp).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

 private:
  template <class Mode>
  void walk(Mode& m) const {
    if (m.enter(0, false, State{0, 0})) return;
    // The smallest corner a: three larger distinct corners must still fit
    // (order 4: the corners sum to 34; order 3: to 30 - 2 x centre).
    for (int a = 1; 4 * a + 6 <= (N == 4 ? kLine : 2 * kLine); ++a) {
      const State t{1, static_cast<std::uint8_t>(a)};
      if (m.enter(1, true, t)) continue;
      if constexpr (!Mode::kExpand) {
        if constexpr (N == 4) corner4(a, m);
        else corner3(a, m);
      }
    }
  }

  static constexpr std::uint32_t bit(int v) { return std::uint32_t{1} << v; }
  static constexpr std::uint32_t kAll = ((std::uint32_t{1} << (kCells + 1)) - 1) & ~std::uint32_t{1};
  static bool ok(int v, std::uint32_t free) { return v >= 1 && v <= kCells && (free >> v & 1); }

  template <class Mode>
  void corner4(int a, Mode& m) const {
    constexpr int L = kLine;
    for (int b = a + 1; b <= kCells; ++b)
      for (int c = b + 1; c <= kCells; ++c) {
        const int d = L - a - b - c;  // the corners sum to L
        if (d <= a || d == b || d == c || d > kCells) continue;
        const std::uint32_t f0 = kAll & ~(bit(a) | bit(b) | bit(c) | bit(d));
        for (std::uint32_t E = f0; E; E &= E - 1) {
          const int e = std::countr_zero(E), f = L - a - d - e;  // main diagonal
          if (f == e || !ok(f, f0)) continue;
          const std::uint32_t f1 = f0 & ~(bit(e) | bit(f));
          for (std::uint32_t G = f1; G; G &= G - 1) {
            const int g = std::countr_zero(G), h = L - b - c - g;  // anti-diagonal
            if (h == g || !ok(h, f1)) continue;
            ring4(a, b, c, d, e, f, g, h, f1 & ~(bit(g) | bit(h)), m);
          }
        }
      }
  }

  // {v : v + k free}, and the free values mirrored (bit 17 - v) so that
  // {v : K - v free} = {v : v + 17 - K mirrored} is one shift too.
  static std::uint64_t plus(std::uint64_t free, int k) { return k >= 0 ? free >> k : free << -k; }
  static std::uint64_t mirrored(std::uint32_t free) {
    std::uint32_t x = free >> 1;  // bit v - 1
    x = ((x >> 1) & 0x5555u) | ((x & 0x5555u) << 1);
    x = ((x >> 2) & 0x3333u) | ((x & 0x3333u) << 2);
    x = ((x >> 4) & 0x0f0fu) | ((x & 0x0f0fu) << 4);
    x = ((x >> 8) & 0x00ffu) | ((x & 0x00ffu) << 8);  // bit 16 - v
    return std::uint64_t{x} << 1;
  }

  // The eight ring cells from the two cycles (see the diagram).  Each cycle
  // is x, K1 - x, K2 - x, x + K3: the x whose three partners are free are
  // one mask expression; distinct values are checked per candidate.
  template <class Mode>
  void ring4(int a, int b, int c, int d, int e, int f, int g, int h, std::uint32_t free, Mode& m) const {
    constexpr int L = kLine;
    const std::uint64_t fr = free, mr = mirrored(free);
    auto minus = [&](int k) { return plus(mr, kCells + 1 - k); };
    // x, q = L-a-b-x, r = L-e-h-x, t = L-c-d-r = x + (e+h-c-d)
    const std::uint64_t X = fr & minus(L - a - b) & minus(L - e - h) & plus(fr, e + h - c - d);
    if (!X) return;
    // y, z = L-e-g-y, w = L-a-c-y, u = L-h-f-w = y + (a+c-h-f)
    const std::uint64_t Y = fr & minus(L - e - g) & minus(L - a - c) & plus(fr, a + c - h - f);
    std::array<std::array<std::uint8_t, 4>, 8> one, two;
    std::array<std::uint32_t, 8> one_mask, two_mask;
    int n1 = 0, n2 = 0;
    for (std::uint64_t S = X; S; S &= S - 1) {
      const int x = std::countr_zero(S), q = L - a - b - x, r = L - e - h - x, t = L - c - d - r;
      const std::uint32_t mask = bit(x) | bit(q) | bit(r) | bit(t);
      if (std::popcount(mask) != 4) continue;
      one[n1] = {std::uint8_t(x), std::uint8_t(q), std::uint8_t(r), std::uint8_t(t)};
      one_mask[n1++] = mask;
    }
    for (std::uint64_t S = Y; S; S &= S - 1) {
      const int y = std::countr_zero(S), z = L - e - g - y, w = L - a - c - y, u = L - h - f - w;
      const std::uint32_t mask = bit(y) | bit(z) | bit(w) | bit(u);
      if (std::popcount(mask) != 4) continue;
      two[n2] = {std::uint8_t(y), std::uint8_t(z), std::uint8_t(w), std::uint8_t(u)};
      two_mask[n2++] = mask;
    }
    for (int i = 0; i < n1; ++i)
      for (int j = 0; j < n2; ++j) {
        if (one_mask[i] & two_mask[j]) continue;
        const auto& o = one[i];
        const auto& p = two[j];
        const Solution s{std::uint8_t(a), o[0], o[1], std::uint8_t(b),  //
                         p[0], std::uint8_t(e), std::uint8_t(g), p[1],  //
                         p[2], std::uint8_t(h), std::uint8_t(f), p[3],  //
                         std::uint8_t(c), o[2], o[3], std::uint8_t(d)};
        if (kind_ok(s)) m.emit(s);
      }
  }

  template <class Mode>
  void corner3(int a, Mode& m) const {
    constexpr int L = kLine;
    const std::uint32_t f0 = kAll & ~bit(a);
    for (std::uint32_t X = f0; X; X &= X - 1) {
      const int x = std::countr_zero(X), q = L - a - x;  // row 0
      if (q <= a || q == x || !ok(q, f0)) continue;
      const std::uint32_t f1 = f0 & ~(bit(x) | bit(q));
      for (std::uint32_t M = f1; M; M &= M - 1) {
        const int mid = std::countr_zero(M);
        const int d = L - a - mid;    // main diagonal
        const int c = L - q - mid;    // anti-diagonal
        const int y = L - a - c;      // column 0
        const int z = L - y - mid;    // row 1
        const int r = L - x - mid;    // column 1
        // a is the smallest corner and the top-right is below the bottom-left.
        if (d <= a || c <= q || c + r + d != L || q + z + d != L) continue;  // row 2, column 2
        const int cells[kCells] = {a, x, q, y, mid, z, c, r, d};
        std::uint32_t seen = 0;
        bool fine = true;
        for (int v : cells) {
          fine = fine && v >= 1 && v <= kCells && !(seen >> v & 1);
          if (fine) seen |= bit(v);
        }
        if (!fine) continue;
        Solution s;
        for (int i = 0; i < kCells; ++i) s[i] = static_cast<std::uint8_t>(cells[i]);
        if (kind_ok(s)) m.emit(s);
      }
    }
  }

  // The extra lines of each kind (a magic square already holds the rest).
  bool kind_ok(const Solution& s) const {
    constexpr int pair = kCells + 1;
    switch (kind_) {
      case SquareKind::Associative:
        for (int i = 0; i < kCells / 2; ++i)
          if (s[i] + s[kCells - 1 - i] != pair) return false;
        return true;
      case SquareKind::MostPerfect:
        for (int i = 0; i < N; ++i)
          for (int j = 0; j < N; ++j) {
            auto at = [&](int r, int c) { return s[(r % N) * N + c % N]; };
            if (at(i, j) + at(i + 1, j) + at(i, j + 1) + at(i + 1, j + 1) != 2 * pair) return false;
            if (at(i, j) + at(i + N / 2, j + N / 2) != pair) return false;
          }
        [[fallthrough]];  // most-perfect squares are pandiagonal
      case SquareKind::Pandiagonal:
        for (int k = 1; k < N; ++k) {
          int p = 0, q = 0;
          for (int i = 0; i < N; ++i) {
            p += s[i * N + (i + k) % N];
            q += s[i * N + ((N - 1 - i - k) % N + N) % N];
          }
          if (p != kLine || q != kLine) return false;
        }
        return true;
      default:
        return true;
    }
  }

  SquareKind kind_;
  SquareD4<N> d4_;
};

template <int N>
void SmallSquareProblem<N>::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  walk(ex);
}

template <int N>
template <class Ctx>
void SmallSquareProblem<N>::solve(const State& s, Ctx& ctx) const {
  SolveMode<Ctx> sv{ctx};
  if (s.level == 0) return walk(sv);
  if (sv.enter(1, true, s)) return;
  if constexpr (N == 4) corner4(s.a, sv);
  else corner3(s.a, sv);
}

static_assert(Problem<SmallSquareProblem<4>>);

}  // namespace magic
