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
//   - a point that leaves a kept line with one open point may take only a
//     number whose partner (S minus the rest) is unused: one mask operation
//     on the bit-reversed set of unused numbers (value_masks.hpp);
//   - after each placement every kept line through the point must still
//     reach S with the unused numbers: a pair with the right sum for two
//     open points, the sums of the smallest and largest unused numbers for
//     more; a closed line must equal S (kept) or differ from it (missing).
//
// Numbers are bits of a 64-bit mask, bit v - min for the number v, so they
// lie within 64 consecutive integers.  One state is updated in place and
// restored after each branch; the engine copies it only at a task or a
// handed-out piece.
//
// Symmetry is broken by Puget's constraints on a stabilizer chain whose
// base is the first plan's point order (figure_group.hpp): each pair
// (a, b) says value(a) < value(b), and the step that places the later of
// the two narrows its candidates to the numbers above or below the other.
// They hold for every plan, since each arrangement has one set of missing
// lines, so the plans together emit exactly one labelling per orbit.
//
// The complement x -> min + max - x maps the labellings of a sum S onto
// themselves when the numbers are symmetric, every line has m points and
// m (min + max) = 2S (the stars with 1..2n).  Then, with b the chain's
// first base point and B its orbit, the least plus the largest number on B
// (call it f) is the same for a whole orbit, and 2 (min + max) - f for its
// complement.  The search keeps f <= min + max (value(b) + value(j) <= min
// + max for j in B: a mask), and a labelling with f below that emits its
// complement too: half the search, the same labellings.
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "magic/figure_group.hpp"
#include "magic/figure_spec.hpp"
#include "magic/instances.hpp"
#include "magic/value_masks.hpp"

namespace magic {

inline constexpr const char* kFigureLevels =
    "a level is one choice: the set of lines that miss the common sum and the sum, then one point a level (a "
    "point a kept line forces is a level of one branch)";

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

// The search state.  `off` holds each point's number as v - min, the bit
// of that number in the masks.
struct FigureState {
  std::uint64_t used = 0;                    // numbers placed (bit v - min)
  std::uint64_t rused = 0;                   // the same, bit-reversed (bit 63 - (v - min))
  std::array<std::int32_t, kFigureMaxLines> part{};  // each line's sum so far
  std::array<std::uint8_t, kFigureMaxPoints> off{};  // v - min by point
  std::int32_t sum = 0;                      // S (level 1 on)
  std::uint16_t plan = 0;                    // which set of missing lines
  std::uint8_t step = 0;                     // levels done: 0 root, 1 + points placed
  std::uint8_t complement = 0;               // the complement halves this sum (see above)
};
static_assert(std::is_trivially_copyable_v<FigureState>);

class FigureProblem {
 public:
  using State = FigureState;
  using Solution = FigureValues;
  static constexpr const char* kSearch = "figure/3";  // core/problem.hpp: bump on a new task tree

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

  std::uint64_t group_order() const { return chain_.order(); }

 private:
  struct LineRef {
    std::uint8_t line;
    std::uint8_t left;  // open points of the line after this step
    bool kept;          // the line is at the sum (else it misses it)
  };
  struct Step {
    std::uint8_t point;
    std::int8_t forced_by;     // kept line whose last open point this is, or -1
    std::uint16_t ref0, nref;  // its lines: refs[ref0 .. ref0 + nref)
    std::uint64_t above;       // points placed earlier whose numbers must be below this one's
    std::uint64_t below;       // points placed earlier whose numbers must be above this one's
    std::uint64_t capped;      // points placed earlier whose number plus this one's is at most min + max
  };
  struct Plan {
    std::uint64_t missing = 0;  // lines whose sum is not S
    std::vector<int> sums;      // the sums worth trying
    std::vector<Step> steps;
    std::vector<LineRef> refs;
  };

  std::vector<PointPerm> choose_group();  // sets group_source_ and incidence_order_
  using Pending = std::function<std::uint64_t(const std::vector<int>&)>;
  std::vector<std::pair<int, int>> point_order(std::uint64_t missing, const Pending& pending) const;
  Plan make_plan(std::uint64_t missing, const std::vector<std::pair<int, int>>& less) const;
  std::vector<int> sums_for(std::uint64_t missing) const;
  bool complements(int sum) const;
  // a != b in f with a + b = r; rf is f bit-reversed.
  static bool has_pair(std::uint64_t f, std::uint64_t rf, int r);

  template <class Mode>
  void walk(State& s, Mode& m) const;
  template <class Mode>
  void place(State& s, Mode& m) const;
  template <class Mode>
  void emit(const State& s, Mode& m) const;
  bool fits(const State& s, const Step& st, const Plan& plan, int o, bool paired) const;
  Solution values_of(const State& s) const;

  FigureSpec spec_;
  int P_, L_;
  int min_, span_;                 // the numbers: min_ + bit offset, within span_ <= 64
  std::uint64_t all_numbers_;      // bit v - min_ of each number
  std::uint64_t rall_numbers_;     // the same, bit-reversed
  std::string group_source_;       // "incidence", "generators" or "none"
  std::uint64_t incidence_order_ = 0;
  std::vector<PointPerm> generators_;  // the group used
  StabilizerChain chain_;           // base 0, 1, 2, ...: canonical forms
  bool symmetric_numbers_ = false;  // v -> min + max - v maps the numbers onto themselves
  int line_length_ = 0;             // every line's, or 0
  std::vector<std::pair<int, int>> base_order_;  // the all-lines plan's order: the Puget chain's base
  int b_ = -1;                      // its first point (the complement's b)
  std::uint64_t orbit_b_ = 0;       // its orbit B, as a mask of points
  std::vector<Plan> plans_;
};

template <class Mode>
void FigureProblem::walk(State& s, Mode& m) const {
  const bool leaf = s.step == P_ + 1;
  if (m.enter(s.step, leaf, s)) return;
  if (leaf) return emit(s, m);
  if (s.step > 0) return place(s, m);
  for (std::size_t p = 0; p < plans_.size(); ++p)
    for (int S : plans_[p].sums) {
      s.plan = static_cast<std::uint16_t>(p);
      s.sum = S;
      s.complement = complements(S);
      s.step = 1;
      walk(s, m);
    }
  s = State{};
}

// Whether number offset o on the step's point keeps every line through it
// able to reach its sum.  `paired`: a line left with one open point was
// checked by the candidates' mask already.
inline bool FigureProblem::fits(const State& s, const Step& st, const Plan& plan, int o, bool paired) const {
  const std::uint64_t free = all_numbers_ & ~s.used & ~(1ull << o);
  const std::uint64_t rfree = rall_numbers_ & ~s.rused & ~(1ull << (63 - o));
  const int v = min_ + o;
  for (std::uint16_t r = st.ref0; r < st.ref0 + st.nref; ++r) {
    const LineRef& ref = plan.refs[r];
    const int need = s.sum - s.part[ref.line] - v;
    if (!ref.kept) {
      if (ref.left == 0 && need == 0) return false;
      continue;
    }
    switch (ref.left) {
      case 0:
        if (need != 0) return false;
        break;
      case 1:
        if (!paired && (need < min_ || need - min_ >= span_ || !(free >> (need - min_) & 1))) return false;
        break;
      case 2:
        if (!has_pair(free, rfree, need - 2 * min_)) return false;
        break;
      default: {
        const int rest = need - ref.left * min_;
        if (rest < masks::low_sum(free, ref.left) || rest > masks::high_sum(free, ref.left)) return false;
      }
    }
  }
  return true;
}

template <class Mode>
void FigureProblem::place(State& s, Mode& m) const {
  using namespace masks;
  const Plan& plan = plans_[s.plan];
  const Step& st = plan.steps[static_cast<std::size_t>(s.step - 1)];
  const std::uint64_t free = all_numbers_ & ~s.used;
  std::uint64_t cand = free;
  for (std::uint64_t b = st.above; b; b &= b - 1) cand &= above(s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  for (std::uint64_t b = st.below; b; b &= b - 1) cand &= below(s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  if (s.complement)
    for (std::uint64_t b = st.capped; b; b &= b - 1)
      cand &= below(span_ - s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  const bool forced = st.forced_by >= 0;
  if (forced) {
    const int o = s.sum - s.part[static_cast<std::size_t>(st.forced_by)] - min_;
    cand &= o >= 0 && o < span_ ? 1ull << o : 0;
  } else {
    // Lines this point leaves with one open point: its partner must be unused.
    const std::uint64_t rfree = rall_numbers_ & ~s.rused;
    for (std::uint16_t r = st.ref0; r < st.ref0 + st.nref; ++r) {
      const LineRef& ref = plan.refs[r];
      if (!ref.kept || ref.left != 1) continue;
      const int pair = s.sum - s.part[ref.line] - 2 * min_;
      cand &= partner(rfree, pair);
      if (pair % 2 == 0 && pair >= 0 && pair / 2 < 64) cand &= ~(1ull << (pair / 2));
    }
  }
  for (; cand; cand &= cand - 1) {
    const int o = std::countr_zero(cand);
    if (!fits(s, st, plan, o, !forced)) continue;
    const int v = min_ + o;
    for (std::uint16_t r = st.ref0; r < st.ref0 + st.nref; ++r) s.part[plan.refs[r].line] += v;
    s.used |= 1ull << o;
    s.rused |= 1ull << (63 - o);
    s.off[st.point] = static_cast<std::uint8_t>(o);
    ++s.step;
    walk(s, m);
    --s.step;
    s.used &= ~(1ull << o);
    s.rused &= ~(1ull << (63 - o));
    for (std::uint16_t r = st.ref0; r < st.ref0 + st.nref; ++r) s.part[plan.refs[r].line] -= v;
  }
}

template <class Mode>
void FigureProblem::emit(const State& s, Mode& m) const {
  const Solution sol = values_of(s);
  m.emit(sol);
  if (!s.complement) return;
  // f = the least plus the largest number on B; below min + max, the
  // complement's orbit is not searched (its f is above): emit it here.
  int lo = 1 << 20, hi = -1;
  for (std::uint64_t b = orbit_b_; b; b &= b - 1) {
    const int o = s.off[static_cast<std::size_t>(std::countr_zero(b))];
    lo = std::min(lo, o);
    hi = std::max(hi, o);
  }
  if (lo + hi >= span_ - 1) return;
  Solution c = sol;
  for (int p = 0; p < P_; ++p)
    c[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(2 * min_ + span_ - 1 - sol[static_cast<std::size_t>(p)]);
  m.emit(c);
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
