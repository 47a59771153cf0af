#!/usr/bin/env bash
# Configures and builds Release into ${BUILD_DIR:-build}; extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DMAGIC_BUILD_TESTS=ON -DMAGIC_BUILD_PERF=ON "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
