#pragma once
// A slow, plain 5x5 enumerator for slices of the order-5 counts.  It shares
// no code or idea with the engine's order-5 search (no frames, no group, no
// complement): it fills the free cells row by row in the order 0, 4, 1, 3,
// the last free cell of a row from its sum and row 2 from the column sums,
// and admits a grid only through oracle::is_square.
#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "square_oracle.hpp"

namespace oracle {

// Every grid of `kind` that agrees with the non-zero cells of `preset`.
inline void fill5(const Grid& preset, const std::string& kind, const std::function<void(const Grid&)>& each) {
  constexpr int n = 5, s = 65;
  Grid g = preset;
  std::array<bool, 26> used{};
  for (const auto& row : g)
    for (int v : row)
      if (v) used[v] = true;
  constexpr int order[n] = {0, 4, 1, 3, 2};
  // Each column's missing sum must lie between the sums of that many of
  // the smallest and of the largest unused values.
  auto columns_can_close = [&] {
    std::vector<int> free;
    for (int v = 1; v <= n * n; ++v)
      if (!used[v]) free.push_back(v);
    for (int c = 0; c < n; ++c) {
      int sum = 0, empty = 0;
      for (int r = 0; r < n; ++r) {
        sum += g[r][c];
        empty += g[r][c] == 0;
      }
      int lo = 0, hi = 0;
      for (int i = 0; i < empty && i < static_cast<int>(free.size()); ++i) {
        lo += free[i];
        hi += free[free.size() - 1 - i];
      }
      if (s - sum < lo || s - sum > hi) return false;
    }
    return true;
  };
  std::function<void(int)> cell = [&](int k) {
    if (k == n * n) {
      if (is_square(g, kind)) each(g);
      return;
    }
    const int r = order[k / n], c = k % n;
    if (c == 0 && !columns_can_close()) return;
    if (preset[r][c]) return cell(k + 1);
    auto put = [&](int v) {
      if (v < 1 || v > n * n || used[v]) return;
      g[r][c] = v;
      used[v] = true;
      cell(k + 1);
      used[v] = false;
      g[r][c] = 0;
    };
    if (r == order[n - 1]) {  // the last row follows from the columns
      int v = s;
      for (int i = 0; i < n; ++i) v -= (i == r ? 0 : g[i][c]);
      return put(v);
    }
    bool last = true;  // the last free cell of its row follows from the row
    for (int j = c + 1; j < n; ++j) last = last && preset[r][j];
    int row = 0;
    for (int j = 0; j < n; ++j) row += (j == c ? 0 : g[r][j]);
    if (last) return put(s - row);
    for (int v = 1; v <= n * n && row + v < s; ++v) put(v);
  };
  cell(0);
}

// Every magic square with centre `c` and the values `w` (8 of them) on the
// rest of the two diagonals, in any order: every placement of w is tried.
inline void diagonal_set_slice(int c, std::vector<int> w, const std::function<void(const Grid&)>& each) {
  std::sort(w.begin(), w.end());
  const std::array<std::pair<int, int>, 8> cells{
      {{0, 0}, {1, 1}, {3, 3}, {4, 4}, {0, 4}, {1, 3}, {3, 1}, {4, 0}}};
  do {
    Grid g(5, std::vector<int>(5, 0));
    g[2][2] = c;
    for (int i = 0; i < 8; ++i) g[cells[i].first][cells[i].second] = w[i];
    if (w[0] + w[1] + w[2] + w[3] + c != 65 || w[4] + w[5] + w[6] + w[7] + c != 65) continue;
    fill5(g, "magic", each);
  } while (std::next_permutation(w.begin(), w.end()));
}

}  // namespace oracle
