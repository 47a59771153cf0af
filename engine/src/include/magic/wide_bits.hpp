#pragma once
// Bit sets for the completion search, one interface over three types:
// std::uint64_t for up to 64 values or cells (orders 3..8), U128 (GCC's
// unsigned __int128) for up to 128 (orders 9..11), and Bits<W>, W words,
// past that (12..16: up to 256).  The search is written once against the
// free functions below and the type is chosen by order at compile time
// (complete.hpp).  U128 is there for speed: its shifts and compares are a
// few instructions, where Bits<2> loops over its words (the order-9 search
// spends most of its time shifting masks: perf/results/complete.md).
//
//   Bits<3>:  w[0] = bits 0..63, w[1] = bits 64..127, w[2] = bits 128..191
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace magic::bits {

template <int W>
struct Bits {
  std::array<std::uint64_t, W> w{};

  friend Bits operator&(Bits a, const Bits& b) { return a &= b; }
  friend Bits operator|(Bits a, const Bits& b) { return a |= b; }
  friend Bits operator~(Bits a) {
    for (auto& x : a.w) x = ~x;
    return a;
  }
  Bits& operator&=(const Bits& b) {
    for (int i = 0; i < W; ++i) w[i] &= b.w[i];
    return *this;
  }
  Bits& operator|=(const Bits& b) {
    for (int i = 0; i < W; ++i) w[i] |= b.w[i];
    return *this;
  }
  bool operator==(const Bits&) const = default;
};
static_assert(std::is_trivially_copyable_v<Bits<4>>);

__extension__ typedef unsigned __int128 U128;  // (__extension__: -Wpedantic knows it is not ISO)

// The mask type for n bits.
template <int n>
using MaskFor = std::conditional_t<(n <= 64), std::uint64_t, std::conditional_t<(n <= 128), U128, Bits<(n + 63) / 64>>>;

template <class M>
inline constexpr int kWidth = 64;
template <>
inline constexpr int kWidth<U128> = 128;
template <int W>
inline constexpr int kWidth<Bits<W>> = 64 * W;

// ---- std::uint64_t ---------------------------------------------------------
inline bool any(std::uint64_t m) { return m != 0; }
// Without -mpopcnt, std::popcount is a call into libgcc's table walk; the
// SWAR count inline is a dozen instructions (perf/results/complete.md).
[[gnu::always_inline]] inline int pop(std::uint64_t m) {
#ifdef __POPCNT__
  return std::popcount(m);
#else
  m -= m >> 1 & 0x5555555555555555ull;
  m = (m & 0x3333333333333333ull) + (m >> 2 & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>(m * 0x0101010101010101ull >> 56);
#endif
}
inline int low(std::uint64_t m) { return std::countr_zero(m); }        // m != 0
inline int high(std::uint64_t m) { return 63 - std::countl_zero(m); }  // m != 0
inline std::uint64_t drop_low(std::uint64_t m) { return m & (m - 1); }
inline std::uint64_t drop_high(std::uint64_t m) { return m & ~(std::uint64_t{1} << high(m)); }
inline bool test(std::uint64_t m, int i) { return m >> i & 1; }
inline bool single(std::uint64_t m) { return m && !(m & (m - 1)); }
// m << s for s >= 0, m >> -s otherwise; 0 once everything is shifted out.
inline std::uint64_t shifted(std::uint64_t m, int s) {
  if (s >= 64 || s <= -64) return 0;
  return s >= 0 ? m << s : m >> -s;
}
[[gnu::always_inline]] inline std::uint64_t reversed(std::uint64_t x) {
  x = __builtin_bswap64(x);
  x = (x >> 4 & 0x0F0F0F0F0F0F0F0Full) | (x & 0x0F0F0F0F0F0F0F0Full) << 4;
  x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
  return (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
}

// ---- U128 ------------------------------------------------------------------
inline std::uint64_t low_word(U128 m) { return static_cast<std::uint64_t>(m); }
inline std::uint64_t high_word(U128 m) { return static_cast<std::uint64_t>(m >> 64); }
inline bool any(U128 m) { return m != 0; }
[[gnu::always_inline]] inline int pop(U128 m) { return pop(low_word(m)) + pop(high_word(m)); }
inline int low(U128 m) {  // m != 0
  return low_word(m) ? std::countr_zero(low_word(m)) : 64 + std::countr_zero(high_word(m));
}
inline int high(U128 m) {  // m != 0
  return high_word(m) ? 127 - std::countl_zero(high_word(m)) : 63 - std::countl_zero(low_word(m));
}
inline U128 drop_low(U128 m) { return m & (m - 1); }
inline U128 drop_high(U128 m) { return m & ~(U128{1} << high(m)); }
inline bool test(U128 m, int i) { return static_cast<bool>(m >> i & 1); }
inline bool single(U128 m) { return m && !(m & (m - 1)); }
inline U128 shifted(U128 m, int s) {
  if (s >= 128 || s <= -128) return 0;
  return s >= 0 ? m << s : m >> -s;
}
[[gnu::always_inline]] inline U128 reversed(U128 m) { return U128{reversed(low_word(m))} << 64 | reversed(high_word(m)); }

// ---- Bits<W> ---------------------------------------------------------------
template <int W>
bool any(const Bits<W>& m) {
  for (auto x : m.w)
    if (x) return true;
  return false;
}
template <int W>
int pop(const Bits<W>& m) {
  int n = 0;
  for (auto x : m.w) n += pop(x);
  return n;
}
template <int W>
int low(const Bits<W>& m) {
  for (int i = 0; i < W; ++i)
    if (m.w[i]) return 64 * i + std::countr_zero(m.w[i]);
  return 64 * W;
}
template <int W>
int high(const Bits<W>& m) {
  for (int i = W; i-- > 0;)
    if (m.w[i]) return 64 * i + 63 - std::countl_zero(m.w[i]);
  return -1;
}
template <int W>
Bits<W> drop_low(Bits<W> m) {
  for (auto& x : m.w)
    if (x) {
      x &= x - 1;
      break;
    }
  return m;
}
template <int W>
Bits<W> drop_high(Bits<W> m) {
  for (int i = W; i-- > 0;)
    if (m.w[i]) {
      m.w[i] &= ~(std::uint64_t{1} << (63 - std::countl_zero(m.w[i])));
      break;
    }
  return m;
}
template <int W>
bool test(const Bits<W>& m, int i) {
  return m.w[static_cast<std::size_t>(i >> 6)] >> (i & 63) & 1;
}
template <int W>
bool single(const Bits<W>& m) {
  return pop(m) == 1;
}
// Forced inline, with window() below: GCC kept both out of line, and the
// support checks call them once per candidate (orders 12..16: 1.13x to
// 1.2x on the battery's slowest grids, perf/results/complete.md).
template <int W>
[[gnu::always_inline]] inline Bits<W> shifted(const Bits<W>& m, int s) {
  Bits<W> out;
  if (s >= 64 * W || s <= -64 * W) return out;
  const int words = (s >= 0 ? s : -s) >> 6, r = (s >= 0 ? s : -s) & 63;
  for (int i = 0; i < W; ++i) {
    // out word i takes from input words i - words (left) or i + words (right)
    if (s >= 0) {
      const int j = i - words;
      if (j < 0) continue;
      out.w[i] = m.w[j] << r;
      if (r && j > 0) out.w[i] |= m.w[j - 1] >> (64 - r);
    } else {
      const int j = i + words;
      if (j >= W) continue;
      out.w[i] = m.w[j] >> r;
      if (r && j + 1 < W) out.w[i] |= m.w[j + 1] << (64 - r);
    }
  }
  return out;
}
template <int W>
Bits<W> reversed(const Bits<W>& m) {
  Bits<W> out;
  for (int i = 0; i < W; ++i) out.w[W - 1 - i] = reversed(m.w[i]);
  return out;
}

// ---- both ------------------------------------------------------------------
template <class M>
M one(int i) {
  if constexpr (std::is_same_v<M, std::uint64_t> || std::is_same_v<M, U128>) {
    return M{1} << i;
  } else {
    M m;
    m.w[static_cast<std::size_t>(i >> 6)] = std::uint64_t{1} << (i & 63);
    return m;
  }
}
// Bits lo..hi (inclusive, clamped to the width); empty when lo > hi.
template <class M>
[[gnu::always_inline]] inline M window(int lo, int hi) {
  constexpr int kW = kWidth<M>;
  if (lo < 0) lo = 0;
  if (hi >= kW) hi = kW - 1;
  if (lo > hi) return M{};
  if constexpr (std::is_same_v<M, std::uint64_t> || std::is_same_v<M, U128>) {
    const M upto = hi == kW - 1 ? ~M{0} : (M{1} << (hi + 1)) - 1;
    return upto & ~((M{1} << lo) - 1);
  } else {
    M m;
    for (std::size_t i = 0; i < m.w.size(); ++i) {
      const int a = std::max(lo - 64 * static_cast<int>(i), 0), b = std::min(hi - 64 * static_cast<int>(i), 63);
      if (a <= b) m.w[i] = window<std::uint64_t>(a, b);
    }
    return m;
  }
}
// The lowest n bits.
template <class M>
M lowest(int n) {
  return window<M>(0, n - 1);
}

}  // namespace magic::bits
