#include "square/square_most_perfect.hpp"

namespace magic {

MostPerfect8Problem::State MostPerfect8Problem::root() {
  State s{};
  put(s, 0, 0, 0);  // and 63 at (4, 4)
  return s;
}

void MostPerfect8Problem::cut(int depth, SinkRef<State> sink) const {
  ExpandMode<State> m{sink, depth};
  walk(root(), m);
}

// Every row, column and broken diagonal at 252 and every block at 126: the
// search forced what it could from the blocks and pairs; this is the
// definition, checked whole on each square found.
bool MostPerfect8Problem::lines_hold(const State& s) {
  for (int i = 0; i < N; ++i) {
    int row = 0, col = 0, diag = 0, anti = 0;
    for (int j = 0; j < N; ++j) {
      row += s.a[at(i, j)];
      col += s.a[at(j, i)];
      diag += s.a[at(j, i + j)];
      anti += s.a[at(j, i - j)];
    }
    if (row != kLine || col != kLine || diag != kLine || anti != kLine || !blocks_of_row(s, i)) return false;
  }
  return true;
}

}  // namespace magic
