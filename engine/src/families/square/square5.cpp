#include "square/square5.hpp"

#include <stdexcept>

#include "square/square_spec.hpp"

namespace magic {

void Square5Problem::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  dfs(State{}, ex, nullptr);
}

bool square5_handles(const SquareSpec& spec) {
  return spec.order == 5 && spec.symmetry_breaking &&
         (spec.kind == SquareKind::Magic || spec.kind == SquareKind::Associative ||
          spec.kind == SquareKind::Pandiagonal);
}

namespace {
using Perm = std::array<std::uint8_t, 25>;

// S[i][j] = R[pi(i)][pi(j)]: rows and columns permuted together.
Perm both_ways(const std::array<int, 5>& pi) {
  Perm g{};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) g[i * 5 + j] = static_cast<std::uint8_t>(pi[i] * 5 + pi[j]);
  return g;
}
}  // namespace

Square5Problem::Square5Problem(const SquareSpec& spec) : kind_(spec.kind) {
  if (!square5_handles(spec)) throw std::logic_error("Square5Problem: spec not handled");
  describe_ = {{"name", "square"}, {"order", 5}, {"kind", to_string(kind_)}, {"symmetry_breaking", true}};
  if (spec.center) describe_["center"] = spec.center;
  if (!spec.diagonal.empty()) describe_["diagonal"] = spec.diagonal;

  constexpr std::uint32_t values = ((std::uint32_t{1} << 26) - 1) & ~std::uint32_t{1};
  auto open = [&](int c, bool direct, bool mirror, std::uint32_t allowed) {
    centres_.push_back(c);
    direct_[c] = direct;
    mirror_[c] = mirror;
    allowed_[c] = allowed & ~bit(c);
  };
  if (kind_ == SquareKind::Associative) {
    open(13, true, false, values);  // x + x' = 26 for the half-turn pairs forces 13 in the centre
  } else if (kind_ == SquareKind::Pandiagonal) {
    open(1, true, false, values);
  } else if (!spec.center) {
    for (int c = 1; c <= 13; ++c) open(c, true, c < 13, values);
  } else {
    // A slice: centres above 13 are searched as the complements of their mirror.
    const bool flip = spec.center > 13;
    std::uint32_t allowed = values;
    if (!spec.diagonal.empty()) {
      allowed = 0;
      for (int v : spec.diagonal) allowed |= bit(flip ? 26 - v : v);
    }
    open(flip ? 26 - spec.center : spec.center, !flip, flip, allowed);
  }

  cosets_ = {both_ways({0, 1, 2, 3, 4}), both_ways({4, 1, 2, 3, 0}), both_ways({1, 0, 2, 4, 3}),
             both_ways({3, 0, 2, 4, 1})};
  for (int di = 0; di < 5; ++di)
    for (int dj = 0; dj < 5; ++dj)
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
          shifts_[di * 5 + dj][i * 5 + j] = static_cast<std::uint8_t>((i + di) % 5 * 5 + (j + dj) % 5);
  for (int k = 1; k < 5; ++k)
    for (int i = 0; i < 5; ++i) {
      broken_[2 * (k - 1)][i] = static_cast<std::uint8_t>(i * 5 + (i + k) % 5);
      broken_[2 * (k - 1) + 1][i] = static_cast<std::uint8_t>(i * 5 + ((4 - i - k) % 5 + 5) % 5);
    }
}

}  // namespace magic
