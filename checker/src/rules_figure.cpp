// Figures: distinct numbers from problem.figure.numbers on the figure's
// points so that at least K = problem.equal_lines of its lines share one sum
// (K > half the lines, so that sum is unique; figure.sum fixes it).
//
// Everything is read from the result's "problem" (docs/figures.md): the
// points and lines by name, and the group the engine counted under as
// generators, problem.group.generators (perm[q] = the image of point q).
// The checker does not find the group itself; it checks that each
// generator is a permutation that maps lines onto lines, closes them into
// the whole group, and checks its size against problem.group.order.
//
// Canonical form and digest bytes: a solution's "points" are the values by
// point; its canonical form is the lexicographically least of its images
// under the group, hashed as that many 16-bit little-endian integers.
#include <algorithm>
#include <map>
#include <set>

#include "magic/core/error.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

constexpr std::size_t kMaxGroup = 1 << 18;  // the checker lists every element
constexpr std::size_t kMaxPoints = 64;

std::string point_name(const nlohmann::json& p) {
  if (p.is_string()) return p.get<std::string>();
  if (p.is_object() && p.contains("name") && p.at("name").is_string()) return p.at("name").get<std::string>();
  throw SpecError("problem.figure.points: a point is a name or an object with a \"name\"");
}

// Lines as point indices, sorted within and across lines (a set of sets).
std::vector<std::vector<int>> read_lines(const nlohmann::json& f, const std::map<std::string, int>& index) {
  if (!f.contains("lines") || !f.at("lines").is_array() || f.at("lines").empty())
    throw SpecError("problem.figure.lines is missing or empty");
  std::vector<std::vector<int>> out;
  for (const auto& line : f.at("lines")) {
    if (!line.is_array() || line.size() < 2) throw SpecError("problem.figure.lines: a line lists two or more points");
    std::vector<int> l;
    for (const auto& p : line) {
      const auto it = p.is_string() ? index.find(p.get<std::string>()) : index.end();
      if (it == index.end()) throw SpecError("problem.figure.lines names an unknown point " + p.dump().substr(0, 40));
      l.push_back(it->second);
    }
    out.push_back(std::move(l));
  }
  return out;
}

std::set<int> read_figure_numbers(const nlohmann::json& f, std::size_t points) {
  if (!f.contains("numbers")) {
    std::set<int> all;
    for (std::size_t v = 1; v <= points; ++v) all.insert(static_cast<int>(v));
    return all;
  }
  const auto& j = f.at("numbers");
  if (j.is_string()) return parse_numbers_text(j.get<std::string>());
  std::string why;
  const auto list = int_list(j, j.is_array() ? j.size() : 0, 1, kMaxValue, why);
  if (!list) throw SpecError("problem.figure.numbers: " + why);
  return {list->begin(), list->end()};
}

bool maps_lines(const Perm& g, const std::vector<std::vector<int>>& lines) {
  std::set<std::vector<int>> all;
  for (auto l : lines) {
    std::sort(l.begin(), l.end());
    all.insert(l);
  }
  for (const auto& l : lines) {
    std::vector<int> img;
    for (int p : l) img.push_back(g[static_cast<std::size_t>(p)]);
    std::sort(img.begin(), img.end());
    if (!all.count(img)) return false;
  }
  return true;
}

// Every element of the group the generators make (breadth first).
std::vector<Perm> close_group(const std::vector<Perm>& gens, std::size_t n) {
  Perm id(n);
  for (std::size_t i = 0; i < n; ++i) id[i] = static_cast<int>(i);
  std::set<Perm> seen{id};
  std::vector<Perm> out{id};
  for (std::size_t k = 0; k < out.size(); ++k)
    for (const Perm& g : gens) {
      Perm h(n);
      for (std::size_t q = 0; q < n; ++q) h[q] = g[static_cast<std::size_t>(out[k][q])];
      if (seen.insert(h).second) {
        if (out.size() >= kMaxGroup)
          throw SpecError("problem.group: more than " + std::to_string(kMaxGroup) + " elements, too many for the checker");
        out.push_back(std::move(h));
      }
    }
  return out;
}

std::vector<Perm> read_group(const nlohmann::json& problem, std::size_t n, const std::vector<std::vector<int>>& lines) {
  if (!problem.contains("group") || !problem.at("group").is_object())
    throw SpecError("problem.group is missing: the checker needs the group the engine counted under");
  const auto& g = problem.at("group");
  if (!g.contains("generators") || !g.at("generators").is_array())
    throw SpecError("problem.group.generators is missing");
  std::vector<Perm> gens;
  for (const auto& j : g.at("generators")) {
    std::string why;
    const auto perm = int_list(j, n, 0, static_cast<std::int64_t>(n) - 1, why);
    if (!perm) throw SpecError("problem.group.generators: " + why);
    if (std::set<int>(perm->begin(), perm->end()).size() != n)
      throw SpecError("problem.group.generators: " + j.dump().substr(0, 60) + " is not a permutation");
    if (!maps_lines(*perm, lines))
      throw SpecError("problem.group.generators: " + j.dump().substr(0, 60) + " does not map lines onto lines");
    gens.push_back(*perm);
  }
  std::vector<Perm> all = close_group(gens, n);
  const std::int64_t order = int_field(g, "order", "problem.group");
  if (order != static_cast<std::int64_t>(all.size()))
    throw SpecError("problem.group.order says " + std::to_string(order) + " but the generators make " +
                    std::to_string(all.size()) + " elements");
  return all;
}

class FigureRules : public Rules {
 public:
  FigureRules(std::string name, std::size_t points, std::vector<std::vector<int>> lines, std::set<int> numbers, int k,
              std::optional<std::int64_t> sum, std::vector<Perm> group)
      : name_(std::move(name)), points_(points), lines_(std::move(lines)), numbers_(std::move(numbers)), k_(k),
        sum_(sum), group_(std::move(group)) {}

  std::string name() const override {
    std::string s = "figure " + name_ + " points=" + std::to_string(points_) + " lines=" +
                    std::to_string(lines_.size()) + " numbers=" + format_numbers(numbers_) +
                    " equal_lines=" + std::to_string(k_) + " group=" + std::to_string(group_.size());
    if (sum_) s += " sum=" + std::to_string(*sum_);
    return s;
  }
  std::string by_key() const override { return "by_sum"; }

  Judged judge(const nlohmann::json& sol) const override {
    Judged j;
    if (!sol.is_object() || !sol.contains("points")) {
      j.error = "expected an object with \"points\"";
      return j;
    }
    const auto pts = int_list(sol.at("points"), points_, 1, kMaxValue, j.error);
    if (!pts || !check_numbers(*pts, numbers_, j.error)) return j;
    const std::vector<int> sums = line_sums(*pts, lines_);
    const std::optional<int> common = common_sum(sums, k_, sum_, j.error);
    if (!common || !check_sum_fields(sol, *common, sums, j.error)) return j;
    const Orbit o = orbit_of(*pts, group_);
    j.canonical = bytes_u16le(o.least, points_);
    j.orbit = o.size;
    j.key = *common;
    return j;
  }

 private:
  std::string name_;
  std::size_t points_;
  std::vector<std::vector<int>> lines_;
  std::set<int> numbers_;
  int k_;
  std::optional<std::int64_t> sum_;
  std::vector<Perm> group_;
};

}  // namespace

std::unique_ptr<Rules> make_figure_rules(const nlohmann::json& problem) {
  if (!problem.contains("figure") || !problem.at("figure").is_object())
    throw SpecError("problem.figure is missing: a figure result echoes its figure");
  const nlohmann::json& f = problem.at("figure");
  if (!f.contains("points") || !f.at("points").is_array() || f.at("points").empty() ||
      f.at("points").size() > kMaxPoints)
    throw SpecError("problem.figure.points must list 1.." + std::to_string(kMaxPoints) + " points");
  std::map<std::string, int> index;
  for (const auto& p : f.at("points"))
    if (!index.emplace(point_name(p), static_cast<int>(index.size())).second)
      throw SpecError("problem.figure.points names a point twice");
  const std::size_t n = index.size();
  std::vector<std::vector<int>> lines = read_lines(f, index);
  std::set<int> numbers = read_figure_numbers(f, n);
  if (numbers.size() < n) throw SpecError("problem.figure.numbers: fewer numbers than points");
  const std::int64_t L = static_cast<std::int64_t>(lines.size());
  const std::int64_t k = optional_int(problem, "equal_lines", "problem").value_or(L);
  if (k > L || 2 * k <= L)
    throw SpecError("problem.equal_lines must be " + std::to_string(L / 2 + 1) + ".." + std::to_string(L) + ", got " +
                    std::to_string(k));
  std::vector<Perm> group = read_group(problem, n, lines);
  const std::string name = f.contains("name") && f.at("name").is_string() ? f.at("name").get<std::string>() : "?";
  return std::make_unique<FigureRules>(name, n, std::move(lines), std::move(numbers), static_cast<int>(k),
                                       optional_int(f, "sum", "problem.figure"), std::move(group));
}

}  // namespace magic::checker
