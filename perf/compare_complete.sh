#!/usr/bin/env bash
# Side by side: the seed 004 port against `magic-enum complete` on the fixed
# puzzle set in perf/puzzles (regenerate with perf/puzzles/gen.py).
#
#   perf/compare_complete.sh [BUILD_DIR]      (default: build)
#
# 1. Kernels, one run of bench_complete: first completion of every puzzle of
#    a set by the seed's DFS and by the engine, both in one process, parsing
#    outside the timed loop.  Prints the time per set and the ratio.
# 2. Whole commands, one hyperfine run: the baseline binary over a set of
#    files against a shell loop of `magic-enum complete` (one process per
#    puzzle, so start-up counts for the engine only; a lower bound).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
bench=$build/bin/bench_complete
base=$build/bin/baseline-seed004
me=$build/bin/magic-enum
for b in "$bench" "$base" "$me"; do
  [[ -x $b ]] || { echo "missing $b: cmake --build $build --target bench_complete baseline-seed004 magic-enum" >&2; exit 2; }
done

echo "== kernels: first completion of every puzzle in the set (bench_complete, one run)"
"$bench" --benchmark_filter='^(Seed004|Complete)/' --benchmark_min_time=0.3 \
  --benchmark_format=json 2>/dev/null |
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
files=$(ls "$here"/puzzles/4x4/b12_*.txt)
hyperfine -N --warmup 2 --runs 10 \
  -n seed004 "$base $(echo $files)" \
  -n magic-enum "bash -c 'for f in $(echo $files); do $me complete -q -t 1 \$f; done'" 2>&1 |
  grep -v '^ *$'
