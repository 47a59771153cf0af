#pragma once
// The partial-sums solver: any K, and K = n as the chain's cross-check.
//
// K < n (partial-sums, the cross-check): a general partial-sum search in the
// chain's point order; lines that are complete with another sum, or can no
// longer reach S, spend a budget of n - K; once it is spent the last point
// of each line is forced.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "magic/core/problem.hpp"
#include "star/star_tables.hpp"

namespace magic {

template <int N>
class StarPartialSums : StarPoints<N> {
  using P = StarPoints<N>;
  using P::I;
  using P::kPoints;
  using P::V;

 public:
  using State = StarState<N>;
  static constexpr int kSteps = kPoints + 1;  // S, then the points

  explicit StarPartialSums(const StarTables<N>& t) : t_(&t) { plan(); }
  StarPartialSums(const StarPartialSums& o, const StarTables<N>& t) : t_(&t), steps_(o.steps_) {}
  StarPartialSums(const StarPartialSums&) = delete;
  StarPartialSums& operator=(const StarPartialSums&) = delete;

 private:
  struct Step {
    std::uint8_t point;
    bool floor;                  // a vertex other than V0: above V0 when breaking
    std::int8_t less_than;       // point whose value must be larger, or -1
    std::array<std::uint8_t, 2> line;
    std::array<std::uint8_t, 2> left;  // unknown points of the line after this step
  };

  void plan() {
    std::vector<int> order = {V(0), I(N - 1), I(0), V(1), V(N - 1)};
    for (int l = 0; l <= N - 5; ++l) order.push_back(I(l + 1)), order.push_back(V(l + 2));
    order.push_back(I(N - 3));
    order.push_back(V(N - 2));
    order.push_back(I(N - 2));
    std::array<int, N> unknown;
    unknown.fill(4);
    for (int k = 0; k < kPoints; ++k) {
      const int p = order[k];
      Step st{};
      st.point = static_cast<std::uint8_t>(p);
      st.floor = t_->spec.symmetry_breaking && p < N && p != V(0);
      st.less_than = static_cast<std::int8_t>(t_->spec.symmetry_breaking && p == I(0) ? I(N - 1) : -1);
      const std::array<int, 2> ls = p < N ? std::array<int, 2>{p, V(p - 2)} : std::array<int, 2>{p - N, V(p - N - 1)};
      for (int j = 0; j < 2; ++j) {
        st.line[j] = static_cast<std::uint8_t>(ls[j]);
        st.left[j] = static_cast<std::uint8_t>(--unknown[ls[j]]);
      }
      steps_[k] = st;
    }
  }

 public:
  // The walk from any of its states (step 0: the root).
  template <class Mode>
  void walk(State& s, Mode& m) const {
    using namespace star_detail;
    const bool leaf = s.step == kSteps;
    if (m.enter(s.step, leaf, s)) return;
    if (leaf) return t_->emit(s, m);
    if (s.step == 0) {
      if (t_->budget > 0 && !t_->spec.sum) {  // S is chosen by the first line that keeps it
        State t = s;
        t.sum = -1;
        t.step = 1;
        return walk(t, m);
      }
      for (int S : t_->sums) {
        State t = s;
        t.sum = static_cast<std::int16_t>(S);
        t.step = 1;
        walk(t, m);
      }
      return;
    }
    if (s.sum < 0) return walk_open(s, m);
    const Step& st = steps_[s.step - 1];
    std::uint64_t cand = s.free;
    if (st.floor) cand &= above(s.pos[V(0)]);
    if (st.less_than >= 0) cand &= below(s.pos[st.less_than]);
    // With the budget spent, a line's last point is forced.
    if (s.psums.n_lost == t_->budget) {
      for (int j = 0; j < 2; ++j)
        if (st.left[j] == 0 && !(s.psums.lost >> st.line[j] & 1)) {
          const int v = s.sum - s.part[st.line[j]];
          cand &= v >= 0 && v < 64 ? 1ull << v : 0;
        }
    }
    for (; cand; cand &= cand - 1) {
      const int v = std::countr_zero(cand);
      const std::uint64_t rest_free = s.free & ~(1ull << v);
      State t = s;
      for (int j = 0; j < 2; ++j) {
        const int l = st.line[j];
        t.part[l] = static_cast<std::int16_t>(t.part[l] + v);
        if (t.psums.lost >> l & 1) continue;
        const int need = s.sum - t.part[l];
        const int left = st.left[j];
        const bool lost = left == 0 ? need != 0 : need < masks::low_sum(rest_free, left) || need > masks::high_sum(rest_free, left);
        if (lost) {
          t.psums.lost |= 1u << l;
          ++t.psums.n_lost;
        }
      }
      if (t.psums.n_lost > t_->budget) continue;
      t.pos[st.point] = static_cast<std::uint8_t>(v);
      t.free = rest_free;
      ++t.step;
      walk(t, m);
    }
  }

 private:

  // K < n before S is known: every line completed so far was lost.  A line
  // that completes now is either kept (its sum becomes S, and no lost line
  // may have that sum, so each arrangement is found once) or lost.
  template <class Mode>
  void walk_open(State& s, Mode& m) const {
    using namespace star_detail;
    const Step& st = steps_[s.step - 1];
    std::uint64_t cand = s.free;
    if (st.floor) cand &= above(s.pos[V(0)]);
    if (st.less_than >= 0) cand &= below(s.pos[st.less_than]);
    for (; cand; cand &= cand - 1) {
      const int v = std::countr_zero(cand);
      State t = s;
      std::array<int, 2> done{};
      int n_done = 0;
      for (int j = 0; j < 2; ++j) {
        t.part[st.line[j]] = static_cast<std::int16_t>(t.part[st.line[j]] + v);
        if (st.left[j] == 0) done[n_done++] = st.line[j];
      }
      t.pos[st.point] = static_cast<std::uint8_t>(v);
      t.free &= ~(1ull << v);
      ++t.step;
      for (int kept = 0; kept < (1 << n_done); ++kept) {
        State u = t;
        int S = -1;
        bool ok = true;
        for (int i = 0; i < n_done; ++i) {
          if (kept >> i & 1) {
            ok = ok && (S < 0 || S == u.part[done[i]]);
            S = u.part[done[i]];
          } else {
            u.psums.lost |= 1u << done[i];
            ++u.psums.n_lost;
          }
        }
        if (!ok || u.psums.n_lost > t_->budget) continue;
        if (S >= 0) {
          for (std::uint32_t b = u.psums.lost; b; b &= b - 1) ok = ok && u.part[std::countr_zero(b)] != S;
          if (!ok) continue;
          u.sum = static_cast<std::int16_t>(S);
          for (int j = 0; j < 2; ++j) {
            const int l = st.line[j], left = st.left[j];
            if (left == 0 || (u.psums.lost >> l & 1)) continue;
            const int need = S - u.part[l];
            if (need < masks::low_sum(u.free, left) || need > masks::high_sum(u.free, left)) {
              u.psums.lost |= 1u << l;
              ++u.psums.n_lost;
            }
          }
          if (u.psums.n_lost > t_->budget) continue;
        }
        walk(u, m);
      }
    }
  }

  const StarTables<N>* t_;
  std::array<Step, kPoints> steps_{};
};

}  // namespace magic
