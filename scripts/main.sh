#!/usr/bin/env bash
# README command 1: install, build, and reproduce the documents' results.
# Extra arguments go to `magicount reproduce` (e.g. --full).
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what `reproduce` runs: the CLI, and the ports of the documents'
# programs it times (the CLI depends on them); scripts/test.sh builds the rest.
bash scripts/build.sh --target magicount
exec "${BUILD_DIR:-build}/bin/magicount" reproduce "$@"
