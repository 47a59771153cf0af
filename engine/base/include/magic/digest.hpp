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
  std::string hex() const;  // 32 hex digits, hi lane first
  static bool parse(const std::string& hex, Digest& out);
  bool operator==(const Digest&) const = default;
};

// 64-bit hash used by the dedup set.
std::uint64_t hash64(const void* data, std::size_t len);

}  // namespace magic
