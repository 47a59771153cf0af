#pragma once
// Sets of numbers as 64-bit masks, bit p for the number min + p, and the
// bit-reversed copy (bit 63 - p) that finds pairs with a given sum in a
// few instructions: the stars' and the figures' searches share them.
#include <bit>
#include <cstdint>

#include "magic/wide_bits.hpp"

namespace magic::masks {

// Bit c of the result is set iff bit R - c of the mask m is set, where rm is
// m bit-reversed (bit 63 - p for every p in m).
inline std::uint64_t partner(std::uint64_t rm, int r) {
  if (r < 0 || r > 126) return 0;
  return r <= 63 ? rm >> (63 - r) : rm << (r - 63);
}
// m >> k for any k (negative: left), zero when everything shifts out.
inline std::uint64_t shift_down(std::uint64_t m, int k) { return bits::shifted(m, -k); }
inline std::uint64_t above(int p) { return p < 0 ? ~0ull : p >= 63 ? 0 : ~0ull << (p + 1); }
inline std::uint64_t below(int p) { return p <= 0 ? 0 : p >= 64 ? ~0ull : (1ull << p) - 1; }
// above(p) in bit-reversed form.
inline std::uint64_t reversed_above(int p) { return p >= 63 ? 0 : (1ull << (63 - p)) - 1; }
inline std::uint64_t reversed(std::uint64_t m) { return bits::reversed(m); }
// The sum of the k lowest / highest set-bit positions of f; out of reach
// (1 << 30, or its negative) when f has fewer than k bits.
inline int low_sum(std::uint64_t f, int k) {
  int s = 0;
  for (int i = 0; i < k; ++i, f &= f - 1) {
    if (!f) return 1 << 30;
    s += std::countr_zero(f);
  }
  return s;
}
inline int high_sum(std::uint64_t f, int k) {
  int s = 0;
  for (int i = 0; i < k; ++i) {
    if (!f) return -(1 << 30);
    const int top = 63 - std::countl_zero(f);
    s += top;
    f &= ~(1ull << top);
  }
  return s;
}

}  // namespace magic::masks
