#!/usr/bin/env bash
# Writes data/figures/: every built-in figure as a figure file (NAME.json,
# as `magicount figure --builtin NAME --show` reads it) and its picture
# (NAME.svg).  test_figure checks that the files match the built-ins.
#   scripts/figure-catalog.sh [BINARY]   (default build/bin/magicount)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/magicount}
out=data/figures
mkdir -p "$out"
"$bin" figure --list | while read -r name _; do
  "$bin" figure --builtin "$name" --show --svg "$out/$name.svg" |
    python3 -c 'import json, sys; json.dump(json.load(sys.stdin)["figure"], sys.stdout, indent=1); print()' \
      >"$out/$name.json"
done
echo "wrote $(ls "$out"/*.json | wc -l) figures to $out" >&2
