// Stars {n/2}: 2n distinct numbers from problem.numbers on the n vertices
// and n crossings so that at least K = equal_lines of the n lines of four
// points share one sum (K > n/2, so that sum is unique; problem.sum fixes it).
//
// Labelling (docs/cli.md and the star header's comment; re-derived here):
// vertices V0..V(n-1) counterclockwise, crossing I(j) between V(j) and
// V(j+1); line i runs V(i), I(i), I(i+1), V(i+2).  Labels are V(i) = i and
// I(j) = n + j, except n = 5, which uses the documents' numbering
// V0..V4 = 0 1 8 9 4, I0..I4 = 2 5 7 6 3.  A solution's "points" are the
// values by label; its "line_sums" follow the lines as sorted label lists,
// sorted (the order of the file's top-level "lines", checked too).
//
// Symmetry: the dihedral group of order 2n, rotation V(i) -> V(i+1),
// I(j) -> I(j+1) and the mirror through V0, V(i) -> V(-i), I(j) -> I(-j-1).
// Canonical form and digest bytes: the engine's solution is the values by
// label as 2n unsigned 16-bit integers; its canonical form is the
// lexicographically least of the 2n images, hashed as those 2n integers in
// memory order (little-endian on the x86/ARM hosts it runs on).  The
// checker takes the least over all 2n images it builds itself, which is the
// same form whatever shortcut the engine uses to find it.
#include <algorithm>
#include <cctype>
#include <set>

#include "magic/core/error.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

constexpr int kPentagram[10] = {0, 1, 8, 9, 4, 2, 5, 7, 6, 3};

int label(int n, int point) { return n == 5 ? kPentagram[point] : point; }

// The lines as sorted label lists, sorted.
std::vector<std::vector<int>> star_lines(int n) {
  std::vector<std::vector<int>> out;
  for (int i = 0; i < n; ++i) {
    std::vector<int> l = {label(n, i), label(n, n + i), label(n, n + (i + 1) % n), label(n, (i + 2) % n)};
    std::sort(l.begin(), l.end());
    out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The 2n symmetries as permutations of labels.
std::vector<Perm> star_group(int n) {
  auto mod = [n](int x) { return (x % n + n) % n; };
  std::vector<Perm> perms;
  for (int mirror = 0; mirror < 2; ++mirror)
    for (int k = 0; k < n; ++k) {
      Perm p(2 * n);
      for (int i = 0; i < n; ++i) {
        const int v_to = mirror ? mod(k - i) : mod(i + k);
        const int i_to = mirror ? mod(k - i - 1) : mod(i + k);
        // Point g(q) takes the value of q: image[label(g(q))] = s[label(q)].
        p[label(n, v_to)] = label(n, i);
        p[label(n, n + i_to)] = label(n, n + i);
      }
      perms.push_back(p);
    }
  return perms;
}

std::set<int> read_numbers(const nlohmann::json& problem, int n) {
  if (!problem.contains("numbers")) {
    std::set<int> all;
    for (int v = 1; v <= 2 * n; ++v) all.insert(v);
    return all;
  }
  const nlohmann::json& j = problem.at("numbers");
  if (j.is_string()) return parse_numbers_text(j.get<std::string>());
  std::string why;
  const auto list = int_list(j, j.is_array() ? j.size() : 0, 1, kMaxValue, why);
  if (!list) throw SpecError("problem.numbers: " + why);
  const std::set<int> out(list->begin(), list->end());
  if (out.size() != list->size()) throw SpecError("problem.numbers: a number is given twice");
  return out;
}

class StarRules : public Rules {
 public:
  StarRules(int n, std::set<int> numbers, int k, std::optional<std::int64_t> sum)
      : n_(n), numbers_(std::move(numbers)), k_(k), sum_(sum), lines_(star_lines(n)), perms_(star_group(n)) {}

  std::string name() const override {
    std::string s = "star n=" + std::to_string(n_) + " numbers=" + format_numbers(numbers_) +
                    " equal_lines=" + std::to_string(k_);
    if (sum_) s += " sum=" + std::to_string(*sum_);
    return s;
  }
  std::string by_key() const override { return "by_sum"; }

  std::string check_extra(const nlohmann::json& result) const override {
    if (!result.contains("lines")) return "";
    if (result.at("lines") != nlohmann::json(lines_))
      return "\"lines\" differ from the {" + std::to_string(n_) + "/2} star's labelling " +
             nlohmann::json(lines_).dump();
    return "";
  }

  Judged judge(const nlohmann::json& sol) const override {
    Judged j;
    if (!sol.is_object() || !sol.contains("points")) {
      j.error = "expected an object with \"points\"";
      return j;
    }
    const auto pts = int_list(sol.at("points"), static_cast<std::size_t>(2 * n_), 1, kMaxValue, j.error);
    if (!pts || !check_numbers(*pts, numbers_, j.error)) return j;
    const std::vector<int> sums = line_sums(*pts, lines_);
    const std::optional<int> common = common_sum(sums, k_, sum_, j.error);
    if (!common || !check_sum_fields(sol, *common, sums, j.error)) return j;
    const Orbit o = orbit_of(*pts, perms_);
    j.canonical = bytes_u16le(o.least, static_cast<std::size_t>(2 * n_));
    j.orbit = o.size;
    j.key = *common;
    return j;
  }

 private:
  int n_;
  std::set<int> numbers_;
  int k_;
  std::optional<std::int64_t> sum_;
  std::vector<std::vector<int>> lines_;
  std::vector<Perm> perms_;
};

}  // namespace

std::unique_ptr<Rules> make_star_rules(const nlohmann::json& problem) {
  const std::int64_t n = int_field(problem, "n", "problem");
  if (n < 5 || n > 24) throw SpecError("problem: star n must be 5..24, got " + std::to_string(n));
  const int nn = static_cast<int>(n);
  std::set<int> numbers = read_numbers(problem, nn);
  if (static_cast<int>(numbers.size()) < 2 * nn)
    throw SpecError("problem.numbers: the star has " + std::to_string(2 * n) + " points but " +
                    std::to_string(numbers.size()) + " numbers are given");
  const std::int64_t k = optional_int(problem, "equal_lines", "problem").value_or(n);
  if (k > n || 2 * k <= n)
    throw SpecError("problem.equal_lines must be " + std::to_string(n / 2 + 1) + ".." + std::to_string(n) + ", got " +
                    std::to_string(k));
  return std::make_unique<StarRules>(nn, std::move(numbers), static_cast<int>(k),
                                     optional_int(problem, "sum", "problem"));
}

}  // namespace magic::checker
