#pragma once
// Any magic figure: distinct numbers on its points so that at least K of
// its lines share one sum (magic/figure_catalog.hpp gives the file format).
//
// The search.  Level 0 chooses the set of lines that miss the sum (none
// when K = L) and the sum; every later level chooses the number of one free
// point, and places with it every point the kept lines then determine
// (figure_algebra.hpp: a line's last open point, or any point some
// combination of the lines isolates).  The order is computed once per such
// set ("plan"):
//
//   - the next free point is the one that determines the most others, then
//     the one on the kept line nearest to closing (point_order's tie-breaks);
//   - a determined point whose value is R - x or R + x for the free point's
//     x narrows the free point's candidates to those that leave it an
//     unused number: one mask operation on the (bit-reversed) unused numbers
//     (value_masks.hpp);
//   - after each placement every kept line through the point must still
//     reach S with the unused numbers: a pair with the right sum for two
//     open points, the sums of the smallest and largest unused numbers for
//     more; a closed line must differ from S (missing), and equal it (kept,
//     unless the algebra makes that certain: make_plan);
//   - a point determined as (formula) / d needs d to divide the formula:
//     tested as soon as the points that decide that are placed;
//   - a later step's free point must keep a candidate: its unit masks and
//     symmetry-breaking pairs are tested as soon as their points are placed;
//   - the next step's unit masks are tested on each candidate before it is
//     placed (Screen), when every place of this step is u x + r in its
//     free number x: then the next formulas are linear in x too, and the
//     masks they give are the next node's filter.
//
// The steps' code reads the plan through a template parameter (PL): the
// plan's tables at run time, or a compiled plan, a constant the compiler
// folds into the code (figure_compiled.hpp), with the same code.
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
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "magic/core/problem.hpp"
#include "figure/figure_algebra.hpp"
#include "figure/figure_group.hpp"
#include "figure/figure_spec.hpp"
#include "figure/point_hashes.hpp"
#include "magic/instances.hpp"
#include "magic/value_masks.hpp"

namespace magic {

inline constexpr const char* kFigureLevels =
    "a level is one choice: the set of lines that miss the common sum and the sum, then one free point a level, "
    "placed with the points the kept lines then determine";

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
  std::uint8_t screened = 0;                 // `units` holds this step's unit masks (Screen)
  std::uint64_t units = 0;
};
static_assert(std::is_trivially_copyable_v<FigureState>);

struct FigureCompiler;
struct FigureCompiled;  // below

// The step code's helpers: always inlined, so that a compiled plan's
// constants reach every one of them.
#define MAGIC_FIGURE_INLINE [[gnu::always_inline]]

class FigureProblem {
  friend struct FigureCompiler;

 public:
  using State = FigureState;
  using Solution = FigureValues;
  static constexpr const char* kSearch = "figure/7";  // core/problem.hpp: bump on a new task tree

  // algebra = false finds determined points by single lines only (what a
  // figure past the elimination's budget gets; the tests compare the two).
  // A compiled plan is the family's to give (figure_problem() in
  // figure.hpp, FigureCompiler::attach): the problem runs the general
  // search until it has one.
  explicit FigureProblem(FigureSpec spec, bool algebra = true);

  nlohmann::json describe() const;
  const char* describe_levels() const { return kFigureLevels; }
  Emits emits() const { return spec_.symmetry_breaking ? Emits::OnePerOrbit : Emits::AllImages; }
  bool has_group() const { return true; }
  std::size_t hashed_bytes() const { return sizeof(std::uint16_t) * static_cast<std::size_t>(P_); }

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
  // The additive digest of the solution's whole orbit (point_hashes.hpp).
  Digest additive(const Solution& s) const { return hashes_.of(s, P_); }
  std::int64_t key(const Solution& s) const;  // the sum K lines share
  std::vector<int> line_sums(const Solution& s) const;
  nlohmann::json to_json(const Solution& s) const;

  std::uint64_t group_order() const { return chain_.order(); }
  const FigureSpec& spec() const { return spec_; }
  // The name of the compiled plan this figure's search runs, or null: see
  // figure_compiled.hpp.
  const char* compiled_plan() const;

  // The plan's parts.  Public so that a compiled plan (figure_compiled.hpp),
  // a constant of these types, can be written out; nothing else uses them.
  // A line check at a place; the kinds fits() knows.
  enum Check : std::uint8_t {
    kClosed,   // a kept line closed here: at the sum
    kMissed,   // a missing line closed here: not at the sum
    kPair,     // a kept line left with two open points: an unused pair reaches the sum
    kBounds,   // with more: the least and largest unused numbers bracket it
  };
  struct LineCheck {
    bool operator==(const LineCheck&) const = default;
    std::uint8_t line;
    std::uint8_t left;  // open points of the line after this placement
    Check kind;
  };
  struct Term {  // one line of a determined point's formula
    bool operator==(const Term&) const = default;
    std::uint8_t line;
    std::int32_t lambda;
  };
  // One point placed: a step's free point, or one its choice determines.
  struct Place {
    bool operator==(const Place&) const = default;
    std::uint8_t point;
    std::int8_t unit = 0;       // determined: its coefficient on the step's free point when +-1, else 0
    std::int16_t line = -1;     // determined by one line alone (x = S - part), or -1: the terms
    std::uint16_t line0 = 0, nline = 0;    // its lines: lines[line0 .. line0 + nline)
    std::uint16_t check0 = 0, ncheck = 0;  // checks[check0 .. check0 + ncheck)
    std::uint16_t term0 = 0, nterm = 0;    // determined: d x = lsum S - sum lambda_l part_l over terms
    std::int32_t d = 1, lsum = 0;
    bool ordered = false;      // some pair below constrains it
    std::uint64_t above = 0;   // points placed earlier whose numbers must be below this one's
    std::uint64_t below = 0;   // points placed earlier whose numbers must be above this one's
    std::uint64_t capped = 0;  // points placed earlier whose number plus this one's is at most min + max
    std::uint64_t allowed = ~0ull;  // the numbers its range allows (FigureSpec::ranges; a compiled plan has none)
  };
  // places[first .. first + count): the free point first (when `free`), then
  // the points its choice determines.
  struct Step {
    bool operator==(const Step&) const = default;
    std::uint16_t first = 0, count = 0;
    bool free = false;
    std::uint16_t cong0 = 0, ncong = 0;  // congruences[cong0 .. cong0 + ncong), checked once all are placed
    std::uint16_t ahead0 = 0, nahead = 0;  // aheads[ahead0 .. ahead0 + nahead), checked then too
    std::uint16_t next0 = 0, nnext = 0;    // screens[next0 .. next0 + nnext): see Screen
    bool screens_all = false;              // they are all of the next step's unit places
  };
  // The next step's unit mask of one of its places, as seen from this step's
  // candidates (screen()): when each of this step's places is u x + r in
  // its free number x, the next formula's numerator is linear in x too,
  // beta - alpha x with beta read once a node.  kappa[k] (in kappas from
  // kappa0): the formula's weight on this step's place k.
  struct Screen {
    bool operator==(const Screen&) const = default;
    std::uint16_t place;  // the next step's place
    std::int32_t alpha;   // sum over k of kappa[k] u_k
    std::uint16_t kappa0;
  };
  static constexpr std::size_t kScreenPlaces = 16, kScreens = 8;  // the most a screened step has
  struct ScreenNode {  // what a node's candidates share
    std::array<std::int64_t, kScreenPlaces> r;  // this step's places: u x + r
    std::array<std::int64_t, kScreens> beta;
  };
  // A later step's free point, seen from an earlier step: the unit masks of
  // ahead_places[f0 .. f0 + nf) and, when `ordered`, the pairs of the free
  // place `target` are all known there.
  struct Lookahead {
    bool operator==(const Lookahead&) const = default;
    std::uint16_t target;
    bool ordered;
    std::uint16_t f0, nf;
  };
  // a S + sum of w_p x_p = 0 (mod d): a determined point's divisibility,
  // checked as soon as the points with w_p != 0 (mod d) are placed.
  struct Congruence {
    bool operator==(const Congruence&) const = default;
    std::int32_t d, a;
    std::uint16_t term0, nterm;  // cterms[term0 .. term0 + nterm): (point, w_p mod d)
  };
  struct Plan {
    // The numbers, as the members min_, span_, all_numbers_, rall_numbers_
    // (a compiled plan has them as constants).
    int nmin = 0, nspan = 0;
    std::uint64_t numbers = 0, rnumbers = 0;
    std::uint64_t missing = 0;  // lines whose sum is not S
    std::vector<int> sums;      // the sums worth trying
    Step prologue;              // points the sum alone determines
    std::vector<Step> steps;    // one choice each
    std::vector<Place> places;
    std::vector<std::uint8_t> lines;
    std::vector<LineCheck> checks;
    std::vector<Term> terms;
    std::vector<Congruence> congruences;
    std::vector<Lookahead> aheads;
    std::vector<std::uint16_t> ahead_places;
    std::vector<std::pair<std::uint8_t, std::int32_t>> cterms;
    std::vector<Screen> screens;
    std::vector<std::int32_t> kappas;
  };

 private:
  // A plan's order before it is compiled: a free point (-1 for the
  // prologue) and the points determined once it is placed.
  struct OrderStep {
    int free = -1;
    Determined determined;
  };

  std::vector<PointPerm> choose_group();  // sets group_source_ and incidence_order_
  using Pending = std::function<std::uint64_t(const std::vector<int>&)>;
  std::vector<OrderStep> point_order(std::uint64_t missing, const Pending& pending) const;
  static std::vector<int> flatten(const std::vector<OrderStep>& order);
  Plan make_plan(std::uint64_t missing, const std::vector<std::pair<int, int>>& less) const;
  void add_place(Plan& plan, int free, int point, const Determination* det, bool implied, std::vector<int>& open,
                 std::uint64_t& placed, const std::vector<std::pair<int, int>>& less, std::uint64_t same_step = 0) const;
  std::vector<int> sums_for(std::uint64_t missing) const;
  bool complements(int sum) const;
  // a != b in f with a + b = r; rf is f bit-reversed.
  static bool has_pair(std::uint64_t f, std::uint64_t rf, int r);

  template <class Mode>
  void walk(State& s, Mode& m) const;
  template <class Mode>
  void place(State& s, Mode& m) const;
  template <class PL, class Next>
  MAGIC_FIGURE_INLINE void place_with(State& s, const PL& plan, const Step& st, Next&& next_step) const;
  template <class CP, int K, class Mode>
  // noinline: one function a step, so that a profile names the step.
  [[gnu::noinline]] void compiled_step(State& s, Mode& m) const;
  template <class CP, class Mode>
  void compiled_walk(State& s, Mode& m) const;
  template <class Mode>
  void walk_compiled(State& s, Mode& m) const;  // the runner's mode only: figure_compiled.cpp
  template <class Mode>
  void emit(const State& s, Mode& m) const;
  MAGIC_FIGURE_INLINE std::uint64_t order_mask(const State& s, const Place& pl) const;
  template <class PL>
  MAGIC_FIGURE_INLINE std::uint64_t unit_mask(const State& s, const PL& plan, const Place& pl) const;
  // The same with R, the formula's value, given, and the numbers in use.
  template <class PL>
  MAGIC_FIGURE_INLINE std::uint64_t unit_mask_of(const PL& plan, std::uint64_t used, std::uint64_t rused,
                                                  const Place& pl, std::int64_t R) const;
  template <class PL>
  MAGIC_FIGURE_INLINE std::int64_t numerator(const State& s, const PL& plan, const Place& pl) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool screen_node(const State& s, const PL& plan, const Step& st, ScreenNode& node) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool screen(const State& s, const PL& plan, const Step& st, const ScreenNode& node, int o,
              std::uint64_t& units) const;
  void plan_screens(Plan& plan) const;
  template <class PL>
  MAGIC_FIGURE_INLINE std::uint64_t unit_filter(const State& s, const PL& plan, const Step& st) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool ahead(const State& s, const PL& plan, const Step& st) const;
  // step_of: the step (0: the prologue) that places each point.
  void plan_lookaheads(Plan& plan, const std::vector<std::size_t>& step_of) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool formula(const State& s, const PL& plan, const Place& pl, std::int64_t& x) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool fits(const State& s, const Place& pl, const PL& plan, int o) const;
  template <class PL>
  MAGIC_FIGURE_INLINE void put(State& s, const Place& pl, const PL& plan, int o) const;
  template <class PL>
  MAGIC_FIGURE_INLINE void take(State& s, const Place& pl, const PL& plan) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool put_determined(State& s, const PL& plan, const Step& st) const;
  template <class PL>
  MAGIC_FIGURE_INLINE void take_determined(State& s, const PL& plan, const Step& st) const;
  template <class PL>
  MAGIC_FIGURE_INLINE bool congruent(const State& s, const PL& plan, const Step& st) const;
  void hoist_congruences(Plan& plan, const std::vector<std::size_t>& step_of) const;
  static Step& step_at(Plan& plan, std::size_t i);
  std::vector<std::size_t> steps_of_points(Plan& plan) const;
  std::vector<std::int64_t> weights(const Plan& plan, const Place& pl) const;
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
  PointHashes hashes_;              // the additive digest's, summed over the group
  bool symmetric_numbers_ = false;  // v -> min + max - v maps the numbers onto themselves
  int line_length_ = 0;             // every line's, or 0
  bool algebra_ = true;             // determined points by elimination (else single lines only)
  bool look_ahead_ = true;          // the order tries each free point's determinations
  std::vector<OrderStep> base_order_;  // the all-lines plan's order: the Puget chain's base
  int b_ = -1;                      // its first point (the complement's b)
  std::uint64_t orbit_b_ = 0;       // its orbit B, as a mask of points
  std::vector<Plan> plans_;
  const FigureCompiled* compiled_ = nullptr;  // the compiled plan that equals plans_[0], if any
};

// The runner's mode, the one compiled plans are built for (one instance of
// each plan's steps, in figure_compiled.cpp).
using FigureRunnerMode = RunnerMode<FigureProblem>;

// A compiled plan's entries (figure_compiled.hpp writes them, FigureCompiler
// attaches the one that equals a figure's plan).
struct FigureCompiled {
  const char* name;  // the figure it was written from
  bool (*matches)(const FigureProblem::Plan&);
  void (*walk)(const FigureProblem&, FigureState&, FigureRunnerMode&);
};

template <>
inline void FigureProblem::walk_compiled(State& s, FigureRunnerMode& m) const {
  compiled_->walk(*this, s, m);
}

// A compiled plan: an object of a type with the members of Plan as arrays
// and the numbers as static constants (figure_compiled.hpp writes them).
template <class CP>
inline constexpr CP kCompiledPlan{};

template <class Mode>
void FigureProblem::walk(State& s, Mode& m) const {
  const bool leaf = s.step > 0 && s.step == plans_[s.plan].steps.size() + 1;
  if (m.enter(s.step, leaf, s)) return;
  if (leaf) return emit(s, m);
  if (s.step > 0) {
    if constexpr (std::is_same_v<Mode, FigureRunnerMode>)
      if (compiled_) return walk_compiled(s, m);
    return place(s, m);
  }
  for (std::size_t p = 0; p < plans_.size(); ++p)
    for (int S : plans_[p].sums) {
      s.plan = static_cast<std::uint16_t>(p);
      s.sum = S;
      s.complement = complements(S);
      if (!put_determined(s, plans_[p], plans_[p].prologue)) continue;
      if (!congruent(s, plans_[p], plans_[p].prologue) || !ahead(s, plans_[p], plans_[p].prologue)) {
        take_determined(s, plans_[p], plans_[p].prologue);
        continue;
      }
      s.step = 1;
      walk(s, m);
      take_determined(s, plans_[p], plans_[p].prologue);
    }
  s = State{};
}

inline bool FigureProblem::has_pair(std::uint64_t f, std::uint64_t rf, int r) {
  std::uint64_t m = f & masks::partner(rf, r);
  if (r % 2 == 0 && r >= 0 && r / 2 < 64) m &= ~(1ull << (r / 2));
  return m != 0;
}

// A loop over a plan's parts: unrolled where the plan is a constant (a
// compiled plan), where its trip count is known.  g++ only: clang unrolls
// such loops itself, and with the pragma it also unrolls every loop of
// unknown count 16 times, which took its -O1 build of figure_compiled.cpp
// from 4 s to 20 s a plan (perf/results/figure.md).
#if defined(__GNUC__) && !defined(__clang__)
#define MAGIC_FIGURE_UNROLL _Pragma("GCC unroll 16")
#else
#define MAGIC_FIGURE_UNROLL
#endif

// d | v, without a division when d is a power of two (the usual d = 2).
inline bool divides(std::int64_t d, std::int64_t v) { return (d & (d - 1)) == 0 ? (v & (d - 1)) == 0 : v % d == 0; }

// The numbers the symmetry-breaking pairs leave a place.
inline std::uint64_t FigureProblem::order_mask(const State& s, const Place& pl) const {
  using namespace masks;
  std::uint64_t m = ~0ull;
  MAGIC_FIGURE_UNROLL
  for (std::uint64_t b = pl.above; b; b &= b - 1) m &= above(s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  MAGIC_FIGURE_UNROLL
  for (std::uint64_t b = pl.below; b; b &= b - 1) m &= below(s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  if (s.complement)
    MAGIC_FIGURE_UNROLL
    for (std::uint64_t b = pl.capped; b; b &= b - 1)
      m &= below(span_ - s.off[static_cast<std::size_t>(std::countr_zero(b))]);
  return m;
}

// lsum S - sum of lambda_l part_l: d times a determined place's value.
template <class PL>
inline std::int64_t FigureProblem::numerator(const State& s, const PL& plan, const Place& pl) const {
  std::int64_t num = std::int64_t{pl.lsum} * s.sum;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t t = pl.term0; t < pl.term0 + pl.nterm; ++t)
    num -= std::int64_t{plan.terms[t].lambda} * s.part[plan.terms[t].line];
  return num;
}

// The value a determined place's formula gives (figure_algebra.hpp), false
// when it is not a whole number.
template <class PL>
inline bool FigureProblem::formula(const State& s, const PL& plan, const Place& pl, std::int64_t& x) const {
  if (pl.line >= 0) {
    x = s.sum - s.part[static_cast<std::size_t>(pl.line)];
    return true;
  }
  std::int64_t num = numerator(s, plan, pl);
  if (pl.d != 1) {
    if (!divides(pl.d, num)) return false;
    num /= pl.d;
  }
  x = num;
  return true;
}

// The free point's numbers that leave a determined place with coefficient
// -1 (x_q = R - x) or +1 (x_q = R + x) on it an unused number: one mask
// operation (value_masks.hpp).  R is the place's formula without the free
// point, so this is evaluated before the free point is placed, or at any
// earlier step that has placed every point R depends on (Lookahead).
template <class PL>
inline std::uint64_t FigureProblem::unit_mask(const State& s, const PL& plan, const Place& pl) const {
  std::int64_t R = 0;
  if (!formula(s, plan, pl, R)) return 0;
  return unit_mask_of(plan, s.used, s.rused, pl, R);
}

template <class PL>
inline std::uint64_t FigureProblem::unit_mask_of(const PL& plan, std::uint64_t used, std::uint64_t rused,
                                                 const Place& pl, std::int64_t R) const {
  if (pl.unit < 0) {
    const std::int64_t r = R - 2 * plan.nmin;  // o_q = r - o
    if (r < 0 || r > 126) return 0;
    std::uint64_t m = masks::partner(plan.rnumbers & ~rused, static_cast<int>(r));
    if ((r & 1) == 0) m &= ~(1ull << (r >> 1));  // r >= 0 here: shifts, not divisions
    return m;
  }
  if (R == 0 || R >= 64 || R <= -64) return 0;  // o_q = R + o
  return masks::shift_down(plan.numbers & ~used, static_cast<int>(R));
}

// A screened step's node (see Screen): each place's r, each screen's beta.
// False when some formula is no whole number (the node has no candidate).
template <class PL>
inline bool FigureProblem::screen_node(const State& s, const PL& plan, const Step& st, ScreenNode& node) const {
  node.r[0] = 0;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t k = 1; k < st.count; ++k)
    if (!formula(s, plan, plan.places[st.first + k], node.r[k])) return false;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t j = 0; j < st.nnext; ++j) {
    const Screen& sc = plan.screens[st.next0 + j];
    std::int64_t beta = numerator(s, plan, plan.places[sc.place]);
    MAGIC_FIGURE_UNROLL
    for (std::uint16_t k = 0; k < st.count; ++k) beta -= std::int64_t{plan.kappas[sc.kappa0 + k]} * node.r[k];
    node.beta[j] = beta;
  }
  return true;
}

// Whether offset o for the step's free point leaves the next step's free
// point a candidate by its unit masks: the test the next node would make
// first, made before this step places anything.  True (no verdict, units
// all ones) when a place's number falls outside the numbers: placing
// rejects it.  `units`: the unit masks' product, the next node's filter.
template <class PL>
inline bool FigureProblem::screen(const State& s, const PL& plan, const Step& st, const ScreenNode& node, int o,
                                  std::uint64_t& units) const {
  units = ~0ull;
  const std::int64_t v = plan.nmin + o;
  std::uint64_t used = s.used | 1ull << o, rused = s.rused | 1ull << (63 - o);
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t k = 1; k < st.count; ++k) {
    const std::int64_t ok = node.r[k] + plan.places[st.first + k].unit * v - plan.nmin;
    if (ok < 0 || ok >= plan.nspan) return true;
    used |= 1ull << ok;
    rused |= 1ull << (63 - ok);
  }
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t j = 0; j < st.nnext; ++j) {
    const Screen& sc = plan.screens[st.next0 + j];
    const Place& q = plan.places[sc.place];
    const std::int64_t num = node.beta[j] - std::int64_t{sc.alpha} * v;
    if (q.d != 1 && !divides(q.d, num)) return false;
    units &= unit_mask_of(plan, used, rused, q, q.d == 1 ? num : num / q.d);
    if (!(units & plan.numbers & ~used)) return false;
  }
  return true;
}

template <class PL>
inline std::uint64_t FigureProblem::unit_filter(const State& s, const PL& plan, const Step& st) const {
  std::uint64_t cand = ~0ull;
  for (std::uint16_t i = st.first + 1; i < st.first + st.count && cand; ++i)
    if (plan.places[i].unit != 0) cand &= unit_mask(s, plan, plan.places[i]);
  return cand;
}

// Whether every later step this one looks ahead to still has a candidate
// for its free point: the unused numbers, narrowed by the unit masks (and
// the symmetry-breaking pairs) whose points are all placed already.  Later
// placements only take numbers away, so an empty mask now stays empty.
template <class PL>
inline bool FigureProblem::ahead(const State& s, const PL& plan, const Step& st) const {
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t a = st.ahead0; a < st.ahead0 + st.nahead; ++a) {
    const Lookahead& la = plan.aheads[a];
    std::uint64_t m = plan.numbers & ~s.used;
    if (la.ordered) m &= order_mask(s, plan.places[la.target]);
    for (std::uint16_t f = la.f0; f < la.f0 + la.nf && m; ++f) m &= unit_mask(s, plan, plan.places[plan.ahead_places[f]]);
    if (!m) return false;
  }
  return true;
}

// Whether number offset o on the place keeps every line through it able to
// reach its sum.  A kept line left with one open point needs no check here:
// its last point is determined, and placed in this step.
template <class PL>
inline bool FigureProblem::fits(const State& s, const Place& pl, const PL& plan, int o) const {
  const std::uint64_t free = plan.numbers & ~s.used & ~(1ull << o);
  const int v = plan.nmin + o;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t c = pl.check0; c < pl.check0 + pl.ncheck; ++c) {
    const LineCheck& ch = plan.checks[c];
    const int need = s.sum - s.part[ch.line] - v;
    switch (ch.kind) {
      case kClosed:
        if (need != 0) return false;
        break;
      case kMissed:
        if (need == 0) return false;
        break;
      case kPair:
        if (!has_pair(free, plan.rnumbers & ~s.rused & ~(1ull << (63 - o)), need - 2 * plan.nmin)) return false;
        break;
      case kBounds: {
        const int rest = need - ch.left * plan.nmin;
        if (rest < masks::low_sum(free, ch.left) || rest > masks::high_sum(free, ch.left)) return false;
      }
    }
  }
  return true;
}

template <class PL>
inline void FigureProblem::put(State& s, const Place& pl, const PL& plan, int o) const {
  const int v = plan.nmin + o;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t r = pl.line0; r < pl.line0 + pl.nline; ++r) s.part[plan.lines[r]] += v;
  s.used |= 1ull << o;
  s.rused |= 1ull << (63 - o);
  s.off[pl.point] = static_cast<std::uint8_t>(o);
}

template <class PL>
inline void FigureProblem::take(State& s, const Place& pl, const PL& plan) const {
  const int o = s.off[pl.point];
  const int v = plan.nmin + o;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t r = pl.line0; r < pl.line0 + pl.nline; ++r) s.part[plan.lines[r]] -= v;
  s.used &= ~(1ull << o);
  s.rused &= ~(1ull << (63 - o));
}

// Places the step's determined points; false (with none placed) when one
// of them has no unused number that fits.
template <class PL>
inline bool FigureProblem::put_determined(State& s, const PL& plan, const Step& st) const {
  const std::uint16_t from = st.free ? st.first + 1 : st.first, end = st.first + st.count;
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t i = from; i < end; ++i) {
    const Place& pl = plan.places[i];
    std::int64_t x = 0;
    bool ok = formula(s, plan, pl, x);
    const std::int64_t o = x - plan.nmin;
    ok = ok && o >= 0 && o < plan.nspan && (plan.numbers & ~s.used & pl.allowed) >> o & 1;
    ok = ok && (!pl.ordered || order_mask(s, pl) >> o & 1);
    if (!ok || !fits(s, pl, plan, static_cast<int>(o))) {
      while (i-- > from) take(s, plan.places[i], plan);
      return false;
    }
    put(s, pl, plan, static_cast<int>(o));
  }
  return true;
}

template <class PL>
inline void FigureProblem::take_determined(State& s, const PL& plan, const Step& st) const {
  const std::uint16_t from = st.free ? st.first + 1 : st.first;
  for (std::uint16_t i = st.first + st.count; i-- > from;) take(s, plan.places[i], plan);
}

template <class PL>
inline bool FigureProblem::congruent(const State& s, const PL& plan, const Step& st) const {
  MAGIC_FIGURE_UNROLL
  for (std::uint16_t c = st.cong0; c < st.cong0 + st.ncong; ++c) {
    const Congruence& g = plan.congruences[c];
    std::int64_t v = std::int64_t{g.a} * s.sum;
    MAGIC_FIGURE_UNROLL
    for (std::uint16_t t = g.term0; t < g.term0 + g.nterm; ++t)
      v += std::int64_t{plan.cterms[t].second} * (plan.nmin + s.off[plan.cterms[t].first]);
    if (!divides(g.d, v)) return false;
  }
  return true;
}

template <class Mode>
void FigureProblem::place(State& s, Mode& m) const {
  const Plan& plan = plans_[s.plan];
  place_with(s, plan, plan.steps[static_cast<std::size_t>(s.step - 1)], [&] { walk(s, m); });
}

template <class PL, class Next>
inline void FigureProblem::place_with(State& s, const PL& plan, const Step& st, Next&& next_step) const {
  const Place& pl = plan.places[st.first];
  std::uint64_t cand = plan.numbers & ~s.used & pl.allowed & (s.screened ? s.units : unit_filter(s, plan, st));
  if (pl.ordered) cand &= order_mask(s, pl);
  ScreenNode node;
  if (cand && st.nnext && !screen_node(s, plan, st, node)) return;
  const std::uint8_t screened = s.screened;
  const std::uint64_t units = s.units;
  for (; cand; cand &= cand - 1) {
    const int o = std::countr_zero(cand);
    std::uint64_t next = ~0ull;
    if (st.nnext && !screen(s, plan, st, node, o, next)) continue;
    if (!fits(s, pl, plan, o)) continue;
    put(s, pl, plan, o);
    if (put_determined(s, plan, st)) {
      if (congruent(s, plan, st) && ahead(s, plan, st)) {
        ++s.step;
        s.screened = st.screens_all && next != ~0ull;
        s.units = next;
        next_step();
        --s.step;
      }
      take_determined(s, plan, st);
    }
    take(s, pl, plan);
  }
  s.screened = screened;
  s.units = units;
}

// A compiled plan's steps (figure_compiled.hpp): the same code as place's,
// with the plan a constant and the step a template argument, so that the
// compiler folds the plan's tables into it.
template <class CP, int K, class Mode>
void FigureProblem::compiled_step(State& s, Mode& m) const {
  constexpr const CP& plan = kCompiledPlan<CP>;
  constexpr int kSteps = static_cast<int>(std::tuple_size_v<decltype(CP::steps)>);
  place_with(s, plan, plan.steps[K], [&] {
    if constexpr (K + 1 == kSteps) {
      if (!m.enter(s.step, true, s)) emit(s, m);
    } else {
      if (!m.enter(s.step, false, s)) compiled_step<CP, K + 1>(s, m);
    }
  });
}

// walk() past the root, on a compiled plan: a table of its steps.
template <class CP, class Mode>
void FigureProblem::compiled_walk(State& s, Mode& m) const {
  constexpr int kSteps = static_cast<int>(std::tuple_size_v<decltype(CP::steps)>);
  using Fn = void (FigureProblem::*)(State&, Mode&) const;
  static constexpr auto table = []<int... K>(std::integer_sequence<int, K...>) {
    return std::array<Fn, kSteps>{&FigureProblem::compiled_step<CP, K, Mode>...};
  }(std::make_integer_sequence<int, kSteps>{});
  (this->*table[static_cast<std::size_t>(s.step - 1)])(s, m);
}

#undef MAGIC_FIGURE_UNROLL
#undef MAGIC_FIGURE_INLINE

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

}  // namespace magic

namespace magic {
MAGIC_RUN_AS(extern, FigureProblem)  // its cut is compiled in figure_problem.cpp
}  // namespace magic
