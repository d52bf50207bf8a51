#!/bin/sh
# test_hostile.sh -- make check's entry for the hostile-input catalogue: runs
# tests/hostile/run.sh from the source tree (the catalogue's directory need not exist in a
# separate build tree).
exec sh "${MB_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/hostile/run.sh" "$@"
