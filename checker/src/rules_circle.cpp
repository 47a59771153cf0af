// Magic circles: n positive numbers on a circle whose n(n-1) arcs of 1..n-1
// consecutive numbers sum to 1..n(n-1), each exactly once (docs/cli.md).
//
// Symmetry: the n rotations and n reflections of the circle.  Canonical
// form and digest bytes: the engine's solution is the circle as 40
// unsigned 16-bit integers (its largest n), the n numbers followed by
// zeros; the canonical form puts 1 first and reads in the direction in
// which the second number is smaller than the last.  A valid circle holds 1
// (the arc sum 1 is a single number) and distinct numbers, so that form is
// the lexicographically least of the 2n images, which is what the checker
// computes; it is hashed as the 80 bytes in memory order (little-endian).
#include <vector>

#include "magic/core/error.hpp"
#include "rules.hpp"

namespace magic::checker {
namespace {

constexpr int kMinN = 3;
constexpr int kMaxN = 40;  // also the engine's padded solution length

std::vector<Perm> circle_group(int n) {
  std::vector<Perm> perms;
  for (int mirror = 0; mirror < 2; ++mirror)
    for (int k = 0; k < n; ++k) {
      Perm p(n);
      for (int i = 0; i < n; ++i) p[i] = mirror ? ((k - i) % n + n) % n : (i + k) % n;
      perms.push_back(p);
    }
  return perms;
}

class CircleRules : public Rules {
 public:
  explicit CircleRules(int n) : n_(n), top_(n * (n - 1)), perms_(circle_group(n)) {}

  std::string name() const override { return "circle n=" + std::to_string(n_); }

  Judged judge(const nlohmann::json& sol) const override {
    Judged j;
    const auto v = int_list(sol, static_cast<std::size_t>(n_), 1, top_, j.error);
    if (!v || !check_arcs(*v, j.error)) return j;
    const Orbit o = orbit_of(*v, perms_);
    j.canonical = bytes_u16le(o.least, kMaxN);
    j.orbit = o.size;
    return j;
  }

 private:
  // Every arc of length 1..n-1 from every start; each sum 1..n(n-1) once.
  bool check_arcs(const std::vector<int>& v, std::string& why) const {
    std::vector<int> seen(static_cast<std::size_t>(top_) + 1, 0);
    for (int start = 0; start < n_; ++start) {
      long long sum = 0;
      for (int len = 1; len < n_; ++len) {
        sum += v[static_cast<std::size_t>((start + len - 1) % n_)];
        if (sum > top_) {
          why = "the arc of " + std::to_string(len) + " numbers from position " + std::to_string(start + 1) +
                " sums to " + std::to_string(sum) + ", above " + std::to_string(top_);
          return false;
        }
        if (seen[static_cast<std::size_t>(sum)]++) {
          why = "the arc sum " + std::to_string(sum) + " occurs twice";
          return false;
        }
      }
    }
    return true;  // n(n-1) arcs, distinct, all in 1..n(n-1): every sum once
  }

  int n_;
  int top_;
  std::vector<Perm> perms_;
};

}  // namespace

std::unique_ptr<Rules> make_circle_rules(const nlohmann::json& problem) {
  const std::int64_t n = int_field(problem, "n", "problem");
  if (n < kMinN || n > kMaxN)
    throw SpecError("problem: circle n must be " + std::to_string(kMinN) + ".." + std::to_string(kMaxN) + ", got " +
                    std::to_string(n));
  return std::make_unique<CircleRules>(static_cast<int>(n));
}

}  // namespace magic::checker
