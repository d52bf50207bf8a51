#!/bin/sh
# flat_dump.sh run.json trajectory.csv -- copy run.json and run.txt (same directory) into a
# fresh directory under $MB_FLAT_DUMP, then decline the run (exit 77).
set -eu
keep=$(mktemp -d "$MB_FLAT_DUMP/run-XXXXXX")
cp "$1" run.txt "$keep/"
echo "kept the run description in $keep"
exit 77
