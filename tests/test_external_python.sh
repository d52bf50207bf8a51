#!/bin/sh
# test_external_python.sh -- the Python example adapter (examples/python_adapter, velocity
# Verlet, stdlib only) run through case files with expectations from theory, and a
# leap-frog adapter writing mid-step velocities (tests/data/external-midstep.case: order 2
# once synchronized, order 1 when wrongly declared on-step), rows every 7 steps with the last
# off the period (tests/data/external-strided.case), the round trips of outside programs
# through the protocol with their closed-form negative control
# (tests/data/external-reversibility.case): motionbench must exit 0 with
# every check "pass" and every run "ok".  Skipped (77) without python3.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
for path in examples/python_adapter/pyverlet-harmonic examples/python_adapter/pyverlet-kepler \
    tests/data/external-strided tests/data/external-reversibility \
    tests/data/external-midstep; do
    c=$(basename $path)
    $MB run -q -o "$out/$c" "$SRC/$path.case"; rc=$?
    checks=$(tail -n +2 "$out/$c/checks.csv" | tr -d "\r" | wc -l)
    bad=$(tail -n +2 "$out/$c/checks.csv" | tr -d "\r" | grep -vc ',pass$')
    notok=$(tail -n +2 "$out/$c/runs.csv" | grep -c '^[^,]*,external:[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^o]')
    if [ $rc -eq 0 ] && [ "$checks" -ge 3 ] && [ "$bad" -eq 0 ] && [ "$notok" -eq 0 ]; then
        echo "ok: $c ($checks checks pass)"
    else
        echo "FAIL: $c: exit $rc, $bad of $checks checks not passing, $notok runs not ok"
        cat "$out/$c/checks.csv" "$out/$c/runs.csv"
        fail=1
    fi
done

# the same reports whatever --jobs is (the adapter is deterministic)
c=examples/python_adapter/pyverlet-kepler
$MB run -q --jobs 1 -o "$out/j1" "$SRC/$c.case"
$MB run -q --jobs 2 -o "$out/j2" "$SRC/$c.case"
for f in runs metrics checks; do
    if cmp -s "$out/j1/$f.csv" "$out/j2/$f.csv"; then
        echo "ok: $f.csv identical with --jobs 1 and 2"
    else
        echo "FAIL: $f.csv differs between --jobs 1 and 2"; fail=1
    fi
done
exit $fail
