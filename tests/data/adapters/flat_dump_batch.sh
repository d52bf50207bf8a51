#!/bin/sh
# flat_dump_batch.sh runs.json trajectories -- copy runs.json and runs.txt (same directory)
# into a fresh directory under $MB_FLAT_DUMP, then decline every run of the batch (exit 77).
set -eu
keep=$(mktemp -d "$MB_FLAT_DUMP/batch-XXXXXX")
cp "$1" runs.txt "$keep/"
echo "kept the batch's run descriptions in $keep"
exit 77
