#pragma once
// Magic squares of order N as an engine problem.
//
//   cells, row-major (N = 4):      symmetry breaking (one square per orbit):
//    0  1  2  3                     v[0] < v[3], v[0] < v[12], v[0] < v[15]
//    4  5  6  7                     v[3] < v[12]
//    8  9 10 11                   i.e. the smallest corner is top-left and the
//   12 13 14 15                   top-right corner beats the bottom-left one.
//
// The 8 symmetries act freely (the corners are distinct), so the four
// corner inequalities pick exactly one member of every orbit.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/error.hpp"
#include "magic/family_command.hpp"
#include "magic/core/problem.hpp"
#include "magic/instances.hpp"
#include "square/square5.hpp"
#include "square/square_semi.hpp"
#include "square/square_most_perfect.hpp"
#include "square/square_small.hpp"
#include "square/square_spec.hpp"
#include "magic/sum_groups.hpp"

namespace magic {


template <int N>
class SquareProblem {
 public:
  static constexpr int kCells = N * N;
  static constexpr int kMaxGroups = 4 * N + 3 * N * N / 2 + 5;  // most-perfect + implied
  using Solution = std::array<std::uint8_t, kCells>;
  struct State {
    std::array<std::uint8_t, kCells> v;
    std::array<std::uint8_t, kMaxGroups> sum;  // running sum of each group (N <= 5: < 256)
    std::uint64_t used;  // bit k set: value k is placed
    std::uint8_t step;
  };
  static_assert(std::is_trivially_copyable_v<State>);
  static_assert(kCells < 64 && N <= 6);

  explicit SquareProblem(const SquareSpec& spec) : spec_(spec) {
    if (spec.order != N) throw std::logic_error("order mismatch");
    validate_square(N, spec.kind, kSquareMinOrder, kSquareMaxOrder);
    groups_ = square_groups(N, spec.kind);
    syms_ = square_symmetries(N);
    std::vector<std::pair<int, int>> lt;
    if (spec.symmetry_breaking) {
      const int tl = 0, tr = N - 1, bl = N * (N - 1), br = kCells - 1;
      lt = {{tl, tr}, {tl, bl}, {tl, br}, {tr, bl}};
    }
    plan_ = make_plan(kCells, groups_, {}, lt);
    if (groups_.size() > kMaxGroups) throw std::logic_error("too many groups");
    compile();
  }

  nlohmann::json describe() const {
    return {{"name", "square"}, {"order", N}, {"kind", to_string(spec_.kind)},
            {"symmetry_breaking", spec_.symmetry_breaking}};
  }
  static constexpr const char* kSearch = "square/1";  // core/problem.hpp: bump on a new task tree
  static const char* describe_levels() { return kSquareLevels; }
  Emits emits() const { return spec_.symmetry_breaking ? Emits::OnePerOrbit : Emits::AllImages; }
  bool has_group() const { return true; }
  const Plan& plan() const { return plan_; }

  // The two walks, defined below the class and not inline, so that the
  // library compiles them once (declared extern at the end of square.hpp).
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const;

  Solution canonical(const Solution& s) const {
    Solution best = s;
    for (const auto& perm : syms_) {
      Solution img;
      for (int c = 0; c < kCells; ++c) img[c] = s[perm[c]];
      if (img < best) best = img;
    }
    return best;
  }
  // counts.by_center: odd orders have a centre cell.
  std::int64_t key(const Solution& s) const
    requires(N % 2 == 1)
  {
    return s[kCells / 2];
  }
  std::uint64_t orbit_size(const Solution& s) const {
    std::vector<Solution> imgs;
    for (const auto& perm : syms_) {
      Solution img;
      for (int c = 0; c < kCells; ++c) img[c] = s[perm[c]];
      imgs.push_back(img);
    }
    std::sort(imgs.begin(), imgs.end());
    return static_cast<std::uint64_t>(std::unique(imgs.begin(), imgs.end()) - imgs.begin());
  }
  nlohmann::json to_json(const Solution& s) const { return grid_rows(s, N); }

 private:
  // Flattened per-step tables: the hot loop reads only fixed arrays.
  struct Touch {
    std::uint8_t group;
    std::uint8_t left;  // unknown cells of the group after this step
  };
  struct Step {
    std::uint8_t cell;
    std::int16_t forced_by;
    std::uint8_t n_touch, n_less;
    std::array<Touch, 12> touch;
    std::array<std::pair<std::uint8_t, bool>, 4> less;
  };

  void compile() {
    std::vector<int> unknown(groups_.size());
    for (std::size_t g = 0; g < groups_.size(); ++g) unknown[g] = static_cast<int>(groups_[g].cells.size());
    for (const PlanStep& ps : plan_.steps) {
      Step st{};
      st.cell = static_cast<std::uint8_t>(ps.cell);
      st.forced_by = static_cast<std::int16_t>(ps.forced_by);
      for (std::size_t g = 0; g < groups_.size(); ++g)
        for (int c : groups_[g].cells)
          if (c == ps.cell) {
            if (st.n_touch == st.touch.size()) throw std::logic_error("cell in too many groups");
            st.touch[st.n_touch++] = {static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(--unknown[g])};
          }
      for (auto [other, smaller] : ps.less) st.less[st.n_less++] = {static_cast<std::uint8_t>(other), smaller};
      steps_.push_back(st);
      targets_.push_back(0);
    }
    targets_.assign(groups_.size(), 0);
    for (std::size_t g = 0; g < groups_.size(); ++g) targets_[g] = groups_[g].target;
  }

  // Cheap bounds on the sum of k distinct free values: at least k times the
  // smallest free value plus 0+1+..+(k-1), at most the mirror image.
  static int low_sum(std::uint64_t free, int k) {
    return free ? k * std::countr_zero(free) + k * (k - 1) / 2 : 1 << 20;
  }
  static int high_sum(std::uint64_t free, int k) {
    return free ? k * (63 - std::countl_zero(free)) - k * (k - 1) / 2 : -1;
  }

  // Every group through the cell must stay completable: exact when full,
  // otherwise the rest must lie between the smallest and largest sums the
  // free values can still make.
  bool fits(const State& s, const Step& st, int value, std::uint64_t free_after) const {
    for (int i = 0; i < st.n_less; ++i) {
      const auto [other, other_smaller] = st.less[i];
      if (other_smaller ? !(s.v[other] < value) : !(value < s.v[other])) return false;
    }
    for (int i = 0; i < st.n_touch; ++i) {
      const Touch t = st.touch[i];
      const int rest = targets_[t.group] - s.sum[t.group] - value;
      if (t.left == 0) {
        if (rest != 0) return false;
      } else if (rest < low_sum(free_after, t.left) || rest > high_sum(free_after, t.left)) {
        return false;
      }
    }
    return true;
  }

  template <class Mode>
  void dfs(const State& s, Mode& m) const {
    const bool leaf = s.step == steps_.size();
    if (m.enter(s.step, leaf, s)) return;
    if (leaf) return m.emit(s.v);
    const Step& st = steps_[s.step];
    constexpr std::uint64_t all = ((std::uint64_t{1} << kCells) - 1) << 1;
    const std::uint64_t free = all & ~s.used;
    auto place = [&](int value) {
      const std::uint64_t bit = std::uint64_t{1} << value;
      State t = s;
      t.v[st.cell] = static_cast<std::uint8_t>(value);
      t.used |= bit;
      for (int i = 0; i < st.n_touch; ++i) t.sum[st.touch[i].group] += static_cast<std::uint8_t>(value);
      ++t.step;
      dfs(t, m);
    };
    if (st.forced_by >= 0) {
      const int value = targets_[st.forced_by] - s.sum[st.forced_by];
      if (value >= 1 && value <= kCells && (free >> value & 1) &&
          fits(s, st, value, free & ~(std::uint64_t{1} << value)))
        place(value);
      return;
    }
    // The bounds of every touched group and the symmetry inequalities narrow
    // the candidates to one interval; that is the whole check for a branch.
    int lo = 1, hi = kCells;
    for (int i = 0; i < st.n_touch; ++i) {
      const Touch t = st.touch[i];
      const int rest = targets_[t.group] - s.sum[t.group];
      lo = std::max(lo, t.left ? rest - high_sum(free, t.left) : rest);
      hi = std::min(hi, t.left ? rest - low_sum(free, t.left) : rest);
    }
    for (int i = 0; i < st.n_less; ++i) {
      const auto [other, other_smaller] = st.less[i];
      if (other_smaller) lo = std::max(lo, s.v[other] + 1);
      else hi = std::min(hi, s.v[other] - 1);
    }
    if (lo > hi) return;
    const std::uint64_t range = (~std::uint64_t{0} >> (63 - hi)) & (~std::uint64_t{0} << lo);
    for (std::uint64_t f = free & range; f; f &= f - 1) place(std::countr_zero(f));
  }

  SquareSpec spec_;
  std::vector<SumGroup> groups_;
  std::vector<std::vector<int>> syms_;
  Plan plan_;
  std::vector<Step> steps_;
  std::vector<int> targets_;
};

template <int N>
void SquareProblem<N>::cut(int depth, SinkRef<State> sink) const {
  State s{};
  ExpandMode<State> ex{sink, depth};
  dfs(s, ex);
}

template <int N>
template <class Ctx>
void SquareProblem<N>::solve(const State& s, Ctx& ctx) const {
  SolveMode<Ctx> sv{ctx};
  dfs(s, sv);
}

static_assert(Problem<SquareProblem<4>>);

// The registry's entry (magic/registry.hpp).
struct SquareFamily {
  static constexpr const char* kName = "square";
  static constexpr Picture kPicture = Picture::Grid;
  static std::string levels_help() { return kSquareLevels; }
  static FamilyCommand command();  // square.cpp
  static const char* field_values(const std::string& field) { return field == "kind" ? kSquareKindNames : nullptr; }
  static bool is_field_value(const std::string& field, const std::string& v) {
    return field == "kind" && parse_square_kind(v).has_value();
  }
  static std::string by_key_name(const nlohmann::json& problem) {
    const auto order = problem.value("order", nlohmann::json());
    // The pair counter (order-5 semi) emits classes, whose squares have every centre.
    const bool pairs = order == 5 && problem.value("kind", "") == "semi";
    return order.is_number_integer() && order.get<std::int64_t>() % 2 == 1 && !pairs ? "by_center" : "";
  }
  // What finishes, and how long it takes on two cores here (also in `square --help`).
  static std::string too_long(const nlohmann::json& spec);
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    const SquareSpec s = square_spec_from_json(spec);
    switch (s.order) {
      case 3: return square_small_handles(s) ? f(SmallSquareProblem<3>(s.kind)) : f(SquareProblem<3>(s));
      case 4: return square_small_handles(s) ? f(SmallSquareProblem<4>(s.kind)) : f(SquareProblem<4>(s));
    }
    if (s.order == kSquareMostPerfectOrder)
      return f(MostPerfect8Problem(MostPerfect8Problem::Emit::Translates,
                                   {{"name", "square"}, {"order", 8}, {"kind", "most-perfect"}, {"symmetry_breaking", true}}));
    if (semi_pairs_handles(s)) return f(SemiPairsProblem<5>(s));
    if (square5_handles(s)) return f(Square5Problem(s));
    return f(SquareProblem<5>(s));
  }
};

}  // namespace magic

// ---- the instances the library compiles (magic/instances.hpp) -------------
// The square problem's instances (SquareFamily::visit).  Square5Problem is
// no template: its cut is compiled in engine/src/families/square/square5.cpp, as the
// circles' are in engine/src/families/circle/circle.cpp.
#define MAGIC_SQUARE_INSTANCES(X) \
  X(SquareProblem<3>) X(SquareProblem<4>) X(SquareProblem<5>) X(SmallSquareProblem<3>) X(SmallSquareProblem<4>)
#define MAGIC_RUN_SQUARE(P) MAGIC_SEARCH_AS(, P)
#define MAGIC_EXTERN_RUN_SQUARE(P) MAGIC_SEARCH_AS(extern, P)

namespace magic {
MAGIC_SQUARE_INSTANCES(MAGIC_EXTERN_RUN_SQUARE)
MAGIC_RUN_AS(extern, Square5Problem)
MAGIC_RUN_AS(extern, SemiPairsProblem<3>)
MAGIC_RUN_AS(extern, SemiPairsProblem<4>)
MAGIC_RUN_AS(extern, SemiPairsProblem<5>)
}  // namespace magic
