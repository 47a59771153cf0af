// Baseline: seed 002's pentagram programs (C, M. Hiroi 2000), ported to C++
// for side-by-side timing.  Same algorithm, no extra pruning:
//   - generate every arrangement of `max` numbers on the 10 points, position
//     by position, smallest number first;
//   - symmetry check while generating: positions 1, 4, 8, 9 (the other
//     vertices) may not take a number smaller than position 0's, and
//     position 3 not one smaller than position 2's;
//   - at a full arrangement add up the 5 lines and accept it when line 0 or
//     line 1 is matched by at least `equal` lines (itself included) among
//     the lines from it onwards.
// The documents' lines and numbering:  [0,2,5,8] [0,3,6,9] [1,2,3,4] [1,5,7,9] [4,6,7,8].
//
//   usage: baseline-seed002 [--max 10] [--equal 4] [--print]
//   (--max 10 --equal 4: the 168 of seed 000/002; --max 12 --equal 5: the 24)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace seed002 {

struct Search {
  static constexpr int kSize = 10, kLines = 5;
  static constexpr int lines[kLines][4] = {{0, 2, 5, 8}, {0, 3, 6, 9}, {1, 2, 3, 4}, {1, 5, 7, 9}, {4, 6, 7, 8}};
  static constexpr bool other_vertex[kSize] = {false, true, false, false, true, false, false, false, true, true};

  int max = 10;    // numbers 1..max
  int equal = 4;   // lines that must share a sum
  bool print = false;
  int stars[kSize] = {};
  bool used[64] = {};
  int total[kLines] = {};
  long count = 0;
  std::map<int, long> by_sum;

  bool symmetric(int pos, int num) const {
    return (other_vertex[pos] && stars[0] > num) || (pos == 3 && stars[2] > num);
  }

  void check() {
    for (int i = 0; i < kLines; ++i) {
      total[i] = 0;
      for (int j = 0; j < 4; ++j) total[i] += stars[lines[i][j]];
    }
    for (int i = 0; i < 2; ++i) {
      int c = 0;
      for (int j = i; j < kLines; ++j)
        if (total[i] == total[j]) ++c;
      if (c >= equal) {
        ++count;
        ++by_sum[total[i]];
        if (print) {
          std::printf("%d [", total[i]);
          for (int k = 0; k < kSize; ++k) std::printf("%2d ", stars[k]);
          std::printf("]\n");
        }
        break;
      }
    }
  }

  void search(int pos) {
    if (pos == kSize) return check();
    for (int n = 1; n <= max; ++n) {
      if (used[n] || symmetric(pos, n)) continue;
      used[n] = true;
      stars[pos] = n;
      search(pos + 1);
      used[n] = false;
    }
  }

  long run() {
    count = 0;
    by_sum.clear();
    search(0);
    return count;
  }
};

}  // namespace seed002

#ifndef SEED002_NO_MAIN
int main(int argc, char** argv) {
  seed002::Search s;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
      s.max = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--equal") == 0 && i + 1 < argc) {
      s.equal = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--print") == 0) {
      s.print = true;
    } else {
      std::fprintf(stderr, "baseline-seed002: error: usage: baseline-seed002 [--max M] [--equal E] [--print]\n");
      return 2;
    }
  }
  // Lines 0 and 1 are the only candidates the document checks, which is
  // enough for 4 or 5 equal lines out of 5.
  if (s.max < 10 || s.max > 63 || s.equal < 4 || s.equal > 5) {
    std::fprintf(stderr, "baseline-seed002: error: need 10 <= --max <= 63 and 4 <= --equal <= 5\n");
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  s.run();
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"count\": %ld, \"seconds\": %.6f, \"by_sum\": {", s.count, sec);
  bool first = true;
  for (const auto& [sum, n] : s.by_sum) {
    std::printf("%s\"%d\": %ld", first ? "" : ", ", sum, n);
    first = false;
  }
  std::printf("}, \"algorithm\": \"seed 002 permutations with symmetry check\"}\n");
  return 0;
}
#endif
