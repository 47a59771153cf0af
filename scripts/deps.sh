#!/usr/bin/env bash
# Installs the Debian packages magicount builds with, if any are missing.
# --mpi adds Open MPI, for magicount-mpi (cmake -DMAGIC_WITH_MPI=ON);
# --peers adds MiniZinc with Gecode's FlatZinc solver (package flatzinc),
# for perf/peers/compare_minizinc.py.
set -euo pipefail
mpi=0
peers=0
for a in "$@"; do
  case $a in
    --mpi) mpi=1 ;;
    --peers) peers=1 ;;
    *) echo "usage: $0 [--mpi] [--peers]" >&2; exit 2 ;;
  esac
done
pkgs=(build-essential cmake ninja-build pkg-config libtbb-dev libxxhash-dev nlohmann-json3-dev libcli11-dev
      googletest libgtest-dev libbenchmark-dev libnauty2-dev hyperfine librsvg2-bin libxml2-utils
      # scripts/check-journal-shards.py, and the test that runs it
      python3
      # the man page (help2man), the Debian package (dpkg-dev's dpkg-shlibdeps,
      # lintian) and man -w in CI's install check
      help2man dpkg-dev lintian man-db
      # the Python module (-DMAGIC_PYTHON=ON) and its tests
      pybind11-dev python3-dev python3-pytest
      # a networkx.Graph as the graph family's graph= in Python, and its test
      python3-networkx
      # the peer baseline of `complete` (perf/peers/gecode_square.cpp)
      libgecode-dev
      # CI's fuzzers (scripts/ci-extra.sh): clang, its libFuzzer and sanitizer
      # runtimes, and llvm-symbolizer for readable stack traces.
      clang libclang-rt-14-dev llvm)
((mpi)) && pkgs+=(libopenmpi-dev openmpi-bin)
((peers)) && pkgs+=(minizinc flatzinc)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
