#!/usr/bin/env bash
# ctest-clean.sh BUILD_DIR [ctest args...]: runs ctest in BUILD_DIR with the
# tests' temp dir set to a new empty one (GoogleTest reads TEST_TMPDIR, the
# rest TMPDIR), and fails if the suite leaves anything in it: every scratch
# file a test makes must be removed by that test.
set -euo pipefail
build=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/magic-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Others may pass through (not list it): a hardening test runs a command as
# `nobody` in its scratch dir (Hardening.AFileTheUserCannotWriteIsNotReplaced).
chmod 711 "$tmp"
rc=0
(cd "$build" && TMPDIR=$tmp TEST_TMPDIR=$tmp ctest --output-on-failure "$@") || rc=$?
if [ -n "$(ls -A "$tmp")" ]; then
  echo "error: the tests left files in their temp dir:" >&2
  ls -lA "$tmp" | head -50 >&2
  rc=1
fi
exit "$rc"
