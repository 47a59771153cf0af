#pragma once
// Magic stars {n/2}, n = 5..24: numbers on the 2n points of a star so that
// at least K of its n lines share one sum (K = n: a magic star).  The
// geometry, the symmetry and what the solvers share: star_tables.hpp.
//
// Three solvers, one file each, named as --solver names them:
//   chain          star_chain.hpp         K = n (the default there)
//   kept-lines     star_kept_lines.hpp    K < n (the default there), any K
//   partial-sums   star_partial_sums.hpp  any K: the others' cross-check
// This class is the problem the engine sees: the spec, the answers
// (canonical form, key, JSON) and which solver walks.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "magic/family_command.hpp"
#include "magic/instances.hpp"
#include "star/star_chain.hpp"
#include "star/star_kept_lines.hpp"
#include "star/star_partial_sums.hpp"
#include "star/star_tables.hpp"

namespace magic {

template <int N>
class StarProblem {
 public:
  static constexpr int kPoints = StarPoints<N>::kPoints;
  static_assert(N >= kStarMinN && N <= kStarMaxN);

  using Solution = typename StarTables<N>::Solution;  // values by label
  using State = StarState<N>;

  // Builds the tables and the solver's plans; defined below the class and
  // not inline, as the walks are, so that only the library compiles it for
  // each size.  max_plan_bytes: see StarKeptLines::kMaxPlanBytes.
  explicit StarProblem(const StarSpec& spec, std::size_t max_plan_bytes = StarKeptLines<N>::kMaxPlanBytes);
  // A copy's solvers read the copy's tables.
  StarProblem(const StarProblem& o);
  StarProblem& operator=(const StarProblem&) = delete;

  nlohmann::json describe() const {
    nlohmann::json j{{"name", "star"}, {"n", N}, {"numbers", format_star_numbers(t_.spec.numbers)},
                     {"equal_lines", t_.k}};
    if (t_.spec.sum) j["sum"] = *t_.spec.sum;
    if (!t_.spec.symmetry_breaking) j["symmetry_breaking"] = false;
    if (t_.spec.solver != StarSolver::Auto) j["solver"] = to_string(t_.spec.solver);
    return j;
  }
  // 2: the complement's symmetry became part of the task tree (7,905 tasks
  // at n = 16, depth 4, became 4,185), after the {16/2} record was journalled.
  static constexpr const char* kSearch = "star/2";  // core/problem.hpp: bump on a new task tree
  const char* describe_levels() const {
    return t_.solver == StarSolver::Chain       ? kStarChainLevels
           : t_.solver == StarSolver::KeptLines ? kStarKeptLevels
                                                : kStarPointLevels;
  }
  Emits emits() const { return t_.spec.symmetry_breaking ? Emits::OnePerOrbit : Emits::AllImages; }
  bool uses_bmi2_copy() const { return chain_.uses_bmi2(); }
  // The run block names the chain's copy: the same stars either way, but
  // not the same speed, so a timed record says which one it timed.
  const char* kernel() const {
    return t_.solver != StarSolver::Chain ? "" : chain_.uses_bmi2() ? "bmi2" : "portable";
  }
  bool has_group() const { return true; }

  // The two walks, defined below the class and not inline, so that the
  // library compiles each size's walks once (declared extern at the end of
  // this header) and no other file again.
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

  // The lexicographically smallest of the 2n images (labels in order).  The
  // smallest image puts the smallest vertex value on V0 (label 0), so only
  // the rotation and the mirror through that vertex compete.
  Solution canonical(const Solution& s) const {
    const int i0 = t_.smallest_vertex(s);
    return std::min(t_.image(s, i0, false), t_.image(s, i0, true));
  }
  // Distinct values: a symmetry other than the identity moves some point
  // and so changes the arrangement.
  std::uint64_t orbit_size(const Solution&) const { return kPoints; }

  // The common sum: the one that at least K > n/2 lines share.
  std::int64_t key(const Solution& s) const {
    std::array<int, N> sums = line_sums(s);
    for (int i = 0; i < N; ++i)
      if (std::count(sums.begin(), sums.end(), sums[i]) >= t_.k) return sums[i];
    return 0;
  }
  std::array<int, N> line_sums(const Solution& s) const {
    std::array<int, N> out{};
    for (int i = 0; i < N; ++i)
      for (int p : t_.lines[i]) out[i] += s[p];
    return out;
  }
  nlohmann::json to_json(const Solution& s) const {
    const auto sums = line_sums(s);
    return {{"points", std::vector<int>(s.begin(), s.end())},
            {"sum", key(s)},
            {"line_sums", std::vector<int>(sums.begin(), sums.end())}};
  }
  // The lines, by label, beside the counts in a result file.
  nlohmann::json result_extra() const { return {{"lines", t_.lines}}; }

 private:
  StarTables<N> t_;
  StarChain<N> chain_;                                  // every solver's: kept-lines runs it too
  std::optional<StarKeptLines<N>> kept_;               // when the solver is kept-lines
  std::optional<StarPartialSums<N>> partial_sums_;     // when the solver is partial-sums
};

template <int N>
StarProblem<N>::StarProblem(const StarSpec& spec, std::size_t max_plan_bytes) : t_(spec), chain_(t_) {
  if (t_.solver == StarSolver::KeptLines) kept_.emplace(t_, chain_, max_plan_bytes);
  if (t_.solver == StarSolver::PartialSums) partial_sums_.emplace(t_);
}

template <int N>
StarProblem<N>::StarProblem(const StarProblem& o) : t_(o.t_), chain_(o.chain_, t_) {
  if (o.kept_) kept_.emplace(*o.kept_, t_, chain_);
  if (o.partial_sums_) partial_sums_.emplace(*o.partial_sums_, t_);
}

template <int N>
void StarProblem<N>::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  State s = t_.root();
  if (kept_) kept_->top(s, ex);
  else if (partial_sums_) partial_sums_->walk(s, ex);
  else chain_.top(s, ex);
}

template <int N>
template <class Ctx>
void StarProblem<N>::solve(const State& s, Ctx& ctx) const {
  SolveMode<Ctx> sv{ctx};
  State w = s;
  if (partial_sums_) return partial_sums_->walk(w, sv);
  if (kept_) {
    if (w.step == 0) return kept_->top(w, sv);
    if (w.kept.dropped) return kept_->resume(w, sv);
  }
  // All lines equal: a chain task, also below the kept-lines solver's top.
  if (w.step <= 4) chain_.top(w, sv);
  else chain_.from(w.step - 5, w, sv);
}

static_assert(Problem<StarProblem<5>>);

// The registry's entry (magic/registry.hpp).
struct StarFamily {
  static constexpr const char* kName = "star";
  static constexpr const char* kByKey = "by_sum";
  static constexpr Picture kPicture = Picture::Star;
  static std::string levels_help();
  static const char* field_values(const std::string& field) { return field == "solver" ? kStarSolverNames : nullptr; }
  static bool is_field_value(const std::string& field, const std::string& v) {
    return field == "solver" && parse_star_solver(v).has_value();
  }
  static FamilyCommand command();  // star.cpp
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    return visit_n<kStarMinN>(star_spec_from_json(spec), f);
  }

 private:
  template <int N, class F>
  static decltype(auto) visit_n(const StarSpec& s, F& f) {
    if constexpr (N == kStarBuiltMaxN) {
      if (N < kStarMaxN && s.n != N)
        throw SpecError("star: n = " + std::to_string(s.n) + " is not compiled in this build, which stops at n = " +
                        std::to_string(N) + " (-DMAGIC_STAR_MAX_N=" + std::to_string(N) + ")");
      return f(StarProblem<N>(s));
    } else {
      if (s.n == N) return f(StarProblem<N>(s));
      return visit_n<N + 1>(s, f);
    }
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// The star sizes in five groups, one file each (run_star_<first size>.cpp,
// made by engine/CMakeLists.txt from run_star_sizes.cpp.in);
// those past kStarBuiltMaxN are empty.
#define MAGIC_STAR_SIZES_5(X) X(5) X(6) X(7) X(8)
#define MAGIC_STAR_SIZES_9(X) X(9) X(10) X(11) X(12)
#if MAGIC_STAR_BUILT_MAX_N >= 16
#define MAGIC_STAR_SIZES_13(X) X(13) X(14) X(15) X(16)
#else
#define MAGIC_STAR_SIZES_13(X)
#endif
#if MAGIC_STAR_BUILT_MAX_N == 24
#define MAGIC_STAR_SIZES_17(X) X(17) X(18) X(19) X(20)
#define MAGIC_STAR_SIZES_21(X) X(21) X(22) X(23) X(24)
#else
#define MAGIC_STAR_SIZES_17(X)
#define MAGIC_STAR_SIZES_21(X)
#endif
#define MAGIC_STAR_SIZES(X) \
  MAGIC_STAR_SIZES_5(X) MAGIC_STAR_SIZES_9(X) MAGIC_STAR_SIZES_13(X) MAGIC_STAR_SIZES_17(X) MAGIC_STAR_SIZES_21(X)
// A star's constructor (its tables and plans) too.
#define MAGIC_STAR_AS(PREFIX, N) \
  MAGIC_SEARCH_AS(PREFIX, StarProblem<N>) PREFIX template StarProblem<N>::StarProblem(const StarSpec&, std::size_t);
#define MAGIC_RUN_STAR(N) MAGIC_STAR_AS(, N)
#define MAGIC_EXTERN_RUN_STAR(N) MAGIC_STAR_AS(extern, N)

namespace magic {
static_assert(kStarMinN == 5 && kStarMaxN == 24 && (kStarBuiltMaxN == 12 || kStarBuiltMaxN == 16 || kStarBuiltMaxN == 24),
              "MAGIC_STAR_SIZES must list every star size this build compiles");
MAGIC_STAR_SIZES(MAGIC_EXTERN_RUN_STAR)
}  // namespace magic
