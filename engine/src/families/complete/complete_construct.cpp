// Completions built rather than searched (complete.hpp, construct_completion).
//
// A square M = N*A + B + 1 from two "digit squares" over 0..N-1, each
// linear in the cell:
//
//   A[i][j] = s[(a*i + b*j) mod N]      s, t: permutations of 0..N-1
//   B[i][j] = t[(c*i + d*j) mod N]      (the digit maps)
//
//   * M holds every value once when (i, j) -> (a*i + b*j, c*i + d*j) is
//     one-to-one, that is when a*d - b*c is a unit mod N.
//   * A group of k cells sums to k(N²+1)/2 when A's digits in it sum to
//     k(N-1)/2 and B's do too.  For A this is a linear condition on s alone:
//     position x occurs count[x] times in the group, Σ count[x]*s[x] = k(N-1)/2.
//     Lines whose coefficient is a unit hold every position once and are
//     met by any s; other coefficients ask s to balance over the cosets of
//     a subgroup of Z_N, pairs and 2x2 blocks ask for pair sums.
//   * A given v fixes s at its cell's position to (v-1) / N and t at its
//     position to (v-1) % N.
//
// Euler's squares are the case with every coefficient a unit (orders 11
// and 13); balanced maps reach orders 9, 12, 15 and 16, and most-perfect
// squares.  Singly even orders have none: there every coefficient of a row
// or column is odd, or N/2 (N/g cells of a coset must be even in number
// when (N-1)/2 is not whole), so a*d - b*c is even.
//
// The digit maps are found by a small backtracking search per coefficient
// pair, under a node budget; running out only means no construction.
#include "complete/complete.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <optional>

namespace magic {
namespace {

constexpr int kMaxDigits = kCompleteMaxOrder;
// Nodes one digit map may take: a map not found fast is left to the search.
constexpr std::uint64_t kMapNodes = 1024;

// Σ count[x] * s[x] = target over the positions x of Z_N.
struct DigitSum {
  std::array<int, kMaxDigits> count{};
  int target = 0;
};

// The conditions on a digit map with coefficients (a, b).  Conditions every
// permutation meets (each position equally often) are left out.
std::vector<DigitSum> digit_sums(int n, int a, int b, const std::vector<SumGroup>& groups) {
  std::vector<DigitSum> out;
  for (const SumGroup& g : groups) {
    DigitSum d;
    for (int c : g.cells) ++d.count[static_cast<std::size_t>((a * (c / n) + b * (c % n)) % n)];
    d.target = static_cast<int>(g.cells.size()) * (n - 1) / 2;
    if (std::all_of(d.count.begin(), d.count.begin() + n, [&](int k) { return k == d.count[0]; })) continue;
    out.push_back(d);
  }
  const auto key = [](const DigitSum& d) { return std::pair(d.count, d.target); };
  std::sort(out.begin(), out.end(), [&](const DigitSum& x, const DigitSum& y) { return key(x) < key(y); });
  out.erase(std::unique(out.begin(), out.end(), [&](const DigitSum& x, const DigitSum& y) { return key(x) == key(y); }),
            out.end());
  return out;
}

// A digit map under construction: s[x] = -1 while open.
struct DigitMap {
  std::array<int, kMaxDigits> s{};
  unsigned used = 0;  // bit v: digit v is taken
};

// The givens' digits at their positions; false when two givens ask one
// position for two digits, or two positions for one digit.
bool fix_givens(int n, int a, int b, const Puzzle& p, bool high, DigitMap& m) {
  m.s.fill(-1);
  m.used = 0;
  for (int c = 0; c < n * n; ++c) {
    const auto v = p.cells[static_cast<std::size_t>(c)];
    if (v == 0) continue;
    const int digit = static_cast<int>(high ? (v - 1) / n : (v - 1) % n);
    int& at = m.s[static_cast<std::size_t>((a * (c / n) + b * (c % n)) % n)];
    if (at == digit) continue;
    if (at >= 0 || (m.used >> digit & 1)) return false;
    at = digit;
    m.used |= 1u << digit;
  }
  return true;
}

// Every condition can still be met: the open positions' share lies between
// their total count times the smallest and the largest free digit.
bool digit_sums_hold(int n, const DigitMap& m, const std::vector<DigitSum>& sums) {
  const unsigned free = ~m.used & ((1u << n) - 1);
  if (!free) {
    for (const DigitSum& d : sums) {
      int sum = 0;
      for (int x = 0; x < n; ++x) sum += d.count[x] * m.s[x];
      if (sum != d.target) return false;
    }
    return true;
  }
  const int lo = std::countr_zero(free), hi = 31 - std::countl_zero(free);
  for (const DigitSum& d : sums) {
    int rest = d.target, open = 0, step = 0;
    for (int x = 0; x < n; ++x) {
      if (m.s[x] >= 0) {
        rest -= d.count[x] * m.s[x];
      } else {
        open += d.count[x];
        step = std::gcd(step, d.count[x]);
      }
    }
    // The open share is a multiple of the counts' gcd (a pair of cells on
    // one position cannot make an odd sum).
    if (open == 0 ? rest != 0 : rest < open * lo || rest > open * hi || rest % step != 0) return false;
  }
  return true;
}

// Fills the open positions, most constrained first; false when there is no
// way, or the budget ran out.
bool fill_digits(int n, DigitMap& m, const std::vector<DigitSum>& sums, std::uint64_t& nodes, std::uint64_t limit) {
  if (++nodes > limit || !digit_sums_hold(n, m, sums)) return false;
  int best = -1, best_uses = -1;
  for (int x = 0; x < n; ++x) {
    if (m.s[x] >= 0) continue;
    int uses = 0;
    for (const DigitSum& d : sums) uses += d.count[x] != 0;
    if (uses > best_uses) best = x, best_uses = uses;
  }
  if (best < 0) return true;
  for (int v = 0; v < n; ++v) {
    if (m.used >> v & 1) continue;
    m.s[best] = v;
    m.used |= 1u << v;
    if (fill_digits(n, m, sums, nodes, limit)) return true;
    m.s[best] = -1;
    m.used &= ~(1u << v);
  }
  return false;
}

// A digit map with coefficients (a, b) for the givens' high (A) or low (B)
// digits under the conditions `sums`, or nothing; `nodes` counts on, up to
// `stop`.
std::optional<DigitMap> digit_map(int n, int a, int b, const Puzzle& p, const std::vector<DigitSum>& sums, bool high,
                                  std::uint64_t& nodes, std::uint64_t stop) {
  DigitMap m;
  if (!fix_givens(n, a, b, p, high, m)) return std::nullopt;
  if (!fill_digits(n, m, sums, nodes, std::min(stop, nodes + kMapNodes))) return std::nullopt;
  return m;
}

}  // namespace

std::vector<int> construct_completion(const Puzzle& p, const std::vector<SumGroup>& groups, std::uint64_t limit,
                                      std::uint64_t& nodes) {
  const int n = p.order;
  if (n > kMaxDigits || n % 4 == 2) return {};
  for (const SumGroup& g : groups) {  // each group must split into two halves of k(N-1)/2
    const int k = static_cast<int>(g.cells.size());
    if (2 * g.target != k * (n * n + 1) || k * (n - 1) % 2 != 0) return {};
  }
  const std::uint64_t stop = nodes + limit;
  // Coefficients with the fewest conditions first: most lines then hold
  // every digit once, and a map is found, or ruled out, fastest.
  std::vector<std::vector<DigitSum>> sums(static_cast<std::size_t>(n * n));  // by a*n + b
  std::vector<int> order(static_cast<std::size_t>(n * n));
  for (int ab = 0; ab < n * n; ++ab) {
    sums[static_cast<std::size_t>(ab)] = digit_sums(n, ab / n, ab % n, groups);
    order[static_cast<std::size_t>(ab)] = ab;
  }
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return sums[static_cast<std::size_t>(x)].size() < sums[static_cast<std::size_t>(y)].size();
  });
  std::vector<std::optional<std::optional<DigitMap>>> low(static_cast<std::size_t>(n * n));  // B's maps, once each
  for (const int ab : order) {
    const int a = ab / n, b = ab % n;
    if (nodes >= stop) return {};
    const auto s = digit_map(n, a, b, p, sums[static_cast<std::size_t>(ab)], true, nodes, stop);
    if (!s) continue;
    for (const int cd : order) {
      const int c = cd / n, d = cd % n;
      if (std::gcd(((a * d - b * c) % n + n) % n, n) != 1) continue;
      if (nodes >= stop) return {};
      auto& t = low[static_cast<std::size_t>(cd)];
      if (!t) t = digit_map(n, c, d, p, sums[static_cast<std::size_t>(cd)], false, nodes, stop);
      if (!*t) continue;
      std::vector<int> out(static_cast<std::size_t>(n * n));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          out[static_cast<std::size_t>(i * n + j)] = n * s->s[(a * i + b * j) % n] + (**t).s[(c * i + d * j) % n] + 1;
      return out;
    }
  }
  return {};
}

}  // namespace magic
