#include "chain.hpp"

#include <string>

#include "magic/core/error.hpp"

namespace magic::checker {
namespace {

Perm compose(const Perm& a, const Perm& b) {  // a after b
  Perm out(b.size());
  for (std::size_t x = 0; x < b.size(); ++x) out[x] = a[static_cast<std::size_t>(b[x])];
  return out;
}

Perm inverse(const Perm& a) {
  Perm out(a.size());
  for (std::size_t x = 0; x < a.size(); ++x) out[static_cast<std::size_t>(a[x])] = static_cast<int>(x);
  return out;
}

Perm identity(std::size_t n) {
  Perm id(n);
  for (std::size_t x = 0; x < n; ++x) id[x] = static_cast<int>(x);
  return id;
}

}  // namespace

Chain::Chain(std::size_t n) : n_(n), t_(n, std::vector<std::optional<Perm>>(n)), s_(n) {
  for (std::size_t k = 0; k < n; ++k) t_[k][k] = identity(n);
}

void Chain::add(const Perm& g) { enter(0, g); }

// g fixes 0..k-1.  Sifted down the levels; what is left over (if not the
// identity) is a new strong generator at the level where it stopped, and
// every level above it takes it too.
void Chain::enter(std::size_t k, Perm g) {
  for (; k < n_; ++k) {
    const auto& t = t_[k][static_cast<std::size_t>(g[k])];
    if (!t) break;
    g = compose(inverse(*t), g);
  }
  if (k == n_) return;
  for (std::size_t i = 0; i <= k; ++i) s_[i].push_back(g);
  for (std::size_t i = k + 1; i-- > 0;) {
    std::vector<std::size_t> orbit;  // as it is now: what joins later meets g itself
    for (std::size_t y = 0; y < n_; ++y)
      if (t_[i][y]) orbit.push_back(y);
    for (std::size_t y : orbit) enter_transversal(i, compose(g, *t_[i][y]));
  }
}

// g fixes 0..k-1: a new transversal element, or a Schreier generator for
// the level below.
void Chain::enter_transversal(std::size_t k, Perm g) {
  const auto y = static_cast<std::size_t>(g[k]);
  if (t_[k][y]) {
    enter(k + 1, compose(inverse(*t_[k][y]), g));
    return;
  }
  t_[k][y] = g;
  for (std::size_t j = 0; j < s_[k].size(); ++j) enter_transversal(k, compose(s_[k][j], *t_[k][y]));
}

std::uint64_t Chain::order() const {
  std::uint64_t order = 1;
  for (std::size_t k = 0; k < n_; ++k) {
    std::uint64_t orbit = 0;
    for (const auto& t : t_[k]) orbit += t.has_value();
    if (__builtin_mul_overflow(order, orbit, &order) || order > (std::uint64_t{1} << 62))
      throw SpecError("the figure's group has more than 2^62 elements");
  }
  return order;
}

// The elements that agree with the least image so far are T∘G(k): the k-th
// value is least at the point T(y), y in orbit(k), with the smallest value.
std::vector<int> Chain::least_image(const std::vector<int>& values) const {
  Perm T = identity(n_);
  std::vector<int> out(n_);
  for (std::size_t k = 0; k < n_; ++k) {
    std::size_t best = n_;
    for (std::size_t y = 0; y < n_; ++y)
      if (t_[k][y] && (best == n_ || values[static_cast<std::size_t>(T[y])] < values[static_cast<std::size_t>(T[best])]))
        best = y;
    out[k] = values[static_cast<std::size_t>(T[best])];
    T = compose(T, *t_[k][best]);
  }
  return out;
}

}  // namespace magic::checker
