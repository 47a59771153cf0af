#!/usr/bin/env bash
# magicount(1) from the program's own --help (help2man), with one section
# per subcommand from its --help: the man page and --help share one options
# table, so they cannot disagree (tests/test_cli_install.cpp checks it).
# Usage: make-man.sh BIN OUT
set -euo pipefail
# UTF-8 in, UTF-8 out (the help has ², 魔円陣): help2man writes ?? for them in its default C locale.
export LC_ALL=C.UTF-8
bin=$1 out=$2
inc=$(mktemp)
trap 'rm -f "$inc"' EXIT
# The subcommands, as --help lists them.
subs=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
{
  echo '[COMMANDS]'
  for s in $subs; do
    echo ".SS \"magicount $s\""
    echo '.nf'
    # roff: a leading dot or quote would be a request; backslashes escape.
    "$bin" "$s" --help | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
    echo '.fi'
  done
  echo '[SEE ALSO]'
  echo 'README.md in /usr/share/doc/magicount (or the install prefix'"'"'s share/doc/magicount), and docs/ in the source tree.'
} > "$inc"
mkdir -p "$(dirname "$out")"
help2man --no-info --locale=C.UTF-8 --section 1 --name "exhaustive, parallel enumeration of magic squares, stars, circles and figures" \
  --include "$inc" "$bin" > "$out.tmp"
mv "$out.tmp" "$out"
