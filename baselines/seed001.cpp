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

#include "seed001_search.hpp"

int main(int argc, char** argv) {
  seed001::Search s;
  s.print = argc > 1 && std::strcmp(argv[1], "--print") == 0;
  const auto t0 = std::chrono::steady_clock::now();
  s.run();
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"count\": %ld, \"seconds\": %.6f, \"algorithm\": \"seed 001 corners-first\"}\n", s.count, sec);
  return 0;
}
