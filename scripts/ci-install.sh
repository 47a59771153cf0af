#!/usr/bin/env bash
# CI: magicount as a user installs it, from the Release tree scripts/test.sh
# built (build/, or BUILD_DIR).
#   1. cmake --install to a temp prefix; from outside the source tree, the
#      installed program reproduces the documents (26/26) and finds the
#      installed records;
#   2. examples/count_stars builds against that prefix, with find_package
#      and with pkg-config, and prints the {8/2} count (112);
#   3. the Python module (a build with -DMAGIC_PYTHON=ON) imports from the
#      prefix and counts the {12/2} stars (396930);
#   4. cpack -G DEB: lintian finds no error; the packages install with
#      apt-get, run (--version, star --n 8, man -w, import magicount; the old
#      name magic-enum with its notice) and remove cleanly.
# It installs into the system (step 3), so it is CI's, not the README's.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/${BUILD_DIR:-build}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
work=$(mktemp -d "${TMPDIR:-/tmp}/magic-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

step() { echo "== install: $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }

step "cmake --install to $prefix"
cmake --build "$build" --target magicount magic_docs >/dev/null
cmake --install "$build" --prefix "$prefix" >/dev/null
[ -x "$prefix/bin/magicount" ] || fail "no bin/magicount under the prefix"
[ -f "$prefix/share/man/man1/magicount.1.gz" ] || fail "no man page under the prefix"

(cd "$work" && "$prefix/bin/magicount" reproduce --records --rerun-under 0 --out "$work/R2" -q >"$work/records.txt")
grep -q '^star-16: agrees' "$work/records.txt" || fail "the installed program does not find its records"

# A copy of the prefix without its data (issue 65, row 11): it uses its own
# prefix alone, never the build tree it came from.  The documents are built
# in, so reproduce needs only the ports, from the copy's libexec/; the
# records are data, so --records fails with one line and exit 2.
step "reproduce --quick from a copy of the prefix without share/magicount"
cp -a "$prefix" "$work/copy"
rm -rf "$work/copy/share/magicount"
(cd "$work" && "$work/copy/bin/magicount" reproduce --quick --out "$work/R" -q >"$work/reproduce.txt")
grep -q '"all_match": true' "$work/R/report.json" || fail "the installed program does not reproduce the documents"
! grep -q 'not built' "$work/R/report.json" || fail "the installed copy does not find its ports in libexec/"
rows=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r['rows']))" "$work/R/report.json")
echo "   $rows rows, all match, every port found" >&2
set +e
(cd "$work" && "$work/copy/bin/magicount" reproduce --records --rerun-under 0 --out "$work/R3" -q \
  >"$work/records.txt" 2>"$work/records.err")
code=$?
set -e
[ "$code" = 2 ] && [ "$(wc -l <"$work/records.err")" = 1 ] && grep -q 'no data directory' "$work/records.err" ||
  fail "a copy without its data did not refuse --records with one line and exit 2 (exit $code: $(cat "$work/records.err"))"

if [ -d "$prefix/lib/python3/dist-packages/magicount" ]; then
  step "the Python module from the prefix"
  got=$(cd "$work" && PYTHONPATH="$prefix/lib/python3/dist-packages" python3 -c \
    "import magicount; print(magicount.count('star', n=12)['counts']['unique'])")
  [ "$got" = 396930 ] || fail "the installed magicount counted $got {12/2} stars, not 396930"
  echo "   magicount.count('star', n=12): $got" >&2
fi

step "examples/count_stars against the prefix"
cmake -S examples/count_stars -B "$work/example" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/example" >/dev/null
"$work/example/count_stars" | tee "$work/example.txt" >&2
grep -q '^{8/2} stars: 112 ' "$work/example.txt" || fail "count_stars (find_package) did not print 112"
# shellcheck disable=SC2046
g++ -o "$work/count_stars_pc" examples/count_stars/main.cpp \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs magicount)
"$work/count_stars_pc" | grep -q '^{8/2} stars: 112 ' || fail "count_stars (pkg-config) did not print 112"

step "cpack -G DEB, lintian"
rm -rf "$build/packages"
(cd "$build" && cpack -G DEB >/dev/null)
debs=("$build"/packages/*.deb)
ls -l "${debs[@]}" >&2
lintian --fail-on error --allow-root "${debs[@]}" >&2

step "apt-get install, run, remove"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${debs[@]}" >/dev/null
trap 'DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq magicount magicount-mpi python3-magicount >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
(cd "$work" && magicount --version && magicount star --n 8 -q --json - | grep -q '"unique": 112' && man -w magicount) >&2 ||
  fail "the installed package does not run"
old=$(cd "$work" && magic-enum --version 2>&1 && man -w magic-enum) ||
  fail "the old name magic-enum (a link, for one release) does not run"
grep -q 'now called magicount' <<<"$old" || fail "magic-enum does not name magicount: $old"
if [ -d "$prefix/lib/python3/dist-packages/magicount" ]; then
  (cd "$work" && /usr/bin/python3 -c "import magicount; assert magicount.count('star', n=8).unique == 112") ||
    fail "the packaged magicount does not import"
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq magicount magicount-mpi python3-magicount >/dev/null
! command -v magicount >/dev/null || fail "magicount is still there after apt-get remove"
[ ! -e /usr/share/magicount ] || fail "/usr/share/magicount is still there after apt-get remove"
echo "   installed, ran and removed" >&2
