#!/bin/sh
# test_bench_dem.sh -- `motionbench bench dem --check` on the smallest packing: the
# contacts at step 0 found through the library's neighbour list and contact model must
# equal those LAMMPS's pair gran/hooke/history finds on the same packing (its compute
# contact/atom, an independent code).  Skipped (77) without LAMMPS (`lmp` on the PATH or
# $LAMMPS).  Nothing is timed.
set -u
MB=./src/motionbench
LMP=${LAMMPS:-$(command -v lmp || true)}
[ -n "$LMP" ] || { echo "SKIP: no LAMMPS (lmp) on the PATH"; exit 77; }
out=$($MB bench dem --check --max-nodes 1e3 --lammps "$LMP" 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench dem --check exited $st"; exit 1; }
printf '%s\n' "$out" | grep -q "^check: contacts at step 0 equal LAMMPS's at every size: pass$" \
    || { echo "FAIL: no passing contact check"; exit 1; }
# the count itself: one row, both columns equal and non-trivial
printf '%s\n' "$out" | awk '$1 == 864 && NF == 3 { found = 1; if ($2 != $3 || $2 < 1000) bad = 1 }
                           END { exit !(found && !bad) }' \
    || { echo "FAIL: the 864-sphere row lacks equal contact counts"; exit 1; }
# bad input: the bench refuses an unknown option with exit 2
$MB bench dem --check --max-nodes 1e3 --bogus >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown option was not refused with exit 2"; exit 1; }
echo "PASS"
