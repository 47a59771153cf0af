#!/usr/bin/env bash
# README command 2: install, build, and run the whole test suite.
# Tests labelled `slow` (exhaustive runs of minutes) run only with MAGIC_SLOW_TESTS=1.
# The suite runs in an empty temp dir and fails if it leaves files there.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite covers magicount-mpi too (tests labelled `mpi`, under mpirun),
# and the Python module (pytest, tests/python, label `python`).
bash scripts/deps.sh --mpi
# MAGIC_WERROR=1 (CI): a compiler warning in the project's own code fails the build.
werror=OFF
[ "${MAGIC_WERROR:-0}" = 1 ] && werror=ON
bash scripts/build.sh -DMAGIC_WITH_MPI=ON -DMAGIC_PYTHON=ON -DMAGIC_WERROR=$werror
if [ "${MAGIC_SLOW_TESTS:-0}" = 1 ]; then
  bash scripts/ctest-clean.sh "${BUILD_DIR:-build}" -j"$(nproc)"
else
  bash scripts/ctest-clean.sh "${BUILD_DIR:-build}" -j"$(nproc)" -LE slow
fi
