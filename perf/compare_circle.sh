#!/usr/bin/env bash
# Side by side for magic circles (issue 4 targets), all in one invocation:
#   1. kernels: bench_circle (exhaustive through the runner on 1 and 2
#      threads, the serial kernel, the multiplier method);
#   2. whole commands (hyperfine): n = 14 and 15 exhaustive on 2 and 1
#      threads next to the maenjin2 port (single-threaded, as the document);
#   3. with --big: n = 16 and 17 exhaustive on 2 threads, one run each
#      (about 20 s and 2 min; the port would take about 8 min and 1 hour).
#
#   perf/compare_circle.sh [BUILD_DIR] [--big]      (default: build)
set -euo pipefail
build=build
big=0
for a in "$@"; do
  case $a in
    --big) big=1 ;;
    *) build=$a ;;
  esac
done
me=$build/bin/magic-enum
port=$build/bin/baseline-maenjin2
for b in "$build/bin/bench_circle" "$port" "$me"; do
  [[ -x $b ]] || { echo "missing $b: scripts/build.sh" >&2; exit 2; }
done
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== build: $(grep -m1 CMAKE_BUILD_TYPE "$build/CMakeCache.txt"), $("$me" --version 2>/dev/null | head -1)"
echo "== kernels (bench_circle, medians of 3)"
"$build/bin/bench_circle" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null |
  grep -E '^Benchmark|_median'
echo "== whole commands (hyperfine), ours next to the maenjin2 port"
hyperfine -N -w 1 -r 5 "$me circle --n 14 -t 2 -q" "$me circle --n 14 -t 1 -q" "$port 14 --quiet"
hyperfine -N -r 3 "$me circle --n 15 -t 2 -q" "$me circle --n 15 -t 1 -q" "$port 15 --quiet"
if ((big)); then
  echo "== n = 16 and 17, 2 threads, one run each"
  for n in 16 17; do "$me" circle --n "$n" -t 2 | sed -n '1p;$p'; done
fi
