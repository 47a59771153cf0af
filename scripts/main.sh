#!/usr/bin/env bash
# README command 1: install, build, and reproduce the documents' results.
# Extra arguments go to `magic-enum reproduce` (e.g. --full).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
exec "${BUILD_DIR:-build}/bin/magic-enum" reproduce "$@"
