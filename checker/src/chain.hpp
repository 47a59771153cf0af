#pragma once
// A permutation group on the points 0..n-1 as a stabilizer chain with the
// base 0, 1, ..., n-1, built by Schreier–Sims (after Knuth, "Efficient
// representation of perm groups", 1991).  Written for the checker alone:
// the engine's figure_group.cpp is not used.  It lets the checker count
// under groups far too large to list (2^8 * 8! for 8 disjoint lines).
//
//   level k:  the elements that fix 0..k-1;  orbit(k) = where they send k,
//             t[k][y] one of them that sends k to y (the transversal)
//   order  =  |orbit(0)| * |orbit(1)| * ... * |orbit(n-1)|
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules.hpp"  // Perm

namespace magic::checker {

class Chain {
 public:
  explicit Chain(std::size_t n);
  // Adds g (a permutation of 0..n-1) to the group's generators.
  void add(const Perm& g);
  // Whether an element fixing 0..k-1 sends k to y.
  bool in_orbit(std::size_t k, int y) const { return t_[k][static_cast<std::size_t>(y)].has_value(); }
  // The group's order; SpecError past 2^62, as the engine refuses.
  std::uint64_t order() const;
  // The lexicographically least image of distinct `values` under the group
  // (image[c] = values[g[c]], as orbit_of in rules.hpp).  With distinct
  // values the levels decide it one position at a time.
  std::vector<int> least_image(const std::vector<int>& values) const;

 private:
  void enter(std::size_t k, Perm g);
  void enter_transversal(std::size_t k, Perm g);

  std::size_t n_;
  std::vector<std::vector<std::optional<Perm>>> t_;
  std::vector<std::vector<Perm>> s_;  // s_[k]: the strong generators that fix 0..k-1
};

}  // namespace magic::checker
