#include "complete/complete.hpp"

#include "magic/io.hpp"
#include "magic/spec_int.hpp"

#include <cctype>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace magic {
namespace {

std::string numbers(std::size_t k) { return std::to_string(k) + (k == 1 ? " number" : " numbers"); }

std::string where(int n, int cell) {
  return "row " + std::to_string(cell / n + 1) + ", column " + std::to_string(cell % n + 1);
}

// A token quoted in an error message: short and printable.
std::string quote(std::string_view t) {
  std::string s;
  for (char ch : t.substr(0, 24)) s += std::isprint(static_cast<unsigned char>(ch)) ? ch : '?';
  if (t.size() > 24) s += "...";
  return "'" + s + "'";
}

// Shape checks shared by both input forms: rows[r] holds row r.
Puzzle from_rows(const std::vector<std::vector<std::int64_t>>& rows) {
  if (rows.empty()) throw SpecError("empty grid: expected N rows of N numbers");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].empty()) throw SpecError("row " + std::to_string(r + 1) + " is empty");
    if (rows[r].size() != rows[0].size())
      throw SpecError("ragged grid: row " + std::to_string(r + 1) + " has " + numbers(rows[r].size()) +
                                  ", row 1 has " + numbers(rows[0].size()));
  }
  if (rows.size() != rows[0].size())
    throw SpecError("grid is not square: " + std::to_string(rows.size()) +
                                (rows.size() == 1 ? " row of " : " rows of ") + numbers(rows[0].size()));
  const int n = static_cast<int>(rows.size());
  if (n < kCompleteMinOrder || n > kCompleteMaxOrder)
    throw SpecError("order " + std::to_string(n) + " is not supported (orders " +
                                std::to_string(kCompleteMinOrder) + " to " + std::to_string(kCompleteMaxOrder) +
                                ")");
  Puzzle p;
  p.order = n;
  for (const auto& row : rows) p.cells.insert(p.cells.end(), row.begin(), row.end());
  return p;
}

}  // namespace

Puzzle parse_puzzle(const nlohmann::json& j) {
  if (!j.is_array()) throw SpecError("expected a list of rows, got " + std::string(j.type_name()));
  // Anything larger is not a grid we could support; stop before copying it.
  if (j.size() > 64) throw SpecError("grid has " + std::to_string(j.size()) + " rows; at most " +
                                                 std::to_string(kCompleteMaxOrder) + " are supported");
  std::vector<std::vector<std::int64_t>> rows;
  for (std::size_t r = 0; r < j.size(); ++r) {
    const auto& row = j[r];
    if (!row.is_array())
      throw SpecError("row " + std::to_string(r + 1) + " is not a list of numbers (got " +
                                  row.type_name() + ")");
    if (row.size() > 64)
      throw SpecError("row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                                  " numbers; at most " + std::to_string(kCompleteMaxOrder) + " are supported");
    rows.emplace_back();
    for (std::size_t c = 0; c < row.size(); ++c) {
      const auto& x = row[c];
      const std::string at = "row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1);
      if (x.is_number_unsigned()) {
        const auto u = x.get<std::uint64_t>();
        // Said as written: clamped, it would be reported as another number.
        if (u > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
          throw SpecError(at + ": number " + std::to_string(u) + " is far too large");
        rows.back().push_back(static_cast<std::int64_t>(u));
      } else if (x.is_number_integer()) {
        rows.back().push_back(x.get<std::int64_t>());
      } else {
        std::string got = x.dump();
        throw SpecError(at + ": expected a whole number, got " + quote(got));
      }
    }
  }
  return from_rows(rows);
}

Puzzle parse_puzzle(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM
  const auto first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) throw SpecError("empty input: expected a grid");
  if (text[first] == '[') {
    const nlohmann::json j = parse_json(text, "grid");
    return parse_puzzle(j);
  }
  // Plain text: one row per non-empty line.
  std::vector<std::vector<std::int64_t>> rows;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::int64_t> row;
    std::size_t i = 0;
    while (i < line.size()) {
      const char ch = line[i];
      if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])) && line[j] != ',') ++j;
      const std::string_view tok = line.substr(i, j - i);
      i = j;
      if (tok == ".") {
        row.push_back(0);
        continue;
      }
      std::int64_t v = 0;
      const char* b = tok.data();
      const char* e = tok.data() + tok.size();
      if (*b == '+') ++b;
      const auto [ptr, ec] = std::from_chars(b, e, v);
      if (ec == std::errc::result_out_of_range && ptr == e)
        throw SpecError("line " + std::to_string(line_no) + ": number " + quote(tok) + " is far too large");
      if (ec != std::errc{} || ptr != e || b == e)
        throw SpecError("line " + std::to_string(line_no) + ": expected a whole number, got " +
                                    quote(tok));
      row.push_back(v);
      if (row.size() > 64)
        throw SpecError("line " + std::to_string(line_no) + " has more than 64 numbers; at most " +
                                    std::to_string(kCompleteMaxOrder) + " are supported");
    }
    if (row.empty()) continue;
    rows.push_back(std::move(row));
    if (rows.size() > 64)
      throw SpecError("grid has more than 64 rows; at most " + std::to_string(kCompleteMaxOrder) +
                                  " are supported");
  }
  return from_rows(rows);
}

std::string group_name(int n, const SumGroup& g) {
  const auto& c = g.cells;
  auto all = [&](auto pred) { return std::all_of(c.begin(), c.end(), pred); };
  if (static_cast<int>(c.size()) == n) {
    if (all([&](int x) { return x / n == c[0] / n; })) return "row " + std::to_string(c[0] / n + 1);
    if (all([&](int x) { return x % n == c[0] % n; })) return "column " + std::to_string(c[0] % n + 1);
    if (all([&](int x) { return x / n == x % n; })) return "main diagonal";
    if (all([&](int x) { return x / n + x % n == n - 1; })) return "anti-diagonal";
  }
  std::string s;
  for (int x : c) s += (s.empty() ? "" : " + ") + std::string("(") + std::to_string(x / n + 1) + "," +
                       std::to_string(x % n + 1) + ")";
  if (static_cast<int>(c.size()) == n) return "broken diagonal " + s;
  return "group " + s;
}

std::vector<SumGroup> check_puzzle(const Puzzle& p, SquareKind kind) {
  const int n = p.order;
  if (n < kCompleteMinOrder || n > kCompleteMaxOrder)
    throw SpecError("order " + std::to_string(n) + " is not supported (orders " +
                                std::to_string(kCompleteMinOrder) + " to " + std::to_string(kCompleteMaxOrder) +
                                ")");
  if (p.cells.size() != static_cast<std::size_t>(n * n))
    throw SpecError("grid of order " + std::to_string(n) + " needs " + std::to_string(n * n) +
                                " cells");
  validate_square(n, kind, kCompleteMinOrder, kCompleteMaxOrder);
  const std::int64_t nn = n * n;
  std::vector<int> at(n * n + 1, -1);  // where each value is given
  for (int c = 0; c < n * n; ++c) {
    const std::int64_t v = p.cells[c];
    if (v < 0) throw SpecError("negative number " + std::to_string(v) + " at " + where(n, c));
    if (v > nn)
      throw SpecError("number " + std::to_string(v) + " at " + where(n, c) + " is above " +
                                  std::to_string(nn) + " (values are 1.." + std::to_string(nn) + ", 0 = blank)");
    if (v == 0) continue;
    if (at[v] >= 0)
      throw SpecError("number " + std::to_string(v) + " is given twice, at " + where(n, at[v]) +
                                  " and at " + where(n, c));
    at[v] = c;
  }
  std::vector<SumGroup> groups = square_groups(n, kind);
  for (const SumGroup& g : groups) {
    std::int64_t sum = 0;
    bool full = true;
    for (int c : g.cells) {
      sum += p.cells[c];
      full = full && p.cells[c] != 0;
    }
    if (sum > g.target)
      throw SpecError(group_name(n, g) + " already sums to " + std::to_string(sum) + ", over its sum " +
                                  std::to_string(g.target));
    if (full && sum != g.target)
      throw SpecError(group_name(n, g) + " is full but sums to " + std::to_string(sum) +
                                  ", not " + std::to_string(g.target));
  }
  return groups;
}

CompleteSpec complete_spec_from_json(const nlohmann::json& spec) {
  // "givens" and "order" are what a result file's problem adds.
  check_spec_fields(spec, "complete", {"name", "grid", "kind", "mode", "givens", "order", "budget"});
  if (!spec.contains("grid")) throw SpecError("complete spec needs a \"grid\": " + spec.dump());
  const auto& grid = spec.at("grid");
  CompleteSpec cs;
  cs.puzzle = grid.is_string() ? parse_puzzle(std::string_view(grid.get_ref<const std::string&>()))
                               : parse_puzzle(grid);
  std::optional<SquareKind> kind;
  std::string mode;
  try {
    kind = parse_square_kind(spec.value("kind", "magic"));
    mode = spec.value("mode", "count");
  } catch (const nlohmann::json::exception& e) {
    throw SpecError("malformed complete spec " + spec.dump() + ": " + e.what());
  }
  if (!kind) throw SpecError("unknown square kind in " + spec.dump());
  cs.kind = *kind;
  if (mode != "count" && mode != "first") throw SpecError("mode must be count or first, got " + mode);
  cs.exhaustive = mode == "count";
  cs.budget = default_complete_budget(cs.puzzle.order);
  if (spec.contains("budget")) {
    const auto& b = spec.at("budget");
    if (!b.is_number_unsigned()) throw SpecError("\"budget\" must be a whole number of nodes (0: none), got " + b.dump());
    cs.budget = b.get<std::uint64_t>();
  }
  return cs;
}

std::uint64_t default_complete_budget(int order) {
  return order >= kCompleteBudgetFromOrder ? kCompleteDefaultBudget : 0;
}

std::string impossible_reason(int order, SquareKind kind) {
  // Classical results: neither pandiagonal nor associative squares exist for
  // orders n = 2 (mod 4).  (Order 3 has no pandiagonal square either, but the
  // search shows that at once, so it is left to the search.)
  if (kind == SquareKind::Pandiagonal && order % 4 == 2)
    return "no pandiagonal magic square of order " + std::to_string(order) + " exists (none for orders 2 mod 4)";
  if (kind == SquareKind::Associative && order % 4 == 2)
    return "no associative magic square of order " + std::to_string(order) + " exists (none for orders 2 mod 4)";
  return "";
}

namespace {

// In a most-perfect square every 2x2 block (wrapping) adds up to 2(n²+1).
// Two blocks side by side share a column pair, so the column pairs
//   p(r, c) = a(r, c) + a(r+1, c)
// alternate: p(r, c+1) = 2(n²+1) - p(r, c), and any two columns an odd
// distance apart add up to 2(n²+1) over rows r, r+1.  The same argument
// down the columns gives every "odd rectangle":
//
//     c     c+k            k, m odd (mod n)
//   r a ... b
//     :     :              a + b + c + d = 2(n²+1)
//   r+m c ... d
//
// They are implied, so they lose nothing; the blocks (k = m = 1) are the
// kind's own groups and are skipped by add_hints.
std::vector<SumGroup> odd_rectangles(int n) {
  std::vector<SumGroup> g;
  const int target = 2 * (n * n + 1);
  auto at = [n](int r, int c) { return (r % n) * n + c % n; };
  for (int r = 0; r < n; ++r)
    for (int m = 1; m < n; m += 2)
      for (int c = 0; c < n; ++c)
        for (int k = 1; k < n; k += 2)  // each rectangle comes up 4 times; add_hints drops repeats
          g.push_back({{at(r, c), at(r, c + k), at(r + m, c), at(r + m, c + k)}, target});
  return g;
}

}  // namespace

std::vector<SumGroup> structure_hints(int order, SquareKind kind) {
  // Most-perfect squares (pandiagonal, 2x2 blocks and pairs n/2 apart on a
  // diagonal adding up alike) exist for every doubly even order; odd orders
  // have the digit hint instead (CompleteProblem::digit_hint_).
  if (order % 4 != 0) return {};
  if (kind == SquareKind::MostPerfect) return odd_rectangles(order);
  if (kind == SquareKind::Pandiagonal) {
    auto g = square_groups(order, SquareKind::MostPerfect);
    for (auto& r : odd_rectangles(order)) g.push_back(std::move(r));
    return g;
  }
  return {};
}

// The `complete` subcommand's fields (magic/family_command.hpp); the
// CLI adds the grid file and the modes (apps/cmd_complete.cpp).
FamilyCommand CompleteFamily::command() {
  FamilyCommand c;
  c.summary = "fill the blanks (0) of a partly filled magic square of order 3..16: first completion, --count or --all";
  c.options = {
      {.field = "kind", .flags = "--kind", .kind = FieldKind::Choice,
       .help = std::string("constraints: ") + kSquareKindNames, .default_value = "magic"},
  };
  c.text = SolutionText::Grid;
  c.svg = false;  // a completion prints as its grid; there is nothing more to draw
  return c;
}

}  // namespace magic
