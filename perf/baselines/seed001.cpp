// Baseline: seed 001's 4x4 algorithm (Perl, 2005), ported to C++ for
// side-by-side timing.  Same search, same order, same output count:
//   1. four corners a<b<c<d with a+b+c+d = 34 (the corners of any 4x4 magic
//      square sum to 34); a goes top-left and three placements of b,c,d;
//   2. fill the two cells between corner pairs from a table of pairs
//      summing to 34 - (corner sum), in the order: main diagonal,
//      anti-diagonal, top row, bottom row, left column, right column;
//   3. check column 1 after the bottom row and row 1 at the end.
// The Perl rejects repeated numbers with a regex over the whole board; this
// port scans the board, which is the same test without the string work.
//
//   usage: baseline-seed001 [--print]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  Search s;
  s.print = argc > 1 && std::strcmp(argv[1], "--print") == 0;
  const auto t0 = std::chrono::steady_clock::now();
  s.run();
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"count\": %ld, \"seconds\": %.6f, \"algorithm\": \"seed 001 corners-first\"}\n", s.count, sec);
  return 0;
}
