#pragma once
// Seed 001's 4x4 search (see seed001.cpp), shared by the baseline program
// and the in-process benchmark (perf/bench_square.cpp).
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace seed001 {

struct Search {
  std::vector<std::pair<int, int>> between[35];  // pairs (x, y), x != y, x + y = key
  int board[16];
  long count = 0;
  bool print = false;
  static constexpr int order[6][2] = {{0, 15}, {3, 12}, {0, 3}, {12, 15}, {0, 12}, {3, 15}};

  Search() {
    for (int i = 1; i <= 15; ++i)
      for (int j = i + 1; j <= 16; ++j)
        if (34 - i - j >= 0) {
          between[34 - i - j].push_back({i, j});
          between[34 - i - j].push_back({j, i});
        }
  }

  bool on_board(int v) const {
    for (int c = 0; c < 16; ++c)
      if (board[c] == v) return true;
    return false;
  }

  void search(int no) {
    const int i = order[no][0], j = order[no][1], k = (j - i) / 3;
    const int key = board[i] + board[j];
    if (key > 34) return;
    for (const auto& [x, y] : between[key]) {
      if (on_board(x) || on_board(y)) continue;
      board[i + k] = x;
      board[j - k] = y;
      bool ok = true;
      if (no == 3) ok = board[1] + board[5] + board[9] + board[13] == 34;
      if (ok && no == 5) {
        if (board[4] + board[5] + board[6] + board[7] == 34) {
          ++count;
          if (print)
            for (int r = 0; r < 4; ++r)
              std::printf("%3d %3d %3d %3d\n%s", board[4 * r], board[4 * r + 1], board[4 * r + 2],
                          board[4 * r + 3], r == 3 ? "\n" : "");
        }
      } else if (ok) {
        search(no + 1);
      }
      board[i + k] = board[j - k] = 0;
    }
  }

  void run() {
    for (int a = 1; a <= 7; ++a)
      for (int b = a + 1; b <= 10 && a + 3 * b + 3 <= 34; ++b)
        for (int c = b + 1; c <= 15 && a + b + 2 * c + 1 <= 34; ++c) {
          if (a + b + c + 16 < 34) continue;
          const int d = 34 - a - b - c;
          const int corners[3][4] = {{a, b, c, d}, {a, b, d, c}, {a, c, d, b}};
          for (const auto& cs : corners) {
            std::memset(board, 0, sizeof board);
            board[0] = cs[0];
            board[3] = cs[1];
            board[12] = cs[2];
            board[15] = cs[3];
            search(0);
          }
        }
  }
};

}  // namespace seed001
