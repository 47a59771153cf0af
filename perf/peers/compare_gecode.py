#!/usr/bin/env python3
"""Side by side on the same grids: `magicount complete` (first completion)
and Gecode's standard model (perf/peers/gecode_square.cpp), each grid with
a time limit, one process per grid and tool.  Prints a markdown table: each
tool's outcome (found / none / undecided or timeout), the process's wall
time and the search's own time (as each tool reports it: without the
process's start, which is a few ms for either), and both ratios where both
finished.  Every completion printed is checked here, from
the definitions (gen_battery's is_square) and the givens.  With --repeat R
each grid runs R times, the two tools in turn, and the times are medians
(a grid of a few ms moves by 2x between single runs).

    python3 perf/peers/compare_gecode.py build/bin/magicount build/bin/peer-gecode-square \\
        perf/puzzles/gecode9/*.txt [--kind magic] [--timeout 60] [--threads 2] [--repeat 1]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "puzzles"))
from gen_battery import is_square  # noqa: E402


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0]
            if line.strip():
                rows.append([int(x) for x in line.split()])
    return rows


def checked(grid, sol, kind):
    n = len(grid)
    full = [sol[r * n:(r + 1) * n] for r in range(n)] if sol and isinstance(sol[0], int) else sol
    ok = is_square(full, kind) and all(grid[r][c] in (0, full[r][c]) for r in range(n) for c in range(n))
    if not ok:
        raise SystemExit("a completion failed the check: %s" % json.dumps(full))


def ours(engine, path, kind, timeout, threads):
    t0 = time.perf_counter()
    try:
        out = subprocess.run([engine, "complete", "--kind", kind, "-t", str(threads), "-q", "--json", "-", path],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", timeout, timeout, None
    t = time.perf_counter() - t0
    if out.returncode not in (0, 1, 3):
        raise SystemExit("magicount failed on %s: %s" % (path, out.stderr.strip()))
    j = json.loads(out.stdout)
    sols = j.get("solutions", [])
    return j["completion"], t, j["run"]["wall_seconds"], sols[0] if sols else None


def gecode(peer, path, kind, timeout):
    t0 = time.perf_counter()
    out = subprocess.run([peer, "--kind", kind, "--seconds", str(timeout), path], capture_output=True, text=True,
                         timeout=timeout + 30)
    t = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit("the peer failed on %s: %s" % (path, out.stderr.strip()))
    j = json.loads(out.stdout.strip().splitlines()[-1])
    return j["status"], t, j["seconds"], j["grid"] or None


def times(r):
    """A ratio, with two decimals near 1 (where the criterion's line is)."""
    return ("%.2fx" if r < 2 else "%.1fx") % r


def median_run(runs):
    """The runs' outcome (the same in each), with the median process and search times."""
    status = runs[0][0]
    if any(r[0] != status for r in runs):
        raise SystemExit("the outcome changed between runs: %s" % [r[0] for r in runs])
    return status, statistics.median(r[1] for r in runs), statistics.median(r[2] for r in runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("peer")
    ap.add_argument("grids", nargs="+")
    ap.add_argument("--kind", default="magic")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs a grid and tool, alternated; times are medians")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    print("| grid | givens | magicount | process | search | Gecode | process | search | Gecode / magicount: process | search |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ratios, search_ratios, ours_t = [], [], []
    for path in a.grids:
        grid = read(path)
        givens = sum(v != 0 for row in grid for v in row)
        runs1, runs2 = [], []
        for _ in range(a.repeat):
            runs1.append(ours(a.engine, path, a.kind, a.timeout, a.threads))
            runs2.append(gecode(a.peer, path, a.kind, a.timeout))
        s1, t1, w1 = median_run(runs1)
        s2, t2, w2 = median_run(runs2)
        for r in runs1 + runs2:
            if r[3]:
                checked(grid, r[3], a.kind)
        ours_t.append(t1)
        ratio = search_ratio = ""
        if s1 in ("found", "none") and s2 in ("found", "none"):
            ratios.append(t2 / t1)
            search_ratios.append(w2 / w1)
            ratio, search_ratio = times(t2 / t1), times(w2 / w1)
        print("| %s | %d | %s | %.3f s | %.4f s | %s | %.3f s | %.4f s | %s | %s |"
              % (os.path.basename(path), givens, s1, t1, w1, s2, t2, w2, ratio, search_ratio))
    print()
    print("magicount: median %.3f s, worst %.3f s over %d grids" % (statistics.median(ours_t), max(ours_t), len(ours_t)))
    if ratios:
        print("where both finished (%d grids): Gecode / magicount median %.1fx (process), %.1fx (search); "
              "%d and %d grids at 10x or more"
              % (len(ratios), statistics.median(ratios), statistics.median(search_ratios),
                 sum(r >= 10 for r in ratios), sum(r >= 10 for r in search_ratios)))


if __name__ == "__main__":
    main()
