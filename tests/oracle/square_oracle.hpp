#pragma once
// Independent oracle for squares: a plain checker and a brute-force
// enumerator written from the definitions.  It shares no code with the
// engine on purpose; do not include engine headers here.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace oracle {

using Grid = std::vector<std::vector<int>>;

inline bool is_square(const Grid& g, const std::string& kind) {
  const int n = static_cast<int>(g.size());
  const int nn = n * n, s = n * (nn + 1) / 2;
  std::vector<int> seen(nn + 1, 0);
  for (const auto& row : g) {
    if (static_cast<int>(row.size()) != n) return false;
    for (int v : row) {
      if (v < 1 || v > nn || seen[v]++) return false;
    }
  }
  for (int i = 0; i < n; ++i) {
    int r = 0, c = 0;
    for (int j = 0; j < n; ++j) {
      r += g[i][j];
      c += g[j][i];
    }
    if (r != s || c != s) return false;
  }
  if (kind == "semi") return true;
  int d = 0, a = 0;
  for (int i = 0; i < n; ++i) {
    d += g[i][i];
    a += g[i][n - 1 - i];
  }
  if (d != s || a != s) return false;
  if (kind == "magic") return true;
  if (kind == "associative") {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (g[i][j] + g[n - 1 - i][n - 1 - j] != nn + 1) return false;
    return true;
  }
  // pandiagonal: every broken diagonal in both directions
  for (int k = 0; k < n; ++k) {
    int p = 0, q = 0;
    for (int i = 0; i < n; ++i) {
      p += g[i][(i + k) % n];
      q += g[i][((k - i) % n + n) % n];
    }
    if (p != s || q != s) return false;
  }
  if (kind == "pandiagonal") return true;
  if (kind == "most-perfect") {
    if (n % 4) return false;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (g[i][j] + g[(i + 1) % n][j] + g[i][(j + 1) % n] + g[(i + 1) % n][(j + 1) % n] != 2 * (nn + 1))
          return false;
        if (g[i][j] + g[(i + n / 2) % n][(j + n / 2) % n] != nn + 1) return false;
      }
    return true;
  }
  return false;
}

// The 8 images under rotation and reflection.
inline std::vector<Grid> images(const Grid& g) {
  const int n = static_cast<int>(g.size());
  std::vector<Grid> out;
  Grid cur = g;
  for (int r = 0; r < 4; ++r) {
    Grid rot(n, std::vector<int>(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) rot[j][n - 1 - i] = cur[i][j];
    cur = rot;
    out.push_back(cur);
    Grid tr(n, std::vector<int>(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) tr[j][i] = cur[i][j];
    out.push_back(tr);
  }
  return out;
}

inline Grid canonical(const Grid& g) {
  auto im = images(g);
  return *std::min_element(im.begin(), im.end());
}

struct Counts {
  std::uint64_t total = 0;
  std::uint64_t unique = 0;  // squares equal to their own canonical image
};

// Brute force over rows: every row is an ordered n-tuple with the line sum;
// the last row is whatever the column sums leave.  Each complete grid goes
// through is_square, so pruning here can never admit a wrong square.
inline Counts brute_force(int n, const std::string& kind,
                          const std::function<void(const Grid&)>& each = nullptr) {
  const int nn = n * n, s = n * (nn + 1) / 2;
  std::vector<std::vector<int>> rows;
  std::vector<int> cur;
  std::function<void(int, int)> gen = [&](int used_mask_dummy, int sum) {
    (void)used_mask_dummy;
    if (static_cast<int>(cur.size()) == n) {
      if (sum == s) rows.push_back(cur);
      return;
    }
    for (int v = 1; v <= nn; ++v) {
      if (std::find(cur.begin(), cur.end(), v) != cur.end() || sum + v > s) continue;
      cur.push_back(v);
      gen(0, sum + v);
      cur.pop_back();
    }
  };
  gen(0, 0);
  Counts c;
  Grid g(n, std::vector<int>(n));
  std::vector<char> used(nn + 1, 0);
  std::function<void(int)> place_row = [&](int r) {
    if (r == n - 1) {
      for (int j = 0; j < n; ++j) {
        int v = s;
        for (int i = 0; i < n - 1; ++i) v -= g[i][j];
        g[n - 1][j] = v;
      }
      if (!is_square(g, kind)) return;
      ++c.total;
      if (canonical(g) == g) ++c.unique;
      if (each) each(g);
      return;
    }
    for (const auto& row : rows) {
      if (std::any_of(row.begin(), row.end(), [&](int v) { return used[v]; })) continue;
      for (int v : row) used[v] = 1;
      g[r] = row;
      place_row(r + 1);
      for (int v : row) used[v] = 0;
    }
  };
  place_row(0);
  return c;
}

}  // namespace oracle
