#!/usr/bin/env bash
# README command 2: install, build, and run the whole test suite.
# Tests labelled `slow` (exhaustive runs of minutes) run only with MAGIC_SLOW_TESTS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd "${BUILD_DIR:-build}"
if [ "${MAGIC_SLOW_TESTS:-0}" = 1 ]; then
  ctest --output-on-failure -j"$(nproc)"
else
  ctest --output-on-failure -j"$(nproc)" -LE slow
fi
