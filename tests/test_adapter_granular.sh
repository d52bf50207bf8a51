#!/bin/sh
# test_adapter_granular.sh -- the LAMMPS and Yade adapters' translation of the frictional contact
# laws (doc/peers.md, "Frictional contacts"), checked without the packages: run.json files are
# kept by a describing adapter and tests/adapter_granular_check.py holds the LAMMPS input and the
# Yade material against values derived from the cases.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
mkdir "$out/dump"
MB_TEST_DUMP_DIR="$out/dump" $MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/r" \
    "$SRC/tests/data/run-json" > "$out/log" 2>&1 || { echo "FAIL: run"; cat "$out/log"; exit 1; }
python3 "$SRC/tests/adapter_granular_check.py" "$SRC" "$out/dump"
