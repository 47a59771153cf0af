// Figures: distinct numbers from problem.figure.numbers on the figure's
// points so that at least K = problem.equal_lines of its lines share one sum
// (K > half the lines, so that sum is unique; figure.sum fixes it).
//
// Everything is read from the result's "problem" (docs/figures.md): the
// points and lines by name and the figure's "symmetry".  The group is made
// here from the figure (the incidence group by a search of its own, or the
// figure's generators) as a stabilizer chain (chain.hpp), and
// problem.group.order must equal its order.
//
// Canonical form and digest bytes: a solution's "points" are the values by
// point; its canonical form is the lexicographically least of its images
// under the group, hashed as that many 16-bit little-endian integers.
#include <algorithm>
#include <map>
#include <set>

#include "magic/core/error.hpp"
#include "magic/io.hpp"
#include "magic/figure_catalog.hpp"
#include "chain.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

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
      if (it == index.end()) throw SpecError("problem.figure.lines names an unknown point " + utf8_prefix(p.dump(), 40));
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

// The incidence group (every permutation of the points that maps the lines,
// a multiset of point sets, onto themselves), found here by a search of its
// own, not read from the file or asked of the engine's nauty.  Sims's way:
// level by level from the last, an element fixing 0..k-1 that sends k to y
// is searched for only when the group found so far has none.  A search gives
// points their images in order; a choice must keep the number of lines
// through each point and each pair of points, and every line whose points
// all have images must map onto a line.
class IncidenceSearch {
 public:
  IncidenceSearch(std::size_t n, const std::vector<std::vector<int>>& lines)
      : n_(n), pair_(n * n), last_(n), image_(n, -1), used_(n) {
    for (auto l : lines) {
      std::sort(l.begin(), l.end());
      ++count_[l];
      for (std::size_t a = 0; a < l.size(); ++a)
        for (std::size_t b = 0; b < l.size(); ++b) ++pair_[static_cast<std::size_t>(l[a]) * n + l[b]];
      last_[static_cast<std::size_t>(l.back())].push_back(l);
    }
  }
  Chain group() {
    Chain chain(n_);
    for (std::size_t k = n_; k-- > 0;)
      for (std::size_t y = k + 1; y < n_; ++y)
        if (!chain.in_orbit(k, static_cast<int>(y)) && extends(k, y)) chain.add(image_);
    return chain;
  }

 private:
  // An automorphism that fixes 0..k-1 and sends k to y, left in image_.
  bool extends(std::size_t k, std::size_t y) {
    std::fill(used_.begin(), used_.end(), false);
    for (std::size_t p = 0; p < k; ++p) {
      image_[p] = static_cast<int>(p);
      used_[p] = true;
    }
    if (!fits(k, static_cast<int>(y))) return false;
    image_[k] = static_cast<int>(y);
    used_[y] = true;
    return closes(k) && place(k + 1);
  }
  int pairs(int a, int b) const { return pair_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)]; }
  bool fits(std::size_t p, int q) const {
    for (std::size_t a = 0; a <= p; ++a) {
      const int qa = a == p ? q : image_[a];
      if (pairs(static_cast<int>(a), static_cast<int>(p)) != pairs(qa, q)) return false;
    }
    return true;
  }
  // The lines closed by point p map onto lines, as many times as they occur.
  bool closes(std::size_t p) const {
    for (const auto& l : last_[p]) {
      std::vector<int> img;
      for (int x : l) img.push_back(image_[static_cast<std::size_t>(x)]);
      std::sort(img.begin(), img.end());
      const auto it = count_.find(img);
      if (it == count_.end() || it->second != count_.at(l)) return false;
    }
    return true;
  }
  // The first completion of image_ from point p on.
  bool place(std::size_t p) {
    if (p == n_) return true;
    for (std::size_t q = 0; q < n_; ++q) {
      if (used_[q] || !fits(p, static_cast<int>(q))) continue;
      image_[p] = static_cast<int>(q);
      used_[q] = true;
      if (closes(p) && place(p + 1)) return true;
      used_[q] = false;
    }
    image_[p] = -1;
    return false;
  }

  std::size_t n_;
  std::vector<int> pair_;                       // lines through points a and b (a == b: through a)
  std::map<std::vector<int>, int> count_;       // each line, sorted, and how often it occurs
  std::vector<std::vector<std::vector<int>>> last_;  // the lines whose last point is p
  Perm image_;
  std::vector<bool> used_;
};

// The generators a figure lists, by point name.
std::vector<Perm> named_generators(const nlohmann::json& gens, const std::map<std::string, int>& index,
                                   const std::vector<std::vector<int>>& lines) {
  if (!gens.is_array()) throw SpecError("problem.figure.symmetry.generators must be an array");
  std::vector<Perm> out;
  for (const auto& g : gens) {
    if (!g.is_array() || g.size() != index.size())
      throw SpecError("problem.figure.symmetry: a generator lists the image of each point");
    Perm perm;
    for (const auto& p : g) {
      const auto it = p.is_string() ? index.find(p.get<std::string>()) : index.end();
      if (it == index.end()) throw SpecError("problem.figure.symmetry names an unknown point " + utf8_prefix(p.dump(), 40));
      perm.push_back(it->second);
    }
    if (std::set<int>(perm.begin(), perm.end()).size() != perm.size())
      throw SpecError("problem.figure.symmetry: " + utf8_prefix(g.dump(), 60) + " is not a permutation");
    if (!maps_lines(perm, lines))
      throw SpecError("problem.figure.symmetry: " + utf8_prefix(g.dump(), 60) + " does not map lines onto lines");
    out.push_back(std::move(perm));
  }
  return out;
}

// A figure's "symmetry" field; absent, the incidence group.
nlohmann::json symmetry_of(const nlohmann::json& f) {
  return f.contains("symmetry") ? f.at("symmetry") : nlohmann::json("incidence");
}

// The group the figure's own "symmetry" names (docs/figures.md), made here:
// the incidence group (the default), none, or the figure's generators.
// problem.group is only checked against it, never believed, so a result
// relabelled with a smaller group cannot pass with a larger count.
Chain figure_group(const nlohmann::json& problem, const std::map<std::string, int>& index,
                   const std::vector<std::vector<int>>& lines) {
  const nlohmann::json& f = problem.at("figure");
  const std::size_t n = index.size();
  const nlohmann::json sym = symmetry_of(f);
  Chain chain(n);
  if (sym == "incidence") chain = IncidenceSearch(n, lines).group();
  else if (sym.is_object() && sym.size() == 1 && sym.contains("generators"))
    for (const Perm& g : named_generators(sym.at("generators"), index, lines)) chain.add(g);
  else if (sym != "none")
    throw SpecError("problem.figure.symmetry must be \"incidence\", \"none\" or {\"generators\": [...]}");
  if (!problem.contains("group") || !problem.at("group").is_object())
    throw SpecError("problem.group is missing: the result names the group it counted under");
  const std::int64_t order = int_field(problem.at("group"), "order", "problem.group");
  if (order < 0 || static_cast<std::uint64_t>(order) != chain.order())
    throw SpecError("problem.group.order says " + std::to_string(order) + ", but the figure's symmetry (" +
                    (sym.is_string() ? sym.get<std::string>() : std::string("generators")) + ") has " +
                    std::to_string(chain.order()) + " elements");
  return chain;
}

class FigureRules : public Rules {
 public:
  FigureRules(std::string name, std::size_t points, std::vector<std::vector<int>> lines, std::set<int> numbers, int k,
              std::optional<std::int64_t> sum, Chain group)
      : name_(std::move(name)), points_(points), lines_(std::move(lines)), numbers_(std::move(numbers)), k_(k),
        sum_(sum), group_(std::move(group)), order_(group_.order()) {}

  std::string name() const override {
    std::string s = "figure " + name_ + " points=" + std::to_string(points_) + " lines=" +
                    std::to_string(lines_.size()) + " numbers=" + format_numbers(numbers_) +
                    " equal_lines=" + std::to_string(k_) + " group=" + std::to_string(order_);
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
    // Distinct numbers: no labelling is fixed by an element but the identity.
    j.canonical = bytes_u16le(group_.least_image(*pts), points_);
    j.orbit = order_;
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
  Chain group_;
  std::uint64_t order_;  // the group's, once: every labelling's orbit has this size
};

// The names of a figure's points, in order.
std::vector<std::string> point_names(const nlohmann::json& f) {
  std::vector<std::string> out;
  if (f.contains("points") && f.at("points").is_array())
    for (const auto& p : f.at("points")) out.push_back(point_name(p));
  return out;
}

// A result of a built-in figure must echo that figure: its points, lines and
// symmetry come from the catalog (the problem's definition, not a solver),
// so a file cannot name "hexagram" and count a figure of its own.  Numbers,
// sum and equal_lines may differ: the command line sets them.
void check_builtin(const nlohmann::json& problem) {
  if (!problem.contains("builtin")) return;
  const nlohmann::json& b = problem.at("builtin");
  if (!b.is_string()) throw SpecError("problem.builtin must be a name");
  const nlohmann::json ref = builtin_figure(b.get<std::string>());
  const nlohmann::json& f = problem.at("figure");
  const char* differs = point_names(f) != point_names(ref)           ? "points"
                        : !f.contains("lines") || f.at("lines") != ref.at("lines") ? "lines"
                        : symmetry_of(f) != symmetry_of(ref)         ? "symmetry"
                                                                     : nullptr;
  if (differs)
    throw SpecError("problem.figure is not the built-in figure " + b.get<std::string>() + ": its " + differs +
                    " differ");
}

}  // namespace

std::unique_ptr<Rules> make_figure_rules(const nlohmann::json& problem) {
  if (!problem.contains("figure") || !problem.at("figure").is_object())
    throw SpecError("problem.figure is missing: a figure result echoes its figure");
  const nlohmann::json& f = problem.at("figure");
  if (!f.contains("points") || !f.at("points").is_array() || f.at("points").empty() ||
      f.at("points").size() > kMaxPoints)
    throw SpecError("problem.figure.points must list 1.." + std::to_string(kMaxPoints) + " points");
  check_builtin(problem);
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
  Chain group = figure_group(problem, index, lines);
  const std::string name = f.contains("name") && f.at("name").is_string() ? f.at("name").get<std::string>() : "?";
  return std::make_unique<FigureRules>(name, n, std::move(lines), std::move(numbers), static_cast<int>(k),
                                       optional_int(f, "sum", "problem.figure"), std::move(group));
}

}  // namespace magic::checker
