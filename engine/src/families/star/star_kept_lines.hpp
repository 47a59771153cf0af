#pragma once
// The kept-lines solver: K < n, the default (and any K, as a cross-check
// of the chain).
//
// K < n (kept-lines, the default): every arrangement has one exact set E of
// lines with the common sum S (unique, as |E| >= K > n/2).  The search runs
// once per class of E under the symmetries and per S, in a point order made
// for that E: a line of E with one unknown forces it, points that several
// lines of E fix together are solved (found by elimination), and each choice
// is filtered by masks on the values it forces, as in the chain.  The lines
// outside E must end with another sum.  E = all lines is the chain search.
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "magic/core/problem.hpp"
#include "star/star_chain.hpp"
#include "star/star_tables.hpp"

namespace magic {

template <int N>
class StarKeptLines : StarPoints<N> {
  using P = StarPoints<N>;
  using P::I;
  using P::kPoints;
  using P::V;

 public:
  using State = StarState<N>;
  using Solution = typename StarTables<N>::Solution;

  // Above this many bytes of plans, a plan is rebuilt per task instead (large
  // n with small K, where a task is long anyway).
  static constexpr std::size_t kMaxPlanBytes = std::size_t{8} << 20;

  // max_plan_bytes: see kMaxPlanBytes (tests lower it to reach the per-task plans).
  StarKeptLines(const StarTables<N>& t, const StarChain<N>& chain, std::size_t max_plan_bytes)
      : t_(&t), chain_(&chain), point_lines_(t.point_lines), max_plan_bytes_(max_plan_bytes) {
    plan();
  }
  StarKeptLines(const StarKeptLines& o, const StarTables<N>& t, const StarChain<N>& chain)
      : t_(&t),
        chain_(&chain),
        point_lines_(o.point_lines_),
        max_plan_bytes_(o.max_plan_bytes_),
        classes_(o.classes_),
        kept_sums_(o.kept_sums_),
        plans_(o.plans_) {}
  StarKeptLines(const StarKeptLines&) = delete;
  StarKeptLines& operator=(const StarKeptLines&) = delete;

 private:
  // ---- kept-lines solver (K < n) -------------------------------------------
  //
  // The equal set E is fixed first, up to the symmetries (a class of line
  // sets), then S, then the points in an order made for E.  The arrangements
  // with equal set E0 fall into orbits of Stab(E0), the symmetries that keep
  // E0; the search keeps the lexicographically smallest member (in placement
  // order) of each.  Against g in Stab(E0) that is decided at the first point
  // q that g moves: x[q] < x[g q] (over the whole group this is the same as
  // comparing with g^-1).  So each such g is one inequality between two
  // points, checked where the later one is placed.  A found arrangement is
  // emitted as the member of its orbit the other solvers emit (V0 the
  // smallest vertex, I0 < I(n-1)), or as all 2n images.
  //
  // A plan is a list of ops, one per point: a Pick is a choice (a split
  // level); a Forced point is the last unknown of a line with a known sum; a
  // Solved point is fixed by several such lines together (the chain's 3x3
  // solve, found here by elimination).  A Pick and the ops after it up to
  // the next Pick are placed together, and since each of their values is
  // a + k * pick, most dead picks are cut by masks before any is placed.

  enum class KOpKind : std::uint8_t { Pick, Forced, Solved };
  struct KOp {
    std::uint64_t above = 0;  // placed points this point's value must exceed
    std::uint32_t eq = 0;     // lines this point completes that must sum to S (the forcing line aside)
    std::uint32_t ne = 0;     // lines this point completes that must not
    std::uint32_t pairs = 0;  // Pick: lines left with two unknowns once its ops are placed
    std::uint32_t lines = 0;  // Solved: den * value = sum of coef[l] * need(l) over these
    std::array<std::int8_t, N> coef{};
    std::int8_t den = 1;
    std::uint8_t point = 0;
    std::uint8_t line = 0;    // Forced: the line that forces the point
    KOpKind kind = KOpKind::Pick;
    std::uint8_t level = 0;   // Pick: the split level
    bool last = false;        // the last Pick: its node is a leaf
  };
  // One per class of E: the points in order.
  struct KeptPlan {
    std::array<KOp, kPoints> ops{};
  };
  struct KeptClass {
    std::uint32_t dropped;  // lines outside E
    int n_dropped;
  };

  // Line l under rotation by r after an optional mirror through V0.
  static constexpr int map_line(int l, int r, bool f) { return V((f ? -l - 2 : l) + r); }
  static constexpr int map_point(int p, int r, bool f) {
    return p < N ? V((f ? -p : p) + r) : I((f ? -(p - N) - 1 : p - N) + r);
  }
  static constexpr std::uint32_t map_lines(std::uint32_t set, int r, bool f) {
    std::uint32_t out = 0;
    for (; set; set &= set - 1) out |= 1u << map_line(std::countr_zero(set), r, f);
    return out;
  }

  void plan() {
    for (int d = 0; d <= t_->budget; ++d) {
      // The d-line sets in increasing order (Gosper's hack).
      for (std::uint32_t set = (1u << d) - 1; set < (1u << N);) {
        if (is_class_rep(set)) classes_.push_back({set, d});
        if (set == 0) break;
        const std::uint32_t low = set & -set, up = set + low;
        set = up | (((set ^ up) >> 2) / low);
      }
      kept_sums_.push_back(kept_sums(d));
    }
    if (classes_.size() * sizeof(KeptPlan) <= max_plan_bytes_)
      for (const KeptClass& c : classes_) plans_.push_back(c.dropped ? make_kept_plan(c.dropped) : KeptPlan{});
  }

  // The smallest of its images, as a bit pattern, represents a class.
  // Rotations are bit rotations; the mirror is done once.
  static bool is_class_rep(std::uint32_t set) {
    constexpr std::uint32_t all = (1u << N) - 1;
    for (std::uint32_t img : {set, map_lines(set, 0, true)})
      for (int r = 0; r < N; ++r)
        if ((((img << r) | (img >> (N - r))) & all) < set) return false;
    return true;
  }

  // Sums (positions) for d lines outside E.  The n line sums add up to twice
  // the 2n numbers used, so (n - d) * S plus the d other sums lies between
  // twice the smallest and twice the largest total of 2n numbers.
  std::vector<int> kept_sums(int d) const {
    if (d == 0) return sums_for_all_equal();
    const auto b = t_->sum_bounds();
    std::vector<int> out;
    for (int s = b.lo4; s <= b.hi4; ++s) {
      if (t_->spec.sum && s != *t_->spec.sum) continue;
      const int rest_lo = 2 * b.lo2n - (N - d) * s, rest_hi = 2 * b.hi2n - (N - d) * s;
      if (rest_hi < d * b.lo4 || rest_lo > d * b.hi4) continue;
      // One other line, all numbers used: its sum is fixed and must differ.
      if (d == 1 && t_->all_used && rest_lo == s) continue;
      out.push_back(s - 4 * t_->base);
    }
    return out;
  }
  std::vector<int> sums_for_all_equal() const {
    if (t_->budget == 0) return t_->sums;
    const auto b = t_->sum_bounds();
    std::vector<int> out;
    for (int s : t_->sums)
      if (t_->fits_all_equal(s + 4 * t_->base, b)) out.push_back(s);
    return out;
  }

  // The lines whose sum is not known.  With every number used and one line
  // dropped, the n sums add up to twice the total, so the dropped line's is
  // known too: D = 2T - (n-1)S, and the search closes it like a kept line.
  std::uint32_t open_lines(std::uint32_t dropped) const {
    return t_->all_used && std::popcount(dropped) == 1 ? 0 : dropped;
  }

  // Greedy: a line with a known sum and one unknown point forces it; points
  // the lines with known sums fix together are solved; a line with two
  // unknowns is closed next (pick one, the line forces the other); otherwise
  // pick a point that completes a symmetry inequality (it halves what
  // follows), else the point that advances the lines most.
  KeptPlan make_kept_plan(std::uint32_t dropped) const {
    KeptPlan plan;
    const auto stab = stabilizer(dropped);
    const std::uint32_t open = open_lines(dropped);
    PlanBoard b{open};
    int k = 0;
    auto put = [&](int p, KOpKind kind) -> KOp& {
      KOp& op = plan.ops[k++];
      op = KOp{.point = std::uint8_t(p), .kind = kind};
      b.place(p, point_lines_);
      return op;
    };
    while (k < kPoints) {
      if (const int l = b.line_with(1); l >= 0) {
        put(b.open_points(l)[0], KOpKind::Forced).line = static_cast<std::uint8_t>(l);
      } else if (const KOp sv = solved_point(b); sv.lines) {
        KOp& op = put(sv.point, KOpKind::Solved);
        op.lines = sv.lines;
        op.coef = sv.coef;
        op.den = sv.den;
      } else if (const int two = best_pair_line(b); two >= 0) {
        put(b.open_points(two)[0], KOpKind::Pick);  // the line forces the other next
      } else {
        put(best_free_point(b, stab), KOpKind::Pick);
      }
    }
    finish_plan(plan, dropped, open);
    return plan;
  }

  // Which points are placed and how many each line still lacks.
  struct PlanBoard {
    std::uint32_t open;  // lines with no known sum
    std::uint64_t placed = 0;
    std::array<int, N> unknown = filled(4);

    static std::array<int, N> filled(int v) {
      std::array<int, N> a;
      a.fill(v);
      return a;
    }
    bool known(int l) const { return !(open >> l & 1); }
    void place(int p, const std::array<std::array<std::uint8_t, 2>, kPoints>& lines) {
      placed |= 1ull << p;
      for (int l : lines[p]) --unknown[l];
    }
    std::array<int, 4> open_points(int l) const {
      std::array<int, 4> out{};
      int c = 0;
      for (int q : star_line_points(N, l))
        if (!(placed >> q & 1)) out[c++] = q;
      return out;
    }
    // The first line with a known sum and u unknowns, or -1.
    int line_with(int u) const {
      for (int l = 0; l < N; ++l)
        if (known(l) && unknown[l] == u) return l;
      return -1;
    }
  };

  // A point the lines with known sums fix, as den * value = sum of coef[l]
  // * need(l), by Gauss-Jordan elimination over the unknown points (integer
  // rows, each carrying the combination of lines it stands for); none: a
  // KOp with no lines.  Combinations too large for the op are left alone:
  // the point is then picked, and its lines checked when complete.
  KOp solved_point(const PlanBoard& b) const {
    struct Row {
      std::array<long long, kPoints> x{};  // coefficients of the unknown points
      std::array<long long, N> c{};        // the combination of lines
    };
    std::vector<Row> rows;
    for (int l = 0; l < N; ++l) {
      if (!b.known(l) || b.unknown[l] == 0) continue;
      Row r;
      for (int q : star_line_points(N, l))
        if (!(b.placed >> q & 1)) r.x[q] = 1;
      r.c[l] = 1;
      rows.push_back(r);
    }
    std::size_t rank = 0;
    for (int col = 0; col < kPoints && rank < rows.size(); ++col) {
      std::size_t piv = rank;
      while (piv < rows.size() && rows[piv].x[col] == 0) ++piv;
      if (piv == rows.size()) continue;
      std::swap(rows[piv], rows[rank]);
      const Row& pr = rows[rank];
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == rank || rows[i].x[col] == 0) continue;
        Row& r = rows[i];
        const long long a = pr.x[col], f = r.x[col];
        long long g = 0;
        for (int q = 0; q < kPoints; ++q) g = std::gcd(g, r.x[q] = r.x[q] * a - pr.x[q] * f);
        for (int l = 0; l < N; ++l) g = std::gcd(g, r.c[l] = r.c[l] * a - pr.c[l] * f);
        if (g > 1) {
          for (auto& e : r.x) e /= g;
          for (auto& e : r.c) e /= g;
        }
      }
      ++rank;
    }
    for (const Row& r : rows) {
      int point = -1, nonzero = 0;
      for (int q = 0; q < kPoints; ++q)
        if (r.x[q] != 0) point = q, ++nonzero;
      if (nonzero != 1) continue;
      KOp op{.point = static_cast<std::uint8_t>(point)};
      const long long sign = r.x[point] < 0 ? -1 : 1;
      if (r.x[point] * sign > 127) continue;
      op.den = static_cast<std::int8_t>(r.x[point] * sign);
      bool fits = true;
      for (int l = 0; l < N; ++l) {
        if (r.c[l] == 0) continue;
        fits = fits && r.c[l] * sign >= -128 && r.c[l] * sign <= 127;
        op.coef[l] = static_cast<std::int8_t>(r.c[l] * sign);
        op.lines |= 1u << l;
      }
      if (fits) return op;
    }
    return {};
  }
  int other_line(int p, int l) const { return point_lines_[p][0] == l ? point_lines_[p][1] : point_lines_[p][0]; }

  // The line with two unknowns whose points' other lines are furthest on.
  int best_pair_line(const PlanBoard& b) const {
    int best = -1, best_score = -1;
    for (int l = 0; l < N; ++l) {
      if (!b.known(l) || b.unknown[l] != 2) continue;
      const auto q = b.open_points(l);
      const int score = progress(b, other_line(q[0], l)) + progress(b, other_line(q[1], l));
      if (score > best_score) best = l, best_score = score;
    }
    return best;
  }
  // How far a line with a known sum is: 0 for a line without one.
  static int progress(const PlanBoard& b, int l) { return b.known(l) ? 5 - b.unknown[l] : 0; }

  int best_free_point(const PlanBoard& b, const std::vector<std::pair<int, bool>>& stab) const {
    int best = -1, best_score = -1;
    for (int p = 0; p < kPoints; ++p) {
      if (b.placed >> p & 1) continue;
      int score = 0;
      for (int l : point_lines_[p]) score += 4 * progress(b, l);
      for (const auto& [r, f] : stab) {
        const int q = map_point(p, r, f);
        if (q != p) score += b.placed >> q & 1 ? 1000 : 1;
      }
      if (score > best_score) best = p, best_score = score;
    }
    return best;
  }

  // The symmetries other than the identity that keep the dropped lines.
  static std::vector<std::pair<int, bool>> stabilizer(std::uint32_t dropped) {
    std::vector<std::pair<int, bool>> out;
    for (int r = 0; r < N; ++r)
      for (bool f : {false, true})
        if ((r != 0 || f) && map_lines(dropped, r, f) == dropped) out.emplace_back(r, f);
    return out;
  }

  // Levels, the line checks and the symmetry inequalities of a point order.
  void finish_plan(KeptPlan& plan, std::uint32_t dropped, std::uint32_t open) const {
    PlanBoard b{open};
    std::array<int, kPoints> at{};  // op index by point
    int level = 1, pick = -1;
    for (int k = 0; k < kPoints; ++k) {
      KOp& op = plan.ops[k];
      at[op.point] = k;
      if (op.kind == KOpKind::Pick) {
        if (pick >= 0) plan.ops[pick].pairs = lines_with_two(b);
        op.level = static_cast<std::uint8_t>(level++);
        pick = k;
      }
      b.place(op.point, point_lines_);
      for (int l : point_lines_[op.point]) {
        if (b.unknown[l] != 0 || (op.kind == KOpKind::Forced && l == op.line)) continue;
        (b.known(l) ? op.eq : op.ne) |= 1u << l;
      }
    }
    plan.ops[pick].last = true;
    for (const auto& [r, f] : stabilizer(dropped)) {
      int k = 0;
      while (map_point(plan.ops[k].point, r, f) == plan.ops[k].point) ++k;
      const int q = plan.ops[k].point, p = map_point(q, r, f);  // p is placed after q
      plan.ops[at[p]].above |= 1ull << q;
    }
  }
  static std::uint32_t lines_with_two(const PlanBoard& b) {
    std::uint32_t out = 0;
    for (int l = 0; l < N; ++l)
      if (b.known(l) && b.unknown[l] == 2) out |= 1u << l;
    return out;
  }

 public:
  // From the root: each class of E, each S (the all-equal class runs the chain).
  template <class Mode>
  void top(State& s, Mode& m) const {
    if (m.enter(0, false, s)) return;
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      const KeptClass& kc = classes_[c];
      State t = s;
      t.step = 1;
      if (kc.dropped == 0) {
        for (int S : kept_sums_[0]) {
          t.sum = static_cast<std::int16_t>(S);
          chain_->top(t, m);
        }
        continue;
      }
      t.kept.dropped = kc.dropped;
      t.kept.cls = c;
      const bool closed = open_lines(kc.dropped) != kc.dropped;
      with_plan(c, [&](const KeptPlan& plan) {
        for (int S : kept_sums_[kc.n_dropped]) {
          State u = t;
          u.sum = static_cast<std::int16_t>(S);
          // The dropped line needs D: start it at S - D, as if its sum were S.
          if (closed) u.part[std::countr_zero(kc.dropped)] = static_cast<std::int16_t>(S - (2 * t_->total - (N - 1) * S));
          kept(u, plan, m);
        }
      });
    }
  }

  // From a task below the top (state.kept.dropped != 0).
  template <class Mode>
  void resume(State& s, Mode& m) const {
    with_plan(s.kept.cls, [&](const KeptPlan& plan) { kept(s, plan, m); });
  }

 private:

  // Calls f with the plan of class c, built here when not kept.
  template <class F>
  void with_plan(std::uint32_t c, F&& f) const {
    if (c < plans_.size()) return f(plans_[c]);
    const KeptPlan plan = make_kept_plan(classes_[c].dropped);
    f(plan);
  }

  // A node whose pick has no candidate is not entered: the parent looks one
  // pick ahead, so the walk (and the task list) holds live nodes only.
  template <class Mode>
  void kept(State& s, const KeptPlan& plan, Mode& m) const {
    if (const std::uint64_t cand = kept_candidates(s, plan)) kept_node(s, plan, cand, m);
  }
  std::uint64_t kept_candidates(const State& s, const KeptPlan& plan) const {
    const int i = s.step - 1;
    const std::uint64_t c = s.free & bounds_mask(s, plan.ops[i]);
    return c ? c & pick_mask(s, plan, i) : 0;
  }

  // One Pick (op s.step - 1) and the ops after it.
  template <class Mode>
  void kept_node(State& s, const KeptPlan& plan, std::uint64_t cand, Mode& m) const {
    const int i = s.step - 1;
    const KOp& op = plan.ops[i];
    if (m.enter(op.level, op.last, s)) return;
    for (; cand; cand &= cand - 1) {
      State t = s;
      if (!kept_place(t, op, std::countr_zero(cand))) continue;
      int j = i + 1;
      bool ok = true;
      for (; ok && j < kPoints && plan.ops[j].kind != KOpKind::Pick; ++j) ok = kept_follow(t, plan.ops[j]);
      if (!ok || !pairs_left(t, op.pairs)) continue;
      if (j == kPoints) {
        kept_emit(t, m);
        continue;
      }
      t.step = static_cast<std::uint8_t>(j + 1);
      kept(t, plan, m);
    }
  }

  // What is left of line l's sum: S - part, and for the pick's own ops
  // a + k * pick less.  The pick mask tracks those as a, k per line.
  struct Affine {
    std::array<int, N> a, k;
    std::uint32_t touched = 0;
    void add(int l, int va, int vk) {
      if (!(touched >> l & 1)) a[l] = 0, k[l] = 0, touched |= 1u << l;
      a[l] += va;
      k[l] += vk;
    }
  };

  // The picks at op i that masks can tell are not dead.  Each value the op
  // and its followers place is a + k * pick (until a cycle halves an odd k),
  // so "it is free" is a shifted or mirrored free mask (k = +-1), a
  // completed line pins the pick to one value, and a line left with two
  // unknowns needs a pick that leaves it a sum of two free values.
  std::uint64_t pick_mask(const State& s, const KeptPlan& plan, int i) const {
    Affine on;  // the op's placed values on each line
    auto need = [&](int l, int& a, int& k) {
      const bool t = on.touched >> l & 1;
      a = s.sum - s.part[l] - (t ? on.a[l] : 0);
      k = t ? -on.k[l] : 0;
    };
    auto place = [&](const KOp& op, int a, int k) {
      for (int l : point_lines_[op.point]) on.add(l, a, k);
    };
    std::uint64_t mask = ~0ull;
    place(plan.ops[i], 0, 1);
    mask &= line_checks(s, plan.ops[i], on);
    int j = i + 1;
    for (; mask && j < kPoints && plan.ops[j].kind != KOpKind::Pick; ++j) {
      const KOp& f = plan.ops[j];
      int a = 0, k = 0;
      if (f.kind == KOpKind::Forced) {
        need(f.line, a, k);
      } else {
        for (std::uint32_t ls = f.lines; ls; ls &= ls - 1) {
          const int l = std::countr_zero(ls);
          int la, lk;
          need(l, la, lk);
          a += f.coef[l] * la, k += f.coef[l] * lk;
        }
        // den * value = a + k * pick.  Past a pick-dependent remainder the
        // values are no longer a + k * pick: keep what is known so far.
        if (k % f.den != 0) return f.den == 2 ? mask & (a & 1 ? kOdd : ~kOdd) : mask;
        if (a % f.den != 0) return 0;
        a /= f.den, k /= f.den;
      }
      mask &= value_mask(s, a, k);
      place(f, a, k);
      mask &= line_checks(s, f, on);
    }
    for (std::uint32_t ls = plan.ops[i].pairs & on.touched; mask && ls; ls &= ls - 1) {
      int a, k;
      need(std::countr_zero(ls), a, k);
      if (k == 1 || k == -1) mask &= pair_sum_picks(s, a, k);
    }
    return mask;
  }
  static constexpr std::uint64_t kOdd = 0xaaaaaaaaaaaaaaaaull;

  // Picks c for which a + k * c is a free value.
  static std::uint64_t value_mask(const State& s, int a, int k) {
    using namespace star_detail;
    if (k == -1) return partner(s.rfree, a);
    if (k == 1) return shift_down(s.free, a);
    if (k == 0) return a >= 0 && a < 64 && (s.free >> a & 1) ? ~(1ull << a) : 0;
    return ~0ull;
  }
  // Picks c for which the lines op completes end right: S, or not S.
  std::uint64_t line_checks(const State& s, const KOp& op, const Affine& on) const {
    std::uint64_t mask = ~0ull;
    for (std::uint32_t ls = op.eq | op.ne; ls; ls &= ls - 1) {
      const int l = std::countr_zero(ls);
      const int a = s.sum - s.part[l] - on.a[l], k = on.k[l];  // the line ends right iff k * c == a
      const std::uint64_t hit = k == 0 ? (a == 0 ? ~0ull : 0) : a % k == 0 && a / k >= 0 && a / k < 64 ? 1ull << (a / k) : 0;
      mask &= op.eq >> l & 1 ? hit : ~hit;
    }
    return mask;
  }
  // Picks c with a + k * c (k = +-1) a sum of two distinct free values.
  static std::uint64_t pair_sum_picks(const State& s, int a, int k) {
    using namespace star_detail;
    std::uint64_t out = 0;
    for (std::uint64_t f = s.free; f; f &= f - 1) {
      const int x = std::countr_zero(f);  // the smaller of the two
      out |= k < 0 ? partner(s.rfree & reversed_above(x), a - x) : shift_down(s.free & above(x), a - x);
    }
    return out;
  }

  // Each line with two unknowns still has two free values with its sum.
  static bool pairs_left(const State& t, std::uint32_t lines) {
    using namespace star_detail;
    for (; lines; lines &= lines - 1) {
      const int need = t.sum - t.part[std::countr_zero(lines)];
      std::uint64_t pm = t.free & partner(t.rfree, need);
      if (!(need & 1) && need >= 0 && need < 128) pm &= ~(1ull << (need / 2));
      if (!pm) return false;
    }
    return true;
  }

  static std::uint64_t bounds_mask(const State& s, const KOp& op) {
    using namespace star_detail;
    std::uint64_t mask = ~0ull;
    for (std::uint64_t b = op.above; b; b &= b - 1) mask &= above(s.pos[std::countr_zero(b)]);
    return mask;
  }

  // A Forced or Solved op: its one possible value must be free and within
  // the symmetry bounds.
  bool kept_follow(State& t, const KOp& op) const {
    int v = t.sum - t.part[op.line];
    if (op.kind == KOpKind::Solved) {
      v = 0;
      for (std::uint32_t ls = op.lines; ls; ls &= ls - 1) {
        const int l = std::countr_zero(ls);
        v += op.coef[l] * (t.sum - t.part[l]);
      }
      if (v % op.den != 0) return false;
      v /= op.den;
    }
    if (v < 0 || v > 63 || !(t.free >> v & 1) || !(bounds_mask(t, op) >> v & 1)) return false;
    return kept_place(t, op, v);
  }

  // Puts position v on op's point; false when a line it completes fails.
  bool kept_place(State& t, const KOp& op, int v) const {
    t.pos[op.point] = static_cast<std::uint8_t>(v);
    t.free &= ~(1ull << v);
    t.rfree &= ~(1ull << (63 - v));
    for (int l : point_lines_[op.point]) t.part[l] = static_cast<std::int16_t>(t.part[l] + v);
    for (std::uint32_t e = op.eq; e; e &= e - 1)
      if (t.part[std::countr_zero(e)] != t.sum) return false;
    for (std::uint32_t e = op.ne; e; e &= e - 1)
      if (t.part[std::countr_zero(e)] == t.sum) return false;
    return true;
  }

  template <class Mode>
  void kept_emit(const State& t, Mode& m) const {
    if (!t_->spec.symmetry_breaking) {
      for (int r = 0; r < N; ++r)
        for (bool f : {false, true}) m.emit(image(t, r, f));
      return;
    }
    int i0 = 0;
    for (int i = 1; i < N; ++i)
      if (t.pos[V(i)] < t.pos[V(i0)]) i0 = i;
    m.emit(image(t, i0, t.pos[I(i0)] > t.pos[I(i0 - 1)]));
  }
  // The arrangement turned so V(r) comes to V0, mirrored through V0 if f.
  Solution image(const State& t, int r, bool f) const {
    Solution sol;
    for (int k = 0; k < N; ++k) {
      sol[t_->label[V(k)]] = static_cast<std::uint16_t>(t.pos[V(f ? r - k : r + k)] + t_->base);
      sol[t_->label[I(k)]] = static_cast<std::uint16_t>(t.pos[I(f ? r - k - 1 : r + k)] + t_->base);
    }
    return sol;
  }

  const StarTables<N>* t_;
  const StarChain<N>* chain_;  // the class with every line equal
  // The tables' copy, in the object the walk reads anyway: the hot path
  // reads it at every placed point (one indirection less, 2% here).
  std::array<std::array<std::uint8_t, 2>, kPoints> point_lines_;
  std::size_t max_plan_bytes_;
  std::vector<KeptClass> classes_;           // classes of E, by size of the complement
  std::vector<std::vector<int>> kept_sums_;  // by size of the complement
  std::vector<KeptPlan> plans_;              // by class, unless too many
};

}  // namespace magic
