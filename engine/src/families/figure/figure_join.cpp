// Joins of two halves (figure_join.hpp): the figure's ring or chain, the
// arms' search, the table and the join.
#include "figure/figure_join.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

#include "magic/core/error.hpp"

namespace magic {
namespace {

constexpr int kMaxSpan = 58;  // the mask's bits; the meeting joint's label takes the six above

// ---- the shape ------------------------------------------------------------

struct Incidence {
  std::vector<std::vector<int>> lines_of;  // by point
  std::vector<std::vector<int>> joints;    // by line: its points on two lines
};

Incidence incidence(const FigureSpec& f) {
  Incidence in;
  in.lines_of.resize(static_cast<std::size_t>(f.n_points()));
  for (int l = 0; l < f.n_lines(); ++l)
    for (int p : f.lines[static_cast<std::size_t>(l)]) in.lines_of[static_cast<std::size_t>(p)].push_back(l);
  in.joints.resize(static_cast<std::size_t>(f.n_lines()));
  for (int p = 0; p < f.n_points(); ++p)
    if (in.lines_of[static_cast<std::size_t>(p)].size() == 2)
      for (int l : in.lines_of[static_cast<std::size_t>(p)]) in.joints[static_cast<std::size_t>(l)].push_back(p);
  return in;
}

int other_line(const Incidence& in, int joint, int line) {
  const auto& ls = in.lines_of[static_cast<std::size_t>(joint)];
  return ls[0] == line ? ls[1] : ls[0];
}

// The lines in ring or chain order, with joint[i] between order[i-1] and
// order[i] (joint[0]: the ring's closing joint; -1 in a chain).
struct Walk {
  std::vector<int> order, joint;
};

std::string walk_lines(const FigureSpec& f, const Incidence& in, bool& ring, Walk& w) {
  const int L = f.n_lines();
  int start = -1;
  for (int l = 0; l < L; ++l) {
    const std::size_t j = in.joints[static_cast<std::size_t>(l)].size();
    if (j > 2) return "line " + std::to_string(l) + " meets more than two others";
    if (j == 1 && start < 0) start = l;
    if (j == 0) return "line " + std::to_string(l) + " meets no other line";
  }
  ring = start < 0;
  if (ring) start = 0;
  std::vector<bool> seen(static_cast<std::size_t>(L), false);
  w.order = {start};
  w.joint = {-1};
  seen[static_cast<std::size_t>(start)] = true;
  int line = start, came = -1;
  for (;;) {
    int next_joint = -1;
    for (int j : in.joints[static_cast<std::size_t>(line)])
      if (j != came) {
        next_joint = j;
        break;
      }
    if (next_joint < 0) break;  // a chain's far end
    const int next = other_line(in, next_joint, line);
    if (seen[static_cast<std::size_t>(next)]) {
      if (!ring || next != start) return "lines " + std::to_string(line) + " and " + std::to_string(next) + " share more than one point";
      w.joint[0] = next_joint;
      break;
    }
    seen[static_cast<std::size_t>(next)] = true;
    w.order.push_back(next);
    w.joint.push_back(next_joint);
    came = next_joint;
    line = next;
  }
  if (static_cast<int>(w.order.size()) != L) return "its lines do not form one ring or chain";
  if (ring && L < 3) return "a ring needs three lines";
  return "";
}

// The points of line `l` other than its joints, in the file's order.
std::vector<int> privates(const FigureSpec& f, const Incidence& in, int l) {
  std::vector<int> out;
  for (int p : f.lines[static_cast<std::size_t>(l)])
    if (in.lines_of[static_cast<std::size_t>(p)].size() == 1) out.push_back(p);
  return out;
}

std::pair<int, int> range_of(const FigureSpec& f, int p) {
  if (f.ranges.empty()) return {f.numbers.front(), f.numbers.back()};
  return f.ranges[static_cast<std::size_t>(p)];
}

// The permutation taking line order[i]'s joints and privates to line
// order[to(i)]'s, if it keeps every range; else empty.
PointPerm line_map(const FigureSpec& f, const Incidence& in, const Walk& w, bool ring, bool reverse) {
  const int m = static_cast<int>(w.order.size());
  PointPerm g(static_cast<std::size_t>(f.n_points()));
  for (int p = 0; p < f.n_points(); ++p) g[static_cast<std::size_t>(p)] = static_cast<std::uint8_t>(p);
  const auto map = [&](int from, int to) {
    if (range_of(f, from) != range_of(f, to)) return false;
    g[static_cast<std::size_t>(from)] = static_cast<std::uint8_t>(to);
    return true;
  };
  for (int i = 0; i < m; ++i) {
    const int to = reverse ? m - 1 - i : (i + 1) % m;
    const auto a = privates(f, in, w.order[static_cast<std::size_t>(i)]);
    const auto b = privates(f, in, w.order[static_cast<std::size_t>(to)]);
    if (a.size() != b.size()) return {};
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!map(a[k], b[k])) return {};
    // Joint i (before line i) goes to the joint before line `to`, or after it reversed.
    if (ring || i > 0) {
      const int ji = w.joint[static_cast<std::size_t>(i)];
      const int jt = reverse ? w.joint[static_cast<std::size_t>((m - i) % m)] : w.joint[static_cast<std::size_t>(to)];
      if (!map(ji, jt)) return {};
    }
  }
  return preserves_lines(g, f.lines) ? g : PointPerm{};
}

// The line order[i] entered by joint `in_joint`, leaving by `out` (-1: none).
JoinStep step_of(const FigureSpec& f, const Incidence& in, int line, int out) {
  JoinStep s;
  if (out >= 0) s.unknowns.push_back(out);
  s.leads_on = out >= 0;
  for (int p : privates(f, in, line)) s.unknowns.push_back(p);
  return s;
}

// A ring's arms from joint j: A takes lines j .. j+s-1, B lines j-1 down to j+s.
JoinAnchor ring_anchor(const FigureSpec& f, const Incidence& in, const Walk& w, int j) {
  const int m = static_cast<int>(w.order.size()), s = m / 2;
  const auto line = [&](int i) { return w.order[static_cast<std::size_t>(((i % m) + m) % m)]; };
  const auto joint = [&](int i) { return w.joint[static_cast<std::size_t>(((i % m) + m) % m)]; };
  JoinAnchor a;
  a.point = joint(j);
  for (int i = 0; i < m; ++i)
    if (joint(i) != a.point) a.above |= 1ull << joint(i);
  for (int i = j; i < j + s; ++i) a.a.steps.push_back(step_of(f, in, line(i), joint(i + 1)));
  for (int i = j - 1; i >= j + s - m; --i) a.b.steps.push_back(step_of(f, in, line(i), joint(i)));
  a.a.meet = a.b.meet = joint(j + s);
  return a;
}

// A chain's arms from joint j (between lines j-1 and j): A towards the end, B towards the start.
JoinAnchor chain_anchor(const FigureSpec& f, const Incidence& in, const Walk& w, int j, int other) {
  const int m = static_cast<int>(w.order.size());
  JoinAnchor a;
  a.point = w.joint[static_cast<std::size_t>(j)];
  if (other != j) a.above = 1ull << w.joint[static_cast<std::size_t>(other)];
  for (int i = j; i < m; ++i)
    a.a.steps.push_back(step_of(f, in, w.order[static_cast<std::size_t>(i)], i + 1 < m ? w.joint[static_cast<std::size_t>(i + 1)] : -1));
  for (int i = j - 1; i >= 0; --i)
    a.b.steps.push_back(step_of(f, in, w.order[static_cast<std::size_t>(i)], i > 0 ? w.joint[static_cast<std::size_t>(i)] : -1));
  if (a.b.steps.size() < a.a.steps.size()) std::swap(a.a, a.b);  // keep the smaller
  return a;
}

// m K = (the numbers' sum) + (the joints' labels' sum): K's feasible range.
std::vector<int> feasible_sums(const FigureSpec& f, int joints) {
  if (f.sum) return {*f.sum};
  long long total = 0, lo = 0, hi = 0;
  for (int v : f.numbers) total += v;
  const int n = static_cast<int>(f.numbers.size());
  for (int i = 0; i < joints; ++i) {
    lo += f.numbers[static_cast<std::size_t>(i)];
    hi += f.numbers[static_cast<std::size_t>(n - 1 - i)];
  }
  const long long m = f.n_lines();
  std::vector<int> out;
  for (long long k = (total + lo + m - 1) / m; k * m <= total + hi; ++k) out.push_back(static_cast<int>(k));
  return out;
}

// s (min + max) when v -> min + max - v maps every labelling onto one (with
// the dual sum s (min + max) - K): every line has s points, the numbers and
// every point's range are symmetric about their middle, and no sum is fixed.
// Else 0.
int dual_sum(const FigureSpec& f) {
  if (f.sum || f.numbers.empty()) return 0;
  const int c = f.numbers.front() + f.numbers.back();
  const std::size_t s = f.lines.front().size();
  for (const auto& l : f.lines)
    if (l.size() != s) return 0;
  for (std::size_t i = 0; i < f.numbers.size(); ++i)
    if (f.numbers[i] + f.numbers[f.numbers.size() - 1 - i] != c) return 0;
  for (int p = 0; p < f.n_points(); ++p)
    if (const auto [lo, hi] = range_of(f, p); lo + hi != c) return 0;
  return static_cast<int>(s) * c;
}

}  // namespace

JoinShape join_shape(const FigureSpec& f) {
  JoinShape sh;
  const auto no = [&](std::string why) {
    sh.why_not = std::move(why);
    return sh;
  };
  if (f.k() != f.n_lines()) return no("every line must have the common sum (equal_lines below the lines)");
  if (static_cast<int>(f.numbers.size()) != f.n_points()) return no("there must be as many numbers as points");
  if (f.numbers.back() - f.numbers.front() + 1 > kMaxSpan)
    return no("the numbers must lie within " + std::to_string(kMaxSpan) + " consecutive integers");
  if (f.n_lines() < 2) return no("it has fewer than two lines");
  const Incidence in = incidence(f);
  for (int p = 0; p < f.n_points(); ++p) {
    const std::size_t d = in.lines_of[static_cast<std::size_t>(p)].size();
    if (d == 0) return no("point " + std::to_string(p) + " is on no line");
    if (d > 2) return no("point " + std::to_string(p) + " is on more than two lines");
  }
  Walk w;
  if (std::string why = walk_lines(f, in, sh.ring, w); !why.empty()) return no(why);
  const int m = f.n_lines();
  for (int p = 0; p < f.n_points(); ++p)
    if (in.lines_of[static_cast<std::size_t>(p)].size() == 2) sh.joint_points |= 1ull << p;
  sh.sums = feasible_sums(f, std::popcount(sh.joint_points));
  sh.dual = dual_sum(f);
  if (sh.ring) {
    if (PointPerm g = line_map(f, in, w, true, false); !g.empty()) {
      sh.anchors.push_back(ring_anchor(f, in, w, 0));
      sh.multiplicity = static_cast<std::uint64_t>(m);
      sh.symmetry = std::move(g);
      // The reflection fixing joint 0 maps arm a onto arm b when both have m / 2 lines.
      if (m % 2 == 0) sh.anchors[0].mirror = line_map(f, in, w, true, true);
    } else {
      for (int j = 0; j < m; ++j) sh.anchors.push_back(ring_anchor(f, in, w, j));
    }
  } else {
    const int c = m / 2, c2 = m - c;
    sh.anchors.push_back(chain_anchor(f, in, w, c, c2));
    if (c2 == c) sh.anchors[0].mirror = line_map(f, in, w, false, true);  // fixes the middle joint
    if (c2 != c) {
      if (PointPerm g = line_map(f, in, w, false, true); !g.empty()) {
        sh.multiplicity = 2;
        sh.symmetry = std::move(g);
      } else {
        sh.anchors.push_back(chain_anchor(f, in, w, c2, c));
      }
    }
  }
  return sh;
}

namespace {

// ---- the table ------------------------------------------------------------

struct Entry {
  std::uint64_t key = 0;  // 0: empty (every key holds at least one number)
  std::uint64_t count = 0;
  // The hashes of its ends' points; joined with itself, also of the same
  // labels on the mirror images of the points (JoinAnchor::mirror), so that
  // one entry is both halves of its pairs.  32 bytes: two to a cache line.
  Digest sum;
};
static_assert(sizeof(Entry) == 32);

// A table's slots, zeroed, in memory the kernel may back with 2 MiB pages
// (madvise): a table far larger than the caches then takes a TLB entry a
// 2 MiB, not a 4 KiB, for its random inserts and lookups.  The memory is
// kept when the table is made smaller: a thread's next task reuses pages
// the kernel has already given (fresh pages for every task cost path-14
// 370 s of system time, perf/results/count.md).
class Slots {
 public:
  Slots() = default;
  ~Slots() { std::free(p_); }
  Slots(const Slots&) = delete;
  Slots& operator=(const Slots&) = delete;
  // n zeroed slots.
  void reset(std::size_t n) {
    if (n > cap_) {
      std::free(p_);
      p_ = nullptr;
      cap_ = 0;
      const std::size_t bytes = n * sizeof(Entry);
      const std::size_t align = bytes >= kHuge ? kHuge : 64;
      const std::size_t rounded = (bytes + align - 1) / align * align;
      p_ = static_cast<Entry*>(std::aligned_alloc(align, rounded));
      if (!p_) throw std::bad_alloc();
      if (align == kHuge) madvise(p_, rounded, MADV_HUGEPAGE);  // advice: no harm if refused
      cap_ = rounded / sizeof(Entry);
    }
    n_ = n;
    std::memset(static_cast<void*>(p_), 0, n_ * sizeof(Entry));
  }
  void swap(Slots& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(cap_, o.cap_);
  }
  std::size_t size() const { return n_; }
  Entry& operator[](std::size_t i) { return p_[i]; }
  const Entry& operator[](std::size_t i) const { return p_[i]; }
  const Entry* begin() const { return p_; }
  const Entry* end() const { return p_ + n_; }

 private:
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  Entry* p_ = nullptr;
  std::size_t n_ = 0, cap_ = 0;
};

// Open addressing, linear probing; refuses to grow past `max_entries`.
// Grows into a spare set of slots, which it keeps for the next growth.
class JoinTable {
 public:
  JoinTable() { slots_.reset(kLeast); }
  // Empties the table and sets its limit.  Room for as many entries as it
  // held is kept: a table grown for one large task is not wiped whole for
  // every small one.
  void clear(std::uint64_t max_entries) {
    max_ = max_entries;
    std::size_t want = kLeast;
    while (want < n_ * 2) want *= 2;
    slots_.reset(std::min(want, slots_.size()));
    n_ = 0;
  }
  bool add(std::uint64_t key, const Digest& h) {
    if ((n_ + 1) * 2 > slots_.size() && !grow()) return false;
    Entry& e = slot(key);
    if (e.key == 0) {
      e.key = key;
      ++n_;
    }
    ++e.count;
    e.sum.merge(h);
    return true;
  }
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&slots_[mix(key) & (slots_.size() - 1)]); }
  const Entry* find(std::uint64_t key) const {
    for (std::size_t i = mix(key) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Entry& e = slots_[i];
      if (e.key == key) return &e;
      if (e.key == 0) return nullptr;
    }
  }
  // An entry whose key the table does not hold.
  void put(const Entry& x) {
    if ((n_ + 1) * 2 > slots_.size()) grow();
    slot(x.key) = x;
    ++n_;
  }
  const Slots& slots() const { return slots_; }
  std::uint64_t size() const { return n_; }
  static std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
  }
  // The bytes of the slots its entries need (half full at most), which
  // the budget bounds; a table kept from a larger task may hold more.
  std::uint64_t bytes() const {
    std::uint64_t n = kLeast;
    while (n < n_ * 2) n *= 2;
    return n * sizeof(Entry);
  }

 private:
  static constexpr std::size_t kLeast = 128;
  Entry& slot(std::uint64_t key) {
    std::size_t i = mix(key) & (slots_.size() - 1);
    while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & (slots_.size() - 1);
    return slots_[i];
  }
  bool grow() {
    if (slots_.size() >= max_ * 2) return false;
    spare_.reset(slots_.size() * 2);
    spare_.swap(slots_);
    for (const Entry& e : spare_)
      if (e.key) slot(e.key) = e;
    return true;
  }
  Slots slots_, spare_;
  std::uint64_t n_ = 0, max_ = 0;
};

// Inserts into a table far larger than the caches, kDepth in flight, as
// Lookups below: each end is prefetched when it comes and added kDepth
// ends later.  False once the table is full (nothing more is added).
class Inserts {
 public:
  explicit Inserts(JoinTable& t) : t_(t) {}
  bool operator()(std::uint64_t key, const Digest& h) {
    t_.prefetch(key);
    Pending& slot = ring_[n_++ % kDepth];
    if (n_ > kDepth) ok_ = ok_ && t_.add(slot.key, slot.h);
    slot = {key, h};
    return ok_;
  }
  bool flush() {
    for (std::uint64_t i = n_ > kDepth ? n_ - kDepth : 0; i < n_ && ok_; ++i) {
      const Pending& p = ring_[i % kDepth];
      ok_ = t_.add(p.key, p.h);
    }
    n_ = 0;
    return ok_;
  }

 private:
  static constexpr std::uint64_t kDepth = 16;
  struct Pending {
    std::uint64_t key = 0;
    Digest h;
  };
  JoinTable& t_;
  Pending ring_[kDepth];
  std::uint64_t n_ = 0;
  bool ok_ = true;
};

// Lookups in a table far larger than the caches, kDepth in flight: each key
// is prefetched when it comes and looked up kDepth keys later.
template <class Hit>
class Lookups {
 public:
  Lookups(const JoinTable& t, Hit& hit) : t_(t), hit_(hit) {}
  ~Lookups() { flush(); }
  void operator()(std::uint64_t key, const Digest& h, std::uint64_t count) {
    t_.prefetch(key);
    Pending& slot = ring_[n_++ % kDepth];
    if (n_ > kDepth) resolve(slot);
    slot = {key, h, count};
  }
  void flush() {
    for (std::uint64_t i = n_ > kDepth ? n_ - kDepth : 0; i < n_; ++i) resolve(ring_[i % kDepth]);
    n_ = 0;
  }

 private:
  static constexpr std::uint64_t kDepth = 16;
  struct Pending {
    std::uint64_t key = 0;
    Digest h;
    std::uint64_t count = 0;
  };
  void resolve(const Pending& p) {
    if (const Entry* e = t_.find(p.key)) hit_(*e, p.h, p.count);
  }
  const JoinTable& t_;
  Hit& hit_;
  Pending ring_[kDepth];
  std::uint64_t n_ = 0;
};

// An end of arm a as the walk found it: 24 bytes.
struct End {
  std::uint64_t key;
  Digest h;
};

// A self-join's ends and lookups, written to 1,024 buckets by their key's
// hash and joined bucket by bucket, so that every table the join touches
// is one bucket's and stays in the caches.  A ring's table of a whole pass
// is far larger than the caches and few of its ends find a partner, so
// its random inserts and lookups were most of the time (cycle-14 through
// buckets: 0.76x the wall time, paired, perf/results/count.md).  A chain's ends cost more
// nodes each and find partners more often: there the walk is the time, and
// the direct table with prefetches is faster.
//
//   walk a --> ends[b]     (key, hash)             b = the key's hash's top 10 bits
//   aggregate ends[b] --> entries[b]   (key, count, hash sum)
//   entries --> probes[b']  (partner's key, count, hash sum)   b' = the partner's bucket
//   per b: a table of entries[b], probed by probes[b]
//
// The budget bounds the buffers' capacity; the one bucket's table comes on top.
class Partitions {
 public:
  Partitions() : ends_(kBuckets), entries_(kBuckets), probes_(kBuckets) {}

  // Empties the buffers, keeping their memory for the next pass, and sets
  // the budget.
  void clear(std::uint64_t max_bytes) {
    max_ = max_bytes;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      ends_[b].clear();
      entries_[b].clear();
      probes_[b].clear();
    }
    keys_ = 0;
  }
  // False once the buffers would pass the budget (nothing more is kept).
  bool add_end(std::uint64_t key, const Digest& h) { return push(ends_[bucket(key)], End{key, h}); }
  bool add_probe(std::uint64_t key, const Digest& h, std::uint64_t count) {
    return push(probes_[bucket(key)], Entry{key, count, h});
  }
  // Sums each bucket's ends with equal keys into entries.
  bool aggregate(JoinTable& table) {
    for (std::size_t b = 0; b < kBuckets; ++b) {
      if (ends_[b].empty()) continue;
      table.clear(kUnbounded);
      for (const End& e : ends_[b]) table.add(e.key, e.h);
      for (const Entry& e : table.slots())
        if (e.key && !push(entries_[b], e)) return false;
      keys_ += table.size();
    }
    return true;
  }
  template <class Fn>
  void for_each_entry(Fn&& fn) const {
    for (const auto& bucket : entries_)
      for (const Entry& e : bucket) fn(e);
  }
  // hit(entry, probe's hash, probe's count) for each probe whose key is an entry's.
  template <class Hit>
  void resolve(JoinTable& table, Hit&& hit) const {
    for (std::size_t b = 0; b < kBuckets; ++b) {
      if (entries_[b].empty() || probes_[b].empty()) continue;
      table.clear(kUnbounded);
      for (const Entry& e : entries_[b]) table.put(e);
      for (const Entry& p : probes_[b])
        if (const Entry* e = table.find(p.key)) hit(*e, p.sum, p.count);
    }
  }
  std::uint64_t keys() const { return keys_; }
  // The bytes the pass's records take (the buffers' memory, which the
  // budget bounds, is up to twice that, and kept from earlier passes).
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (std::size_t b = 0; b < kBuckets; ++b)
      n += ends_[b].size() * sizeof(End) + (entries_[b].size() + probes_[b].size()) * sizeof(Entry);
    return n;
  }

 private:
  static constexpr std::uint64_t kUnbounded = std::uint64_t{1} << 60;  // a bucket's ends are in memory already
  static constexpr int kBits = 10;
  static constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  static std::size_t bucket(std::uint64_t key) { return JoinTable::mix(key) >> (64 - kBits); }
  template <class T>
  bool push(std::vector<T>& v, const T& x) {
    if (v.size() == v.capacity()) {
      const std::size_t before = v.capacity();
      const std::size_t after = std::max<std::size_t>(4, before * 2);
      // Memory kept in other buckets by earlier passes is given back first.
      if (bytes_ + (after - before) * sizeof(T) > max_ && (reclaim(), bytes_ + (after - before) * sizeof(T) > max_))
        return false;
      v.reserve(after);
      bytes_ += (after - before) * sizeof(T);
    }
    v.push_back(x);
    return true;
  }
  // Frees the memory of the empty buffers.
  void reclaim() {
    for (std::size_t b = 0; b < kBuckets; ++b) {
      release(ends_[b]);
      release(entries_[b]);
      release(probes_[b]);
    }
  }
  template <class T>
  void release(std::vector<T>& v) {
    if (!v.empty() || !v.capacity()) return;
    bytes_ -= v.capacity() * sizeof(T);
    std::vector<T>().swap(v);
  }
  std::uint64_t max_ = 0, bytes_ = 0, keys_ = 0;
  std::vector<std::vector<End>> ends_;
  std::vector<std::vector<Entry>> entries_, probes_;
};

// ---- the arms' search -------------------------------------------------------

// The numbers above `least` (bits v - min).
std::uint64_t numbers_above(int least, int min) {
  return least - min + 1 >= 64 ? 0 : ~((2ull << (least - min)) - 1);
}

// Whether r distinct numbers of `free` (bits v - min) can sum to `target`:
// the r smallest and the r largest bound it.
bool sum_reachable(std::uint64_t free, int r, long long target, int min) {
  if (r <= 0) return r == 0 && target == 0;
  long long lo = 0, hi = 0;
  std::uint64_t small = free, large = free;
  for (int i = 0; i < r; ++i) {
    if (!small) return false;  // fewer than r numbers
    lo += std::countr_zero(small);
    small &= small - 1;
    const int top = 63 - std::countl_zero(large);
    hi += top;
    large ^= 1ull << top;
  }
  const long long base = static_cast<long long>(r) * min;
  return lo + base <= target && target <= hi + base;
}

// The joints an arm has not labelled: how many, and what their labels must
// sum to (figure_join.hpp: m K = the numbers' sum + the joints' sum).
struct JointsLeft {
  int count = 0;
  long long sum = 0;
};

struct ArmBounds {
  std::uint64_t joint_free = 0;  // the numbers the unlabelled joints may carry
  JointsLeft left;               // after the anchor
};

// Walks one arm depth first; at each end calls leaf(used, hash, meet
// label).  With a mirror, the hash also puts each label on the mirror
// image of its point (an end joined with itself is both halves of its
// pairs).  A joint whose label leaves the other joints a sum the free
// numbers cannot make ends the branch.
template <class Leaf>
class ArmWalk {
 public:
  ArmWalk(const JoinArm& arm, const FigureJoinProblem::Tables& t, const PointHashes& hashes, int sum, int least,
          std::uint64_t above, bool keeps_meet, const PointPerm& mirror, const ArmBounds& bounds, Leaf& leaf,
          const std::function<bool()>& poll, std::uint64_t& nodes)
      : nodes_(nodes), arm_(arm), t_(t), hashes_(hashes), sum_(sum), least_(least), above_(above),
        keeps_meet_(keeps_meet), mirror_(mirror), bounds_(bounds), leaf_(leaf), poll_(poll) {}

  // False when stopped.
  bool run(int anchor_label, std::uint64_t used) { return line(0, anchor_label, used, Digest{}, -1, bounds_.left); }

 private:
  // Line i, entered with the incoming joint's label `in`.
  bool line(std::size_t i, int in, std::uint64_t used, const Digest& h, int meet, JointsLeft j) {
    if (i == arm_.steps.size()) {
      leaf_(used, h, meet);
      return true;
    }
    const JoinStep& st = arm_.steps[i];
    return place(i, st, 0, sum_ - in, used, h, meet, -1, j);
  }

  // The k-th unknown of line i, with `left` of the line's sum to reach.
  bool place(std::size_t i, const JoinStep& st, std::size_t k, int left, std::uint64_t used, const Digest& h,
             int meet, int next_in, JointsLeft j) {
    // The context reads its flags once in kPollInterval polls: a poll every
    // 64 nodes lets the runner's probe stop within its budget.
    if (++since_poll_ >= 64) {
      since_poll_ = 0;
      if (poll_()) return false;
    }
    if (k == st.unknowns.size()) return left == 0 ? line(i + 1, next_in, used, h, meet, j) : true;
    const int p = st.unknowns[k];
    const bool last = k + 1 == st.unknowns.size();
    const bool is_meet = p == arm_.meet && k == 0 && i + 1 == arm_.steps.size();
    std::uint64_t cand = t_.allowed[static_cast<std::size_t>(p)] & ~used;
    if (above_ >> p & 1) cand &= numbers_above(least_, t_.min);
    if (last) {
      const int v = left;
      if (v < t_.min || v >= t_.min + t_.span || !(cand >> (v - t_.min) & 1)) return true;
      return take(i, st, k, p, v, 0, used, h, meet, next_in, is_meet, j);
    }
    for (; cand; cand &= cand - 1) {
      const int v = t_.min + std::countr_zero(cand);
      if (v > left) break;
      if (!take(i, st, k, p, v, left - v, used, h, meet, next_in, is_meet, j)) return false;
    }
    return true;
  }

  bool take(std::size_t i, const JoinStep& st, std::size_t k, int p, int v, int left, std::uint64_t used,
            Digest h, int meet, int next_in, bool is_meet, JointsLeft j) {
    ++nodes_;
    if (k == 0 && st.leads_on) {
      next_in = v;
      --j.count;
      j.sum -= v;
      const std::uint64_t free = bounds_.joint_free & ~used & ~(1ull << (v - t_.min));
      if (!sum_reachable(free, j.count, j.sum, t_.min)) return true;
    }
    if (is_meet) {
      meet = v;
      if (!keeps_meet_) return place(i, st, k + 1, left, used, h, meet, next_in, j);
    }
    h.merge(hashes_.at(p, v));
    // The meet joint is the mirror arm's too: its label is hashed once, here.
    if (!mirror_.empty() && !is_meet) h.merge(hashes_.at(mirror_[static_cast<std::size_t>(p)], v));
    return place(i, st, k + 1, left, used | 1ull << (v - t_.min), h, meet, next_in, j);
  }

  std::uint64_t& nodes_;  // the task's: the runner's probe stops a walk by them
  const JoinArm& arm_;
  const FigureJoinProblem::Tables& t_;
  const PointHashes& hashes_;
  int sum_, least_;
  std::uint64_t above_;
  bool keeps_meet_;
  const PointPerm& mirror_;
  ArmBounds bounds_;
  Leaf& leaf_;
  const std::function<bool()>& poll_;
  unsigned since_poll_ = 0;
};

}  // namespace

// What a thread's task works in, kept for its next task.
struct JoinScratch {
  JoinTable table;
  Partitions parts;
};

class FigureJoinProblem::TablePool {
 public:
  // A thread's scratch for one task, back in the pool when the lease ends.
  class Lease {
   public:
    explicit Lease(TablePool& pool) : pool_(pool), t_(pool.take()) {}
    ~Lease() { pool_.give(std::move(t_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    JoinScratch& operator*() { return *t_; }

   private:
    TablePool& pool_;
    std::unique_ptr<JoinScratch> t_;
  };

 private:
  std::unique_ptr<JoinScratch> take() {
    const std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return std::make_unique<JoinScratch>();
    std::unique_ptr<JoinScratch> t = std::move(free_.back());
    free_.pop_back();
    return t;
  }
  void give(std::unique_ptr<JoinScratch> t) {
    const std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(t));
  }
  std::mutex mu_;
  std::vector<std::unique_ptr<JoinScratch>> free_;
};

namespace {

std::uint64_t key_of(std::uint64_t used, int meet, int min) {
  return meet < 0 ? used : used | static_cast<std::uint64_t>(meet - min) << kMaxSpan;
}

std::uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : std::uint64_t{1} << 32;
}

}  // namespace

FigureJoinProblem::FigureJoinProblem(const FigureSpec& figure, std::uint64_t group_order, nlohmann::json problem,
                                     std::uint64_t memory_bytes)
    : pool_(std::make_shared<TablePool>()),
      problem_(std::move(problem)),
      group_order_(group_order),
      memory_(memory_bytes ? memory_bytes : physical_memory() / 2),
      shape_(join_shape(figure)) {
  if (!shape_.why_not.empty())
    throw SpecError("figure " + (figure.name.empty() ? std::string("(file)") : figure.name) +
                    " has no counting method: --count joins the halves of a ring or chain of lines, and " +
                    shape_.why_not);
  problem_["count"] = "join";
  tables_.min = figure.numbers.front();
  tables_.span = figure.numbers.back() - tables_.min + 1;
  for (int v : figure.numbers) tables_.all |= 1ull << (v - tables_.min);
  tables_.allowed.assign(static_cast<std::size_t>(figure.n_points()), tables_.all);
  if (!figure.ranges.empty())
    for (int p = 0; p < figure.n_points(); ++p) {
      const auto [lo, hi] = figure.ranges[static_cast<std::size_t>(p)];
      tables_.allowed[static_cast<std::size_t>(p)] &= range_mask(lo, hi, tables_.min, tables_.span);
    }
  // One anchor for all m rotations (or both directions): the hashes sum over them.
  std::vector<PointPerm> gens;
  if (!shape_.symmetry.empty()) gens.push_back(shape_.symmetry);
  tables_.hashes = PointHashes(figure.n_points(), tables_.min, tables_.span, gens, shape_.multiplicity);
  if (shape_.dual) tables_.dual_hashes = tables_.hashes.with_reflected_values();
  for (int v : figure.numbers) tables_.numbers_sum += v;
  tables_.lines = figure.n_lines();
  for (int p = 0; p < figure.n_points(); ++p)
    if (shape_.joint_points >> p & 1) tables_.joint_numbers |= tables_.allowed[static_cast<std::size_t>(p)];
  // Level 1: each sum with each least label; a sum past its dual is counted by the dual's tasks.
  for (int k : shape_.sums)
    if (!shape_.dual || shape_.dual - k >= k)
      for (int v = tables_.min; v < tables_.min + tables_.span; ++v)
        if (tables_.all >> (v - tables_.min) & 1) tasks_.push_back(JoinTask{k, static_cast<std::uint16_t>(v), 1});
}

bool wants_count(const nlohmann::json& spec, const std::string& what) {
  if (!spec.contains("count")) return false;
  const nlohmann::json& c = spec.at("count");
  if (c.is_boolean()) return c.get<bool>();
  if (c == "join") return true;
  throw SpecError(what + ": unknown \"count\" " + c.dump().substr(0, 40) + " (use true or \"join\")");
}

std::uint64_t count_memory_bytes(const nlohmann::json& spec, const std::string& what) {
  if (!spec.contains("memory")) return 0;
  const nlohmann::json& m = spec.at("memory");
  if (!m.is_number_unsigned() || m.get<std::uint64_t>() == 0 || m.get<std::uint64_t>() > (std::uint64_t{1} << 40))
    throw SpecError(what + ": \"memory\" must be a whole number of MiB, 1 to 2^40");
  if (!wants_count(spec, what)) throw SpecError(what + ": \"memory\" bounds a counting run's tables: it needs \"count\"");
  return m.get<std::uint64_t>() << 20;
}

void FigureJoinProblem::cut(int depth, SinkRef<State> sink) const {
  if (depth == 0) {
    sink(JoinTask{}, false);
    return;
  }
  for (const JoinTask& t : tasks_) sink(t, true);
}

void FigureJoinProblem::run(const JoinTask& s, TaskRecord& rec, Poll& poll) const {
  if (s.level == 1) {
    count_into(s, rec, poll, nullptr);
    return;
  }
  for (const JoinTask& t : tasks_)
    if (!count_into(t, rec, poll, nullptr)) return;
}

TaskRecord FigureJoinProblem::count_task(const JoinTask& t, JoinStats* stats) const {
  TaskRecord rec;
  std::uint64_t nodes = 0;
  Poll poll{[](void*) { return false; }, nullptr, &nodes, 1};
  count_into(t, rec, poll, stats);
  rec.nodes = nodes;
  return rec;
}

namespace {

// The pattern a pass keeps: arm a's ends whose numbers on `z` are `want`
// (the other arm then has z & ~want there); in a ring joined with itself,
// the ends that meet at one joint's label (`meet`, or -1: any).
struct Pass {
  std::uint64_t z = 0, want = 0;
  int meet = -1;
};

// The passes of one split level d: 2^d patterns on the d smallest numbers
// other than the anchor's; for a ring joined with itself, one meeting
// label a pass (an end and its partner meet at the same label) times
// 2^(d-1) patterns.  Empty when d is past what the split can reach.
// 2^d patterns on the d smallest of `numbers`, meeting at `meet`.
void add_patterns(std::size_t d, std::uint64_t numbers, int meet, std::vector<Pass>& out) {
  std::vector<std::uint64_t> bits;
  for (std::uint64_t m = numbers; m && bits.size() < d; m &= m - 1) bits.push_back(m & -m);
  if (bits.size() < d) return;
  std::uint64_t z = 0;
  for (std::uint64_t b : bits) z |= b;
  for (std::uint64_t pattern = 0; pattern < (std::uint64_t{1} << d); ++pattern) {
    Pass p{z, 0, meet};
    for (std::size_t i = 0; i < d; ++i)
      if (pattern >> i & 1) p.want |= bits[i];
    out.push_back(p);
  }
}

std::vector<Pass> passes_at(std::size_t d, std::uint64_t numbers, bool by_meet, int min) {
  std::vector<Pass> out;
  if (!by_meet || d == 0) {
    add_patterns(d, numbers, -1, out);
    return out;
  }
  // A pattern must miss the meeting label: both halves hold it.
  for (std::uint64_t m = numbers; m; m &= m - 1)
    add_patterns(d - 1, numbers & ~(m & -m), min + std::countr_zero(m), out);
  if (out.size() < (std::size_t{1} << (d - 1))) out.clear();
  return out;
}

// What one level of passes adds, kept only when every pass fits.
struct Tally {
  std::uint64_t total = 0;
  Digest digest;
  JoinStats stats;
  void add(std::uint64_t ca, std::uint64_t cb, const Digest& sa, const Digest& sb, const Digest& h_anchor) {
    std::uint64_t both = 0;
    if (__builtin_mul_overflow(ca, cb, &both)) count_overflow("total counts");
    add_count(total, both, "total counts");
    digest.merge(sa.times(cb));
    digest.merge(sb.times(ca));
    digest.merge(h_anchor.times(both));
  }
};

}  // namespace

// One task into rec: every anchor, in as many passes as the memory needs.
bool FigureJoinProblem::count_into(const JoinTask& t, TaskRecord& rec, Poll& poll, JoinStats* stats) const {
  const std::function<bool()> stop = [&] { return poll.stop && poll.ctx && poll.stop(poll.ctx); };
  const std::uint64_t budget = std::max<std::uint64_t>(memory_ / std::max(1u, poll.threads) / (2 * sizeof(Entry)), 64);
  std::uint64_t total = 0;
  Digest digest;
  TableStats tables;
  TablePool::Lease lease(*pool_);
  JoinScratch& scratch = *lease;
  JoinTable& table = scratch.table;
  Partitions& parts = scratch.parts;
  // A sum below its dual counts the dual's labellings too: the same number,
  // their hashes summed in by dual_hashes.
  const bool paired = shape_.dual && shape_.dual - t.sum != t.sum;
  const PointHashes& hashes = paired ? tables_.dual_hashes : tables_.hashes;
  const long long joints_sum = static_cast<long long>(tables_.lines) * t.sum - tables_.numbers_sum;
  const int joints = std::popcount(shape_.joint_points);
  for (const JoinAnchor& an : shape_.anchors) {
    if (!(tables_.allowed[static_cast<std::size_t>(an.point)] >> (t.least - tables_.min) & 1)) continue;
    const std::uint64_t anchor_bit = 1ull << (t.least - tables_.min);
    const std::uint64_t rest = tables_.all & ~anchor_bit;
    const Digest h_anchor = hashes.at(an.point, t.least);
    // A ring's other joints all lie above the anchor's label.
    const std::uint64_t above_least =
        std::popcount(an.above) == joints - 1 ? tables_.all & numbers_above(t.least, tables_.min) : tables_.all;
    const ArmBounds bounds{tables_.joint_numbers & above_least & ~anchor_bit, {joints - 1, joints_sum - t.least}};
    const bool self = !an.mirror.empty();
    const bool by_meet = self && an.a.meet >= 0;
    // Arm a's end's key, and its partner's: the rest of the numbers (and,
    // in a ring, the same meeting joint, which arm a labels).
    const auto key = [&](std::uint64_t used, int meet) { return key_of(used & ~anchor_bit, meet, tables_.min); };
    const auto partner = [&](std::uint64_t key_a) {
      const std::uint64_t mask = key_a & ((std::uint64_t{1} << kMaxSpan) - 1);
      if (an.a.meet < 0) return rest & ~mask;
      const std::uint64_t meet_off = key_a >> kMaxSpan;
      return ((rest & ~mask) | (std::uint64_t{1} << meet_off)) | (meet_off << kMaxSpan);
    };
    for (std::size_t d = 0;; ++d) {
      const std::vector<Pass> passes = passes_at(d, rest, by_meet, tables_.min);
      if (passes.empty()) throw std::logic_error("figure-join: a task does not fit the memory however it is split");
      Tally level;
      bool fits = true;
      for (const Pass& ps : passes) {
        // A self-join keeps both halves of a pair: the pattern and its complement.
        const auto kept = [&](std::uint64_t used, int meet) {
          const std::uint64_t m = used & ps.z;
          if (ps.meet >= 0 && meet != ps.meet) return false;
          return m == ps.want || (self && m == (ps.z & ~ps.want));
        };
        // Joined with itself, the entries that are the first half (P) of
        // their pairs in this pass; their partners, mirrored, are the second (Q).
        const auto first_half = [&](std::uint64_t k) {
          if ((k & ps.z) != ps.want) return false;
          return ps.meet < 0 || static_cast<int>(k >> kMaxSpan) + tables_.min == ps.meet;
        };
        // Arm a, each end to leaf(used, hash, meet); false when stopped.
        const auto walk_a = [&](auto& leaf) {
          ArmWalk<std::remove_reference_t<decltype(leaf)>> wa(an.a, tables_, hashes, t.sum, t.least, an.above, true,
                                                              an.mirror, bounds, leaf, stop, *poll.nodes);
          return wa.run(t.least, anchor_bit);
        };
        auto hit = [&](const Entry& e, const Digest& h, std::uint64_t count) {
          ++level.stats.hits;
          // e is arm a's end; joined with itself, the partner, whose hashes
          // its own pair (e, end) counts (keep below).
          level.add(e.count, count, self ? Digest{} : e.sum, h, h_anchor);
        };
        if (self && shape_.ring) {
          // A ring joined with itself: its ends rarely find a partner (3 %
          // on cycle-14) and its table is the time; the join goes through
          // buckets (Partitions).
          parts.clear(budget * 2 * sizeof(Entry));
          auto keep = [&](std::uint64_t used, const Digest& h, int meet) {
            if (fits && kept(used, meet) && !parts.add_end(key(used, meet), h)) fits = false;
          };
          if (!walk_a(keep)) return false;
          if (fits && !parts.aggregate(table)) fits = false;
          if (!fits) break;
          ++level.stats.passes;
          level.stats.max_entries = std::max(level.stats.max_entries, parts.keys());
          parts.for_each_entry([&](const Entry& e) {
            if (!fits || !first_half(e.key)) return;
            ++level.stats.lookups;
            if (!parts.add_probe(partner(e.key), e.sum, e.count)) fits = false;
          });
          if (!fits) break;
          level.stats.max_bytes = std::max(level.stats.max_bytes, parts.bytes());
          parts.resolve(table, hit);
          continue;
        }
        table.clear(budget);
        Inserts insert(table);
        // Joined with itself, an end's entry sums its own hashes and its
        // mirror's: over every ordered pair (P, Q) of partners (each order
        // comes in some pass), sum_(P,Q) [s(P) c(Q) + c(P) s'(Q)] is
        // sum_(P,Q) (s + s')(P) c(Q), as the partner of a partner is the end.
        auto keep = [&](std::uint64_t used, const Digest& h, int meet) {
          if (fits && kept(used, meet) && !insert(key(used, meet), h)) fits = false;
        };
        if (!walk_a(keep)) return false;
        if (fits && !insert.flush()) fits = false;
        if (!fits) break;
        ++level.stats.passes;
        level.stats.max_entries = std::max(level.stats.max_entries, table.size());
        level.stats.max_bytes = std::max(level.stats.max_bytes, table.bytes());
        Lookups<decltype(hit)> look(table, hit);
        if (self) {
          for (const Entry& e : table.slots()) {
            if (!e.key || !first_half(e.key)) continue;
            ++level.stats.lookups;
            look(partner(e.key), e.sum, e.count);
          }
        } else {
          auto join = [&](std::uint64_t used, const Digest& h, int meet) {
            if ((used & ps.z) != (ps.z & ~ps.want)) return;
            ++level.stats.lookups;
            look(partner(key(used, meet)), h, 1);
          };
          static const PointPerm kNoMirror;
          ArmWalk<decltype(join)> wb(an.b, tables_, hashes, t.sum, t.least, an.above, false, kNoMirror, bounds, join,
                                     stop, *poll.nodes);
          if (!wb.run(t.least, anchor_bit)) return false;
        }
        look.flush();
      }
      if (!fits) continue;
      tables.merge(level.stats);
      add_count(total, level.total, "total counts");
      digest.merge(level.digest);
      break;
    }
  }
  std::uint64_t of_sum = 0, all = 0;
  if (__builtin_mul_overflow(total, shape_.multiplicity, &of_sum)) count_overflow("total counts");
  // The task's labellings of one sum are whole orbits (figure_join.hpp), each of |G|.
  if (of_sum % group_order_)
    throw std::logic_error("figure-join: a task's " + std::to_string(of_sum) + " labellings are not whole orbits of " +
                           std::to_string(group_order_));
  if (__builtin_mul_overflow(of_sum, paired ? 2 : 1, &all)) count_overflow("total counts");
  TaskRecord one;
  one.total = all;
  one.unique = all / group_order_;
  one.digest = digest;
  one.tables = tables;
  if (stats) stats->merge(tables);
  if (one.unique) {
    one.by_key[t.sum] = of_sum / group_order_;
    if (paired) one.by_key[shape_.dual - t.sum] = of_sum / group_order_;
  }
  rec.merge(one);
  return true;
}

}  // namespace magic
