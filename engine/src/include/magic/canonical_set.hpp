#pragma once
// Exact, memory-bounded set of fixed-size canonical forms.
//
// Open addressing on a 64-bit xxHash; a hash match is only a candidate and is
// confirmed by comparing the full stored form, so a hash collision can never
// merge two different solutions.  The byte budget is checked before any
// allocation, counting the old and the new buffer that coexist while one
// grows; going over it throws MemoryLimitError instead of exhausting the
// machine.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "magic/core/error.hpp"
#include "magic/digest.hpp"

namespace magic {

class CanonicalSet {
 public:
  CanonicalSet(std::size_t record_bytes, std::size_t byte_limit)
      : rec_(record_bytes), limit_(byte_limit) {
    rehash(1024);
  }

  // Returns true if the form was not present before.
  bool insert(const void* form) {
    if ((size_ + 1) * 10 > slots_.size() * 7) rehash(slots_.size() * 2);
    const std::uint64_t h = hash64(form, rec_);
    std::size_t i = h & (slots_.size() - 1);
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (s.index == kEmpty) {
        const std::size_t off = arena_.size();
        grow_arena(off + rec_);  // may throw: before the slot is taken
        s.hash = h;
        s.index = size_;
        arena_.resize(off + rec_);
        std::memcpy(arena_.data() + off, form, rec_);
        ++size_;
        return true;
      }
      if (s.hash == h && std::memcmp(arena_.data() + s.index * rec_, form, rec_) == 0) return false;
    }
  }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.size() * sizeof(Slot) + arena_.capacity(); }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Slot {
    std::uint64_t hash = 0;
    std::uint64_t index = kEmpty;
  };

  void check_budget(std::size_t peak_bytes) const {
    if (peak_bytes > limit_)
      throw MemoryLimitError("deduplication set would exceed its memory limit of " +
                             std::to_string(limit_ >> 20) + " MiB");
  }

  void grow_arena(std::size_t need) {
    if (need <= arena_.capacity()) return;
    const std::size_t cap = std::max(need, arena_.capacity() * 2);
    check_budget(slots_.size() * sizeof(Slot) + arena_.capacity() + cap);
    arena_.reserve(cap);
  }

  void rehash(std::size_t n) {
    check_budget((slots_.size() + n) * sizeof(Slot) + arena_.capacity());
    std::vector<Slot> fresh(n);
    for (const Slot& s : slots_) {
      if (s.index == kEmpty) continue;
      std::size_t i = s.hash & (n - 1);
      while (fresh[i].index != kEmpty) i = (i + 1) & (n - 1);
      fresh[i] = s;
    }
    slots_.swap(fresh);
  }

  std::size_t rec_;
  std::size_t limit_;
  std::size_t size_ = 0;
  std::vector<Slot> slots_;
  std::vector<unsigned char> arena_;
};

}  // namespace magic
