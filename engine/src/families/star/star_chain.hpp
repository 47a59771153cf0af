#pragma once
// The chain: the magic stars {n/2} (K = n), the search of star.hpp's
// default for a magic star and of the kept-lines solver's class with every
// line equal.
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
// With every number of a symmetric set placed, the complement halves the
// search (StarTables::complement).
#include <bit>
#include <cstdint>

#include "magic/core/problem.hpp"
#include "star/star_tables.hpp"

namespace magic {

template <int N>
class StarChain : StarPoints<N> {
  using P = StarPoints<N>;
  using P::I;
  using P::kPoints;
  using P::V;

 public:
  using State = StarState<N>;
  static constexpr int kLastLevel = N - 5;  // the level that solves the 3x3 system

  explicit StarChain(const StarTables<N>& t) : t_(&t), bmi2_(star_detail::star_chain_uses_bmi2()) {}
  // A copy that reads the tables `t` (a copy of the problem's).
  StarChain(const StarChain& o, const StarTables<N>& t) : t_(&t), bmi2_(o.bmi2_) {}
  StarChain(const StarChain&) = delete;
  StarChain& operator=(const StarChain&) = delete;

  // The chain runs its copy compiled for BMI2 (see star_chain_uses_bmi2).
  bool uses_bmi2() const { return bmi2_; }

  // From the root (step 0: S, then V0, I(n-1), I0, V1) ...

  template <class Mode>
  void top(State& s, Mode& m) const {
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
        for (int S : t_->sums) {
          State t = s;
          t.sum = static_cast<std::int16_t>(S);
          t.step = 1;
          top(t, m);
        }
        return;
      case 1:  // V0; with breaking the other n-1 vertices lie above it
        for (std::uint64_t f = fr; f; f &= f - 1) {
          const int p = std::countr_zero(f);
          if (t_->spec.symmetry_breaking && std::popcount(fr & vertex_window(p)) < N - 1) break;
          State t = s;
          take(t, V(0), p);
          if (t_->spec.symmetry_breaking) t.vfloor = reversed(vertex_window(p));
          t.step = 2;
          top(t, m);
        }
        return;
      case 2:  // I(n-1)
        for (std::uint64_t f = fr; f; f &= f - 1) {
          State t = s;
          take(t, I(N - 1), std::countr_zero(f));
          t.step = 3;
          top(t, m);
        }
        return;
      case 3: {  // I0, below I(n-1) with breaking
        const std::uint64_t c = t_->spec.symmetry_breaking ? fr & below(s.pos[I(N - 1)]) : fr;
        for (std::uint64_t f = c; f; f &= f - 1) {
          State t = s;
          take(t, I(0), std::countr_zero(f));
          t.step = 4;
          top(t, m);
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
          from(0, t, m);
        }
        return;
      }
    }
  }

 private:
  // Vertices other than V0 must exceed V0 when breaking symmetry.
  std::uint64_t vertex_mask(const State& s) const {
    return t_->spec.symmetry_breaking ? vertex_window(s.pos[V(0)]) : ~0ull;
  }
  // The positions the other vertices may take when V0 holds position p: above
  // it, and with the complement (see t_->complement) at most mirror - p.
  std::uint64_t vertex_window(int p) const {
    const std::uint64_t up = star_detail::above(p);
    return t_->complement ? up & star_detail::below(t_->mirror - p + 1) : up;
  }

 public:
  // ... and from chain level `level` on, in the copy this processor runs fastest.
  template <class Mode>
  void from(int level, State& s, Mode& m) const {
#if MAGIC_STAR_BMI2_COPY
    if constexpr (!Mode::kExpand) {
      if (bmi2_) return enter_chain<0, true>(level, s, m);
    }
#endif
    enter_chain<0, false>(level, s, m);
  }

 private:
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
          t_->emit(s, m);
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
          t_->emit(s, m);
        }
      }
    }
  }

  const StarTables<N>* t_;
  bool bmi2_;  // the chain runs its BMI2 copy (star_chain_uses_bmi2)
};

}  // namespace magic
