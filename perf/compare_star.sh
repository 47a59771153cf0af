#!/usr/bin/env bash
# Side by side for stars (issue 3 targets), all in one invocation:
#   1. kernels: bench_star (the seed 002 port and the engine in one process);
#   2. whole commands: n=12 on 1 and 2 threads (the 2-thread speedup), n=13
#      on 2 threads, and the pentagram with ten of 1..12 against the port.
#
#   perf/compare_star.sh [BUILD_DIR]      (default: build)
set -euo pipefail
build=${1:-build}
me=$build/bin/magic-enum
for b in "$build/bin/bench_star" "$build/bin/baseline-seed002" "$me"; do
  [[ -x $b ]] || { echo "missing $b: scripts/build.sh" >&2; exit 2; }
done
echo "== machine: $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== kernels (bench_star, medians of 3)"
"$build/bin/bench_star" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null |
  grep -E '^Benchmark|_median'
echo "== whole commands (hyperfine)"
hyperfine -N -w 1 -r 5 "$me star --n 12 -t 2 -q" "$me star --n 12 -t 1 -q"
hyperfine -N -r 2 "$me star --n 13 -t 2 -q"
hyperfine -N -w 2 -r 10 "$me star --n 5 --numbers 1..12 -t 2 -q" "$build/bin/baseline-seed002 --max 12 --equal 5"
