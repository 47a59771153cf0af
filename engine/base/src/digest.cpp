#include "magic/digest.hpp"

#include <cstdio>
#include <xxhash.h>

namespace magic {

void Digest::add_bytes(const void* data, std::size_t len) {
  const XXH128_hash_t h = XXH3_128bits(data, len);
  lo += h.low64;
  hi += h.high64;
}

Digest point_hash(std::uint32_t point, std::uint32_t value) {
  unsigned char b[8];
  for (int i = 0; i < 4; ++i) {
    b[i] = static_cast<unsigned char>(point >> (8 * i));
    b[4 + i] = static_cast<unsigned char>(value >> (8 * i));
  }
  const XXH128_hash_t h = XXH3_128bits(b, sizeof b);
  return {h.low64, h.high64};
}

std::string Digest::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

bool Digest::parse(const std::string& hex, Digest& out) {
  if (hex.size() != 32) return false;
  auto lane = [&](std::size_t off, std::uint64_t& v) {
    v = 0;
    for (std::size_t i = off; i < off + 16; ++i) {
      const char c = hex[i];
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else return false;
      v = (v << 4) | static_cast<std::uint64_t>(d);
    }
    return true;
  };
  return lane(0, out.hi) && lane(16, out.lo);
}

std::uint64_t hash64(const void* data, std::size_t len) { return XXH3_64bits(data, len); }

}  // namespace magic
