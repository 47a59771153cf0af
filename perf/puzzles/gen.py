#!/usr/bin/env python3
"""Fixed, seeded set of puzzles for `magicount complete` and the seed-004 baseline.

Every puzzle is a random magic square with some cells blanked, so each has at
least one completion.  Nothing comes from the engine: orders 3 and 4 use a
randomised backtracking search written here; order 5 (too slow for that in
Python) uses Euler's construction from two orthogonal pandiagonal Latin
squares with random symbols, scrambled by a random row/column permutation
that keeps the diagonals and a random rotation or reflection.

    python3 perf/puzzles/gen.py            # rewrites perf/puzzles/<n>x<n>/*.txt

Files are named <order>x<order>/b<blanks>_<k>.txt and hold one row per line.
5x5-count/<pattern>_<k>.txt keep exactly 8 givens of a square in fixed
shapes (a full row, a corner block, the diagonals, ...): the --count target.
"""
import os
import random
import sys

SEED = 4
# (order, blanks, how many puzzles); densities 1 - blanks/n^2.
PLAN = [
    (3, 4, 10), (3, 6, 10), (3, 8, 10),
    (4, 6, 10), (4, 8, 10), (4, 10, 10), (4, 12, 10),
    (5, 10, 10), (5, 13, 10), (5, 15, 10), (5, 17, 10),
]


def random_magic(n, rng, node_limit=200000):
    """A random magic square of order n by randomised row-major backtracking."""
    nn, target = n * n, n * (n * n + 1) // 2
    while True:
        g = [0] * nn
        used = [False] * (nn + 1)
        row = [0] * n
        col = [0] * n
        diag = [0, 0]
        nodes = [0]
        order = list(range(1, nn + 1))

        def ok_partial(s, k):
            # k cells of a line still open after this one: the rest must be reachable
            lo = k * (k + 1) // 2
            hi = k * (2 * nn - k + 1) // 2
            return target - hi <= s <= target - lo

        def place(i):
            nodes[0] += 1
            if nodes[0] > node_limit:
                return None
            if i == nn:
                return True
            r, c = divmod(i, n)
            vals = order[:]
            rng.shuffle(vals)
            for v in vals:
                if used[v]:
                    continue
                rs, cs = row[r] + v, col[c] + v
                if not ok_partial(rs, n - 1 - c) or not ok_partial(cs, n - 1 - r):
                    continue
                d0 = diag[0] + v if r == c else None
                d1 = diag[1] + v if r + c == n - 1 else None
                if d0 is not None and not ok_partial(d0, n - 1 - r):
                    continue
                if d1 is not None and not ok_partial(d1, n - 1 - r):
                    continue
                used[v] = True
                g[i] = v
                row[r], col[c] = rs, cs
                if d0 is not None:
                    diag[0] = d0
                if d1 is not None:
                    diag[1] = d1
                res = place(i + 1)
                if res:
                    return True
                used[v] = False
                g[i] = 0
                row[r] -= v
                col[c] -= v
                if d0 is not None:
                    diag[0] -= v
                if d1 is not None:
                    diag[1] -= v
                if res is None:
                    return None
            return False

        if place(0):
            return [g[r * n:(r + 1) * n] for r in range(n)]


def euler_magic(n, rng):
    """Order n prime >= 5: n*s(A) + t(B) + 1 with A, B linear Latin squares."""
    while True:
        a, b, c, d = (rng.randrange(1, n) for _ in range(4))
        if all(x % n for x in (a + b, a - b, c + d, c - d, a * d - b * c)):
            break
    s, t = list(range(n)), list(range(n))
    rng.shuffle(s)
    rng.shuffle(t)
    g = [[n * s[(a * i + b * j) % n] + t[(c * i + d * j) % n] + 1 for j in range(n)] for i in range(n)]
    # p(n-1-i) = n-1-p(i): rows and columns permuted alike keep both diagonals.
    half = list(range(n // 2))
    rng.shuffle(half)
    p = [0] * n
    for i, h in enumerate(half):
        flip = rng.random() < 0.5
        p[i], p[n - 1 - i] = (n - 1 - h, h) if flip else (h, n - 1 - h)
    if n % 2:
        p[n // 2] = n // 2
    g = [[g[p[i]][p[j]] for j in range(n)] for i in range(n)]
    for _ in range(rng.randrange(4)):
        g = [list(r) for r in zip(*g[::-1])]
    if rng.random() < 0.5:
        g = [list(r) for r in zip(*g)]
    return g


def is_magic(g):
    n = len(g)
    t = n * (n * n + 1) // 2
    vals = sorted(v for row in g for v in row)
    return (vals == list(range(1, n * n + 1))
            and all(sum(row) == t for row in g)
            and all(sum(g[r][c] for r in range(n)) == t for c in range(n))
            and sum(g[i][i] for i in range(n)) == t
            and sum(g[i][n - 1 - i] for i in range(n)) == t)


# 8 given cells (row, column) per shape, for the --count set.
COUNT_SHAPES = {
    "row0col0": [(0, c) for c in range(5)] + [(1, 0), (2, 0), (3, 0)],
    "corner": [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)],
    "diagonals": [(0, 0), (1, 1), (3, 3), (4, 4), (0, 4), (1, 3), (3, 1), (4, 0)],
    "tworows": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)],
    "border": [(0, 0), (0, 2), (0, 4), (2, 0), (2, 4), (4, 0), (4, 2), (4, 4)],
}


def main():
    rng = random.Random(SEED)
    here = os.path.dirname(os.path.abspath(__file__))
    for n, blanks, count in PLAN:
        d = os.path.join(here, f"{n}x{n}")
        os.makedirs(d, exist_ok=True)
        for k in range(count):
            sq = random_magic(n, rng) if n < 5 else euler_magic(n, rng)
            assert is_magic(sq)
            cells = rng.sample(range(n * n), blanks)
            grid = [row[:] for row in sq]
            for c in cells:
                grid[c // n][c % n] = 0
            with open(os.path.join(d, f"b{blanks:02d}_{k}.txt"), "w") as f:
                f.write("\n".join(" ".join(str(v) for v in row) for row in grid) + "\n")
        print(f"{n}x{n} blanks={blanks}: {count} puzzles", file=sys.stderr)
    rng = random.Random(SEED + 1)
    d = os.path.join(here, "5x5-count")
    os.makedirs(d, exist_ok=True)
    for name, cells in COUNT_SHAPES.items():
        for k in range(2):
            sq = euler_magic(5, rng)
            grid = [[sq[r][c] if (r, c) in cells else 0 for c in range(5)] for r in range(5)]
            with open(os.path.join(d, f"{name}_{k}.txt"), "w") as f:
                f.write("\n".join(" ".join(str(v) for v in row) for row in grid) + "\n")
    print(f"5x5-count: {2 * len(COUNT_SHAPES)} puzzles", file=sys.stderr)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
