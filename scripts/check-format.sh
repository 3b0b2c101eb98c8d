#!/usr/bin/env bash
# Check (or apply) exaloop's C style, .clang-format, with Debian's
# clang-format-14 (scripts/setup.sh installs it).
#
#   ./scripts/check-format.sh            list files that differ, exit 1 if any
#   ./scripts/check-format.sh --diff     also show the differences
#   ./scripts/check-format.sh --fix      rewrite them in place
#   ./scripts/check-format.sh FILE...    only these files
#
# Checked: the C sources and headers git tracks under src/, include/ and
# tests/, except third-party test data (tests/toml's suite) and programs
# kept as they are on purpose (tests/progs: their line numbers are part of
# expected outputs).  Generated files are never tracked, so never checked.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "check-format: $CLANG_FORMAT not found (apt-get install clang-format-14, or ./scripts/setup.sh --deps)" >&2
  exit 2
fi
mode=check
case "${1:-}" in
  --diff) mode=diff; shift ;;
  --fix) mode=fix; shift ;;
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' \
    ':!tests/progs/*' ':!tests/toml/*' ':!tests/sym/progs/*' ':!tests/browser/*')
fi
bad=0
for f in "${files[@]}"; do
  if [ $mode = fix ]; then
    "$CLANG_FORMAT" --style=file -i "$f"
  elif ! "$CLANG_FORMAT" --style=file "$f" | cmp -s - "$f"; then
    echo "$f"
    [ $mode = diff ] && { "$CLANG_FORMAT" --style=file "$f" | diff -u "$f" - || true; }
    bad=1
  fi
done
if [ $bad = 1 ]; then
  echo "check-format: the files above differ from .clang-format; ./scripts/check-format.sh --fix rewrites them" >&2
  exit 1
fi
