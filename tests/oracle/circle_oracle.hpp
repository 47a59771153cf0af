#pragma once
// Independent oracle for magic circles: a checker written from the
// definition and a brute-force enumerator that works on a different model
// (planar difference sets modulo v = n^2-n+1, built mark by mark like a
// modular Golomb ruler).  It shares no code with the engine on purpose; do
// not include engine headers here.
#include <algorithm>
#include <set>
#include <vector>

namespace oracle {

using Circle = std::vector<int>;

// All n(n-1) arcs of 1..n-1 consecutive numbers sum to 1..n(n-1), once each.
inline bool is_magic_circle(const Circle& c) {
  const int n = static_cast<int>(c.size());
  if (n < 3) return false;
  for (int x : c)
    if (x < 1) return false;
  std::vector<int> sums;
  for (int start = 0; start < n; ++start) {
    int s = 0;
    for (int len = 1; len < n; ++len) {
      s += c[(start + len - 1) % n];
      sums.push_back(s);
    }
  }
  std::sort(sums.begin(), sums.end());
  for (int i = 0; i < static_cast<int>(sums.size()); ++i)
    if (sums[i] != i + 1) return false;
  return true;
}

// The document's print form: start at 1, go the way whose first step is
// smaller than the last element.
inline Circle print_form(const Circle& c) {
  const int n = static_cast<int>(c.size());
  const int at = static_cast<int>(std::find(c.begin(), c.end(), 1) - c.begin());
  Circle cw, ccw;
  for (int i = 0; i < n; ++i) {
    cw.push_back(c[(at + i) % n]);
    ccw.push_back(c[((at - i) % n + n) % n]);
  }
  return cw[1] < cw[n - 1] ? cw : ccw;
}

// Every magic circle of n numbers, in print form.  A circle's partial sums
// mod v form a set D in which every nonzero residue is a difference exactly
// once; rotating so that the element 1 comes first puts 0 and 1 in D.  So:
// all D containing 0 and 1 with pairwise distinct differences, grown in
// increasing order, read back as the gaps between consecutive marks.
inline std::set<Circle> all_circles(int n) {
  const int v = n * n - n + 1;
  std::set<Circle> out;
  std::vector<int> marks{0, 1};
  std::vector<char> used(v, 0);
  used[1] = used[v - 1] = 1;
  auto rec = [&](auto&& self) -> void {
    if (static_cast<int>(marks.size()) == n) {
      Circle c;
      for (int i = 0; i < n; ++i) c.push_back(i + 1 < n ? marks[i + 1] - marks[i] : v - marks[i]);
      if (is_magic_circle(c)) out.insert(print_form(c));
      return;
    }
    for (int x = marks.back() + 1; x < v; ++x) {
      std::vector<int> added;
      bool ok = true;
      for (int y : marks) {
        const int d1 = x - y, d2 = v - d1;
        if (used[d1] || used[d2] || d1 == d2) {
          ok = false;
          break;
        }
        used[d1] = used[d2] = 1;
        added.push_back(d1);
      }
      if (ok) {
        marks.push_back(x);
        self(self);
        marks.pop_back();
      }
      for (int d : added) used[d] = used[v - d] = 0;
    }
  };
  rec(rec);
  return out;
}

// All 2n rotations and reflections of a circle.
inline std::vector<Circle> dihedral_images(const Circle& c) {
  const int n = static_cast<int>(c.size());
  std::vector<Circle> out;
  for (int r = 0; r < n; ++r) {
    Circle a, b;
    for (int i = 0; i < n; ++i) {
      a.push_back(c[(r + i) % n]);
      b.push_back(c[((r - i) % n + n) % n]);
    }
    out.push_back(a);
    out.push_back(b);
  }
  return out;
}

inline long long euler_phi(long long x) {
  long long r = x;
  for (long long p = 2; p * p <= x; ++p)
    if (x % p == 0) {
      while (x % p == 0) x /= p;
      r -= r / p;
    }
  if (x > 1) r -= r / x;
  return r;
}

}  // namespace oracle
