#!/bin/sh
# test_run_json.sh -- what run.json says about contacts, laws, restitution, friction and units
# (doc/external.md, section 3), for each kind of problem: an adapter keeps the file it is
# sent (tests/data/adapters/describe-dump.py) and tests/run_json_check.py reads it with
# Python's json module and holds every field against values derived from the case alone.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
mkdir "$out/dump"
MB_TEST_DUMP_DIR="$out/dump" $MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/r" \
    "$SRC/tests/data/run-json" > "$out/log" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: run exited $rc (the runs are declined: expected 0)"; cat "$out/log"; exit 1; }
python3 "$SRC/tests/run_json_check.py" "$out/dump"
