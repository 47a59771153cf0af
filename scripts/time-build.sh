#!/usr/bin/env bash
# Times every translation unit of a cold Release build (the one
# scripts/test.sh makes, with MPI and Ninja) and prints the slowest.
# Usage: time-build.sh [BUILD_DIR [TOP]]  (default build-timed, 15).
# The build dir is removed first; each compile's wall time goes to
# BUILD_DIR/compile-times.tsv (scripts/compile-timer).  Run it with nothing
# else on the machine: two compiles share its cores, and their times with it.
set -euo pipefail
dir=$(realpath -m "${1:-$(dirname "$0")/../build-timed}")  # before the cd: relative to the caller
cd "$(dirname "$0")/.."
top=${2:-15}
bash scripts/deps.sh --mpi
rm -rf "$dir"
t0=$SECONDS
cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMAGIC_BUILD_TESTS=ON -DMAGIC_BUILD_PERF=ON -DMAGIC_WITH_MPI=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/scripts/compile-timer" >/dev/null
MAGIC_COMPILE_TIMES=$dir/compile-times.tsv cmake --build "$dir" -j"$(nproc)" >/dev/null
echo "cold build: $((SECONDS - t0)) s wall, $(awk '{s += $1} END {printf "%.0f", s}' "$dir/compile-times.tsv") s of compiles" \
  "($(wc -l <"$dir/compile-times.tsv") files)"
sort -rn "$dir/compile-times.tsv" | head -n "$top"
