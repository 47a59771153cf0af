#pragma once
// Independent oracle for magic stars {n/2}: the star is rebuilt from
// coordinates (chords of a regular n-gon and their intersections), the
// symmetries are rotations and reflections of the plane, and the search is a
// plain DFS without symmetry breaking.  It shares no code with the engine;
// do not include engine headers here.
//
// Labels follow the documented convention: vertex i is the i-th corner
// counterclockwise from the top; label n + j is the crossing that lies
// between corners j and j + 1.  For n = 5 the labels are the documents'
// (seed 002): lines [0,2,5,8] [0,3,6,9] [1,2,3,4] [1,5,7,9] [4,6,7,8], and a
// turn by 72 degrees takes corner 0 to 1, 8, 9, 4 in turn.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace oracle {

struct StarShape {
  int n = 0;
  std::vector<std::vector<int>> lines;  // labels, each sorted; list sorted
  std::vector<std::vector<int>> group;  // label permutations: image[g[p]] = value[p]
  std::vector<bool> vertex;             // by label
};

inline StarShape star_shape(int n) {
  struct Pt {
    double x, y;
  };
  const double pi = std::numbers::pi;
  std::vector<Pt> pts;
  for (int i = 0; i < n; ++i) pts.push_back({std::cos(pi / 2 + 2 * pi * i / n), std::sin(pi / 2 + 2 * pi * i / n)});
  // Chord c joins corners c and c + 2.
  std::vector<std::vector<int>> on(n);
  for (int c = 0; c < n; ++c) on[c] = {c, (c + 2) % n};
  auto find_or_add = [&](Pt p) {
    for (std::size_t k = 0; k < pts.size(); ++k)
      if (std::hypot(pts[k].x - p.x, pts[k].y - p.y) < 1e-9) return static_cast<int>(k);
    pts.push_back(p);
    return static_cast<int>(pts.size() - 1);
  };
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const Pt p1 = pts[a], p2 = pts[(a + 2) % n], p3 = pts[b], p4 = pts[(b + 2) % n];
      const double den = (p2.x - p1.x) * (p4.y - p3.y) - (p2.y - p1.y) * (p4.x - p3.x);
      if (std::abs(den) < 1e-12) continue;
      const double t = ((p3.x - p1.x) * (p4.y - p3.y) - (p3.y - p1.y) * (p4.x - p3.x)) / den;
      const double u = ((p3.x - p1.x) * (p2.y - p1.y) - (p3.y - p1.y) * (p2.x - p1.x)) / den;
      if (t <= 1e-9 || t >= 1 - 1e-9 || u <= 1e-9 || u >= 1 - 1e-9) continue;  // not inside both chords
      const int k = find_or_add({p1.x + t * (p2.x - p1.x), p1.y + t * (p2.y - p1.y)});
      on[a].push_back(k);
      on[b].push_back(k);
    }
  // A chord meets only the two chords that start next to its ends, so there
  // are exactly n crossings.
  std::vector<int> keep;  // geometric ids of the star's 2n points
  for (std::size_t k = 0; k < pts.size(); ++k) keep.push_back(static_cast<int>(k));
  if (static_cast<int>(keep.size()) != 2 * n) throw std::logic_error("oracle: bad star geometry");

  // Labels.
  std::map<int, int> label;
  auto angle_of = [&](int k) {
    double a = std::atan2(pts[k].y, pts[k].x) - pi / 2;
    while (a < 0) a += 2 * pi;
    return a;
  };
  for (int k : keep) {
    if (k < n) {
      label[k] = k;
    } else {
      const int j = static_cast<int>(std::floor(angle_of(k) / (2 * pi / n)));
      label[k] = n + j;
    }
  }
  StarShape s;
  s.n = n;
  s.vertex.assign(2 * n, false);
  for (int i = 0; i < n; ++i) s.vertex[i] = true;
  for (int c = 0; c < n; ++c) {
    std::vector<int> l;
    for (int k : on[c])
      if (label.count(k)) l.push_back(label[k]);
    if (l.size() != 4) throw std::logic_error("oracle: a line without 4 points");
    std::sort(l.begin(), l.end());
    s.lines.push_back(l);
  }
  // Symmetries: turn by 2*pi*r/n, optionally after a mirror in the y axis.
  std::map<int, int> geo_of_label;
  for (auto [g, l] : label) geo_of_label[l] = g;
  for (int mirror = 0; mirror < 2; ++mirror)
    for (int r = 0; r < n; ++r) {
      std::vector<int> perm(2 * n);
      for (int l = 0; l < 2 * n; ++l) {
        const Pt p = pts[geo_of_label[l]];
        const double x0 = mirror ? -p.x : p.x, a = 2 * pi * r / n;
        const Pt q{x0 * std::cos(a) - p.y * std::sin(a), x0 * std::sin(a) + p.y * std::cos(a)};
        int hit = -1;
        for (auto [l2, g2] : geo_of_label)
          if (std::hypot(pts[g2].x - q.x, pts[g2].y - q.y) < 1e-9) hit = l2;
        if (hit < 0) throw std::logic_error("oracle: symmetry misses a point");
        perm[l] = hit;
      }
      s.group.push_back(perm);
    }

  if (n == 5) {
    // The documents' numbering: corners 0,1,8,9,4 counterclockwise from the
    // top; each crossing is named by the two document lines through it.
    const std::vector<std::vector<int>> doc = {{0, 2, 5, 8}, {0, 3, 6, 9}, {1, 2, 3, 4}, {1, 5, 7, 9}, {4, 6, 7, 8}};
    const int corner[5] = {0, 1, 8, 9, 4};
    std::vector<int> to_doc(10, -1);
    for (int i = 0; i < 5; ++i) to_doc[i] = corner[i];
    auto doc_line_of = [&](const std::vector<int>& geo_line) {  // by its two corners
      std::vector<int> cs;
      for (int l : geo_line)
        if (l < 5) cs.push_back(corner[l]);
      for (std::size_t d = 0; d < doc.size(); ++d)
        if (std::count(doc[d].begin(), doc[d].end(), cs[0]) && std::count(doc[d].begin(), doc[d].end(), cs[1]))
          return static_cast<int>(d);
      throw std::logic_error("oracle: corner pair on no document line");
    };
    for (int l = 5; l < 10; ++l) {
      std::vector<int> through;
      for (const auto& line : s.lines)
        if (std::count(line.begin(), line.end(), l)) through.push_back(doc_line_of(line));
      for (int p : doc[through[0]])
        if (std::count(doc[through[1]].begin(), doc[through[1]].end(), p)) to_doc[l] = p;
    }
    StarShape d;
    d.n = 5;
    d.vertex.assign(10, false);
    for (int i = 0; i < 5; ++i) d.vertex[corner[i]] = true;
    for (const auto& line : s.lines) {
      std::vector<int> m;
      for (int l : line) m.push_back(to_doc[l]);
      std::sort(m.begin(), m.end());
      d.lines.push_back(m);
    }
    for (const auto& g : s.group) {
      std::vector<int> perm(10);
      for (int l = 0; l < 10; ++l) perm[to_doc[l]] = to_doc[g[l]];
      d.group.push_back(perm);
    }
    s = d;
  }
  std::sort(s.lines.begin(), s.lines.end());
  return s;
}

using Arrangement = std::vector<int>;  // values by label

inline Arrangement image(const Arrangement& a, const std::vector<int>& g) {
  Arrangement out(a.size());
  for (std::size_t p = 0; p < a.size(); ++p) out[g[p]] = a[p];
  return out;
}

inline Arrangement canonical(const StarShape& s, const Arrangement& a) {
  Arrangement best = a;
  for (const auto& g : s.group) best = std::min(best, image(a, g));
  return best;
}

inline std::size_t orbit_size(const StarShape& s, const Arrangement& a) {
  std::set<Arrangement> imgs;
  for (const auto& g : s.group) imgs.insert(image(a, g));
  return imgs.size();
}

// The sum shared by at least k lines, or -1 if the arrangement is not valid
// (values outside `numbers`, repeated, wrong length, too few equal lines).
inline int check_star(const StarShape& s, const std::vector<int>& numbers, int k, const Arrangement& a) {
  if (static_cast<int>(a.size()) != 2 * s.n) return -1;
  std::set<int> seen;
  for (int v : a) {
    if (!std::count(numbers.begin(), numbers.end(), v) || !seen.insert(v).second) return -1;
  }
  std::map<int, int> mult;
  for (const auto& line : s.lines) {
    int t = 0;
    for (int p : line) t += a[p];
    ++mult[t];
  }
  for (auto [sum, m] : mult)
    if (m >= k) return sum;
  return -1;
}

struct StarCounts {
  std::uint64_t total = 0;              // all orientations
  std::set<Arrangement> canon;          // one per orbit
  std::map<int, std::uint64_t> by_sum;  // unique per common sum
};

// Plain DFS over labels, line by line; the last point of a line is forced
// once every line must share the sum of the first complete one.
inline StarCounts brute_force(const StarShape& s, const std::vector<int>& numbers, int k,
                              std::optional<int> fixed_sum = std::nullopt) {
  const int n = s.n, pts = 2 * n;
  // Lines in a greedy order: next is the line with most points already placed,
  // so most lines finish early and their last point is forced.
  std::vector<int> order;
  std::vector<bool> line_done(n, false);
  for (int round = 0; round < n; ++round) {
    int best = -1, best_known = -1;
    for (int l = 0; l < n; ++l) {
      if (line_done[l]) continue;
      int known = 0;
      for (int p : s.lines[l]) known += std::find(order.begin(), order.end(), p) != order.end();
      if (known > best_known) best = l, best_known = known;
    }
    line_done[best] = true;
    for (int p : s.lines[best])
      if (std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
  }
  std::vector<int> pos(pts);
  for (int i = 0; i < pts; ++i) pos[order[i]] = i;
  // completes[i]: lines whose last point (in order) is order[i].
  std::vector<std::vector<int>> completes(pts);
  for (int l = 0; l < n; ++l) {
    int last = 0;
    for (int p : s.lines[l]) last = std::max(last, pos[p]);
    completes[last].push_back(l);
  }
  StarCounts out;
  Arrangement a(pts, 0);
  std::vector<bool> used(numbers.size(), false);
  std::vector<int> sums;  // sums of complete lines
  auto line_sum = [&](int l) {
    int t = 0;
    for (int p : s.lines[l]) t += a[p];
    return t;
  };
  auto feasible = [&] {
    // Some sum must be able to reach k lines: its count so far plus the lines still open.
    const int open = n - static_cast<int>(sums.size());
    if (fixed_sum) return static_cast<int>(std::count(sums.begin(), sums.end(), *fixed_sum)) + open >= k;
    if (sums.empty()) return open >= k;
    for (int t : sums)
      if (static_cast<int>(std::count(sums.begin(), sums.end(), t)) + open >= k) return true;
    return open >= k;
  };
  std::function<void(int)> dfs = [&](int i) {
    if (i == pts) {
      const int sum = check_star(s, numbers, k, a);
      if (sum < 0 || (fixed_sum && sum != *fixed_sum)) return;
      ++out.total;
      if (out.canon.insert(canonical(s, a)).second) ++out.by_sum[sum];
      return;
    }
    const int p = order[i];
    bool forced = false;
    int target = 0;
    if (k == n && !completes[i].empty() && (fixed_sum || !sums.empty())) {
      forced = true;
      target = fixed_sum ? *fixed_sum : sums[0];
      for (int q : s.lines[completes[i][0]])
        if (q != p) target -= a[q];
    }
    for (std::size_t v = 0; v < numbers.size(); ++v) {
      if (used[v] || (forced && numbers[v] != target)) continue;
      a[p] = numbers[v];
      const std::size_t before = sums.size();
      for (int l : completes[i]) sums.push_back(line_sum(l));
      // All lines equal: every complete line must match the first one.
      bool ok = feasible();
      if (ok && k == n && !sums.empty()) {
        const int want = fixed_sum ? *fixed_sum : sums[0];
        for (int t : sums) ok = ok && t == want;
      }
      if (ok) {
        used[v] = true;
        dfs(i + 1);
        used[v] = false;
      }
      sums.resize(before);
    }
    a[p] = 0;
  };
  dfs(0);
  return out;
}

}  // namespace oracle
