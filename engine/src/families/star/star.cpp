#include "star/star.hpp"

#include "magic/spec_int.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

namespace magic {

StarGeometry star_geometry(int n) {
  if (n < kStarMinN || n > kStarMaxN)
    throw SpecError("star: n must be " + std::to_string(kStarMinN) + ".." + std::to_string(kStarMaxN));
  StarGeometry g;
  g.n = n;
  g.xy.resize(2 * n);
  g.is_vertex.assign(2 * n, false);
  auto vertex = [n](int i) {
    const double a = std::numbers::pi / 2 + 2 * std::numbers::pi * ((i % n + n) % n) / n;
    return std::pair{std::cos(a), std::sin(a)};
  };
  for (int i = 0; i < n; ++i) {
    g.xy[star_label(n, i)] = vertex(i);
    g.is_vertex[star_label(n, i)] = true;
    // I(i) = line i-1 (V(i-1) V(i+1)) crossed with line i (V(i) V(i+2)).
    const auto [x1, y1] = vertex(i - 1);
    const auto [x2, y2] = vertex(i + 1);
    const auto [x3, y3] = vertex(i);
    const auto [x4, y4] = vertex(i + 2);
    const double den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4);
    const double t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den;
    g.xy[star_label(n, n + i)] = {x1 + t * (x2 - x1), y1 + t * (y2 - y1)};
  }
  for (int i = 0; i < n; ++i) {
    std::array<int, 4> l{};
    const auto pts = star_line_points(n, i);
    for (int k = 0; k < 4; ++k) l[k] = star_label(n, pts[k]);
    std::sort(l.begin(), l.end());
    g.lines.push_back(l);
  }
  std::sort(g.lines.begin(), g.lines.end());
  return g;
}

std::vector<int> parse_star_numbers(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return SpecError("numbers '" + std::string(text) + "': " + why);
  };
  auto number = [&](std::string_view t) {
    if (t.empty()) throw bad("expected numbers like 1..12 or 1,2,4,5");
    long v = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (c == '-') throw bad(i == 0 ? "numbers must be positive" : "a range is written A..B (like 1..12), not A-B");
      if (!std::isdigit(static_cast<unsigned char>(c))) throw bad("expected numbers like 1..12 or 1,2,4,5");
      v = std::min<long>(v * 10 + (c - '0'), kStarMaxValue + 1L);  // saturate: any longer number is too large
    }
    if (v < 1) throw bad("numbers must be positive");
    if (v > kStarMaxValue) throw bad("numbers must be at most " + std::to_string(kStarMaxValue));
    return static_cast<int>(v);
  };
  std::vector<int> out;
  std::set<int> seen;
  auto add = [&](int v) {
    if (!seen.insert(v).second) throw bad(std::to_string(v) + " is given twice");
    out.push_back(v);
  };
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      add(number(item));
    } else {
      const int a = number(item.substr(0, dots)), b = number(item.substr(dots + 2));
      if (a > b) throw bad("range " + std::to_string(a) + ".." + std::to_string(b) + " is empty");
      if (b - a >= kStarMaxSpan) throw bad("the numbers must lie within 64 consecutive integers");
      for (int v = a; v <= b; ++v) add(v);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

const char* to_string(StarSolver s) {
  switch (s) {
    case StarSolver::Chain: return "chain";
    case StarSolver::PartialSums: return "partial-sums";
    case StarSolver::KeptLines: return "kept-lines";
    case StarSolver::Auto: break;
  }
  return "auto";
}

std::string format_star_numbers(const std::vector<int>& v) {
  if (v.empty()) return "";
  if (v.back() - v.front() + 1 == static_cast<int>(v.size()) && v.size() > 2)
    return std::to_string(v.front()) + ".." + std::to_string(v.back());
  std::string s;
  for (int x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);  // (not "," + to_string: GCC 12 warns falsely, PR 105651)
  }
  return s;
}

StarSpec normalize_star(StarSpec spec) {
  const int n = spec.n;
  if (n < kStarMinN || n > kStarMaxN)
    throw SpecError("star: n must be " + std::to_string(kStarMinN) + ".." +
                                std::to_string(kStarMaxN) + ", got " + std::to_string(n));
  if (spec.numbers.empty())
    for (int v = 1; v <= 2 * n; ++v) spec.numbers.push_back(v);
  auto& v = spec.numbers;
  std::sort(v.begin(), v.end());
  const std::string given = format_star_numbers(v);
  if (std::adjacent_find(v.begin(), v.end()) != v.end())
    throw SpecError("numbers " + given + ": a number is given twice");
  if (v.front() < 1) throw SpecError("numbers must be positive");
  if (v.back() > kStarMaxValue)
    throw SpecError("numbers must be at most " + std::to_string(kStarMaxValue));
  if (static_cast<int>(v.size()) < 2 * n)
    throw SpecError("numbers " + given + ": the star has " + std::to_string(2 * n) +
                                " points but only " + std::to_string(v.size()) + " numbers are given");
  if (v.back() - v.front() >= kStarMaxSpan)
    throw SpecError("numbers " + given + ": the numbers must lie within 64 consecutive integers");
  if (spec.equal_lines == 0) spec.equal_lines = n;
  if (spec.equal_lines > n || 2 * spec.equal_lines <= n)
    throw SpecError("the number of equal lines must be " + std::to_string(n / 2 + 1) + ".." + std::to_string(n) +
                                " for n = " + std::to_string(n) + " (more than half the lines, so the common sum is unique), got " +
                                std::to_string(spec.equal_lines));
  if (spec.sum && *spec.sum < 1) throw SpecError("the common sum must be positive");
  if (spec.solver == StarSolver::Chain && spec.equal_lines != n)
    throw SpecError("star: the chain solver needs all lines equal");
  return spec;
}

StarSpec star_spec_from_json(const nlohmann::json& j) {
  StarSpec s;
  check_spec_fields(j, "star", {"name", "n", "numbers", "equal_lines", "sum", "symmetry_breaking", "solver"});
  try {
    s.n = spec_int(j.at("n"), "star n");
    if (j.contains("numbers")) {
      const auto& nums = j.at("numbers");
      if (nums.is_string()) s.numbers = parse_star_numbers(nums.get<std::string>());
      else s.numbers = spec_ints(nums, "star numbers");
    }
    s.equal_lines = j.contains("equal_lines") ? spec_int(j.at("equal_lines"), "star equal_lines") : 0;
    if (j.contains("sum") && !j.at("sum").is_null()) s.sum = spec_int(j.at("sum"), "star sum");
    s.symmetry_breaking = j.value("symmetry_breaking", true);
    const std::string solver = j.value("solver", std::string("auto"));
    const std::optional<StarSolver> parsed = parse_star_solver(solver);
    if (!parsed) throw SpecError("star: unknown solver '" + solver + "' (use " + kStarSolverNames + ")");
    s.solver = *parsed;
  } catch (const nlohmann::json::exception& e) {
    throw SpecError("malformed star spec " + j.dump() + ": " + e.what());
  }
  return normalize_star(s);
}

std::optional<StarSolver> parse_star_solver(const std::string& name) {
  for (StarSolver v : {StarSolver::Auto, StarSolver::Chain, StarSolver::PartialSums, StarSolver::KeptLines})
    if (name == to_string(v)) return v;
  return std::nullopt;
}

// What a level of --split-depth is, for each solver.
std::string StarFamily::levels_help() {
  return std::string(kStarChainLevels) + " (kept-lines: " + kStarKeptLevels + "; partial-sums: " + kStarPointLevels +
         ")";
}

// The `star` subcommand (magic/family_command.hpp).
FamilyCommand StarFamily::command() {
  FamilyCommand c;
  c.summary = "count magic stars {n/2}: numbers on the 2n points, at least K of the n lines with one sum";
  c.options = {
      {.field = "n", .flags = "--n,-n", .kind = FieldKind::Int,
       .help = "points of the star, 5..24 (5 = pentagram, 6 = hexagram)", .default_value = "5"},
      {.field = "numbers", .flags = "--numbers", .kind = FieldKind::Text,
       .help = "numbers to choose from: a range or list such as 1..12 or 1,2,4,5..9 (default 1..2n); "
               "2n of them are placed"},
      {.field = "equal_lines", .flags = "--equal-lines,-k", .kind = FieldKind::Int,
       .help = "at least K lines share the common sum; K > n/2 (default n: a magic star)",
       .positive_needs = "more than n/2"},
      {.field = "sum", .flags = "--sum", .kind = FieldKind::Int, .help = "fix the common sum"},
      {.field = "solver", .flags = "--solver", .kind = FieldKind::Choice,
       .help = "search: auto (chain for K = n, kept-lines for K < n), chain (all lines equal only), kept-lines "
               "or partial-sums; all give the same result",
       .default_value = "auto"},
      {.field = "symmetry_breaking", .flags = "--all-orientations", .kind = FieldKind::Off,
       .help = "enumerate all 2n orientations and keep the canonical ones, instead of symmetry breaking"},
  };
  c.text = SolutionText::PointsAndSums;
  return c;
}

}  // namespace magic
