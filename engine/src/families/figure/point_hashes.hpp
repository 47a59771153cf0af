#pragma once
// The additive digest's point hashes summed over a group (magic/digest.hpp).
//
// A set S of labellings closed under a group G, given by a set T of
// representatives (one of each orbit, G acting freely), has the additive
// digest
//
//   sum_{L in S} sum_p h(p, L_p) = sum_{L in T} sum_p hbar(p, L_p),
//   hbar(p, v) = sum_{g in G} h(g p, v) = (|G| / |Gp|) sum_{q in Gp} h(q, v),
//
// so a search that finds one labelling of each orbit sums the digest of
// them all at the cost of one table look-up a point.  The table is built
// once, from the group's generators and order; with no generators it is h.
#include <cstdint>
#include <vector>

#include "figure/figure_group.hpp"
#include "magic/digest.hpp"

namespace magic {

class PointHashes {
 public:
  PointHashes() = default;
  // Points 0..points-1, numbers min..min+span-1.
  PointHashes(int points, int min, int span, const std::vector<PointPerm>& generators, std::uint64_t order);

  const Digest& at(int point, int value) const {
    return table_[static_cast<std::size_t>(point * span_ + value - min_)];
  }
  // at(p, v) + at(p, min + max - v): the hashes of a labelling and of its
  // reflected values (v -> min + max - v) together.
  PointHashes with_reflected_values() const;
  // The digest of a labelling's orbit: hbar summed over its points.
  template <class Values>
  Digest of(const Values& v, int points) const {
    Digest d;
    for (int p = 0; p < points; ++p) d.merge(at(p, v[static_cast<std::size_t>(p)]));
    return d;
  }

 private:
  int min_ = 0, span_ = 0;
  std::vector<Digest> table_;  // [point * span + value - min]
};

}  // namespace magic
