// Baseline: a faithful C++ port of "maenjin2" (seed 003), the VB.NET magic
// circle (魔円陣) search, so that its timing can be taken side by side with
// `magicount circle` on the same machine.  It deliberately keeps the
// document's algorithm and data layout:
//
//   * 1-based arrays: A(1..N) the circle (0 = empty), B(0..H) a flag per
//     number telling whether some run of placed numbers already sums to it,
//     H = N(N-1)+1.
//   * 1 is fixed at position 1.  The smallest number not yet represented is
//     always placed next, as a single element, into some empty position.
//   * 2 only goes to positions 2..(N+1)/2; for even N, 2 also goes to the
//     antipode N/2+1, and then 3 is kept before it (mirror symmetry).
//   * The check is incremental: only the runs through the new element are
//     added to B, columns first (runs starting at it and going right), each
//     column extended to the left, and a failure is rolled back in place.
//
// Usage: baseline-maenjin2 N [--quiet]
// Prints the circles like the document ("[ 1 ... ]", second number smaller
// than the last), then END, then one JSON line {"count": C, "seconds": T}.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

int n = 0;                 // numbers on the circle
int h = 0;                 // n(n-1)+1
std::vector<int> a;        // a[1..n], 0 = empty
std::vector<char> b;       // b[0..h], number represented
long long solutions = 0;
bool quiet = false;

int right_of(int k) { return k == n ? 1 : k + 1; }
int left_of(int k) { return k == 1 ? n : k - 1; }

void print_circle() {
  ++solutions;
  if (quiet) return;
  std::printf("[ %d", a[1]);
  if (a[2] < a[n]) {
    for (int i = 2; i <= n; ++i) std::printf(" %d", a[i]);
  } else {
    for (int i = n; i >= 2; --i) std::printf(" %d", a[i]);
  }
  std::printf(" ]\n");
}

// Marks every run through position k (k is the newly placed number).  The
// outer loop walks right from k: t = a[k] + ... + a[r]; the inner loop grows
// that run to the left: u = a[l] + ... + t.  On the first repeat (or a sum
// >= h) everything marked here is unmarked again and false is returned.
bool add_runs(int k) {
  int r = k, t = 0, j = 2;
  for (; j <= n; ++j) {
    if (a[r] == 0) break;
    t += a[r];
    if (t >= h || b[t]) goto undo;
    b[t] = 1;
    {
      int l = left_of(k), u = t;
      for (int i = j + 1; i <= n; ++i) {
        if (a[l] == 0) break;
        u += a[l];
        if (u >= h || b[u]) {
          // Unmark this column from its far end back to t (inclusive).
          for (;;) {
            u -= a[l];
            b[u] = 0;
            if (u == t) break;
            l = right_of(l);
          }
          goto undo;
        }
        b[u] = 1;
        l = left_of(l);
      }
    }
    r = right_of(r);
  }
  return true;

undo:
  // Columns 2..j-1 were complete: unmark them, last first.
  while (j > 2) {
    --j;
    t -= a[r];
    b[t] = 0;
    int l = left_of(k), u = t;
    for (int i = j + 1; i <= n; ++i) {
      if (a[l] == 0) break;
      u += a[l];
      b[u] = 0;
      l = left_of(l);
    }
    r = left_of(r);
  }
  return false;
}

// Unmarks every run through position k; the mirror of a successful add_runs.
void remove_runs(int k) {
  int r = k, t = 0;
  for (int j = 2; j <= n; ++j) {
    if (a[r] == 0) break;
    t += a[r];
    b[t] = 0;
    int l = left_of(k), u = t;
    for (int i = j + 1; i <= n; ++i) {
      if (a[l] == 0) break;
      u += a[l];
      b[u] = 0;
      l = left_of(l);
    }
    r = right_of(r);
  }
}

// Places m, the smallest number not represented yet, at each empty position
// 2..e in turn and recurses with the next smallest unrepresented number.
void place(int m, int e) {
  for (int k = 2; k <= e; ++k) {
    if (a[k] != 0) continue;
    a[k] = m;
    if (add_runs(k)) {
      int s = m + 1;
      while (s <= h && b[s]) ++s;
      if (s >= h) {
        print_circle();
      } else {
        place(s, n);
      }
      remove_runs(k);
    }
    a[k] = 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: baseline-maenjin2 N [--quiet]\n");
    return 2;
  }
  char* end = nullptr;
  const long parsed = std::strtol(argv[1], &end, 10);
  if (*end != '\0' || parsed < 3 || parsed > 40) {
    std::fprintf(stderr, "error: N must be an integer in 3..40\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) quiet = quiet || std::strcmp(argv[i], "--quiet") == 0 || std::strcmp(argv[i], "-q") == 0;
  n = static_cast<int>(parsed);
  h = n * (n - 1) + 1;
  a.assign(n + 1, 0);
  b.assign(h + 1, 0);

  const auto t0 = std::chrono::steady_clock::now();
  a[1] = 1;
  b[1] = 1;
  place(2, (n + 1) >> 1);
  if ((n & 1) == 0) {
    const int k = 1 + (n >> 1);
    a[k] = 2;
    b[2] = 1;
    place(3, k - 1);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("END\n{\"count\": %lld, \"seconds\": %.6f, \"n\": %d}\n", solutions, secs, n);
  return 0;
}
