// Baseline: seed 000's 3x3 search (M. Hiroi, Python), ported to C++ for
// side-by-side timing.  Same search, same order, same count: every
// arrangement of 1..9, built one cell at a time with the values not yet
// used, and checked at the end that all eight lines have the same sum.
// It finds all 8 squares (the document's headline time, 1.67 s in Python).
//
//   usage: baseline-seed000 [--print]
#include <chrono>
#include <cstdio>
#include <cstring>

namespace {

constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                              {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

struct Search {
  int ps[9];
  bool used[10] = {};
  long count = 0;
  bool print = false;

  bool check() const {
    int first = -1;
    for (const auto& l : kLines) {
      const int s = ps[l[0]] + ps[l[1]] + ps[l[2]];
      if (first < 0) first = s;
      else if (s != first) return false;
    }
    return true;
  }

  void dfs(int n) {
    if (n == 9) {
      if (!check()) return;
      ++count;
      if (print)
        for (int i = 0; i < 9; ++i) std::printf("%d%s", ps[i], i % 3 == 2 ? "\n" : " ");
      return;
    }
    for (int v = 1; v <= 9; ++v) {
      if (used[v]) continue;
      used[v] = true;
      ps[n] = v;
      dfs(n + 1);
      used[v] = false;
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  Search s;
  s.print = argc > 1 && std::strcmp(argv[1], "--print") == 0;
  const auto t0 = std::chrono::steady_clock::now();
  s.dfs(0);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"count\": %ld, \"seconds\": %.6f, \"algorithm\": \"seed 000 generate and test\"}\n", s.count, sec);
  return 0;
}
