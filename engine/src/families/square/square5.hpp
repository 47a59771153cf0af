#pragma once
// Order-5 squares by diagonals and two frames: the counter behind
// `square --order 5` for the kinds magic, associative and pandiagonal.
//
//   m0  B   B   B   a0     m = main diagonal, a = anti-diagonal, c = centre
//   A   m1  A   a1  A      A = frame A: rows 1, 3 and columns 0, 4
//   A   B   c   B   A      B = frame B: rows 0, 4 and columns 1, 3
//   A   a3  A   m3  A
//   a4  B   B   B   m4     Each of those eight lines has three cells in its
//                          own frame and two on the diagonals.
//
// The tree: centre, m0, the rest of the main diagonal, (a0, a4), (a1, a3).
// A whole diagonal is a leaf, completed in one piece (complete()).
//
// Why each step is sound:
// - Rows 2 and column 2 are never checked: the 25 values sum to 325, so
//   once rows 0, 1, 3, 4 make 65 so does row 2 (the same for columns).
// - A frame is fixed by its four corners; each edge is forced by its line
//   (one lookup).  The frames share no cell and no line, so the completions
//   of a diagonal are exactly the pairs (frame A, frame B) whose value sets
//   split the 16 free values; a table keyed by the value set pairs them.
// - The group G of 32 (rotations and reflections, rows/columns 0<->4
//   together, rows/columns 0<->1 with 3<->4 together) maps magic squares to
//   magic squares and the diagonal cells to the diagonal cells.  It acts
//   freely on a diagonal (its 8 values are distinct), and m0 < the other 7,
//   m1 < m3, a0 < a4 picks one filling per orbit: the 8 cells form one
//   orbit, and the 4 elements fixing cell (0,0) are told apart by those two
//   inequalities.  So each completion stands for 32 squares, i.e. 4 squares
//   up to rotation and reflection: its images under the coset
//   representatives below.  No orbit is short, so no correction is needed.
// - x -> 26 - x maps magic squares to magic squares and centre c to 26 - c:
//   centres 14..25 are the images of centres 12..1.
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "square/square_d4.hpp"
#include "magic/sum_groups.hpp"

namespace magic {

struct SquareSpec;

// Whether `square --order 5` of this spec runs here (else: the generic solver).
bool square5_handles(const SquareSpec& spec);

class Square5Problem {
 public:
  static constexpr int kCells = 25;
  using Solution = std::array<std::uint8_t, kCells>;
  struct State {
    std::uint8_t level;  // 0 root, 1 centre, 2 m0, 3 main diagonal, 4 a0 a4, 5 whole diagonal
    std::uint8_t c, m0, m1, m3, m4, a0, a4, a1, a3;
    std::uint32_t used;  // bit v: v is on a diagonal
  };
  static_assert(std::is_trivially_copyable_v<State>);

  explicit Square5Problem(const SquareSpec& spec);

  nlohmann::json describe() const { return describe_; }
  static constexpr const char* kSearch = "square5/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() {
    return "order 5: 1 centre, 2 top-left corner, 3 main diagonal, 4 anti-diagonal corners, 5 whole diagonals";
  }
  Emits emits() const { return kind_ == SquareKind::Pandiagonal ? Emits::AllImages : Emits::OnePerOrbit; }
  bool has_group() const { return true; }
  Solution canonical(const Solution& s) const { return d4_.canonical(s); }
  // Distinct corners: no rotation or reflection fixes a square.
  static constexpr std::uint64_t kOrbitBound = 8;  // count_solution
  std::uint64_t orbit_size(const Solution&) const { return kOrbitBound; }
  std::int64_t key(const Solution& s) const { return s[12]; }  // counts.by_center
  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, 5); }

  // The two walks, compiled once by the library: cut in
  // engine/src/families/square/square5.cpp, solve below the class and not inline
  // (declared extern at the end of square.hpp).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

 private:
  using Perm = std::array<std::uint8_t, kCells>;
  // A frame:  p t q   corners p q r s; each edge is forced by its line:
  //           l . g   t = top - p - q, l = left - p - r,
  //           r b s   b = bottom - r - s, g = right - q - s.
  struct Sums {
    int top, left, bottom, right;
  };
  struct Frame {
    std::array<std::uint8_t, 8> v;  // p q r s t l b g
    std::uint16_t next;             // next frame with the same value set, +1 (0: none)
  };
  // Per solve(): the pairing table (65,536 x 2 bytes) is reset through the
  // list of keys it touched, so a diagonal costs only what it used.
  struct Scratch {
    std::vector<std::uint16_t> head = std::vector<std::uint16_t>(1 << 16, 0);
    std::vector<std::uint16_t> touched;
    std::vector<Frame> b;
  };
  // Free values as a mask and mirrored (bit 63 - v), so {v : K - v free} is one shift.
  struct Free {
    std::uint64_t f, r;
    void take(int v) {
      f &= ~(std::uint64_t{1} << v);
      r &= ~(std::uint64_t{1} << (63 - v));
    }
    // {v free : K - v free, v != K - v}
    std::uint64_t pairs(int k) const {
      if (k < 3 || k > 49) return 0;
      std::uint64_t m = f & (r >> (63 - k));
      if (!(k & 1)) m &= ~(std::uint64_t{1} << (k / 2));
      return m;
    }
  };

  template <class Mode>
  void dfs(const State& s, Mode& m, Scratch* sc) const {
    const bool leaf = s.level == 5;
    if (m.enter(s.level, leaf, s)) return;
    if (leaf) {
      if constexpr (!Mode::kExpand) complete(s, m, *sc);
      return;
    }
    auto child = [&](State t) {
      t.level = static_cast<std::uint8_t>(s.level + 1);
      dfs(t, m, sc);
    };
    const int line = 65 - s.c;  // what the four other cells of a diagonal add up to
    switch (s.level) {
      case 0:
        for (int c : centres_) {
          State t = s;
          t.c = static_cast<std::uint8_t>(c);
          t.used = bit(c);
          child(t);
        }
        return;
      case 1:
        for (int m0 = 1; m0 <= 25; ++m0) {
          // m0 is the smallest of the 8; three larger distinct values must fit.
          if (!(allowed(s.c) & bit(m0)) || 4 * m0 + 6 > line) continue;
          State t = s;
          t.m0 = static_cast<std::uint8_t>(m0);
          t.used |= bit(m0);
          child(t);
        }
        return;
      case 2: {
        const std::uint32_t ok = allowed(s.c) & ~s.used & above(s.m0);
        for (int m1 = s.m0 + 1; m1 <= 25; ++m1) {
          if (!(ok & bit(m1))) continue;
          for (int m3 = m1 + 1; m3 <= 25; ++m3) {
            const int m4 = line - s.m0 - m1 - m3;
            if (!(ok & bit(m3)) || m4 < 1 || m4 > 25 || !(ok & bit(m4)) || m4 == m1 || m4 == m3) continue;
            if (kind_ == SquareKind::Associative && (m3 != 26 - m1 || m4 != 26 - s.m0)) continue;
            State t = s;
            t.m1 = static_cast<std::uint8_t>(m1);
            t.m3 = static_cast<std::uint8_t>(m3);
            t.m4 = static_cast<std::uint8_t>(m4);
            t.used |= bit(m1) | bit(m3) | bit(m4);
            child(t);
          }
        }
        return;
      }
      case 3: {
        const std::uint32_t ok = allowed(s.c) & ~s.used & above(s.m0);
        for (int a0 = s.m0 + 1; a0 <= 25; ++a0) {
          if (!(ok & bit(a0))) continue;
          for (int a4 = a0 + 1; a4 <= 25; ++a4) {
            if (!(ok & bit(a4))) continue;
            if (kind_ == SquareKind::Associative && a4 != 26 - a0) continue;
            State t = s;
            t.a0 = static_cast<std::uint8_t>(a0);
            t.a4 = static_cast<std::uint8_t>(a4);
            t.used |= bit(a0) | bit(a4);
            child(t);
          }
        }
        return;
      }
      case 4: {
        // a1 + a3 is fixed by the anti-diagonal, so a3 is forced (and, for
        // the associative kind, a3 = 26 - a1 follows from a4 = 26 - a0).
        const std::uint32_t ok = allowed(s.c) & ~s.used & above(s.m0);
        for (int a1 = s.m0 + 1; a1 <= 25; ++a1) {
          const int a3 = line - s.a0 - s.a4 - a1;
          if (!(ok & bit(a1)) || a3 < 1 || a3 > 25 || !(ok & bit(a3)) || a3 == a1) continue;
          State t = s;
          t.a1 = static_cast<std::uint8_t>(a1);
          t.a3 = static_cast<std::uint8_t>(a3);
          t.used |= bit(a1) | bit(a3);
          child(t);
        }
        return;
      }
    }
  }

  // Every frame of one side, for the free values `fr` and the line sums `k`.
  template <class Out>
  void frames(Free fr, Sums k, Out&& out) const {
    for (std::uint64_t P = fr.f; P; P &= P - 1) {
      const int p = std::countr_zero(P);
      Free f1 = fr;
      f1.take(p);
      for (std::uint64_t Q = f1.pairs(k.top - p); Q; Q &= Q - 1) {
        const int q = std::countr_zero(Q), t = k.top - p - q;
        Free f2 = f1;
        f2.take(q);
        f2.take(t);
        for (std::uint64_t R = f2.pairs(k.left - p); R; R &= R - 1) {
          const int r = std::countr_zero(R), l = k.left - p - r;
          Free f3 = f2;
          f3.take(r);
          f3.take(l);
          const int kb = k.bottom - r, kg = k.right - q;
          if (kb == kg) continue;  // b and g would be equal for every s
          for (std::uint64_t S = f3.pairs(kb) & f3.pairs(kg); S; S &= S - 1) {
            const int s = std::countr_zero(S);
            const Frame fm{{std::uint8_t(p), std::uint8_t(q), std::uint8_t(r), std::uint8_t(s),
                            std::uint8_t(t), std::uint8_t(l), std::uint8_t(kb - s), std::uint8_t(kg - s)},
                           0};
            // Associative: the frame's cells pair up under the half-turn
            // (p with s, q with r, t with b, l with g).
            if (kind_ == SquareKind::Associative &&
                (p + s != 26 || q + r != 26 || t + fm.v[6] != 26 || l + fm.v[7] != 26))
              continue;
            out(fm);
          }
        }
      }
    }
  }

  template <class Mode>
  void complete(const State& d, Mode& m, Scratch& sc) const {
    constexpr std::uint64_t all = ((std::uint64_t{1} << 26) - 1) & ~std::uint64_t{1};
    Free fr{all & ~std::uint64_t{d.used}, 0};
    std::array<std::uint8_t, 26> idx{};
    int k = 0;
    for (std::uint64_t f = fr.f; f; f &= f - 1) {
      const int v = std::countr_zero(f);
      fr.r |= std::uint64_t{1} << (63 - v);
      idx[v] = static_cast<std::uint8_t>(k++);
    }
    auto key = [&](const Frame& f) {
      unsigned x = 0;
      for (std::uint8_t v : f.v) x |= 1u << idx[v];
      return static_cast<std::uint16_t>(x);
    };
    const Sums a{65 - d.m1 - d.a1, 65 - d.m0 - d.a4, 65 - d.a3 - d.m3, 65 - d.a0 - d.m4};
    const Sums b{65 - d.m0 - d.a0, 65 - d.m1 - d.a3, 65 - d.a4 - d.m4, 65 - d.a1 - d.m3};
    sc.b.clear();
    sc.touched.clear();
    frames(fr, b, [&](Frame f) {
      const std::uint16_t kk = key(f);
      if (!sc.head[kk]) sc.touched.push_back(kk);
      f.next = sc.head[kk];
      if (sc.b.size() == 0xffff) throw std::logic_error("more frames than the pairing table indexes");
      sc.b.push_back(f);
      sc.head[kk] = static_cast<std::uint16_t>(sc.b.size());
    });
    std::uint64_t n_a = 0;
    Solution sq{};
    place_diagonal(d, sq);
    frames(fr, a, [&](const Frame& fa) {
      ++n_a;
      for (std::uint16_t i = sc.head[0xffff ^ key(fa)]; i; i = sc.b[i - 1].next) {
        place_frames(fa, sc.b[i - 1], sq);
        emit_images(sq, d.c, m);
      }
    });
    for (std::uint16_t kk : sc.touched) sc.head[kk] = 0;
    if constexpr (requires { m.ctx.nodes; }) m.ctx.nodes += n_a + sc.b.size();
  }

  static void place_diagonal(const State& d, Solution& sq) {
    sq[0] = d.m0, sq[6] = d.m1, sq[12] = d.c, sq[18] = d.m3, sq[24] = d.m4;
    sq[4] = d.a0, sq[8] = d.a1, sq[16] = d.a3, sq[20] = d.a4;
  }
  // Frame A: p=(1,0) q=(1,4) r=(3,0) s=(3,4) t=(1,2) l=(2,0) b=(3,2) g=(2,4).
  // Frame B: p=(0,1) q=(0,3) r=(4,1) s=(4,3) t=(0,2) l=(2,1) b=(4,2) g=(2,3).
  static void place_frames(const Frame& a, const Frame& b, Solution& sq) {
    static constexpr std::uint8_t ca[8] = {5, 9, 15, 19, 7, 10, 17, 14};
    static constexpr std::uint8_t cb[8] = {1, 3, 21, 23, 2, 11, 22, 13};
    for (int i = 0; i < 8; ++i) sq[ca[i]] = a.v[i], sq[cb[i]] = b.v[i];
  }

  template <class Mode>
  void emit_images(const Solution& rep, int c, Mode& m) const {
    for (const Perm& g : cosets_) {
      const Solution s = apply(g, rep);
      if (kind_ == SquareKind::Pandiagonal) {
        emit_pandiagonal(s, m);
        continue;
      }
      if (direct_[c]) m.emit(s);
      if (mirror_[c]) {
        Solution t;
        for (int i = 0; i < kCells; ++i) t[i] = static_cast<std::uint8_t>(26 - s[i]);
        m.emit(t);
      }
    }
  }
  // The pandiagonal kind searches centre 1 only: every pandiagonal square
  // has one cyclic shift (of 25) that puts its 1 in the centre, and shifts
  // keep it pandiagonal.  So the pandiagonal squares with centre 1, each
  // shifted 25 ways, are every pandiagonal square exactly once.
  template <class Mode>
  void emit_pandiagonal(const Solution& s, Mode& m) const {
    for (const Perm& r : d4_.perms()) {
      const Solution t = apply(r, s);
      if (!pandiagonal(t)) continue;
      for (const Perm& sh : shifts_) m.emit(apply(sh, t));
    }
  }
  bool pandiagonal(const Solution& s) const {
    for (const auto& line : broken_) {
      int sum = 0;
      for (std::uint8_t cell : line) sum += s[cell];
      if (sum != 65) return false;
    }
    return true;
  }
  static Solution apply(const Perm& g, const Solution& s) { return SquareD4<5>::apply(g, s); }

  static constexpr std::uint32_t bit(int v) { return std::uint32_t{1} << v; }
  static constexpr std::uint32_t above(int v) { return ~((std::uint32_t{2} << v) - 1); }
  std::uint32_t allowed(int c) const { return allowed_[c]; }

  SquareKind kind_;
  nlohmann::json describe_;
  std::vector<int> centres_;              // the centres the search visits
  std::array<std::uint32_t, 26> allowed_{};  // per centre: values the 8 other diagonal cells may take
  std::array<bool, 26> direct_{};          // emit the images themselves
  std::array<bool, 26> mirror_{};          // emit their complements (26 - x)
  std::array<Perm, 4> cosets_{};           // one element of each coset of the rotations/reflections in G
  SquareD4<5> d4_;
  std::array<Perm, 25> shifts_{};
  std::array<std::array<std::uint8_t, 5>, 8> broken_{};  // the broken diagonals (the main two are magic already)
};

template <class Ctx>
void Square5Problem::solve(const State& s, Ctx& ctx) const {
  Scratch sc;
  SolveMode<Ctx> sv{ctx};
  dfs(s, sv, &sc);
}

static_assert(Problem<Square5Problem>);

}  // namespace magic
