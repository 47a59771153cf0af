#pragma once
// Semi-magic squares (rows and columns only) of order N counted as pairs of
// partitions: the counter behind `square --order 5 --kind semi`.
//
// The rows of a semi-magic square are a partition P of 1..N² into N blocks
// of N numbers, each summing to M = N(N²+1)/2; so are its columns, Q.  Each
// row meets each column in exactly one cell, so every block of P meets
// every block of Q in exactly one number ("orthogonal").  Conversely an
// orthogonal pair (P, Q) with its blocks put in an order gives one square:
// cell (i, j) holds the number P_i and Q_j share.  Hence
//
//   squares = (N!)² · #{ordered pairs (P, Q)}           rows and columns ordered
//
// and, since a block of P and a block of Q share one number, P != Q: the
// transpose maps (P, Q) to (Q, P), another pair.  The search takes one of
// each two, the one whose block holding 1 is smaller in P than in Q (as a
// mask; the two blocks share only 1, so they differ).  A class {P, Q}
// stands for 2 (N!)² squares.  A square of distinct numbers is fixed by no
// rotation or reflection but the identity, so those squares fall into
// 2 (N!)² / 8 orbits: one emitted class counts (N!)²/4 unique squares
// (3,600 at order 5) and 2 (N!)² in counts.total (28,800).
//
// The class is emitted as its representative square: rows in P's order,
// columns in Q's, each by least number, the block of P holding 1 smaller
// than Q's (so 1 is in the corner).  canonical() puts any semi-magic square
// into that form; the digest hashes the representatives.
//
// The tree: each level chooses one block, the one holding the least number
// not yet covered (an exact cover, so no partition is found twice): first
// P's blocks, the last one forced, then Q's among the subsets that meet
// each block of P once ("transversals"), the last one forced again.  The
// transversals are filtered level by level down P's tree (meeting P_1..P_k
// once each), so a whole P costs one short filter.
//
// A slice (first_row, with or without first_column) counts the squares
// whose first row (and column) are those numbers in that order, every one
// of them, with no symmetry: the check against the cell-by-cell solver
// (`complete --kind semi` on the same grid).  Then P must hold the row's
// set and Q the column's; each pair gives (N-1)! squares (the other rows
// in any order), or one when the column is given too.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "square/square_spec.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

// Whether `square` of this spec runs here (else: square.hpp's solvers).
bool semi_pairs_handles(const SquareSpec& spec);

template <int N>
class SemiPairsProblem {
 public:
  static_assert(N >= 3 && N <= 5, "numbers are bits of a 32-bit mask");
  static constexpr int kCells = N * N;
  static constexpr int kSum = N * (N * N + 1) / 2;
  static constexpr int kFactorial = N == 3 ? 6 : N == 4 ? 24 : 120;
  static constexpr std::uint32_t kAll = (std::uint32_t{1} << kCells) - 1;  // bit v - 1: number v

  using Solution = std::array<std::uint8_t, kCells>;
  struct State {
    std::array<std::uint32_t, N> p{}, q{};  // the blocks of P (rows) and Q (columns) chosen so far
    std::uint32_t covered = 0;              // numbers in the blocks of the partition being chosen
    std::uint8_t np = 0, nq = 0;            // blocks chosen (the forced last one included)
    std::uint8_t level = 0;
  };
  static_assert(std::is_trivially_copyable_v<State>);

  explicit SemiPairsProblem(const SquareSpec& spec);

  static constexpr const char* kSearch = "semi-pairs/1";  // core/problem.hpp: bump on a new task tree
  nlohmann::json describe() const { return describe_; }
  static const char* describe_levels() {
    return "semi-magic by partitions: a level is one chosen block, first of the rows' partition, then of the columns'";
  }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return !sliced(); }
  Solution canonical(const Solution& s) const { return sliced() ? s : representative(s); }
  // What one emitted square stands for: see the header comment.
  std::uint64_t orbit_size(const Solution&) const { return sliced() ? 1 : 2ull * kFactorial * kFactorial; }
  std::uint64_t weight(const Solution&) const { return sliced() ? 1 : std::uint64_t{kFactorial} * kFactorial / 4; }
  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    SolveMode<Ctx> m{ctx};
    Scratch sc;
    sc.trans[0] = subsets_;
    for (int k = 0; k < std::min<int>(s.np, N - 1); ++k) filter(sc.trans[k], s.p[k], sc.trans[k + 1]);
    if (s.np == N) bucket(sc, s.p[0]);
    walk(s, m, sc);
  }

  // The canonical form of a semi-magic square of order N (see above).
  static Solution representative(const Solution& s);

 private:
  // Per solve(): the transversals of P's blocks so far, by level, and once
  // P is whole, those allowed in Q by their least number.
  struct Scratch {
    std::array<std::vector<std::uint32_t>, N> trans;
    std::array<std::vector<std::uint32_t>, kCells> by_least;
  };

  bool sliced() const { return !row_.empty(); }
  // out = the subsets of `from` that meet `block` in exactly one number.
  static void filter(const std::vector<std::uint32_t>& from, std::uint32_t block, std::vector<std::uint32_t>& out) {
    out.clear();
    for (std::uint32_t t : from)
      if (std::has_single_bit(t & block)) out.push_back(t);
  }
  // Q's candidates, by least number: the transversals of P (sc.trans[N-1]:
  // meeting N - 1 blocks once leaves one number in the last), less those
  // the slice's column or the halving rules out.
  void bucket(Scratch& sc, std::uint32_t p_one) const {
    for (auto& b : sc.by_least) b.clear();
    for (std::uint32_t t : sc.trans[N - 1]) {
      if (col_set_ && t != col_set_ && (t & col_set_)) continue;
      if (!sliced() && (t & 1) && t <= p_one) continue;  // Q's block of 1 above P's: one of (P, Q), (Q, P)
      sc.by_least[static_cast<std::size_t>(std::countr_zero(t))].push_back(t);
    }
  }

  template <class Mode>
  void walk(const State& s, Mode& m, Scratch& sc) const {
    const bool leaf = s.nq == N;
    if (m.enter(s.level, leaf, s)) return;
    if (leaf) {
      if constexpr (!Mode::kExpand) emit(s, m);
      return;
    }
    const int u = std::countr_one(s.covered);  // the least number not covered, less one
    if (s.np < N) {
      for (std::uint32_t t : p_by_least_[static_cast<std::size_t>(u)]) {
        if (t & s.covered) continue;
        State c = s;
        c.level = static_cast<std::uint8_t>(s.level + 1);
        c.p[c.np++] = t;
        c.covered |= t;
        if (c.np == N - 1) {  // the rest is the last block
          c.p[c.np++] = kAll & ~c.covered;
          c.covered = 0;
        }
        if constexpr (!Mode::kExpand) {
          if (c.np < N) {
            filter(sc.trans[c.np - 1], t, sc.trans[c.np]);
          } else {
            filter(sc.trans[N - 2], t, sc.trans[N - 1]);
            bucket(sc, c.p[0]);
          }
        }
        walk(c, m, sc);
      }
      return;
    }
    // Q: in expand mode the buckets are not kept, so the candidates are
    // found from the subsets themselves.
    auto each = [&](auto&& f) {
      if constexpr (Mode::kExpand) {
        for (std::uint32_t t : q_candidates(s, u)) f(t);
      } else {
        for (std::uint32_t t : sc.by_least[static_cast<std::size_t>(u)]) f(t);
      }
    };
    each([&](std::uint32_t t) {
      if (t & s.covered) return;
      State c = s;
      c.level = static_cast<std::uint8_t>(s.level + 1);
      c.q[c.nq++] = t;
      c.covered |= t;
      if (c.nq == N - 1) c.q[c.nq++] = kAll & ~c.covered;
      walk(c, m, sc);
    });
  }
  // The subsets with least number u + 1 that Q may take at s (expand mode).
  std::vector<std::uint32_t> q_candidates(const State& s, int u) const;

  template <class Mode>
  void emit(const State& s, Mode& m) const {
    if (!sliced()) return m.emit(square(s.p, s.q));
    // Columns in the order of the row's numbers; rows by the column's, or every order.
    std::array<std::uint32_t, N> rows{}, cols{};
    for (int j = 0; j < N; ++j) cols[j] = block_of(s.q, row_[j]);
    if (!col_.empty()) {
      for (int i = 0; i < N; ++i) rows[i] = block_of(s.p, col_[i]);
      return m.emit(square(rows, cols));
    }
    rows[0] = row_set_;
    std::array<std::uint32_t, N - 1> rest{};
    int k = 0;
    for (std::uint32_t b : s.p)
      if (b != row_set_) rest[k++] = b;
    std::sort(rest.begin(), rest.end());
    do {
      std::copy(rest.begin(), rest.end(), rows.begin() + 1);
      m.emit(square(rows, cols));
    } while (std::next_permutation(rest.begin(), rest.end()));
  }
  static std::uint32_t block_of(const std::array<std::uint32_t, N>& blocks, int v) {
    for (std::uint32_t b : blocks)
      if (b >> (v - 1) & 1) return b;
    return 0;
  }
  static Solution square(const std::array<std::uint32_t, N>& rows, const std::array<std::uint32_t, N>& cols) {
    Solution sq{};
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) sq[i * N + j] = static_cast<std::uint8_t>(std::countr_zero(rows[i] & cols[j]) + 1);
    return sq;
  }

  nlohmann::json describe_;
  std::vector<int> row_, col_;       // the slice: first row and column, in order (empty: none)
  std::uint32_t row_set_ = 0, col_set_ = 0;
  std::vector<std::uint32_t> subsets_;  // every N-subset of 1..N² summing to M
  std::array<std::vector<std::uint32_t>, kCells> p_by_least_;  // P's candidates by least number
};

extern template class SemiPairsProblem<3>;
extern template class SemiPairsProblem<4>;
extern template class SemiPairsProblem<5>;

}  // namespace magic
