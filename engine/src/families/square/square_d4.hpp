#pragma once
// Rotations and reflections of an N x N square of distinct values, and the
// canonical form (the smallest of the 8 images) in constant time: the
// smallest corner goes to (0,0), then the smaller of its two neighbours to
// (0,1).  Values are distinct, so those two cells already order the images
// and no rotation or reflection fixes a square (orbits have 8 members).
#include <array>
#include <cstdint>

#include "magic/sum_groups.hpp"

namespace magic {

template <int N>
class SquareD4 {
 public:
  static constexpr int kCells = N * N;
  using Cells = std::array<std::uint8_t, kCells>;

  SquareD4() {
    const auto syms = square_symmetries(N);
    for (int t = 0; t < 8; ++t)
      for (int i = 0; i < kCells; ++i) perm_[t][i] = static_cast<std::uint8_t>(syms[t][i]);
  }
  const std::array<Cells, 8>& perms() const { return perm_; }
  static Cells apply(const Cells& g, const Cells& s) {
    Cells t;
    for (int i = 0; i < kCells; ++i) t[i] = s[g[i]];
    return t;
  }
  Cells canonical(const Cells& s) const {
    int best = 0, best_key = 1 << 20;
    for (int t = 0; t < 8; ++t) {
      const int k = s[perm_[t][0]] << 8 | s[perm_[t][1]];
      if (k < best_key) best_key = k, best = t;
    }
    return apply(perm_[best], s);
  }

 private:
  std::array<Cells, 8> perm_{};  // image[i] = s[perm[i]]
};

}  // namespace magic
