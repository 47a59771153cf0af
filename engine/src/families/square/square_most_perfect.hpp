#pragma once
// Most-perfect squares of order 8 by exhaustive search: the counter behind
// `square --order 8 --kind most-perfect` and `complete --count` of an
// empty most-perfect 8x8 grid.
//
// With the numbers taken as 0..63, a most-perfect square is a pandiagonal
// magic square (lines sum to 252) in which, on the torus,
//   (B) every 2x2 block sums to 126, and
//   (C) cells 4 apart on a diagonal sum to 63: a[r+4][c+4] = 63 - a[r][c].
// The search uses three consequences:
//   - rows 4..7 are rows 0..3 complemented and shifted by 4 (C), so only
//     rows 0..3 are searched, each cell placing its partner;
//   - given row r and a[r+1][0], (B) forces the rest of row r+1, left to
//     right, and the wrap-around block checks it;
//   - summing two blocks and taking away two others, (B) gives
//     a[r][c] + a[r+2][c+2] = a[r][c+2] + a[r+2][c]; with (C) this makes
//     row 0 satisfy a00 + a04 = a02 + a06 and a01 + a05 = a03 + a07, and,
//     with its sum 252, both pairs sum to 126: row 0 has four free cells.
//
//   level 1  a01           row 0:  a00=0  a01  a02  a03  a04  a05  a06  a07
//   level 2  a10 -> a11                            ^ 126-a01-a05
//   level 3  a05 -> a04                                      ^ a04-a02
//   level 4  a02 -> a06                                           ^ a01+a05-a03
//   level 5  a03 -> a07, then row 1
//   level 6  a20 -> row 2
//   level 7  a30 -> row 3; the blocks between rows 3 and 4 (those between
//            7 and 0 are their complements); every line checked.
//
// Symmetry.  G = the 64 translations of the torus and the 8 rotations and
// reflections about cell (0,0) maps most-perfect squares to most-perfect
// squares, and acts freely (the numbers are distinct): orbits of 512.  The
// search takes one square of each: 0 at (0,0) (a translation), and a01 the
// least of the four neighbours of (0,0), a10 < a70 (the 8 maps fixing
// (0,0) permute those four neighbours as the square's symmetries permute
// its sides).  The grid's own 8 rotations and reflections are in G (each
// is a map about (0,0) then a translation), and each class of 8 holds one
// translate of the found square, so its 64 translates are 64 squares up to
// rotation and reflection: `square` emits them (counts.unique: squares in
// Frénicle standard form, as the literature counts; counts.total: all
// orientations).  `complete` counts every square: all 512 images.
#include <array>
#include <cstdint>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "square/square_d4.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

class MostPerfect8Problem {
 public:
  static constexpr int N = 8, kCells = 64, kLine = 252, kBlock = 126, kPair = 63;
  using Solution = std::array<std::uint8_t, kCells>;
  enum class Emit : std::uint8_t {
    Translates,  // square: the 64 translates, each its own class up to rotation and reflection
    Images,      // complete: all 512 images, every square on its own
  };
  struct State {
    std::array<std::uint8_t, kCells> a;  // value 0..63 by cell 8 r + c, where placed
    std::uint64_t used;                  // values placed (bit v)
    std::uint8_t level;
  };
  static_assert(std::is_trivially_copyable_v<State>);

  MostPerfect8Problem(Emit emit, nlohmann::json describe) : emit_(emit), describe_(std::move(describe)) {}

  static constexpr const char* kSearch = "most-perfect8/1";  // core/problem.hpp: bump on a new task tree
  nlohmann::json describe() const { return describe_; }
  static const char* describe_levels() {
    return "most-perfect order 8: a level is one chosen cell, with the cells it forces (1 a01, 2 a10, 3 a05, 4 a02, "
           "5 a03 and row 1, 6 row 2, 7 row 3)";
  }
  Emits emits() const { return Emits::OnePerOrbit; }
  bool has_group() const { return emit_ == Emit::Translates; }
  Solution canonical(const Solution& s) const { return emit_ == Emit::Translates ? d4_.canonical(s) : s; }
  static constexpr std::uint64_t kOrbitBound = 8;  // count_solution
  std::uint64_t orbit_size(const Solution&) const { return emit_ == Emit::Translates ? kOrbitBound : 1; }
  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    SolveMode<Ctx> m{ctx};
    walk(s, m);
  }

  static State root();

 private:
  static constexpr int at(int r, int c) { return ((r & 7) << 3) | (c & 7); }
  // Places v at (r, c) and 63 - v at (r + 4, c + 4); false if v is out of
  // range or either number is placed already.
  static bool put(State& s, int r, int c, int v) {
    if (v < 0 || v > kPair) return false;
    const std::uint64_t both = std::uint64_t{1} << v | std::uint64_t{1} << (kPair - v);
    if (s.used & both) return false;
    s.used |= both;
    s.a[at(r, c)] = static_cast<std::uint8_t>(v);
    s.a[at(r + 4, c + 4)] = static_cast<std::uint8_t>(kPair - v);
    return true;
  }
  // Row r + 1 from row r and a[r+1][0 .. from], by the blocks; the
  // wrap-around block checked.
  static bool fill_row(State& s, int r, int from = 0) {
    for (int c = from; c + 1 < N; ++c)
      if (!put(s, r + 1, c + 1, kBlock - s.a[at(r, c)] - s.a[at(r, c + 1)] - s.a[at(r + 1, c)])) return false;
    return s.a[at(r, 7)] + s.a[at(r, 0)] + s.a[at(r + 1, 7)] + s.a[at(r + 1, 0)] == kBlock;
  }
  static bool blocks_of_row(const State& s, int r) {
    for (int c = 0; c < N; ++c)
      if (s.a[at(r, c)] + s.a[at(r, c + 1)] + s.a[at(r + 1, c)] + s.a[at(r + 1, c + 1)] != kBlock) return false;
    return true;
  }
  static bool lines_hold(const State& s);

  // Each value the level's cell may take, the cells it forces placed; the
  // child entered at level + 1.
  template <class Mode, class Force>
  void branch(const State& s, Mode& m, int r, int c, int lo, Force&& force) const {
    for (int v = lo; v <= kPair; ++v) {
      State t = s;
      t.level = static_cast<std::uint8_t>(s.level + 1);
      if (put(t, r, c, v) && force(t)) walk(t, m);
    }
  }

  template <class Mode>
  void walk(const State& s, Mode& m) const {
    const bool leaf = s.level == 7;
    if (m.enter(s.level, leaf, s)) return;
    if (leaf) {
      if constexpr (!Mode::kExpand) emit(s, m);
      return;
    }
    const auto& a = s.a;
    switch (s.level) {
      case 0:
        return branch(s, m, 0, 1, 1, [](State&) { return true; });
      case 1:
        return branch(s, m, 1, 0, a[at(0, 1)] + 1,
                      [](State& t) { return put(t, 1, 1, kBlock - t.a[at(0, 0)] - t.a[at(0, 1)] - t.a[at(1, 0)]); });
      case 2:
        return branch(s, m, 0, 5, 0, [](State& t) { return put(t, 0, 4, kBlock - t.a[at(0, 1)] - t.a[at(0, 5)]); });
      case 3:
        return branch(s, m, 0, 2, 0, [](State& t) { return put(t, 0, 6, t.a[at(0, 4)] - t.a[at(0, 2)]); });
      case 4:
        return branch(s, m, 0, 3, 0, [](State& t) {
          const int a07 = t.a[at(0, 1)] + t.a[at(0, 5)] - t.a[at(0, 3)];
          return a07 > t.a[at(0, 1)] && put(t, 0, 7, a07) && fill_row(t, 0, 1);  // a11 is placed
        });
      case 5:
        return branch(s, m, 2, 0, 0, [](State& t) { return fill_row(t, 1); });
      case 6:
        return branch(s, m, 3, 0, 0, [](State& t) {
          // a70 (= 63 - a34) above a01 and a10: the symmetry breaking's last pair.
          return fill_row(t, 2) && t.a[at(7, 0)] > t.a[at(1, 0)] && blocks_of_row(t, 3) && lines_hold(t);
        });
    }
  }

  template <class Mode>
  void emit(const State& s, Mode& m) const {
    // The maps about (0,0): image (r, c) reads (r, c) through each of them.
    static constexpr int kMaps[8][4] = {{1, 0, 0, 1},  {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0},
                                        {0, 1, 1, 0},  {1, 0, 0, -1}, {-1, 0, 0, 1},  {0, -1, -1, 0}};
    const int maps = emit_ == Emit::Images ? 8 : 1;
    for (int g = 0; g < maps; ++g)
      for (int dr = 0; dr < N; ++dr)
        for (int dc = 0; dc < N; ++dc) {
          Solution t{};
          for (int r = 0; r < N; ++r)
            for (int c = 0; c < N; ++c) {
              const int sr = kMaps[g][0] * r + kMaps[g][1] * c + dr, sc = kMaps[g][2] * r + kMaps[g][3] * c + dc;
              t[static_cast<std::size_t>(at(r, c))] = static_cast<std::uint8_t>(s.a[at(sr, sc)] + 1);
            }
          m.emit(t);
        }
  }

  Emit emit_;
  nlohmann::json describe_;
  SquareD4<8> d4_;
};

}  // namespace magic

namespace magic {
MAGIC_RUN_AS(extern, MostPerfect8Problem)  // its cut is compiled in square_most_perfect.cpp
}  // namespace magic
