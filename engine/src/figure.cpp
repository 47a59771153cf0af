// The figure problem's tables, plans and answers (magic/figure.hpp).
#include "magic/figure.hpp"

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

}  // namespace

FigureProblem::FigureProblem(FigureSpec spec)
    : spec_(std::move(spec)),
      P_(spec_.n_points()),
      L_(spec_.n_lines()),
      min_(spec_.numbers.front()),
      span_(spec_.numbers.back() - spec_.numbers.front() + 1),
      all_numbers_(0),
      rall_numbers_(0),
      generators_(choose_group()),
      chain_(P_, generators_, natural_base(P_)) {
  for (int v : spec_.numbers) all_numbers_ |= 1ull << (v - min_);
  rall_numbers_ = masks::reversed(all_numbers_);
  symmetric_numbers_ = std::all_of(spec_.numbers.begin(), spec_.numbers.end(), [&](int v) {
    return std::binary_search(spec_.numbers.begin(), spec_.numbers.end(), 2 * min_ + span_ - 1 - v);
  });
  line_length_ = static_cast<int>(spec_.lines[0].size());
  for (const auto& l : spec_.lines)
    if (static_cast<int>(l.size()) != line_length_) line_length_ = 0;
  const std::vector<std::uint64_t> sets = missing_sets(L_, L_ - spec_.k());
  if (sets.size() > kMaxPlans)
    throw SpecError("figure: with " + std::to_string(spec_.k()) + " of " + std::to_string(L_) +
                    " lines equal there are more than " + std::to_string(kMaxPlans) +
                    " ways to choose the lines that miss the sum; ask for more equal lines");
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
    std::vector<int> base;
    for (const auto& [p, forced] : base_order_) base.push_back(p);
    const StabilizerChain puget(P_, generators_, base);
    less = puget.less_than_pairs();
    b_ = base[0];
    for (int p : puget.levels()[0].orbit) orbit_b_ |= 1ull << p;
  }
  for (std::uint64_t m : sets) plans_.push_back(make_plan(m, less));
}

// The complement halves a sum's search (figure.hpp): symmetric numbers,
// lines of one length m, m (min + max) = 2S, and b's orbit more than b.
bool FigureProblem::complements(int sum) const {
  return spec_.symmetry_breaking && symmetric_numbers_ && line_length_ > 0 && std::popcount(orbit_b_) > 1 &&
         line_length_ * (2 * min_ + span_ - 1) == 2 * sum;
}

std::vector<PointPerm> FigureProblem::choose_group() {
  const std::vector<PointPerm> incidence = incidence_automorphisms(P_, spec_.lines);
  incidence_order_ = StabilizerChain(P_, incidence, natural_base(P_)).order();
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

// The static point order of one plan; a point forced by a kept line names it.
// pending(order so far): the points whose placing would check a
// symmetry-breaking pair now (see the tie-breaks below).
std::vector<std::pair<int, int>> FigureProblem::point_order(std::uint64_t missing, const Pending& pending) const {
  std::vector<int> open(static_cast<std::size_t>(L_));
  std::vector<std::vector<int>> through(static_cast<std::size_t>(P_));
  for (int l = 0; l < L_; ++l) {
    open[static_cast<std::size_t>(l)] = static_cast<int>(spec_.lines[static_cast<std::size_t>(l)].size());
    for (int p : spec_.lines[static_cast<std::size_t>(l)]) through[static_cast<std::size_t>(p)].push_back(l);
  }
  auto kept = [&](int l) { return !(missing >> l & 1); };
  std::vector<bool> placed(static_cast<std::size_t>(P_));
  std::vector<int> touched(static_cast<std::size_t>(L_), -1);  // the step that last placed a point of the line
  std::vector<std::pair<int, int>> order;
  std::vector<int> prefix;
  while (static_cast<int>(order.size()) < P_) {
    int pick = -1, forced = -1;
    for (int l = 0; l < L_ && pick < 0; ++l)
      if (kept(l) && open[static_cast<std::size_t>(l)] == 1)
        for (int p : spec_.lines[static_cast<std::size_t>(l)])
          if (!placed[static_cast<std::size_t>(p)]) pick = p, forced = l;
    if (pick < 0) {
      // The point on the kept line nearest to closing; then one that
      // checks a symmetry-breaking pair at once (the star's chain places
      // both neighbours of V0 early for that); then on the most such
      // lines; then on the line touched last (so the search follows a
      // chain of lines, as the chain does); then on the most lines.
      const std::uint64_t checks = pending ? pending(prefix) : 0;
      std::tuple<int, int, int, int, int> best{};
      for (int p = 0; p < P_; ++p) {
        if (placed[static_cast<std::size_t>(p)]) continue;
        int least = 1 << 20, at_least = 0, latest = -1;
        for (int l : through[static_cast<std::size_t>(p)]) {
          if (!kept(l)) continue;
          const int o = open[static_cast<std::size_t>(l)];
          if (o < least) least = o, at_least = 0;
          at_least += o == least;
          latest = std::max(latest, touched[static_cast<std::size_t>(l)]);
        }
        const std::tuple<int, int, int, int, int> score{-least, static_cast<int>(checks >> p & 1), at_least, latest,
                                                        static_cast<int>(through[static_cast<std::size_t>(p)].size())};
        if (pick < 0 || score > best) best = score, pick = p;
      }
    }
    placed[static_cast<std::size_t>(pick)] = true;
    for (int l : through[static_cast<std::size_t>(pick)]) {
      --open[static_cast<std::size_t>(l)];
      touched[static_cast<std::size_t>(l)] = static_cast<int>(order.size());
    }
    order.emplace_back(pick, forced);
    prefix.push_back(pick);
  }
  return order;
}

FigureProblem::Plan FigureProblem::make_plan(std::uint64_t missing, const std::vector<std::pair<int, int>>& less) const {
  Plan plan;
  plan.missing = missing;
  plan.sums = sums_for(missing);
  std::vector<int> open(static_cast<std::size_t>(L_));
  for (int l = 0; l < L_; ++l) open[static_cast<std::size_t>(l)] = static_cast<int>(spec_.lines[static_cast<std::size_t>(l)].size());
  std::uint64_t placed = 0;
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
  for (const auto& [p, forced] : order) {
    Step st{};
    st.point = static_cast<std::uint8_t>(p);
    st.forced_by = static_cast<std::int8_t>(forced);
    for (const auto& [a, b] : less) {
      if (b == p && (placed >> a & 1)) st.above |= 1ull << a;
      if (a == p && (placed >> b & 1)) st.below |= 1ull << b;
    }
    // The complement's pairs: b with each other point of its orbit.
    if (p == b_) st.capped = orbit_b_ & placed;
    else if ((orbit_b_ >> p & 1) && (placed >> b_ & 1)) st.capped = 1ull << b_;
    st.ref0 = static_cast<std::uint16_t>(plan.refs.size());
    for (int l = 0; l < L_; ++l) {
      const auto& line = spec_.lines[static_cast<std::size_t>(l)];
      if (std::find(line.begin(), line.end(), p) == line.end()) continue;
      const int left = --open[static_cast<std::size_t>(l)];
      plan.refs.push_back(LineRef{static_cast<std::uint8_t>(l), static_cast<std::uint8_t>(left), !(missing >> l & 1)});
    }
    st.nref = static_cast<std::uint16_t>(plan.refs.size() - st.ref0);
    plan.steps.push_back(st);
    placed |= 1ull << p;
  }
  return plan;
}

// The sums a plan tries: the fixed one, or those its kept lines can reach.
// When every number is placed and every point is on r kept lines, the kept
// lines together hold r times the numbers' total: one sum.
std::vector<int> FigureProblem::sums_for(std::uint64_t missing) const {
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

bool FigureProblem::has_pair(std::uint64_t f, std::uint64_t rf, int r) {
  std::uint64_t m = f & masks::partner(rf, r);
  if (r % 2 == 0 && r >= 0 && r / 2 < 64) m &= ~(1ull << (r / 2));
  return m != 0;
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
                {"incidence_order", incidence_order_},
                {"generators", gens}};
  return j;
}

}  // namespace magic
