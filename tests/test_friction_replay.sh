#!/bin/sh
# test_friction_replay.sh -- what the bench reports of an outside program under friction is
# measured from the program's trajectory (doc/peers.md, "Frictional contacts"):
# tests/data/friction-replay-lammps.case holds LAMMPS's contact.slip_time, read from its
# positions (the observer reading the bench law's sliding flag, never set on a replay of
# on-step rows, found none: a missing check), and no energy.* metric is reported for the
# LAMMPS run, the statistical ones included (its tangential springs' energy and slip work
# live in its own contact history)
# while the leap-frog's are.  Skipped (77) without lmp.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v lmp >/dev/null 2>&1 || { echo "SKIP: lmp not on PATH"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
fail=0
$MB run -q -o "$out/r" "$SRC/tests/data/friction-replay-lammps.case" >"$out/log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
    echo "ok: LAMMPS's slip time measured, within the bound"
else
    echo "FAIL: exit $rc"; cat "$out/log"; fail=1
fi
n=$(grep -c '^[^,]*,external:lammps,[^,]*,[^,]*,energy\.' "$out/r/metrics.csv")
m=$(grep -c '^[^,]*,leapfrog,[^,]*,[^,]*,energy\.' "$out/r/metrics.csv")
if [ "$n" -eq 0 ] && [ "$m" -ge 2 ]; then
    echo "ok: no energy metric for LAMMPS through the bench's law ($m for the leap-frog)"
else
    echo "FAIL: $n energy metrics for LAMMPS, $m for the leap-frog"; fail=1
fi
exit $fail
