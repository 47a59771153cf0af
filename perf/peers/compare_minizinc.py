#!/usr/bin/env python3
"""Side by side on two OEIS counts: `magicount graph` and a MiniZinc model run
with Gecode (perf/peers/minizinc/), both on the same threads, one process per
count and tool, timed on the wall clock for the whole process.

    A145692  vertex-magic total labelings of the cycle C_n, up to rotation and
             reflection: a145692.mzn, `graph --builtin cycle-N --labeling vertex-magic-total`
    A237426  edge-magic total labelings of the path P_n (n edges), up to
             reversal: a237426.mzn, `graph --builtin path-N --labeling edge-magic-total`

MiniZinc prints every solution (the model's own output item, one labeling a
line) and, with -s, Gecode's solution count; the two must agree, the search
must be complete, and each labeling printed is checked here from the
definitions (a permutation of 1..|V|+|E|, magic, and no two in one orbit of
the symmetry group).  magicount's count is its JSON's counts.unique.  Both
counts must be equal, and equal to the OEIS term where it is known.  With
--repeat R each count runs R times, the two tools in turn, and the times are
medians.  Prints a markdown table.

The solver configuration perf/peers/minizinc/gecode-std.msc runs Debian's
fzn-gecode with MiniZinc's standard globals (Debian's minizinc 2.6.4 rejects
Gecode 6.2.0's own); it needs `apt-get install minizinc` (which brings
fzn-gecode in the package flatzinc).

    python3 perf/peers/compare_minizinc.py build/bin/magicount \\
        [--n 8,9,10,11] [--sequences A145692,A237426] [--timeout 600] [--threads 2] [--repeat 1]
    python3 perf/peers/compare_minizinc.py --minizinc-only --n 5,6,7
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "minizinc")

# The OEIS data (b-files absent): A145692 from n = 3, A237426 from n = 0.
OEIS = {
    "A145692": (3, [4, 6, 6, 20, 118, 282, 1540, 7092, 36128, 206848, 1439500, 10066876, 74931690,
                    613296028, 5263250382, 47965088850]),
    "A237426": (0, [1, 3, 12, 28, 48, 240, 944, 5344, 23408, 133808, 751008, 5222768, 37898776,
                    292271304, 2346665448, 20499852656]),
}
# sequence -> (model, magicount builtin, labeling, smallest n)
SEQUENCES = {
    "A145692": ("a145692.mzn", "cycle-%d", "vertex-magic-total", 3),
    "A237426": ("a237426.mzn", "path-%d", "edge-magic-total", 0),
}


def oeis(seq, n):
    """The OEIS term a(n), or None past the known data."""
    offset, terms = OEIS[seq]
    i = n - offset
    return terms[i] if 0 <= i < len(terms) else None


def run_timed(cmd, timeout, stdout):
    """Runs cmd in its own process group; returns (exit code or None on timeout,
    wall seconds, stderr).  On timeout the whole group (minizinc and its
    fzn-gecode) is ended."""
    t0 = time.perf_counter()
    try:
        p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        raise SystemExit("cannot run %s: %s" % (cmd[0], e))
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        return None, timeout, ""
    return p.returncode, time.perf_counter() - t0, err


def stderr_tail(err):
    """The stderr worth showing: without minizinc's warnings about Gecode's library."""
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("Warning:")]
    return "\n".join(lines[-12:])


def check_labeling(seq, n, x):
    """One printed labeling, from the definitions: x alternates the labels along
    the cycle (edge, vertex, edge, ...) or the path (vertex, edge, vertex, ...),
    and every triple x[2i], x[2i+1], x[2i+2] (0-based; cyclic for the cycle) is
    a vertex's weight (cycle) or an edge's (path)."""
    size = 2 * n if seq == "A145692" else 2 * n + 1
    if sorted(x) != list(range(1, size + 1)):
        raise SystemExit("%s n=%d: not a labeling by 1..%d: %s" % (seq, n, size, x))
    sums = {x[2 * i] + x[2 * i + 1] + x[(2 * i + 2) % size] for i in range(n)}
    if len(sums) > 1:
        raise SystemExit("%s n=%d: not magic: %s" % (seq, n, x))


def canonical(seq, n, x):
    """The least image of a labeling under the symmetry group the count is up to:
    the dihedral group of C_n (rotations by whole edge+vertex steps, and the
    reversal, re-rotated so that an edge stands first), or the path's reversal."""
    if seq == "A237426":
        return min(tuple(x), tuple(reversed(x)))
    size = 2 * n
    r = list(reversed(x))
    r = r[1:] + r[:1]  # [e_1, v_n, e_n, ...]: edges at the even places again
    return min(tuple(s[k:] + s[:k]) for s in (x, r) for k in range(0, size, 2))


def count_printed(seq, n, path):
    """Reads the solutions minizinc printed: (their count, Gecode's count from -s,
    whether the search said it was complete).  Checks each labeling."""
    printed, stat, complete, unsat = 0, None, False, False
    orbits = set()
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                x = [int(v) for v in line[1:-1].split(",")] if line != "[]" else []
                check_labeling(seq, n, x)
                orbits.add(bytes(canonical(seq, n, x)))  # labels < 256: small keys
                printed += 1
            elif line.startswith("%%%mzn-stat: solutions="):
                stat = int(line.split("=", 1)[1])
            elif line == "==========":
                complete = True
            elif line == "=====UNSATISFIABLE=====":
                unsat = True
    if len(orbits) != printed:
        raise SystemExit("%s n=%d: %d labelings printed, in %d orbits of the symmetry group"
                         % (seq, n, printed, len(orbits)))
    return printed, stat, complete or unsat


def minizinc(mzn, solver, seq, n, timeout, threads):
    """One MiniZinc run: (count or "timeout", wall seconds)."""
    model = os.path.join(MODELS, SEQUENCES[seq][0])
    cmd = [mzn, "--solver", solver, "-a", "-s", "-p", str(threads), "-D", "n=%d" % n, model]
    with tempfile.NamedTemporaryFile("w+", prefix="mzn-", suffix=".txt") as out:
        rc, t, err = run_timed(cmd, timeout, out)
        if rc is None:
            return "timeout", t
        if rc != 0:
            raise SystemExit("minizinc failed on %s n=%d (exit %d): %s\n  command: %s"
                             % (seq, n, rc, stderr_tail(err), " ".join(cmd)))
        out.flush()
        printed, stat, complete = count_printed(seq, n, out.name)
    if not complete:
        raise SystemExit("minizinc on %s n=%d did not report a complete search" % (seq, n))
    if stat is not None and stat != printed:
        raise SystemExit("minizinc on %s n=%d printed %d solutions but counted %d" % (seq, n, printed, stat))
    return printed, t


def magicount(engine, seq, n, timeout, threads):
    """One `magicount graph` run: (counts.unique or "timeout", wall seconds)."""
    _, builtin, labeling, _ = SEQUENCES[seq]
    cmd = [engine, "graph", "--builtin", builtin % n, "--labeling", labeling, "-t", str(threads), "-q",
           "--json", "-"]
    with tempfile.TemporaryFile("w+") as out:
        rc, t, err = run_timed(cmd, timeout, out)
        if rc is None:
            return "timeout", t
        out.seek(0)
        text = out.read()
    if rc != 0:
        raise SystemExit("magicount failed on %s (exit %d): %s\n  command: %s"
                         % (builtin % n, rc, err.strip() or "(no message)", " ".join(cmd)))
    try:
        return int(json.loads(text)["counts"]["unique"]), t
    except (ValueError, KeyError, TypeError) as e:
        raise SystemExit("magicount's JSON on %s has no counts.unique (%s): %s"
                         % (builtin % n, e, text.strip()[:300] or "(empty)"))


def median_run(runs, what):
    """The runs' count (the same in each) and the median time."""
    counts = {r[0] for r in runs}
    if len(counts) != 1:
        raise SystemExit("%s: the count changed between runs: %s" % (what, [r[0] for r in runs]))
    return runs[0][0], statistics.median(r[1] for r in runs)


def times(r):
    """A ratio, with two decimals near 1."""
    return ("%.2fx" if r < 2 else "%.1fx") % r


def parse_list(text, cast):
    try:
        return [cast(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise SystemExit("not a comma-separated list: %r" % text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", nargs="?", help="the magicount binary (not needed with --minizinc-only)")
    ap.add_argument("--n", default="8,9,10,11", help="the sizes, comma-separated (default 8,9,10,11)")
    ap.add_argument("--sequences", default="A145692,A237426")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run of either tool (default 600)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs a count and tool, alternated; times are medians")
    ap.add_argument("--minizinc", default="minizinc", help="the minizinc binary")
    ap.add_argument("--solver", default=os.path.join(MODELS, "gecode-std.msc"),
                    help="minizinc's --solver (default perf/peers/minizinc/gecode-std.msc)")
    ap.add_argument("--minizinc-only", action="store_true", help="time MiniZinc alone (no magicount)")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not a.minizinc_only and not a.engine:
        ap.error("the magicount binary is needed (or --minizinc-only)")
    seqs = parse_list(a.sequences, str)
    for s in seqs:
        if s not in SEQUENCES:
            ap.error("unknown sequence %s (known: %s)" % (s, ", ".join(SEQUENCES)))
    ns = parse_list(a.n, int)

    print("| sequence | n | count | MiniZinc | magicount | MiniZinc / magicount |")
    print("|---|---|---|---|---|---|")
    for seq in seqs:
        for n in ns:
            if n < SEQUENCES[seq][3]:
                print("| %s | %d | (no such graph) | | | |" % (seq, n))
                continue
            runs_m, runs_o = [], []
            for _ in range(a.repeat):
                if not a.minizinc_only:
                    runs_o.append(magicount(a.engine, seq, n, a.timeout, a.threads))
                runs_m.append(minizinc(a.minizinc, a.solver, seq, n, a.timeout, a.threads))
            cm, tm = median_run(runs_m, "MiniZinc %s n=%d" % (seq, n))
            co, to = median_run(runs_o, "magicount %s n=%d" % (seq, n)) if runs_o else (None, None)
            known = oeis(seq, n)
            for who, c in (("MiniZinc", cm), ("magicount", co)):
                if isinstance(c, int) and known is not None and c != known:
                    raise SystemExit("%s n=%d: %s counts %d, OEIS a(%d) = %d" % (seq, n, who, c, n, known))
            if isinstance(cm, int) and isinstance(co, int) and cm != co:
                raise SystemExit("%s n=%d: MiniZinc counts %d, magicount %d" % (seq, n, cm, co))
            count = next((c for c in (cm, co) if isinstance(c, int)), "-")
            if isinstance(count, int) and known is None:
                count = "%d (beyond the OEIS data)" % count
            fmt = lambda c, t: ("> %g s" % t) if c == "timeout" else ("%.3f s" % t)  # noqa: E731
            tm_s = fmt(cm, tm)
            to_s = "-" if co is None else fmt(co, to)
            ratio = ""
            if isinstance(cm, int) and isinstance(co, int):
                ratio = times(tm / to)
            elif cm == "timeout" and isinstance(co, int):
                ratio = "> " + times(tm / to)
            print("| %s | %d | %s | %s | %s | %s |" % (seq, n, count, tm_s, to_s, ratio))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
