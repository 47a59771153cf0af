// Determined points of a figure (figure/figure_algebra.hpp).
#include "figure/figure_algebra.hpp"

#include <bit>
#include <cstdlib>
#include <numeric>
#include <optional>

namespace magic {
namespace {

using Row = std::vector<std::int64_t>;  // the open points' coefficients, then the lines'

// a := fa * a - fb * b, then divided by the gcd of its entries; false when
// an entry would leave +-2^62 (so std::gcd never sees INT64_MIN).
bool eliminate(Row& a, std::int64_t fa, const Row& b, std::int64_t fb) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 62;
  std::int64_t g = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::int64_t x = 0, y = 0;
    if (__builtin_mul_overflow(a[i], fa, &x) || __builtin_mul_overflow(b[i], fb, &y) ||
        __builtin_sub_overflow(x, y, &a[i]) || a[i] > kLimit || a[i] < -kLimit)
      return false;
    g = std::gcd(g, a[i]);
  }
  if (g > 1)
    for (std::int64_t& x : a) x /= g;
  return true;
}

// Lines with one open point, repeatedly.
std::vector<Determination> single_lines(const std::vector<std::vector<int>>& lines, std::uint64_t kept,
                                        std::uint64_t open) {
  std::vector<Determination> out;
  for (bool found = true; found;) {
    found = false;
    for (std::size_t l = 0; l < lines.size(); ++l) {
      if (!(kept >> l & 1)) continue;
      int last = -1, n_open = 0;
      for (int p : lines[l])
        if (open >> p & 1) last = p, ++n_open;
      if (n_open != 1) continue;
      out.push_back({last, 1, {{static_cast<int>(l), 1}}});
      open &= ~(1ull << last);
      found = true;
    }
  }
  return out;
}

// Gauss-Jordan over the open columns; nullopt on overflow.
std::optional<Determined> by_elimination(const std::vector<std::vector<int>>& lines,
                                                         std::uint64_t kept, std::uint64_t open) {
  std::vector<int> cols, col_of(64, -1), rows_line;
  for (std::uint64_t b = open; b; b &= b - 1) {
    col_of[static_cast<std::size_t>(std::countr_zero(b))] = static_cast<int>(cols.size());
    cols.push_back(std::countr_zero(b));
  }
  for (std::size_t l = 0; l < lines.size(); ++l)
    if (kept >> l & 1) rows_line.push_back(static_cast<int>(l));
  const std::size_t nc = cols.size(), nr = rows_line.size();
  std::vector<Row> rows(nr, Row(nc + nr, 0));
  for (std::size_t i = 0; i < nr; ++i) {
    for (int p : lines[static_cast<std::size_t>(rows_line[i])])
      if (open >> p & 1) rows[i][static_cast<std::size_t>(col_of[static_cast<std::size_t>(p)])] = 1;
    rows[i][nc + i] = 1;
  }
  std::vector<std::pair<std::size_t, std::size_t>> pivots;  // (row, column)
  std::size_t r = 0;
  for (std::size_t c = 0; c < nc && r < nr; ++c) {
    std::size_t i = r;
    while (i < nr && rows[i][c] == 0) ++i;
    if (i == nr) continue;
    std::swap(rows[r], rows[i]);
    for (std::size_t j = 0; j < nr; ++j) {
      if (j == r || rows[j][c] == 0) continue;
      const std::int64_t g = std::gcd(rows[r][c], rows[j][c]);
      if (!eliminate(rows[j], rows[r][c] / g, rows[r], rows[j][c] / g)) return std::nullopt;
    }
    pivots.emplace_back(r++, c);
  }
  Determined out;
  out.complete = true;
  out.independent = pivots.size() == nr;
  for (const auto& [row, c] : pivots) {
    const Row& x = rows[row];
    bool alone = true;
    for (std::size_t k = 0; k < nc && alone; ++k) alone = k == c || x[k] == 0;
    if (!alone) continue;
    const std::int64_t sign = x[c] < 0 ? -1 : 1;
    Determination d{cols[c], sign * x[c], {}};
    bool small = d.d <= kFigureMaxCoefficient;
    for (std::size_t i = 0; i < nr; ++i)
      if (x[nc + i] != 0) {
        small = small && std::llabs(x[nc + i]) <= kFigureMaxCoefficient;
        d.lambda.emplace_back(rows_line[i], sign * x[nc + i]);
      }
    if (small) out.points.push_back(std::move(d));
    else out.complete = false;
  }
  return out;
}

}  // namespace

Determined determined_points(const std::vector<std::vector<int>>& lines, std::uint64_t kept, std::uint64_t open,
                             bool algebra) {
  if (algebra)
    if (auto out = by_elimination(lines, kept, open)) {
      // A point left undetermined for its coefficients' size may still be a
      // line's last open point once the others are placed (none otherwise:
      // the determined points are closed under that rule).
      std::uint64_t rest = open;
      for (const Determination& d : out->points) rest &= ~(1ull << d.point);
      for (Determination& d : single_lines(lines, kept, rest)) out->points.push_back(std::move(d));
      return *out;
    }
  return {single_lines(lines, kept, open), false, false};
}

}  // namespace magic
