#pragma once
// Order-independent fingerprint of a set of canonical solutions.
//
// Each canonical solution is hashed with XXH3-128 and the two 64-bit lanes
// are added (mod 2^64).  Addition commutes, so the digest of a set does not
// depend on the order in which tasks, threads or shards produced it, and two
// partial digests of disjoint sets merge by adding them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace magic {

struct Digest {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;

  void add_bytes(const void* data, std::size_t len);
  template <class T>
  void add(const T& value) {
    static_assert(std::has_unique_object_representations_v<T>,
                  "hashed solutions must have no padding bytes");
    add_bytes(&value, sizeof(T));
  }
  void merge(const Digest& o) {
    lo += o.lo;
    hi += o.hi;
  }
  // c copies of this digest's set: each lane times c (mod 2^64).
  Digest times(std::uint64_t c) const { return {lo * c, hi * c}; }
  std::string hex() const;  // 32 hex digits, hi lane first
  static bool parse(const std::string& hex, Digest& out);
  bool operator==(const Digest&) const = default;
};

// The additive digest (docs/json.md) hashes a labelling point by point:
// the sum, over every labelling of a set, of point_hash(p, v_p) over its
// points p.  It adds over the points, so a half of a figure carries its
// share and two halves join by (count, sum) arithmetic alone; it sees a set
// only through how often each number stands on each point, so it is weaker
// than the digest of whole solutions.  point_hash(p, v) is XXH3-128 of the
// 8 bytes p, v as two little-endian 32-bit words.
Digest point_hash(std::uint32_t point, std::uint32_t value);

// 64-bit hash used by the dedup set.
std::uint64_t hash64(const void* data, std::size_t len);

}  // namespace magic
