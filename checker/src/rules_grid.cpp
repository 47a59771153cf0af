// Squares and completions: an N x N grid holding 1..N² once each whose sum
// groups (rows, columns, diagonals, ...) of the chosen kind hit their
// targets.  Written from docs/cli.md's definitions of the kinds:
//   magic         rows, columns and the two main diagonals sum to N(N²+1)/2
//   semi          rows and columns only
//   pandiagonal   rows, columns and all 2N broken diagonals
//   associative   magic, and cells symmetric about the centre sum to N²+1
//   most-perfect  pandiagonal, every 2x2 block (wrapping around) sums to
//                 2(N²+1), cells N/2 apart on a diagonal sum to N²+1
//
// Symmetry.  square: the 8 rotations and reflections of the grid; complete:
// none (its givens are fixed, every completion counts on its own).
// Canonical form and digest bytes: the engine's solution is the grid
// row-major as N² unsigned bytes (order 16, whose 256 does not fit a byte:
// N² 16-bit little-endian words), its canonical form the lexicographically
// least of the images (square; the grid itself for complete), hashed as
// those N² bytes.  The least image of a set does not depend on how the 8
// symmetries are enumerated, so the checker's own list gives the same form.
#include <algorithm>
#include <numeric>

#include "magic/core/error.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

struct Group {
  std::string name;
  std::vector<int> cells;
  int target = 0;
};

const std::vector<std::string> kKinds = {"magic", "semi", "pandiagonal", "associative", "most-perfect"};

std::string at_name(int n, int cell) {
  return "(" + std::to_string(cell / n + 1) + "," + std::to_string(cell % n + 1) + ")";
}

std::vector<Group> lines(int n, bool diagonals, bool broken) {
  const int line = n * (n * n + 1) / 2;
  auto at = [n](int r, int c) { return ((r % n + n) % n) * n + ((c % n + n) % n); };
  std::vector<Group> g;
  for (int r = 0; r < n; ++r) {
    Group row{"row " + std::to_string(r + 1), {}, line}, col{"column " + std::to_string(r + 1), {}, line};
    for (int c = 0; c < n; ++c) {
      row.cells.push_back(at(r, c));
      col.cells.push_back(at(c, r));
    }
    g.push_back(row);
    g.push_back(col);
  }
  if (!diagonals) return g;
  for (int k = 0; k < (broken ? n : 1); ++k) {
    Group d{k ? "broken diagonal from " + at_name(n, at(0, k)) : "main diagonal", {}, line};
    Group a{k ? "broken anti-diagonal from " + at_name(n, at(0, n - 1 - k)) : "anti-diagonal", {}, line};
    for (int i = 0; i < n; ++i) {
      d.cells.push_back(at(i, i + k));
      a.cells.push_back(at(i, n - 1 - i - k));
    }
    g.push_back(d);
    g.push_back(a);
  }
  return g;
}

std::vector<Group> kind_groups(int n, const std::string& kind) {
  const int nn = n * n;
  const bool broken = kind == "pandiagonal" || kind == "most-perfect";
  std::vector<Group> g = lines(n, kind != "semi", broken);
  auto at = [n](int r, int c) { return ((r % n + n) % n) * n + ((c % n + n) % n); };
  if (kind == "associative") {
    for (int c = 0; c < nn; ++c) {
      const int o = nn - 1 - c;
      if (c < o) g.push_back({"cells " + at_name(n, c) + " and " + at_name(n, o), {c, o}, nn + 1});
      if (c == o) g.push_back({"the centre", {c}, (nn + 1) / 2});
    }
  }
  if (kind == "most-perfect") {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        g.push_back({"2x2 block at " + at_name(n, at(r, c)), {at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)},
                     2 * (nn + 1)});
        if (r < n / 2) {
          const int o = at(r + n / 2, c + n / 2);
          g.push_back({"cells " + at_name(n, at(r, c)) + " and " + at_name(n, o), {at(r, c), o}, nn + 1});
        }
      }
  }
  return g;
}

// The 8 symmetries of the square; image cell (r, c) takes the value at src(r, c).
std::vector<Perm> square_group(int n) {
  const int m = n - 1;
  using Src = std::pair<int, int> (*)(int, int, int);
  const Src maps[8] = {
      [](int r, int c, int) { return std::pair{r, c}; },         [](int r, int c, int k) { return std::pair{c, k - r}; },
      [](int r, int c, int k) { return std::pair{k - r, k - c}; }, [](int r, int c, int k) { return std::pair{k - c, r}; },
      [](int r, int c, int) { return std::pair{c, r}; },         [](int r, int c, int k) { return std::pair{r, k - c}; },
      [](int r, int c, int k) { return std::pair{k - r, c}; },   [](int r, int c, int k) { return std::pair{k - c, k - r}; },
  };
  std::vector<Perm> perms;
  for (Src f : maps) {
    Perm p(n * n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const auto [sr, sc] = f(r, c, m);
        p[r * n + c] = sr * n + sc;
      }
    perms.push_back(p);
  }
  return perms;
}

// A square problem may be a slice: only the squares with this centre value,
// and with these values on the rest of the two diagonals, in any order; or
// (order-5 semi) with this first row, and column, in this order.
struct Slice {
  int center = 0;          // 0: any
  std::vector<int> diagonal;  // empty: any
  std::vector<int> first_row, first_column;  // empty: any
};

// Order-5 semi-magic squares are counted by classes (docs/json.md): the
// squares with the same set of row sets and set of column sets, or the
// two swapped.  A class holds 2 (5!)² = 28,800 squares, 3,600 up to
// rotation and reflection; it is listed as its representative: rows and
// columns each in the order of their least numbers, and transposed if the
// row holding 1, as a set of bits (bit v-1 for v), is above the column
// holding 1.
constexpr std::uint64_t kClassSquares = 28800, kClassUnique = 3600;

std::vector<int> class_representative(const std::vector<int>& v, int n) {
  std::vector<std::uint32_t> rows(static_cast<std::size_t>(n)), cols(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      rows[static_cast<std::size_t>(r)] |= 1u << (v[static_cast<std::size_t>(r * n + c)] - 1);
      cols[static_cast<std::size_t>(c)] |= 1u << (v[static_cast<std::size_t>(r * n + c)] - 1);
    }
  auto least = [](std::uint32_t a, std::uint32_t b) { return (a & (~a + 1)) < (b & (~b + 1)); };
  std::sort(rows.begin(), rows.end(), least);
  std::sort(cols.begin(), cols.end(), least);
  if (rows[0] > cols[0]) std::swap(rows, cols);
  std::vector<int> out;
  for (std::uint32_t r : rows)
    for (std::uint32_t c : cols) {
      int x = 1;
      for (std::uint32_t m = r & c; m > 1; m >>= 1) ++x;
      out.push_back(x);
    }
  return out;
}

class GridRules : public Rules {
 public:
  // classes: listed by classes (order-5 semi with symmetry breaking, no slice).
  GridRules(std::string title, int n, std::string kind, std::vector<int> givens, bool symmetric, Slice slice = {},
            bool classes = false)
      : title_(std::move(title)),
        n_(n),
        givens_(std::move(givens)),
        groups_(kind_groups(n, kind)),
        slice_(std::move(slice)),
        classes_(classes),
        // The engine reports no centres for order-5 semi (its classes have every centre).
        by_center_(symmetric && n % 2 == 1 && !(n == 5 && kind == "semi")) {
    std::sort(slice_.diagonal.begin(), slice_.diagonal.end());
    if (!slice_.first_row.empty()) symmetric = false;  // a first-row slice: every square on its own
    if (symmetric) {
      perms_ = square_group(n);
    } else {
      Perm id(n * n);
      std::iota(id.begin(), id.end(), 0);
      perms_ = {id};
    }
  }

  std::string name() const override { return title_; }
  bool has_total() const override { return perms_.size() > 1; }
  // Squares of odd order count their solutions by centre value.
  std::string by_key() const override { return by_center_ ? "by_center" : ""; }

  Judged judge(const nlohmann::json& sol) const override {
    Judged j;
    std::vector<int> v;
    if (!read_grid(sol, v, j.error) || !check_values(v, j.error) || !check_givens(v, j.error) ||
        !check_groups(v, j.error) || !check_slice(v, j.error))
      return j;
    if (classes_) {
      j.canonical = bytes_u8(class_representative(v, n_));
      j.orbit = kClassSquares;
      j.unique = kClassUnique;
      return j;
    }
    const Orbit o = orbit_of(v, perms_);
    j.canonical = n_ * n_ > 255 ? bytes_u16le(o.least, o.least.size()) : bytes_u8(o.least);
    j.orbit = o.size;
    if (by_center_) j.key = v[static_cast<std::size_t>(n_ * n_ / 2)];
    return j;
  }

 private:
  bool read_grid(const nlohmann::json& sol, std::vector<int>& v, std::string& why) const {
    if (!sol.is_array() || static_cast<int>(sol.size()) != n_) {
      why = "expected " + std::to_string(n_) + " rows";
      return false;
    }
    for (int r = 0; r < n_; ++r) {
      const auto row = int_list(sol[static_cast<std::size_t>(r)], static_cast<std::size_t>(n_), 1, n_ * n_, why);
      if (!row) {
        why = "row " + std::to_string(r + 1) + ": " + why;
        return false;
      }
      v.insert(v.end(), row->begin(), row->end());
    }
    return true;
  }
  bool check_values(const std::vector<int>& v, std::string& why) const {
    std::vector<int> where(v.size() + 1, -1);
    for (int c = 0; c < n_ * n_; ++c) {
      if (where[static_cast<std::size_t>(v[c])] >= 0) {
        why = "number " + std::to_string(v[c]) + " appears twice, at " + at_name(n_, where[v[c]]) + " and " +
              at_name(n_, c);
        return false;
      }
      where[static_cast<std::size_t>(v[c])] = c;
    }
    return true;
  }
  bool check_givens(const std::vector<int>& v, std::string& why) const {
    for (std::size_t c = 0; c < givens_.size(); ++c)
      if (givens_[c] != 0 && givens_[c] != v[c]) {
        why = "cell " + at_name(n_, static_cast<int>(c)) + " is given as " + std::to_string(givens_[c]) +
              " but holds " + std::to_string(v[c]);
        return false;
      }
    return true;
  }
  bool check_groups(const std::vector<int>& v, std::string& why) const {
    for (const Group& g : groups_) {
      int sum = 0;
      for (int c : g.cells) sum += v[static_cast<std::size_t>(c)];
      if (sum != g.target) {
        why = g.name + " sums to " + std::to_string(sum) + ", not " + std::to_string(g.target);
        return false;
      }
    }
    return true;
  }

  bool check_slice(const std::vector<int>& v, std::string& why) const {
    const int mid = n_ * n_ / 2;
    if (slice_.center && v[static_cast<std::size_t>(mid)] != slice_.center) {
      why = "the centre holds " + std::to_string(v[static_cast<std::size_t>(mid)]) + ", not " +
            std::to_string(slice_.center);
      return false;
    }
    for (int i = 0; i < static_cast<int>(slice_.first_row.size()); ++i)
      if (v[static_cast<std::size_t>(i)] != slice_.first_row[static_cast<std::size_t>(i)]) {
        why = "the first row is not the problem's first_row";
        return false;
      }
    for (int i = 0; i < static_cast<int>(slice_.first_column.size()); ++i)
      if (v[static_cast<std::size_t>(i * n_)] != slice_.first_column[static_cast<std::size_t>(i)]) {
        why = "the first column is not the problem's first_column";
        return false;
      }
    if (slice_.diagonal.empty()) return true;
    std::vector<int> diag;
    for (int i = 0; i < n_; ++i)
      for (int c : {i * n_ + i, i * n_ + n_ - 1 - i})
        if (c != mid || n_ % 2 == 0) diag.push_back(v[static_cast<std::size_t>(c)]);
    std::sort(diag.begin(), diag.end());
    if (diag != slice_.diagonal) {
      why = "the diagonals do not hold the problem's diagonal values";
      return false;
    }
    return true;
  }

  std::string title_;
  int n_;
  std::vector<int> givens_;  // complete: row-major, 0 = blank; square: empty
  std::vector<Group> groups_;
  Slice slice_;
  bool classes_;  // order-5 semi: listed by classes (see class_representative)
  bool by_center_;
  std::vector<Perm> perms_;
};

std::string read_kind(const nlohmann::json& problem, int n) {
  const std::string kind = string_field(problem, "kind", "problem", "magic");
  if (std::find(kKinds.begin(), kKinds.end(), kind) == kKinds.end())
    throw SpecError("unknown square kind '" + kind + "' in problem");
  if (kind == "most-perfect" && n % 4 != 0)
    throw SpecError("problem: most-perfect squares need an order divisible by 4, got " + std::to_string(n));
  return kind;
}

std::unique_ptr<Rules> square_rules(const nlohmann::json& problem) {
  const std::int64_t n = int_field(problem, "order", "problem");
  if (n < 3 || (n > 5 && n != 8))
    throw SpecError("problem: square order must be 3..5 (or 8, most-perfect), got " + std::to_string(n));
  const int order = static_cast<int>(n);
  const std::string kind = read_kind(problem, order);
  if (order == 8 && kind != "most-perfect") throw SpecError("problem: square order 8 is counted only most-perfect");
  Slice slice;
  std::string title = "square order=" + std::to_string(order) + " kind=" + kind;
  if (const auto c = optional_int(problem, "center", "problem")) {
    if (order % 2 == 0 || *c < 1 || *c > order * order)
      throw SpecError("problem.center must be a value 1.." + std::to_string(order * order) + " of an odd order");
    slice.center = static_cast<int>(*c);
    title += " center=" + std::to_string(*c);
  }
  if (problem.contains("diagonal")) {
    std::string why;
    const auto d = int_list(problem.at("diagonal"), static_cast<std::size_t>(2 * order - 2), 1, order * order, why);
    if (!d || !slice.center) throw SpecError("problem.diagonal: " + (d ? std::string("needs a center") : why));
    slice.diagonal = *d;
    title += " diagonal=" + problem.at("diagonal").dump();
  }
  for (const char* field : {"first_row", "first_column"}) {
    if (!problem.contains(field)) continue;
    std::string why;
    const auto line = int_list(problem.at(field), 5, 1, 25, why);
    if (!line || order != 5 || kind != "semi")
      throw SpecError(std::string("problem.") + field + ": " + (line ? "needs order 5 and kind semi" : why));
    (std::string(field) == "first_row" ? slice.first_row : slice.first_column) = *line;
    title += std::string(" ") + field + "=" + problem.at(field).dump();
  }
  const bool symmetry_breaking = !problem.contains("symmetry_breaking") || problem.at("symmetry_breaking") == true;
  const bool classes = order == 5 && kind == "semi" && symmetry_breaking && slice.first_row.empty();
  return std::make_unique<GridRules>(std::move(title), order, kind, std::vector<int>{}, true, std::move(slice), classes);
}

// problem.grid: the rows as given, 0 = blank.
std::vector<int> read_givens(const nlohmann::json& problem) {
  if (!problem.contains("grid") || !problem.at("grid").is_array())
    throw SpecError("problem has no \"grid\" list of rows");
  const nlohmann::json& rows = problem.at("grid");
  const std::size_t n = rows.size();
  if (n < 3 || n > 16) throw SpecError("problem.grid: order must be 3..16, got " + std::to_string(n));
  std::vector<int> cells;
  for (std::size_t r = 0; r < n; ++r) {
    std::string why;
    const auto row = int_list(rows[r], n, 0, static_cast<std::int64_t>(n * n), why);
    if (!row) throw SpecError("problem.grid row " + std::to_string(r + 1) + ": " + why);
    cells.insert(cells.end(), row->begin(), row->end());
  }
  return cells;
}

std::unique_ptr<Rules> complete_rules(const nlohmann::json& problem) {
  std::vector<int> givens = read_givens(problem);
  const int n = static_cast<int>(problem.at("grid").size());
  if (const auto order = optional_int(problem, "order", "problem"); order && *order != n)
    throw SpecError("problem.order is " + std::to_string(*order) + " but the grid has " + std::to_string(n) + " rows");
  const std::string kind = read_kind(problem, n);
  const auto filled = std::count_if(givens.begin(), givens.end(), [](int x) { return x != 0; });
  return std::make_unique<GridRules>("complete order=" + std::to_string(n) + " kind=" + kind +
                                         " givens=" + std::to_string(filled),
                                     n, kind, std::move(givens), false);
}

}  // namespace

std::unique_ptr<Rules> make_grid_rules(const nlohmann::json& problem) {
  return string_field(problem, "name", "problem", "") == "square" ? square_rules(problem) : complete_rules(problem);
}

}  // namespace magic::checker
