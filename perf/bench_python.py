"""The Python module's costs (issue 45), printed as the rows of
perf/results/python.md:

  - one count() call on a tiny problem (square, order 3), in a loop: the
    median over repeats of the mean per call, beside the engine's own wall
    time for the run (the result's run.wall_seconds);
  - solutions() streaming N order-5 squares (default ten million): the
    rate, and the RSS after a tenth and at the end.

Usage: PYTHONPATH=build/python python3 perf/bench_python.py [N]"""
import statistics
import sys
import time
import timeit

import magicount


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def per_call():
    for threads in (1, 0):
        call = lambda: magicount.count("square", order=3, threads=threads)
        call()
        runs = [timeit.timeit(call, number=20000) / 20000 for _ in range(7)]
        engine = statistics.median(call()["run"]["wall_seconds"] for _ in range(2001))
        print(f"| count('square', order=3, threads={threads}) | {statistics.median(runs) * 1e6:.1f} µs a call "
              f"(median of 7 loops of 20,000) | engine's wall {engine * 1e6:.1f} µs (median of 2,001) |")


def streaming(total):
    t0 = time.perf_counter()
    early = None
    n = 0
    for _ in magicount.solutions("square", order=5, limit=total):
        n += 1
        if n == total // 10:
            early = rss_mib()
    dt = time.perf_counter() - t0
    print(f"| solutions('square', order=5, limit={total:,}) | {n:,} in {dt:.1f} s ({n / dt / 1e3:.0f} k/s) | "
          f"RSS {early:.1f} MiB after {total // 10:,}, {rss_mib():.1f} MiB at the end |")


if __name__ == "__main__":
    print(f"magicount {magicount.__version__}, Python {sys.version.split()[0]}")
    per_call()
    streaming(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
