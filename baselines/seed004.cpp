// Baseline: seed 004's completion search (CheckiO "Magic Square", Python 3),
// ported to C++ for side-by-side timing.  Same search, same order:
//   - a stack of (board, unused numbers); pop the newest entry;
//   - no unused numbers left: the board is the answer;
//   - else fill the first blank (row-major) with every unused number in
//     ascending order, and push each new board whose full lines (rows,
//     columns, both diagonals; lines still holding a blank are skipped) all
//     sum to n(n²+1)/2.  Popping the newest means the largest number is
//     tried first.
// Like the Python, every child copies the board and the unused set, and
// every check looks at all 2n+2 lines.  It stops at the first completion.
//
//   usage: baseline-seed004 FILE...   (one grid per file: rows of numbers or
//          the CheckiO JSON form; any non-digit separates numbers)
//   prints the completion (or "none") per file, then the JSON line
//   {"count": <puzzles completed>, "puzzles": <files>, "seconds": <search time>}
// perf/bench_complete.cpp includes this file (SEED004_NO_MAIN) to time both
// searches in one binary.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace seed004 {

inline bool read_grid(const char* path, std::vector<int>& board, int& size) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  for (char& ch : text)
    if (ch < '0' || ch > '9') ch = ' ';
  std::istringstream nums(text);
  board.clear();
  for (int v; nums >> v;) board.push_back(v);
  size = static_cast<int>(std::lround(std::sqrt(static_cast<double>(board.size()))));
  return size >= 3 && size * size == static_cast<int>(board.size());
}

struct Solver {
  int size;
  int line_sum;

  bool is_valid(const std::vector<int>& b) const {
    // Rows, columns, then the two diagonals; a line with a 0 is not checked.
    auto line_ok = [&](int start, int step) {
      int sum = 0;
      for (int i = 0; i < size; ++i) {
        const int v = b[start + i * step];
        if (v == 0) return true;
        sum += v;
      }
      return sum == line_sum;
    };
    for (int i = 0; i < size; ++i)
      if (!line_ok(i * size, 1) || !line_ok(i, size)) return false;
    return line_ok(0, size + 1) && line_ok(size - 1, size - 1);
  }

  bool run(const std::vector<int>& start, std::vector<int>& answer) const {
    std::set<int> unused;
    for (int v = 1; v <= size * size; ++v) unused.insert(v);
    for (int v : start) unused.erase(v);
    std::vector<std::pair<std::vector<int>, std::set<int>>> stack;
    stack.push_back({start, unused});
    while (!stack.empty()) {
      auto [board, left] = std::move(stack.back());
      stack.pop_back();
      if (left.empty()) {
        answer = board;
        return true;
      }
      std::size_t blank = 0;
      while (board[blank] != 0) ++blank;
      for (int num : left) {
        std::vector<int> next = board;
        next[blank] = num;
        if (!is_valid(next)) continue;
        std::set<int> rest = left;
        rest.erase(num);
        stack.push_back({std::move(next), std::move(rest)});
      }
    }
    return false;
  }
};

}  // namespace seed004

#ifndef SEED004_NO_MAIN
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: baseline-seed004 FILE...\n");
    return 2;
  }
  int solved = 0;
  double seconds = 0;
  for (int a = 1; a < argc; ++a) {
    std::vector<int> board;
    int size = 0;
    if (!seed004::read_grid(argv[a], board, size)) {
      std::fprintf(stderr, "baseline-seed004: cannot read a square grid from %s\n", argv[a]);
      return 2;
    }
    const seed004::Solver s{size, size * (size * size + 1) / 2};
    std::vector<int> answer;
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = s.run(board, answer);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    solved += ok;
    std::printf("%s:", argv[a]);
    if (!ok) std::printf(" none");
    for (std::size_t i = 0; ok && i < answer.size(); ++i) std::printf("%s%d", i % size ? " " : "  ", answer[i]);
    std::printf("\n");
  }
  std::printf("{\"count\": %d, \"puzzles\": %d, \"seconds\": %.6f}\n", solved, argc - 1, seconds);
  return 0;
}
#endif
