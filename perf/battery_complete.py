#!/usr/bin/env python3
"""Runs the `complete` battery (perf/puzzles/battery, made by gen_battery.py):
the first completion of every grid, one process per grid, and a markdown
table of per-grid times by kind and order (median and worst case).

    python3 perf/battery_complete.py build/bin/magicount [--timeout 10] [--repeat 1]
        [--orders 3-8] [--threads 1] [--peer build/bin/peer-gecode-square]

Every completion is checked twice: here, independently of the engine
(gen_battery's is_square, from the definitions, and the givens kept), and
by `magicount verify` on the run's result file.  A grid of a kind and
order that has squares must be completed; one under none/ or of a kind and
order without squares must end with no completion and `exhaustive` (proved).
"undecided" (exit 3, the budget ran out) and a timeout count as failures.
With --peer, Gecode's model (perf/peers/gecode_square.cpp) runs on every
grid too, under the same time limit, and the table gains its median and the
grids it finished.
"search ms" is the run's own wall time from --json (no process start-up);
"process ms" the whole command.  Exit status 1 if any check fails.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "puzzles"))
from gen_battery import exists, is_square  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "peers"))
from compare_gecode import checked, gecode  # noqa: E402


def read(path):
    with open(path) as f:
        return [[int(x) for x in line.split()] for line in f if line.strip()]


def run_one(engine, path, kind, timeout, threads):
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "result.json")
        t0 = time.perf_counter()
        try:
            out = subprocess.run([engine, "complete", "--kind", kind, "-t", str(threads), "-q", "--json", result, path],
                                 capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"timeout": True, "process": timeout}
        proc = time.perf_counter() - t0
        if out.returncode == 3:
            return {"error": "undecided", "process": proc}
        if out.returncode not in (0, 1):
            return {"error": out.stderr.strip(), "process": proc}
        with open(result) as f:
            j = json.load(f)
        verify = subprocess.run([engine, "verify", "--partial", result], capture_output=True, text=True)
    return {"process": proc, "search": j["run"]["wall_seconds"], "nodes": j["run"]["nodes"],
            "sols": j.get("solutions", []), "exhaustive": j["exhaustive"], "rc": out.returncode,
            "verified": verify.returncode == 0, "verify": verify.stderr.strip()}


def orders(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--repeat", type=int, default=1, help="runs per grid; the median counts")
    ap.add_argument("--orders", type=orders, default=orders("3-16"), help="LO-HI, say 9-16")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--peer", help="Gecode's model, timed side by side")
    a = ap.parse_args()
    root = os.path.join(HERE, "puzzles", "battery")
    cases = []
    for kind in sorted(os.listdir(root)):
        for f in sorted(os.listdir(os.path.join(root, kind))):
            if kind == "none":
                k, rest = f.split("_", 1)
                cases.append((k, int(rest.split("x")[0]), os.path.join(root, kind, f), False))
            else:
                n = int(f.split("x")[0])
                cases.append((kind, n, os.path.join(root, kind, f), exists(kind, n)))
    cases = [c for c in cases if c[1] in a.orders]
    failures = []
    rows, peers = {}, {}
    for kind, n, path, solvable in cases:
        runs = [run_one(a.engine, path, kind, a.timeout, a.threads) for _ in range(a.repeat)]
        peer = None
        if a.peer:
            status, t, sol = gecode(a.peer, path, kind, a.timeout)
            if sol:
                checked(read(path), sol, kind)
            peer = (t, status in ("found", "none"))
            peers.setdefault((kind if solvable or "none" not in path else kind + " (none)", n), []).append(peer)
        name = os.path.relpath(path, root)
        bad = next((r for r in runs if "timeout" in r or "error" in r), None)
        if bad:
            failures.append(f"{name}: {'timeout' if 'timeout' in bad else bad['error']}")
            rows.setdefault((kind, n), []).append((a.timeout, a.timeout, 0, name))
            continue
        r = runs[0]
        grid = read(path)
        if solvable:
            ok = (len(r["sols"]) == 1 and is_square(r["sols"][0], kind)
                  and all(v == 0 or v == w for gr, sr in zip(grid, r["sols"][0]) for v, w in zip(gr, sr)))
        else:
            ok = not r["sols"] and r["exhaustive"] and r["rc"] == 1
        if not ok:
            failures.append(f"{name}: wrong answer {r}")
        if r["sols"] and not r["verified"]:
            failures.append(f"{name}: magicount verify refused it: {r['verify']}")
        search = statistics.median(x["search"] for x in runs)
        proc = statistics.median(x["process"] for x in runs)
        rows.setdefault((kind if solvable or "none" not in path else kind + " (none)", n), []).append(
            (search, proc, r["nodes"], name))
    head = "| kind | n | grids | median search ms | worst search ms | worst process ms | worst grid (nodes) |"
    print(head + (" Gecode median ms | Gecode finished |" if a.peer else ""))
    print("|---" * (7 + 2 * bool(a.peer)) + "|")
    for (kind, n), v in sorted(rows.items()):
        w = max(v)
        line = (f"| {kind} | {n} | {len(v)} | {1000 * statistics.median(x[0] for x in v):.2f} | "
                f"{1000 * w[0]:.1f} | {1000 * max(x[1] for x in v):.1f} | {w[3]} ({w[2]}) |")
        if a.peer:
            p = peers.get((kind, n), [])
            line += f" {1000 * statistics.median(x[0] for x in p):.1f} | {sum(x[1] for x in p)} of {len(p)} |"
        print(line)
    allv = [x for v in rows.values() for x in v]
    print(f"\n{len(allv)} grids; search median {1000 * statistics.median(x[0] for x in allv):.2f} ms, "
          f"worst {1000 * max(x[0] for x in allv):.1f} ms; worst process {1000 * max(x[1] for x in allv):.1f} ms")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
