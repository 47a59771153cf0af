#pragma once
// Any magic figure: distinct numbers on its points so that at least K of
// its lines share one sum (magic/figure_catalog.hpp gives the file format).
//
// The search.  Level 0 chooses the set of lines that miss the sum (none
// when K = L) and the sum; every later level places one point, in an order
// computed once per such set ("plan") so that lines close early:
//
//   - a line kept at the sum with one open point forces that point's value
//     (S minus the line's partial sum), which is placed next;
//   - otherwise the next point is the one on the kept line nearest to
//     closing;
//   - after each placement every kept line through the point must still
//     reach S with the unused numbers (its last point's value unused, or
//     the sum within the smallest and largest sums of the unused numbers),
//     and a closed line must equal S (kept) or differ from it (missing).
//
// Symmetry is broken by Puget's constraints on a stabilizer chain whose
// base is the first plan's point order (figure_group.hpp): each pair
// (a, b) says value(a) < value(b), and the step that places the later of
// the two narrows its candidates to the numbers above or below the other.
// They hold for every plan, since each arrangement has one set of missing
// lines, so the plans together emit exactly one labelling per orbit.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "magic/figure_group.hpp"
#include "magic/figure_spec.hpp"
#include "magic/instances.hpp"

namespace magic {

inline constexpr const char* kFigureLevels =
    "a level is one choice: the set of lines that miss the common sum and the sum, then one point (the points it "
    "forces follow as levels of one choice)";

// The values by point (zero past the figure's points); the digest hashes
// only the figure's points (hashed_bytes), so a figure with the star
// family's labelling has its digest.
struct FigureValues {
  std::array<std::uint16_t, kFigureMaxPoints> v{};
  std::uint16_t& operator[](std::size_t i) { return v[i]; }
  const std::uint16_t& operator[](std::size_t i) const { return v[i]; }
  bool operator==(const FigureValues&) const = default;
  auto operator<=>(const FigureValues&) const = default;
};

// The search state, copied on branch.  `idx` holds indices into the sorted
// numbers, so a mask of used indices is one word whatever the values.
struct FigureState {
  std::uint64_t used = 0;                    // number indices placed
  std::array<std::int32_t, kFigureMaxLines> part{};  // each line's sum so far
  std::array<std::uint8_t, kFigureMaxPoints> idx{};  // number index by point
  std::int32_t sum = 0;                      // S (level 1 on)
  std::uint16_t plan = 0;                    // which set of missing lines
  std::uint8_t step = 0;                     // levels done: 0 root, 1 + points placed
  std::uint8_t pad = 0;
};
static_assert(std::is_trivially_copyable_v<FigureState>);

class FigureProblem {
 public:
  using State = FigureState;
  using Solution = FigureValues;
  static constexpr const char* kSearch = "figure/1";  // core/problem.hpp: bump on a new task tree

  explicit FigureProblem(FigureSpec spec);

  nlohmann::json describe() const;
  const char* describe_levels() const { return kFigureLevels; }
  Emits emits() const { return spec_.symmetry_breaking ? Emits::OnePerOrbit : Emits::AllImages; }
  bool has_group() const { return true; }
  std::size_t hashed_bytes() const { return sizeof(std::uint16_t) * static_cast<std::size_t>(P_); }

  template <class F>
  void expand(int depth, F&& sink) const {
    cut(depth, sink);
  }
  void cut(int depth, SinkRef<State> sink) const;
  template <class Ctx>
  void solve(const State& s, Ctx& ctx) const {
    SolveMode<Ctx> sv{ctx};
    State w = s;
    walk(w, sv);
  }

  Solution canonical(const Solution& s) const { return chain_.least_image(s); }
  // Distinct values: every symmetry other than the identity moves a value.
  std::uint64_t orbit_size(const Solution&) const { return chain_.order(); }
  std::int64_t key(const Solution& s) const;  // the sum K lines share
  std::vector<int> line_sums(const Solution& s) const;
  nlohmann::json to_json(const Solution& s) const;
  nlohmann::json result_extra() const;

  const FigureSpec& spec() const { return spec_; }
  std::uint64_t group_order() const { return chain_.order(); }
  std::size_t plans() const { return plans_.size(); }

 private:
  struct LineRef {
    std::uint8_t line;
    std::uint8_t left;  // open points of the line after this step
    bool kept;          // the line is at the sum (else it misses it)
  };
  struct Step {
    std::uint8_t point;
    std::int8_t forced_by;  // kept line whose last open point this is, or -1
    std::uint16_t ref0, nref;  // its lines: refs[ref0 .. ref0 + nref)
    std::uint64_t above;    // points placed earlier whose values must be below this one's
    std::uint64_t below;    // points placed earlier whose values must be above this one's
  };
  struct Plan {
    std::uint64_t missing = 0;  // lines whose sum is not S
    std::vector<int> sums;      // the sums worth trying
    std::vector<Step> steps;
    std::vector<LineRef> refs;
  };

  std::vector<PointPerm> choose_group();  // sets group_source_ and incidence_order_
  std::vector<std::pair<int, int>> point_order(std::uint64_t missing) const;
  Plan make_plan(std::uint64_t missing, const std::vector<std::pair<int, int>>& less) const;
  std::vector<int> sums_for(std::uint64_t missing) const;
  int index_of(int value) const {
    const int d = value - values_.front();
    return d < 0 || d >= static_cast<int>(index_.size()) ? -1 : index_[static_cast<std::size_t>(d)];
  }
  // Smallest and largest sum of k of the numbers in mask f.
  int low_sum(std::uint64_t f, int k) const;
  int high_sum(std::uint64_t f, int k) const;

  template <class Mode>
  void walk(State& s, Mode& m) const;
  template <class Mode>
  void place(const State& s, Mode& m) const;

  FigureSpec spec_;
  int P_, L_;
  std::vector<int> values_;        // the numbers, sorted
  std::vector<std::int8_t> index_;  // value - values_[0] -> index, or -1
  std::uint64_t all_numbers_;
  std::string group_source_;        // "incidence", "generators" or "none"
  std::uint64_t incidence_order_ = 0;
  std::vector<PointPerm> generators_;  // the group used
  StabilizerChain chain_;           // base 0, 1, 2, ...: canonical forms
  std::vector<Plan> plans_;
};

template <class Mode>
void FigureProblem::walk(State& s, Mode& m) const {
  const bool leaf = s.step == P_ + 1;
  if (m.enter(s.step, leaf, s)) return;
  if (leaf) {
    Solution sol;
    for (int p = 0; p < P_; ++p)
      sol[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(values_[s.idx[static_cast<std::size_t>(p)]]);
    return m.emit(sol);
  }
  if (s.step == 0) {
    for (std::size_t p = 0; p < plans_.size(); ++p)
      for (int S : plans_[p].sums) {
        State t = s;
        t.plan = static_cast<std::uint16_t>(p);
        t.sum = S;
        t.step = 1;
        walk(t, m);
      }
    return;
  }
  place(s, m);
}

template <class Mode>
void FigureProblem::place(const State& s, Mode& m) const {
  const Plan& plan = plans_[s.plan];
  const Step& st = plan.steps[static_cast<std::size_t>(s.step - 1)];
  std::uint64_t cand = all_numbers_ & ~s.used;
  for (std::uint64_t b = st.above; b; b &= b - 1) {
    const int i = s.idx[static_cast<std::size_t>(std::countr_zero(b))];
    cand &= i >= 63 ? 0 : ~0ull << (i + 1);
  }
  for (std::uint64_t b = st.below; b; b &= b - 1) {
    const int i = s.idx[static_cast<std::size_t>(std::countr_zero(b))];
    cand &= (1ull << i) - 1;
  }
  if (st.forced_by >= 0) {
    const int i = index_of(s.sum - s.part[static_cast<std::size_t>(st.forced_by)]);
    cand &= i < 0 ? 0 : 1ull << i;
  }
  for (; cand; cand &= cand - 1) {
    const int i = std::countr_zero(cand);
    const int v = values_[static_cast<std::size_t>(i)];
    State t = s;
    t.used |= 1ull << i;
    t.idx[st.point] = static_cast<std::uint8_t>(i);
    bool ok = true;
    for (std::uint16_t r = st.ref0; r < st.ref0 + st.nref && ok; ++r) {
      const LineRef& ref = plan.refs[r];
      const int part = t.part[ref.line] += v;
      if (!ref.kept) {
        ok = ref.left > 0 || part != s.sum;
        continue;
      }
      const int need = s.sum - part;
      if (ref.left == 0) ok = need == 0;
      else if (ref.left == 1) {
        const int j = index_of(need);
        ok = j >= 0 && !(t.used >> j & 1);
      } else {
        const std::uint64_t free = all_numbers_ & ~t.used;
        ok = need >= low_sum(free, ref.left) && need <= high_sum(free, ref.left);
      }
    }
    if (!ok) continue;
    ++t.step;
    walk(t, m);
  }
}

static_assert(Problem<FigureProblem>);

// The registry's entry (magic/registry.hpp).
struct FigureFamily {
  static constexpr const char* kName = "figure";
  static constexpr const char* kByKey = "by_sum";
  static constexpr Picture kPicture = Picture::Figure;
  static std::string levels_help() { return kFigureLevels; }
  template <class F>
  static decltype(auto) visit(const nlohmann::json& spec, F&& f) {
    return f(FigureProblem(figure_spec_from_json(spec)));
  }
};

}  // namespace magic

namespace magic {
MAGIC_RUN_AS(extern, FigureProblem)  // its cut is compiled in figure.cpp
}  // namespace magic
