#include "figure/point_hashes.hpp"

#include <numeric>

namespace magic {
namespace {

// The orbit of each point under the generators (union-find), as a root.
std::vector<int> orbit_roots(int n, const std::vector<PointPerm>& generators) {
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x) x = parent[static_cast<std::size_t>(x)] =
        parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  for (const PointPerm& g : generators)
    for (int p = 0; p < n; ++p) parent[static_cast<std::size_t>(root(p))] = root(g[static_cast<std::size_t>(p)]);
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) out[static_cast<std::size_t>(p)] = root(p);
  return out;
}

}  // namespace

PointHashes::PointHashes(int points, int min, int span, const std::vector<PointPerm>& generators,
                         std::uint64_t order)
    : min_(min), span_(span), table_(static_cast<std::size_t>(points) * static_cast<std::size_t>(span)) {
  const std::vector<int> root = orbit_roots(points, generators);
  std::vector<std::uint64_t> size(static_cast<std::size_t>(points), 0);
  for (int p = 0; p < points; ++p) ++size[static_cast<std::size_t>(root[static_cast<std::size_t>(p)])];
  for (int v = min; v < min + span; ++v) {
    // The sum of h(q, v) over each orbit, kept at its root.
    std::vector<Digest> orbit_sum(static_cast<std::size_t>(points));
    for (int q = 0; q < points; ++q)
      orbit_sum[static_cast<std::size_t>(root[static_cast<std::size_t>(q)])].merge(
          point_hash(static_cast<std::uint32_t>(q), static_cast<std::uint32_t>(v)));
    for (int p = 0; p < points; ++p) {
      const auto r = static_cast<std::size_t>(root[static_cast<std::size_t>(p)]);
      // |G| / |Gp| = the stabiliser's order: an exact quotient.
      table_[static_cast<std::size_t>(p * span + v - min)] = orbit_sum[r].times(order / size[r]);
    }
  }
}

PointHashes PointHashes::with_reflected_values() const {
  PointHashes r = *this;
  const std::size_t points = span_ ? table_.size() / static_cast<std::size_t>(span_) : 0;
  for (std::size_t p = 0; p < points; ++p)
    for (int i = 0; i < span_; ++i)
      r.table_[p * static_cast<std::size_t>(span_) + static_cast<std::size_t>(i)].merge(
          table_[p * static_cast<std::size_t>(span_) + static_cast<std::size_t>(span_ - 1 - i)]);
  return r;
}

}  // namespace magic
