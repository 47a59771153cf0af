#pragma once
// Independent oracle for completions: plain backtracking over the blanks in
// row-major order, written from the definition.  Shares no code with the
// engine; every leaf goes through square_oracle's is_square.
#include <cstdint>
#include <string>
#include <vector>

#include "oracle/square_oracle.hpp"

namespace oracle {

// Does `full` keep every given (non-zero) cell of `puzzle`?
inline bool keeps_givens(const Grid& puzzle, const Grid& full) {
  if (puzzle.size() != full.size()) return false;
  for (std::size_t r = 0; r < puzzle.size(); ++r) {
    if (puzzle[r].size() != full[r].size()) return false;
    for (std::size_t c = 0; c < puzzle[r].size(); ++c)
      if (puzzle[r][c] != 0 && puzzle[r][c] != full[r][c]) return false;
  }
  return true;
}

// Every completion of `puzzle` (0 = blank) that is a square of `kind`, in
// row-major lexicographic order of the blanks.  Rows, columns and the two
// diagonals prune: a line's sum plus its blanks' smallest / largest possible
// values must straddle the magic sum.  Meant for small or dense grids.
inline std::vector<Grid> completions(const Grid& puzzle, const std::string& kind) {
  const int n = static_cast<int>(puzzle.size());
  const int nn = n * n, s = n * (nn + 1) / 2;
  // A grid whose givens repeat or leave 1..n² has no completion.
  std::vector<int> seen(nn + 1, 0);
  for (const auto& row : puzzle)
    for (int v : row)
      if (v < 0 || v > nn || (v && seen[v]++)) return {};
  Grid g = puzzle;
  std::vector<char> used(nn + 1, 0);
  std::vector<std::pair<int, int>> blanks;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      if (g[r][c]) used[g[r][c]] = 1;
      else blanks.push_back({r, c});
    }
  // Lines as cell lists; pruning uses only these, the leaf check is_square.
  std::vector<std::vector<std::pair<int, int>>> lines;
  for (int i = 0; i < n; ++i) {
    std::vector<std::pair<int, int>> row, col;
    for (int j = 0; j < n; ++j) {
      row.push_back({i, j});
      col.push_back({j, i});
    }
    lines.push_back(row);
    lines.push_back(col);
  }
  if (kind != "semi") {
    std::vector<std::pair<int, int>> d, a;
    for (int i = 0; i < n; ++i) {
      d.push_back({i, i});
      a.push_back({i, n - 1 - i});
    }
    lines.push_back(d);
    lines.push_back(a);
  }
  auto line_ok = [&](const std::vector<std::pair<int, int>>& line) {
    int sum = 0, open = 0;
    for (auto [r, c] : line) {
      sum += g[r][c];
      open += g[r][c] == 0;
    }
    if (open == 0) return sum == s;
    // The open cells take distinct unused values.
    int lo = 0, hi = 0, k = 0;
    for (int v = 1; v <= nn && k < open; ++v)
      if (!used[v]) lo += v, ++k;
    k = 0;
    for (int v = nn; v >= 1 && k < open; --v)
      if (!used[v]) hi += v, ++k;
    return sum + lo <= s && s <= sum + hi;
  };
  std::vector<Grid> out;
  std::vector<std::vector<int>> lines_of(nn);
  for (int l = 0; l < static_cast<int>(lines.size()); ++l)
    for (auto [r, c] : lines[l]) lines_of[r * n + c].push_back(l);
  auto rec = [&](auto&& self, std::size_t i) -> void {
    if (i == blanks.size()) {
      if (is_square(g, kind)) out.push_back(g);
      return;
    }
    const auto [r, c] = blanks[i];
    for (int v = 1; v <= nn; ++v) {
      if (used[v]) continue;
      g[r][c] = v;
      used[v] = 1;
      bool ok = true;
      for (int l : lines_of[r * n + c]) ok = ok && line_ok(lines[l]);
      if (ok) self(self, i + 1);
      used[v] = 0;
      g[r][c] = 0;
    }
  };
  rec(rec, 0);
  return out;
}

}  // namespace oracle
