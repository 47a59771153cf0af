#!/usr/bin/env python3
"""Seeded battery of grids for `magicount complete` (issue 21, item 5; orders
9..16: issue 47).

For every kind and order 3..8: the empty grid, and grids keeping 5, 10, 15
and 20 % of the cells of a real square of that kind (GRIDS_PER_STEP each), so
every such grid has a completion.  Kinds and orders without any square
(pandiagonal 3 and 6, associative 6) get the empty grid only.  none/ holds
grids that pass the input checks but have no completion.

Seed squares come from classical constructions written here (Euler's for
orders 5 and 7, the doubly even pattern for 8, randomised backtracking for
3 and 4) or, where there is no short construction (magic 6, pandiagonal and
most-perfect 8), from the engine's own first completion of a grid with a few
random givens; then a random symmetry of the kind scrambles them.  The
engine never sees these squares: they only decide which cells are given.

Orders 9..16 (issue 47): the empty grid of every kind, grids keeping 10, 30
and 60 % of a square's cells (WIDE_PER_STEP each), and grids with no
completion, from their own generator (seed WIDE_SEED), so the grids of
orders 3..8 stay as they were.  Their squares are built here, never by the
engine: de la Loubere's (odd orders, associative), the doubly even pattern
(12, 16; associative), Conway's LUX (10, 14), and for pandiagonal and
most-perfect squares N*A + B + 1 from two digit squares linear in the cell
(see linear_square); then a random symmetry of the kind scrambles them.
The engine's first step at these orders builds such linear squares too, so
the pandiagonal and most-perfect grids test that construction; the other
kinds' scrambled squares are (almost all) not linear and go to its search.
The grids without a completion are squares with WIDE_NONE_BLANKS blanks and
one given moved into a blank of its row (no line is broken on its own);
none_wide_grids proves each has no completion by a search written here.

    python3 perf/puzzles/gen_battery.py build/bin/magicount [--wide]

writes perf/puzzles/battery/<kind>/<n>x<n>_g<percent>_<k>.txt (one row per
line) and perf/puzzles/battery/none/<kind>_<n>x<n>_<name>.txt.
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import euler_magic, random_magic  # noqa: E402

SEED = 21
GRIDS_PER_STEP = 4
PERCENTS = [5, 10, 15, 20]
KINDS = ["magic", "semi", "pandiagonal", "associative", "most-perfect"]


def exists(kind, n):
    if kind == "most-perfect":
        return n % 4 == 0
    if kind == "pandiagonal":
        return n != 3 and n % 4 != 2
    if kind == "associative":
        return n % 4 != 2
    return True


def is_square(g, kind):
    """Independent check of a full grid (the same definitions as tests/oracle)."""
    n = len(g)
    nn, s = n * n, n * (n * n + 1) // 2
    if sorted(v for r in g for v in r) != list(range(1, nn + 1)):
        return False
    if any(sum(r) != s for r in g) or any(sum(g[i][j] for i in range(n)) != s for j in range(n)):
        return False
    if kind == "semi":
        return True
    if sum(g[i][i] for i in range(n)) != s or sum(g[i][n - 1 - i] for i in range(n)) != s:
        return False
    if kind == "magic":
        return True
    if kind == "associative":
        return all(g[i][j] + g[n - 1 - i][n - 1 - j] == nn + 1 for i in range(n) for j in range(n))
    for k in range(n):
        if sum(g[i][(i + k) % n] for i in range(n)) != s or sum(g[i][(k - i) % n] for i in range(n)) != s:
            return False
    if kind == "pandiagonal":
        return True
    h = n // 2
    return n % 4 == 0 and all(
        g[i][j] + g[(i + 1) % n][j] + g[i][(j + 1) % n] + g[(i + 1) % n][(j + 1) % n] == 2 * (nn + 1)
        and g[i][j] + g[(i + h) % n][(j + h) % n] == nn + 1 for i in range(n) for j in range(n))


# --- Symmetries that keep a kind ------------------------------------------------

def d4(g, rng):
    for _ in range(rng.randrange(4)):
        g = [list(r) for r in zip(*g[::-1])]
    if rng.random() < 0.5:
        g = [list(r) for r in zip(*g)]
    return g


def mirror_perm(n, rng):
    """p with p(n-1-i) = n-1-p(i): the same on rows and columns keeps both
    diagonals and the centre symmetry."""
    half = list(range(n // 2))
    rng.shuffle(half)
    p = [0] * n
    for i, h in enumerate(half):
        p[i], p[n - 1 - i] = (n - 1 - h, h) if rng.random() < 0.5 else (h, n - 1 - h)
    if n % 2:
        p[n // 2] = n // 2
    return p


def scramble(g, kind, rng):
    n = len(g)
    if kind == "semi":  # any row and any column permutation
        rows, cols = list(range(n)), list(range(n))
        rng.shuffle(rows)
        rng.shuffle(cols)
        return [[g[r][c] for c in cols] for r in rows]
    if kind in ("magic", "associative"):
        p = mirror_perm(n, rng)
        return d4([[g[p[i]][p[j]] for j in range(n)] for i in range(n)], rng)
    # pandiagonal, most-perfect: torus shifts; for pandiagonal also (i, j) -> (m i, m j)
    # with m a unit mod n (lines go to lines), which need not keep 2x2 blocks.
    a, b = rng.randrange(n), rng.randrange(n)
    m = 1
    if kind == "pandiagonal":
        m = rng.choice([u for u in range(1, n) if gcd(u, n) == 1])
    g = [[g[(m * i + a) % n][(m * j + b) % n] for j in range(n)] for i in range(n)]
    return d4(g, rng)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


# --- Seed squares ----------------------------------------------------------------

def doubly_even(n):
    """The classical pattern: cells on the diagonals of every 4x4 block take
    the complement; associative, and magic."""
    g = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            v = i * n + j + 1
            g[i][j] = n * n + 1 - v if (i % 4 == j % 4) or ((i % 4) + (j % 4) == 3) else v
    return g


def euler(n, rng, centred=False):
    """n*A + B + 1 from linear Latin squares (n = 5, 7): pandiagonal; with
    centred symbols also associative (ultramagic)."""
    while True:
        a, b, c, d = (rng.randrange(1, n) for _ in range(4))
        if all(x % n for x in (a + b, a - b, c + d, c - d, a * d - b * c)):
            break

    def symbols():
        if not centred:
            s = list(range(n))
            rng.shuffle(s)
            return s
        # s[-u] = n-1-s[u], s[0] = (n-1)/2: mirrored cells get complementary digits
        s = [0] * n
        s[0] = (n - 1) // 2
        half = list(range((n - 1) // 2))
        rng.shuffle(half)
        for u in range(1, (n - 1) // 2 + 1):
            x = half[u - 1]
            if rng.random() < 0.5:
                x = n - 1 - x
            s[u], s[n - u] = x, n - 1 - x
        return s

    s, t = symbols(), symbols()
    m = (n - 1) // 2 if centred else 0
    return [[n * s[(a * (i - m) + b * (j - m)) % n] + t[(c * (i - m) + d * (j - m)) % n] + 1
             for j in range(n)] for i in range(n)]


def by_search(n, kind, rng, engine):
    """The engine's first completion of a grid with three random givens."""
    while True:
        cells = rng.sample(range(n * n), 3)
        vals = rng.sample(range(1, n * n + 1), 3)
        grid = [[0] * n for _ in range(n)]
        for c, v in zip(cells, vals):
            grid[c // n][c % n] = v
        try:
            out = subprocess.run([engine, "complete", "--kind", kind, "-t", "1", "-q", "--solutions-file", "-", "-"],
                                 input=json.dumps(grid), capture_output=True, text=True, timeout=5)
        except subprocess.TimeoutExpired:
            continue
        if out.returncode == 0 and out.stdout.strip():
            g = json.loads(out.stdout.splitlines()[0])
            g = g.get("solution", g) if isinstance(g, dict) else g
            return g


def seed_square(n, kind, rng, engine):
    if n == 3:
        return random_magic(3, rng)  # all eight are associative
    if n == 4:
        while True:
            g = random_magic(4, rng)
            if is_square(g, "magic" if kind == "semi" else kind):
                return g
    if kind == "most-perfect" or (kind == "pandiagonal" and n == 8):
        # most-perfect squares are pandiagonal; scramble()'s multipliers then
        # make most of them lose the 2x2 blocks
        return by_search(n, "most-perfect", rng, engine)
    if n == 6:
        return by_search(n, "magic", rng, engine)
    if n == 8:
        return doubly_even(8)
    if kind == "pandiagonal":
        return euler(n, rng)
    if kind == "associative":
        return euler(n, rng, centred=True)
    return euler_magic(n, rng)


def write(path, g):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(" ".join(str(v) for v in row) for row in g) + "\n")


# Grids with no completion that the input checks let through.
def none_grids():
    out = {}
    # 3x3: the centre of every magic square is 5.
    out[("magic", 3, "centre4")] = [[0, 0, 0], [0, 4, 0], [0, 0, 0]]
    # 4x4 pandiagonal squares are most-perfect: cells two apart on a diagonal add up to 17.
    out[("pandiagonal", 4, "pair")] = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
    # A row whose last cell would need a value above n^2.
    for n in (5, 6, 7, 8):
        s = n * (n * n + 1) // 2
        row = list(range(1, n)) + [0]
        assert s - sum(row) > n * n
        out[("semi", n, "lastcell")] = [row] + [[0] * n for _ in range(n - 1)]
    # Two rows whose last cells both need n^2.
    for n in (5, 7, 8):
        t = n * (n * n + 1) // 2 - n * n
        first = pick_sum(list(range(1, n * n)), n - 1, t)
        second = pick_sum([v for v in range(1, n * n) if v not in first], n - 1, t)
        g = [[0] * n for _ in range(n)]
        g[0], g[2] = first + [0], second + [0]
        out[("magic", n, "samelast")] = g
    return out


def pick_sum(vals, k, target):
    vals = sorted(vals, reverse=True)

    def rec(i, k, t, acc):
        if k == 0:
            return acc if t == 0 else None
        for j in range(i, len(vals)):
            if vals[j] <= t and (r := rec(j + 1, k - 1, t - vals[j], acc + [vals[j]])):
                return r
        return None
    return rec(0, k, target, [])


# --- Orders 9..16 (issue 47) ------------------------------------------------------

WIDE_SEED = 47
WIDE_ORDERS = range(9, 17)
WIDE_PERCENTS = [10, 30, 60]
WIDE_PER_STEP = 2
WIDE_NONE_BLANKS = 10


def siamese(n):
    """De la Loubere's square of odd order: magic and associative."""
    g = [[0] * n for _ in range(n)]
    i, j = 0, n // 2
    for v in range(1, n * n + 1):
        g[i][j] = v
        if g[(i - 1) % n][(j + 1) % n]:
            i = (i + 1) % n
        else:
            i, j = (i - 1) % n, (j + 1) % n
    return g


def lux(n):
    """Conway's LUX method for n = 4m + 2: 2x2 blocks over a Siamese square
    of order 2m + 1, filled in the patterns L, U and X."""
    m = (n - 2) // 4
    k = 2 * m + 1
    base = siamese(k)
    pattern = {"L": [[4, 1], [2, 3]], "U": [[1, 4], [2, 3]], "X": [[1, 4], [3, 2]]}
    rows = ["L"] * (m + 1) + ["U"] + ["X"] * (m - 1)
    g = [[0] * n for _ in range(n)]
    for bi in range(k):
        for bj in range(k):
            p = rows[bi]
            if bi == m and bj == k // 2:
                p = "U"
            elif bi == m + 1 and bj == k // 2:
                p = "L"
            for di in range(2):
                for dj in range(2):
                    g[2 * bi + di][2 * bj + dj] = 4 * (base[bi][bj] - 1) + pattern[p][di][dj]
    return g


def balanced_map(n, moduli, rng):
    """A random permutation s of 0..n-1 whose sum over every coset of m*Z_n
    (m in moduli) is the same."""
    while True:
        s = list(range(n))
        rng.shuffle(s)
        if all(len({sum(s[x] for x in range(r, n, m)) for r in range(m)}) == 1 for m in moduli):
            return s


def paired_map(n, rng):
    """A random permutation s of 0..n-1 with s[x] + s[x + n/2] = n - 1."""
    h = n // 2
    lows = list(range(h))
    rng.shuffle(lows)
    s = [0] * n
    for x, v in enumerate(lows):
        if rng.random() < 0.5:
            v = n - 1 - v
        s[x], s[x + h] = v, n - 1 - v
    return s


def linear_square(n, kind, rng):
    """N*A + B + 1 with A[i][j] = s[(a i + b j) % n], B[i][j] = t[(c i + d j) % n]:
    (a, b, c, d) and the balance the digit maps need, by order.  Lines whose
    coefficient is a unit hold every digit once; a coefficient m, not a unit,
    asks the map to balance over the cosets of m*Z_n."""
    if kind == "most-perfect":  # 2x2 blocks and the half-diagonal pairs need paired maps
        (a, b, c, d), s, t = (n // 2, 1, 1, n // 2), paired_map(n, rng), paired_map(n, rng)
    elif n in (9, 15):
        (a, b, c, d), s, t = (1, 3, 3, 1), balanced_map(n, [3], rng), balanced_map(n, [3], rng)
    elif n == 12:
        (a, b, c, d), s, t = (1, 2, 2, 3), balanced_map(n, [2, 3], rng), balanced_map(n, [2, 3], rng)
    elif n == 16:
        (a, b, c, d), s, t = (1, 2, 2, 1), balanced_map(n, [2], rng), balanced_map(n, [2], rng)
    else:  # 11, 13: Euler's
        return euler(n, rng)
    return [[n * s[(a * i + b * j) % n] + t[(c * i + d * j) % n] + 1 for j in range(n)] for i in range(n)]


def wide_seed(n, kind, rng):
    if kind in ("pandiagonal", "most-perfect"):
        return linear_square(n, kind, rng)
    if n % 2:
        return siamese(n)
    return doubly_even(n) if n % 4 == 0 else lux(n)


def has_completion(grid, kind):
    """Backtracking over the blanks, row-major, checking each group of the
    kind once all its cells are filled (independent of the engine)."""
    n = len(grid)
    g = [row[:] for row in grid]
    blanks = [(i, j) for i in range(n) for j in range(n) if g[i][j] == 0]
    free = sorted(set(range(1, n * n + 1)) - {v for row in g for v in row})

    def rec(k):
        if k == len(blanks):
            return is_square(g, kind)
        i, j = blanks[k]
        for v in list(free):
            g[i][j] = v
            free.remove(v)
            ok = row_ok(g, i) and col_ok(g, j) and rec(k + 1)
            free.append(v)
            free.sort()
            g[i][j] = 0
            if ok:
                return True
        return False
    return rec(0)


def row_ok(g, i):
    n = len(g)
    return 0 in g[i] or sum(g[i]) == n * (n * n + 1) // 2


def col_ok(g, j):
    n = len(g)
    col = [g[i][j] for i in range(n)]
    return 0 in col or sum(col) == n * (n * n + 1) // 2


def lines_ok(g):
    """No full row, column or diagonal off its sum, which the engine's input
    checks reject."""
    n = len(g)
    diagonals = [[g[i][i] for i in range(n)], [g[i][n - 1 - i] for i in range(n)]]
    return all(row_ok(g, i) and col_ok(g, i) for i in range(n)) and all(
        0 in d or sum(d) == n * (n * n + 1) // 2 for d in diagonals)


def none_wide_grids(rng):
    """Per order two magic grids with no completion: WIDE_NONE_BLANKS blanks
    of a scrambled square, then a given moved into a blank of its own row
    (the row's sum is kept; the column of the blank is still open)."""
    out = {}
    for n in WIDE_ORDERS:
        made = 0
        while made < 2:
            sq = scramble(wide_seed(n, "magic", rng), "magic", rng)
            g = [row[:] for row in sq]
            blanks = rng.sample(range(n * n), WIDE_NONE_BLANKS)
            for c in blanks:
                g[c // n][c % n] = 0
            r, c = divmod(rng.choice(blanks), n)
            q = rng.randrange(n)
            if g[r][q] == 0:
                continue
            g[r][c], g[r][q] = g[r][q], 0
            if not lines_ok(g) or has_completion(g, "magic"):
                continue
            out[("magic", n, f"moved{made}")] = g
            made += 1
    return out


def write_cut_grids(here, orders, percents, per_step, seed_of, rng):
    """The empty grid of every kind and order, and per_step grids per percent
    keeping that share of a scrambled seed_of(n, kind, rng) square."""
    for kind in KINDS:
        for n in orders:
            if kind == "most-perfect" and n % 4:
                continue
            write(os.path.join(here, kind, f"{n}x{n}_g00_0.txt"), [[0] * n for _ in range(n)])
            if not exists(kind, n):
                continue
            for pct in percents:
                for k in range(per_step):
                    sq = scramble(seed_of(n, kind, rng), kind, rng)
                    assert is_square(sq, kind), (kind, n, sq)
                    givens = max(1, round(pct * n * n / 100))
                    keep = set(rng.sample(range(n * n), givens))
                    g = [[sq[i][j] if i * n + j in keep else 0 for j in range(n)] for i in range(n)]
                    write(os.path.join(here, kind, f"{n}x{n}_g{pct:02d}_{k}.txt"), g)
            print(f"{kind} {n}x{n}", file=sys.stderr)


def write_wide(here):
    rng = random.Random(WIDE_SEED)
    write_cut_grids(here, WIDE_ORDERS, WIDE_PERCENTS, WIDE_PER_STEP, wide_seed, rng)
    for (kind, n, name), g in none_wide_grids(rng).items():
        write(os.path.join(here, "none", f"{kind}_{n}x{n}_{name}.txt"), g)


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--wide"]):
        sys.exit("usage: gen_battery.py path/to/magicount [--wide]   (--wide: orders 9..16 only)")
    engine = sys.argv[1]
    rng = random.Random(SEED)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "battery")
    if sys.argv[2:] == ["--wide"]:
        write_wide(here)
        return
    write_cut_grids(here, range(3, 9), PERCENTS, GRIDS_PER_STEP,
                    lambda n, kind, rng: seed_square(n, kind, rng, engine), rng)
    for (kind, n, name), g in none_grids().items():
        write(os.path.join(here, "none", f"{kind}_{n}x{n}_{name}.txt"), g)
    write_wide(here)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
