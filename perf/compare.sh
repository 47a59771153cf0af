#!/usr/bin/env bash
# Side by side, all in one invocation so the ratios share one machine state:
# Google Benchmark kernels, then whole commands under hyperfine, ours next to
# the port of the document's program.
#
#   perf/compare.sh PROBLEM [BUILD_DIR] [--big]       (BUILD_DIR default: build)
#
#   circle    bench_circle; n = 14 and 15 exhaustive on 2 and 1 threads next
#             to the maenjin2 port.  --big: also n = 16 and 17 on 2 threads,
#             one run each (about 20 s and 2 min; the port: 8 min and 1 hour).
#   star      bench_star (the seed 002 port and the engine in one process);
#             n = 12 on 1 and 2 threads, n = 13 on 2, and the pentagram with
#             ten of 1..12 against the port.
#   complete  bench_complete: first completion of every puzzle of a set in
#             perf/puzzles by the seed 004 DFS and by the engine; then the
#             port over the 4x4 12-blank files against one `magicount
#             complete` process per puzzle (start-up counts for us only).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '6,17p' "$0" | sed 's/^# \{0,1\}//'; }

problem=${1:-}
case $problem in
  -h|--help) usage; exit 0 ;;
  circle|star|complete) shift ;;
  *) echo "perf/compare.sh: unknown problem '${problem}' (use circle, star or complete)" >&2; usage >&2; exit 2 ;;
esac
build=build
big=0
for a in "$@"; do
  case $a in
    --big) big=1 ;;
    -*) echo "perf/compare.sh: unknown option $a" >&2; exit 2 ;;
    *) build=$a ;;
  esac
done
me=$build/bin/magicount

need() {
  for b in "$@"; do
    [[ -x $b ]] || { echo "missing $b: bash scripts/build.sh (or BUILD_DIR=$build)" >&2; exit 2; }
  done
}
header() {
  echo "== machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "== build: $(grep -m1 CMAKE_BUILD_TYPE "$build/CMakeCache.txt"), $("$me" --version 2>/dev/null | head -1)"
}
kernels() {  # medians of 3
  echo "== kernels ($(basename "$1"), medians of 3)"
  "$1" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null | grep -E '^Benchmark|_median'
}

compare_circle() {
  local port=$build/bin/baseline-maenjin2
  need "$build/bin/bench_circle" "$port" "$me"
  header
  kernels "$build/bin/bench_circle"
  echo "== whole commands (hyperfine), ours next to the maenjin2 port"
  hyperfine -N -w 1 -r 5 "$me circle --n 14 -t 2 -q" "$me circle --n 14 -t 1 -q" "$port 14 --quiet"
  hyperfine -N -r 3 "$me circle --n 15 -t 2 -q" "$me circle --n 15 -t 1 -q" "$port 15 --quiet"
  if ((big)); then
    echo "== n = 16 and 17, 2 threads, one run each"
    for n in 16 17; do "$me" circle --n "$n" -t 2 | sed -n '1p;$p'; done
  fi
}

compare_star() {
  local port=$build/bin/baseline-seed002
  need "$build/bin/bench_star" "$port" "$me"
  header
  kernels "$build/bin/bench_star"
  echo "== whole commands (hyperfine)"
  hyperfine -N -w 1 -r 5 "$me star --n 12 -t 2 -q" "$me star --n 12 -t 1 -q"
  hyperfine -N -r 2 "$me star --n 13 -t 2 -q"
  hyperfine -N -w 2 -r 10 "$me star --n 5 --numbers 1..12 -t 2 -q" "$port --max 12 --equal 5"
}

compare_complete() {
  local bench=$build/bin/bench_complete port=$build/bin/baseline-seed004
  need "$bench" "$port" "$me"
  header
  echo "== kernels: first completion of every puzzle in the set (bench_complete, one run)"
  "$bench" --benchmark_filter='^(Seed004|Complete)/' --benchmark_min_time=0.3 --benchmark_format=json 2>/dev/null |
    python3 -c '
import json, sys
runs = json.load(sys.stdin)["benchmarks"]
t, n = {}, {}
for r in runs:
    kind, name = r["name"].split("/", 1)
    t.setdefault(name, {})[kind] = r["cpu_time"]  # milliseconds
    n[name] = int(r.get("puzzles", 0))
print("%-10s %7s %12s %12s %9s" % ("set", "puzzles", "seed004 ms", "engine ms", "ratio"))
for name, v in t.items():
    print("%-10s %7d %12.4f %12.4f %8.1fx" % (name, n[name], v["Seed004"], v["Complete"], v["Seed004"] / v["Complete"]))
'
  echo
  echo "== whole commands (hyperfine, one run): 4x4 puzzles with 12 blanks"
  local files
  files=$(ls "$here"/puzzles/4x4/b12_*.txt)
  hyperfine -N --warmup 2 --runs 10 \
    -n seed004 "$port $(echo $files)" \
    -n magicount "bash -c 'for f in $(echo $files); do $me complete -q -t 1 \$f; done'" 2>&1 |
    grep -v '^ *$'
}

"compare_$problem"
