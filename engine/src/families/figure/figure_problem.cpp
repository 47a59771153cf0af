// The figure problem's tables, plans and answers (figure/figure_problem.hpp).
#include "figure/figure_problem.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

#include "magic/core/error.hpp"

namespace magic {
namespace {

constexpr std::size_t kMaxPlans = 4096;
constexpr int kMaxSums = 100000;

std::vector<int> natural_base(int n) {
  std::vector<int> b(static_cast<std::size_t>(n));
  std::iota(b.begin(), b.end(), 0);
  return b;
}

std::vector<PointPerm> to_perms(const std::vector<std::vector<int>>& gens) {
  std::vector<PointPerm> out;
  for (const auto& g : gens) out.emplace_back(g.begin(), g.end());
  return out;
}

// Every set of at most `most` of the L lines, smallest first, as masks.
std::vector<std::uint64_t> missing_sets(int L, int most) {
  std::vector<std::uint64_t> out;
  auto add = [&](auto& self, int from, int left, std::uint64_t m) -> void {
    if (out.size() > kMaxPlans) return;
    if (left == 0) {
      out.push_back(m);
      return;
    }
    for (int l = from; l < L; ++l) self(self, l + 1, left - 1, m | 1ull << l);
  };
  for (int size = 0; size <= most; ++size) add(add, 0, size, 0);
  return out;
}

std::uint64_t lines_mask(int L) { return L >= 64 ? ~0ull : (1ull << L) - 1; }
std::uint64_t points_mask(int P) { return P >= 64 ? ~0ull : (1ull << P) - 1; }

}  // namespace

// Every point of an order, in the order placed: the Puget chain's base.
std::vector<int> FigureProblem::flatten(const std::vector<OrderStep>& order) {
  std::vector<int> out;
  for (const OrderStep& st : order) {
    if (st.free >= 0) out.push_back(st.free);
    for (const Determination& d : st.determined.points) out.push_back(d.point);
  }
  return out;
}

FigureProblem::FigureProblem(FigureSpec spec, bool algebra)
    : spec_(std::move(spec)),
      P_(spec_.n_points()),
      L_(spec_.n_lines()),
      min_(spec_.numbers.front()),
      span_(spec_.numbers.back() - spec_.numbers.front() + 1),
      all_numbers_(0),
      rall_numbers_(0),
      generators_(choose_group()),
      chain_(P_, generators_, natural_base(P_)),
      hashes_(P_, min_, span_, generators_, chain_.order()) {
  for (int v : spec_.numbers) all_numbers_ |= 1ull << (v - min_);
  rall_numbers_ = masks::reversed(all_numbers_);
  symmetric_numbers_ = std::all_of(spec_.numbers.begin(), spec_.numbers.end(), [&](int v) {
    return std::binary_search(spec_.numbers.begin(), spec_.numbers.end(), 2 * min_ + span_ - 1 - v);
  });
  line_length_ = L_ ? static_cast<int>(spec_.lines[0].size()) : 0;
  for (const auto& l : spec_.lines)
    if (static_cast<int>(l.size()) != line_length_) line_length_ = 0;
  const std::vector<std::uint64_t> sets = missing_sets(L_, L_ - spec_.k());
  if (sets.size() > kMaxPlans)
    throw SpecError("figure: with " + std::to_string(spec_.k()) + " of " + std::to_string(L_) +
                    " lines equal there are more than " + std::to_string(kMaxPlans) +
                    " ways to choose the lines that miss the sum; ask for more equal lines");
  // The elimination costs about L^2 (P + L) a point per plan; past a
  // budget the plans force points by single lines only (figure_algebra.hpp).
  const double algebra_cost = static_cast<double>(sets.size()) * P_ * L_ * L_ * (P_ + L_);
  algebra_ = algebra && algebra_cost <= 2e9;
  look_ahead_ = algebra_ && algebra_cost * P_ <= 2e9;
  std::vector<std::pair<int, int>> less;
  if (spec_.symmetry_breaking) {
    // The base is the all-lines plan's order, built with the pairs its own
    // prefix makes: the orbit of each placed point under the stabilizer of
    // those placed before it.
    const Pending by_chain = [&](const std::vector<int>& prefix) {
      std::vector<int> base = prefix;
      for (int p = 0; p < P_; ++p)
        if (std::find(prefix.begin(), prefix.end(), p) == prefix.end()) base.push_back(p);
      const StabilizerChain c(P_, generators_, base);
      std::uint64_t placed = 0, out = 0;
      for (int q : prefix) placed |= 1ull << q;
      // A level whose pairs none of the placed points checks yet.
      for (std::size_t i = 0; i < prefix.size(); ++i) {
        std::uint64_t rest = 0;
        for (int q : c.levels()[i].orbit) rest |= 1ull << q;
        rest &= ~(1ull << prefix[i]);
        if (!(rest & placed)) out |= rest;
      }
      return out;
    };
    base_order_ = point_order(0, by_chain);
    const StabilizerChain puget(P_, generators_, flatten(base_order_));
    less = puget.less_than_pairs();
    b_ = puget.levels()[0].base;
    for (int p : puget.levels()[0].orbit) orbit_b_ |= 1ull << p;
  }
  for (std::uint64_t m : sets) plans_.push_back(make_plan(m, less));
}

// The complement halves a sum's search (figure_problem.hpp): symmetric numbers,
// lines of one length m, m (min + max) = 2S, and b's orbit more than b.
bool FigureProblem::complements(int sum) const {
  return spec_.symmetry_breaking && symmetric_numbers_ && spec_.ranges.empty() && line_length_ > 0 &&
         std::popcount(orbit_b_) > 1 &&
         line_length_ * (2 * min_ + span_ - 1) == 2 * sum;
}

std::vector<PointPerm> FigureProblem::choose_group() {
  const std::vector<PointPerm> incidence = incidence_automorphisms(P_, spec_.lines);
  // The incidence order is only echoed, for comparison, unless it is the
  // group counted under: too large to count by (over 2^62) is then no
  // reason to refuse the figure (0: echoed as null).
  try {
    incidence_order_ = StabilizerChain(P_, incidence, natural_base(P_)).order();
  } catch (const SpecError&) {
    if (spec_.symmetry == FigureSymmetry::Incidence) throw;
    incidence_order_ = 0;
  }
  switch (spec_.symmetry) {
    case FigureSymmetry::None: group_source_ = "none"; return {};
    case FigureSymmetry::Generators: {
      std::vector<PointPerm> gens = to_perms(spec_.generators);
      for (std::size_t g = 0; g < gens.size(); ++g)
        if (!preserves_lines(gens[g], spec_.lines))
          throw SpecError("figure: symmetry generator " + std::to_string(g + 1) + " does not map lines onto lines");
      group_source_ = "generators";
      return gens;
    }
    case FigureSymmetry::Incidence: break;
  }
  group_source_ = "incidence";
  return incidence;
}

// The static order of one plan: the points the sum alone determines, then
// one free point a step and the points it determines.  pending(points so
// far): those whose placing would check a symmetry-breaking pair now (see
// the tie-breaks below).
std::vector<FigureProblem::OrderStep> FigureProblem::point_order(std::uint64_t missing, const Pending& pending) const {
  std::vector<int> open(static_cast<std::size_t>(L_));
  std::vector<std::vector<int>> through(static_cast<std::size_t>(P_));
  for (int l = 0; l < L_; ++l) {
    open[static_cast<std::size_t>(l)] = static_cast<int>(spec_.lines[static_cast<std::size_t>(l)].size());
    for (int p : spec_.lines[static_cast<std::size_t>(l)]) through[static_cast<std::size_t>(p)].push_back(l);
  }
  const std::uint64_t kept = lines_mask(L_) & ~missing;
  std::uint64_t placed = 0;
  std::vector<int> touched(static_cast<std::size_t>(L_), -1);  // when a point of the line was placed last
  std::vector<int> prefix;
  auto put = [&](int p) {
    placed |= 1ull << p;
    for (int l : through[static_cast<std::size_t>(p)]) {
      --open[static_cast<std::size_t>(l)];
      touched[static_cast<std::size_t>(l)] = static_cast<int>(prefix.size());
    }
    prefix.push_back(p);
  };
  auto determine = [&](OrderStep& st) {
    st.determined = determined_points(spec_.lines, kept, points_mask(P_) & ~placed, algebra_);
    for (const Determination& d : st.determined.points) put(d.point);
  };
  std::vector<OrderStep> order(1);
  determine(order[0]);
  while (static_cast<int>(prefix.size()) < P_) {
    // The point that determines the most others (when the figure is small
    // enough to try each: look_ahead_); then the point on the kept line
    // nearest to closing; then one that checks a symmetry-breaking pair at
    // once (the star's chain places both neighbours of V0 early for that);
    // then on the most such lines; then on the line touched last (so the
    // search follows a chain of lines, as the chain does); then on the
    // most lines.
    const std::uint64_t checks = pending ? pending(prefix) : 0;
    std::tuple<int, int, int, int, int, int> best{};
    int pick = -1;
    for (int p = 0; p < P_; ++p) {
      if (placed >> p & 1) continue;
      int least = 1 << 20, at_least = 0, latest = -1;
      for (int l : through[static_cast<std::size_t>(p)]) {
        if (!(kept >> l & 1)) continue;
        const int o = open[static_cast<std::size_t>(l)];
        if (o < least) least = o, at_least = 0;
        at_least += o == least;
        latest = std::max(latest, touched[static_cast<std::size_t>(l)]);
      }
      const int gain =
          look_ahead_ ? static_cast<int>(
                            determined_points(spec_.lines, kept, points_mask(P_) & ~placed & ~(1ull << p), true).points.size())
                      : 0;
      const std::tuple<int, int, int, int, int, int> score{gain, -least, static_cast<int>(checks >> p & 1), at_least, latest,
                                                      static_cast<int>(through[static_cast<std::size_t>(p)].size())};
      if (pick < 0 || score > best) best = score, pick = p;
    }
    OrderStep st{pick, {}};
    put(pick);
    determine(st);
    order.push_back(std::move(st));
  }
  return order;
}

FigureProblem::Plan FigureProblem::make_plan(std::uint64_t missing, const std::vector<std::pair<int, int>>& less) const {
  Plan plan;
  plan.nmin = min_;
  plan.nspan = span_;
  plan.numbers = all_numbers_;
  plan.rnumbers = rall_numbers_;
  plan.missing = missing;
  plan.sums = sums_for(missing);
  // Each plan's order meets the base's pairs early too.
  // The pairs (b, j) of one base point b: pending while no j is placed.
  std::vector<std::uint64_t> partners(static_cast<std::size_t>(P_));
  for (const auto& [a, b] : less) partners[static_cast<std::size_t>(a)] |= 1ull << b;
  const Pending by_pairs = [&](const std::vector<int>& prefix) {
    std::uint64_t done = 0, out = 0;
    for (int q : prefix) done |= 1ull << q;
    for (int b = 0; b < P_; ++b)
      if ((done >> b & 1) && !(partners[static_cast<std::size_t>(b)] & done)) out |= partners[static_cast<std::size_t>(b)];
    return out;
  };
  const auto order = missing == 0 && !base_order_.empty() ? base_order_ : point_order(missing, by_pairs);
  // With the kept lines independent and every determined point found, each
  // placement keeps the placed numbers extendable to a (rational) solution
  // of the kept lines: a free point is not constant on the solutions, a
  // determined one takes the value they all share.  So a kept line that
  // closes is at the sum already, and goes unchecked.
  bool implied = order[0].determined.independent;
  for (const OrderStep& os : order) implied = implied && os.determined.complete;
  std::vector<int> open(static_cast<std::size_t>(L_));
  for (int l = 0; l < L_; ++l) open[static_cast<std::size_t>(l)] = static_cast<int>(spec_.lines[static_cast<std::size_t>(l)].size());
  std::uint64_t placed = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const OrderStep& os = order[i];
    Step st;
    st.first = static_cast<std::uint16_t>(plan.places.size());
    st.free = os.free >= 0;
    if (st.free) add_place(plan, os.free, os.free, nullptr, implied, open, placed, less);
    const std::uint64_t before = placed;
    for (const Determination& d : os.determined.points)
      add_place(plan, os.free, d.point, &d, implied, open, placed, less, placed & ~before);
    st.count = static_cast<std::uint16_t>(plan.places.size() - st.first);
    if (i == 0) plan.prologue = st;
    else plan.steps.push_back(st);
  }
  const std::vector<std::size_t> step_of = steps_of_points(plan);
  hoist_congruences(plan, step_of);
  plan_lookaheads(plan, step_of);
  plan_screens(plan);
  return plan;
}

// A step screens its candidates by the next step's unit masks (Screen)
// when each of its places is u x + r in its free number x: its determined
// places are all unit ones.  The formulas of the next step's unit places
// read only points placed by now, so their numerators are linear in x.
void FigureProblem::plan_screens(Plan& plan) const {
  for (std::size_t i = 0; i + 1 < plan.steps.size(); ++i) {
    Step& st = plan.steps[i];
    const Step& next = plan.steps[i + 1];
    bool linear = st.free && st.count <= kScreenPlaces;
    for (std::uint16_t k = 1; k < st.count; ++k) linear = linear && plan.places[st.first + k].unit != 0;
    if (!linear || !next.free) continue;
    st.next0 = static_cast<std::uint16_t>(plan.screens.size());
    for (std::uint16_t k = 1; k < next.count && plan.screens.size() - st.next0 < kScreens; ++k) {
      const Place& q = plan.places[next.first + k];
      if (q.unit == 0) continue;
      Screen sc{static_cast<std::uint16_t>(next.first + k), 0, static_cast<std::uint16_t>(plan.kappas.size())};
      for (std::uint16_t j = 0; j < st.count; ++j) {
        const Place& p = plan.places[st.first + j];
        std::int32_t kappa = 0;  // the sum of lambda over q's lines through p
        for (std::uint16_t t = q.term0; t < q.term0 + q.nterm; ++t)
          for (std::uint16_t r = p.line0; r < p.line0 + p.nline; ++r)
            if (plan.lines[r] == plan.terms[t].line) kappa += plan.terms[t].lambda;
        plan.kappas.push_back(kappa);
        sc.alpha += kappa * (j == 0 ? 1 : p.unit);
      }
      plan.screens.push_back(sc);
    }
    st.nnext = static_cast<std::uint16_t>(plan.screens.size() - st.next0);
    std::size_t units = 0;
    for (std::uint16_t k = 1; k < next.count; ++k) units += plan.places[next.first + k].unit != 0;
    st.screens_all = st.nnext == units;
  }
}

FigureProblem::Step& FigureProblem::step_at(Plan& plan, std::size_t i) {
  return i == 0 ? plan.prologue : plan.steps[i - 1];
}

// The step (0: the prologue) that places each point.
std::vector<std::size_t> FigureProblem::steps_of_points(Plan& plan) const {
  std::vector<std::size_t> step_of(static_cast<std::size_t>(P_));
  for (std::size_t i = 0; i <= plan.steps.size(); ++i) {
    const Step& st = step_at(plan, i);
    for (std::uint16_t k = st.first; k < st.first + st.count; ++k) step_of[plan.places[k].point] = i;
  }
  return step_of;
}

// A determined place's formula, d x = sum of lambda_l (S - part_l), as its
// net coefficient on each point: minus the sum of lambda over its lines.
std::vector<std::int64_t> FigureProblem::weights(const Plan& plan, const Place& pl) const {
  std::vector<std::int64_t> w(static_cast<std::size_t>(P_));
  for (std::uint16_t t = pl.term0; t < pl.term0 + pl.nterm; ++t)
    for (int p : spec_.lines[plan.terms[t].line]) w[static_cast<std::size_t>(p)] -= plan.terms[t].lambda;
  return w;
}

// Each step's unit masks and pairs, moved as early as the points they read
// allow (at least two steps early: the step before does them itself).
// One Lookahead at each step where another of them becomes known, with
// all of the target's known by then: the chain's test that its last pick
// still has a candidate, before the picks between.
void FigureProblem::plan_lookaheads(Plan& plan, const std::vector<std::size_t>& step_of) const {
  const std::size_t n_steps = plan.steps.size() + 1;  // 0: the prologue
  auto latest = [&](std::uint64_t points) {
    std::size_t t = 0;
    for (; points; points &= points - 1) t = std::max(t, step_of[static_cast<std::size_t>(std::countr_zero(points))]);
    return t;
  };
  std::vector<std::vector<Lookahead>> at(n_steps);
  std::vector<std::vector<std::vector<std::uint16_t>>> places_at(n_steps);
  for (std::size_t t = 2; t < n_steps; ++t) {
    const Step& st = step_at(plan, t);
    const Place& target = plan.places[st.first];
    // (when known, place index) of each unit mask
    std::vector<std::pair<std::size_t, std::uint16_t>> known;
    for (std::uint16_t k = st.first + 1; k < st.first + st.count; ++k) {
      const Place& pl = plan.places[k];
      if (pl.unit == 0) continue;
      const std::vector<std::int64_t> w = weights(plan, pl);
      std::uint64_t reads = 0;
      for (int p = 0; p < P_; ++p)
        if (w[static_cast<std::size_t>(p)] != 0 && p != pl.point && p != target.point) reads |= 1ull << p;
      if (const std::size_t when = latest(reads); when + 2 <= t) known.emplace_back(when, k);
    }
    const std::uint64_t pairs = target.above | target.below | target.capped;
    const std::size_t pairs_known = pairs ? latest(pairs) : n_steps;
    std::vector<std::size_t> whens;
    for (const auto& [when, k] : known) whens.push_back(when);
    if (pairs_known + 2 <= t) whens.push_back(pairs_known);
    std::sort(whens.begin(), whens.end());
    whens.erase(std::unique(whens.begin(), whens.end()), whens.end());
    for (std::size_t when : whens) {
      std::vector<std::uint16_t> fs;
      for (const auto& [w2, k] : known)
        if (w2 <= when) fs.push_back(k);
      at[when].push_back(Lookahead{st.first, pairs_known <= when, 0, 0});
      places_at[when].push_back(std::move(fs));
    }
  }
  for (std::size_t i = 0; i < n_steps; ++i) {
    Step& st = step_at(plan, i);
    st.ahead0 = static_cast<std::uint16_t>(plan.aheads.size());
    for (std::size_t a = 0; a < at[i].size(); ++a) {
      Lookahead la = at[i][a];
      la.f0 = static_cast<std::uint16_t>(plan.ahead_places.size());
      plan.ahead_places.insert(plan.ahead_places.end(), places_at[i][a].begin(), places_at[i][a].end());
      la.nf = static_cast<std::uint16_t>(plan.ahead_places.size() - la.f0);
      plan.aheads.push_back(la);
    }
    st.nahead = static_cast<std::uint16_t>(plan.aheads.size() - st.ahead0);
  }
}

// A point determined with d > 1 needs d to divide its formula's value:
// a S + sum of w_p x_p = 0 (mod d) over the points placed before it.  Only
// the points with w_p != 0 (mod d) matter, and they may all be placed a
// step or more earlier: the check moves there, and prunes every step
// between.
void FigureProblem::hoist_congruences(Plan& plan, const std::vector<std::size_t>& step_of) const {
  const std::size_t n_steps = plan.steps.size() + 1;  // 0: the prologue
  using Terms = std::vector<std::pair<std::uint8_t, std::int32_t>>;
  std::vector<std::vector<std::pair<Congruence, Terms>>> at(n_steps);
  for (std::size_t i = 0; i < n_steps; ++i) {
    const Step& st = step_at(plan, i);
    for (std::uint16_t k = st.first; k < st.first + st.count; ++k) {
      const Place& pl = plan.places[k];
      if (pl.d == 1) continue;
      std::vector<std::int64_t> w = weights(plan, pl);
      w[pl.point] = 0;
      Terms terms;
      std::size_t when = 0;
      for (int p = 0; p < P_; ++p) {
        const std::int64_t r = ((w[static_cast<std::size_t>(p)] % pl.d) + pl.d) % pl.d;
        if (r == 0) continue;
        terms.emplace_back(static_cast<std::uint8_t>(p), static_cast<std::int32_t>(r));
        when = std::max(when, step_of[static_cast<std::size_t>(p)]);
      }
      if (when >= i) continue;  // the test at the point itself is as early
      at[when].emplace_back(Congruence{pl.d, static_cast<std::int32_t>(((pl.lsum % pl.d) + pl.d) % pl.d), 0, 0},
                            std::move(terms));
    }
  }
  for (std::size_t i = 0; i < n_steps; ++i) {
    Step& st = step_at(plan, i);
    st.cong0 = static_cast<std::uint16_t>(plan.congruences.size());
    for (auto& [g, terms] : at[i]) {
      g.term0 = static_cast<std::uint16_t>(plan.cterms.size());
      plan.cterms.insert(plan.cterms.end(), terms.begin(), terms.end());
      g.nterm = static_cast<std::uint16_t>(plan.cterms.size() - g.term0);
      plan.congruences.push_back(g);
    }
    st.ncong = static_cast<std::uint16_t>(plan.congruences.size() - st.cong0);
  }
}

// Appends one place: its lines and their checks, its symmetry-breaking
// pairs with the points placed before it, and (determined) its formula.
// `implied`: kept lines close at the sum without a check (make_plan).
void FigureProblem::add_place(Plan& plan, int free, int point, const Determination* det, bool implied,
                              std::vector<int>& open, std::uint64_t& placed,
                              const std::vector<std::pair<int, int>>& less, std::uint64_t same_step) const {
  Place pl;
  pl.point = static_cast<std::uint8_t>(point);
  for (const auto& [a, b] : less) {
    if (b == point && (placed >> a & 1)) pl.above |= 1ull << a;
    if (a == point && (placed >> b & 1)) pl.below |= 1ull << b;
  }
  // The complement's pairs: b with each other point of its orbit.
  if (point == b_) pl.capped = orbit_b_ & placed;
  else if ((orbit_b_ >> point & 1) && (placed >> b_ & 1)) pl.capped = 1ull << b_;
  pl.ordered = (pl.above | pl.below | pl.capped) != 0;
  if (!spec_.ranges.empty()) {
    const auto [lo, hi] = spec_.ranges[static_cast<std::size_t>(point)];
    pl.allowed = range_mask(lo, hi, min_, span_);
  }
  const bool one_line = det && det->d == 1 && det->lambda.size() == 1 && det->lambda[0].second == 1;
  pl.line0 = static_cast<std::uint16_t>(plan.lines.size());
  pl.check0 = static_cast<std::uint16_t>(plan.checks.size());
  for (int l = 0; l < L_; ++l) {
    const auto& line = spec_.lines[static_cast<std::size_t>(l)];
    if (std::find(line.begin(), line.end(), point) == line.end()) continue;
    plan.lines.push_back(static_cast<std::uint8_t>(l));
    const int left = --open[static_cast<std::size_t>(l)];
    const bool kept = !(plan.missing >> l & 1);
    const LineCheck ch{static_cast<std::uint8_t>(l), static_cast<std::uint8_t>(left),
                       !kept ? kMissed : left == 0 ? kClosed : left == 2 ? kPair : kBounds};
    if (!kept && left > 0) continue;
    if (kept && left == 1) continue;  // its last point is determined, in this step
    if (kept && left == 0 && (implied || (one_line && det->lambda[0].first == l))) continue;
    plan.checks.push_back(ch);
  }
  pl.nline = static_cast<std::uint16_t>(plan.lines.size() - pl.line0);
  pl.ncheck = static_cast<std::uint16_t>(plan.checks.size() - pl.check0);
  if (det) {
    pl.d = static_cast<std::int32_t>(det->d);
    if (one_line) pl.line = static_cast<std::int16_t>(det->lambda[0].first);
    pl.term0 = static_cast<std::uint16_t>(plan.terms.size());
    // The formula's net coefficient on each point, times d.  The unit mask
    // is evaluated before the step places anything, so it needs the
    // formula to read none of the points determined earlier in the step
    // (true of the algebra's; a chain of single lines may read them).
    for (const auto& [l, lambda] : det->lambda) {
      pl.lsum += static_cast<std::int32_t>(lambda);
      plan.terms.push_back(Term{static_cast<std::uint8_t>(l), static_cast<std::int32_t>(lambda)});
    }
    pl.nterm = static_cast<std::uint16_t>(plan.terms.size() - pl.term0);
    const std::vector<std::int64_t> w = weights(plan, pl);
    bool reads_step = false;
    for (std::uint64_t b = same_step; b; b &= b - 1) reads_step = reads_step || w[static_cast<std::size_t>(std::countr_zero(b))] != 0;
    const std::int64_t on_free = free >= 0 ? w[static_cast<std::size_t>(free)] : 0;
    if (!reads_step && (on_free == det->d || on_free == -det->d)) pl.unit = static_cast<std::int8_t>(on_free / det->d);
  }
  plan.places.push_back(pl);
  placed |= 1ull << point;
}

// The sums a plan tries: the fixed one, or those its kept lines can reach.
// When every number is placed and every point is on r kept lines, the kept
// lines together hold r times the numbers' total: one sum.
std::vector<int> FigureProblem::sums_for(std::uint64_t missing) const {
  // No line (a family's figure of an edgeless graph): every labelling, its sum 0.
  if (L_ == 0) return spec_.sum ? std::vector<int>{} : std::vector<int>{0};
  int lo = 0, hi = 1 << 30, n_kept = 0;
  std::vector<int> degree(static_cast<std::size_t>(P_));
  for (int l = 0; l < L_; ++l) {
    if (missing >> l & 1) continue;
    ++n_kept;
    const auto& line = spec_.lines[static_cast<std::size_t>(l)];
    const int k = static_cast<int>(line.size());
    lo = std::max(lo, masks::low_sum(all_numbers_, k) + k * min_);
    hi = std::min(hi, masks::high_sum(all_numbers_, k) + k * min_);
    for (int p : line) ++degree[static_cast<std::size_t>(p)];
  }
  if (spec_.sum) {
    if (*spec_.sum < lo || *spec_.sum > hi) return {};
    return {*spec_.sum};
  }
  if (lo > hi) return {};
  const bool regular = std::all_of(degree.begin(), degree.end(), [&](int d) { return d == degree[0]; });
  if (static_cast<std::size_t>(P_) == spec_.numbers.size() && regular) {
    const long long total = std::accumulate(spec_.numbers.begin(), spec_.numbers.end(), 0LL) * degree[0];
    if (total % n_kept != 0) return {};
    const long long S = total / n_kept;
    if (S < lo || S > hi) return {};
    return {static_cast<int>(S)};
  }
  if (hi - lo + 1 > kMaxSums)
    throw SpecError("figure: the lines could share any of " + std::to_string(hi - lo + 1) + " sums (" +
                    std::to_string(lo) + ".." + std::to_string(hi) + "); fix the sum");
  std::vector<int> out(static_cast<std::size_t>(hi - lo + 1));
  std::iota(out.begin(), out.end(), lo);
  return out;
}

FigureValues FigureProblem::values_of(const State& s) const {
  Solution sol;
  for (int p = 0; p < P_; ++p) sol[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(min_ + s.off[static_cast<std::size_t>(p)]);
  return sol;
}

void FigureProblem::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> ex{sink, depth};
  State s{};
  walk(s, ex);
}

std::vector<int> FigureProblem::line_sums(const Solution& s) const {
  std::vector<int> out;
  for (const auto& l : spec_.lines) {
    int sum = 0;
    for (int p : l) sum += s[static_cast<std::size_t>(p)];
    out.push_back(sum);
  }
  return out;
}

std::int64_t FigureProblem::key(const Solution& s) const {
  const std::vector<int> sums = line_sums(s);
  for (int v : sums)
    if (std::count(sums.begin(), sums.end(), v) >= spec_.k()) return v;
  return 0;
}

nlohmann::json FigureProblem::to_json(const Solution& s) const {
  return {{"points", std::vector<int>(s.v.begin(), s.v.begin() + P_)}, {"sum", key(s)}, {"line_sums", line_sums(s)}};
}

nlohmann::json FigureProblem::describe() const {
  nlohmann::json j{{"name", "figure"}};
  if (!spec_.builtin.empty()) j["builtin"] = spec_.builtin;
  j["figure"] = figure_file_json(spec_);
  j["equal_lines"] = spec_.k();
  if (!spec_.symmetry_breaking) j["symmetry_breaking"] = false;
  nlohmann::json gens = nlohmann::json::array();
  for (const PointPerm& g : generators_) gens.push_back(std::vector<int>(g.begin(), g.end()));
  j["group"] = {{"source", group_source_},
                {"order", chain_.order()},
                {"incidence_order", incidence_order_ ? nlohmann::json(incidence_order_) : nlohmann::json()},
                {"generators", gens}};
  return j;
}

}  // namespace magic
