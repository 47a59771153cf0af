#!/usr/bin/env bash
# Writes engine/src/families/figure/figure_compiled_plans.inc: the compiled plans of the
# catalog figures named (default: the ones the build compiles now), from
# the search's plans as they are.  Run it when FigureCompiled.PlansAreCurrent
# fails, or to compile another figure; then build again.
#   scripts/figure-plans.sh [BUILD_DIR] [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
ninja -C "$build" figure-plans > /dev/null
"$build/bin/figure-plans" "$@" > "$build/figure_compiled_plans.inc"
mv "$build/figure_compiled_plans.inc" engine/src/families/figure/figure_compiled_plans.inc
echo "wrote engine/src/families/figure/figure_compiled_plans.inc"
