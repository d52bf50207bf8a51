#!/bin/sh
# test_mass_properties.sh -- the mass.* metrics ([run] mass_properties = on) against closed
# forms: a clump of two equal spheres, the same two spheres as two bodies, and a sphere
# with an offset sphere turned and moved (parallel-axis theorem and J = R J_c R^T), in
# tests/data/mass-*.case (the closed forms and tolerances are in their comments).
# motionbench must exit 0 with the ten mass checks of each case "pass".
# Negative controls: the two-sphere case expecting J_yy without the parallel-axis term,
# and the two-body case with one body moved by 1 mm, must each exit 1 with their mass
# checks failing.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
verdicts() {   # REPORT: the verdicts of the mass checks, one a line
    tr -d '\r' <"$1/checks.csv" | grep '\.mass\.' | sed 's/.*,//'
}
for c in mass-two-spheres mass-two-bodies mass-offset-sphere; do
    $MB run -q -o "$out/$c" "$SRC/tests/data/$c.case"; rc=$?
    pass=$(verdicts "$out/$c" | grep -c '^pass$')
    if [ $rc -eq 0 ] && [ "$pass" -eq 10 ]; then
        echo "ok: $c: the 10 mass checks pass"
    else
        echo "FAIL: $c: exit $rc, $pass of 10 mass checks pass"; cat "$out/$c/checks.csv"; fail=1
    fi
done

control() {   # NAME CASE SED-SCRIPT FAILING-METRICS
    sed "$3" "$SRC/tests/data/$2.case" >"$out/control.case"
    $MB run -q -o "$out/control" "$out/control.case" >/dev/null 2>&1; rc=$?
    failing=$(tr -d '\r' <"$out/control/checks.csv" | grep ',fail$' | cut -d, -f4 \
              | sed 's/^leapfrog\.\([^ ]*\) .*/\1/' | tr '\n' ' ')
    if [ $rc -eq 1 ] && [ "$failing" = "$4" ]; then
        echo "ok: negative control '$1' fails: $failing"
    else
        echo "FAIL: negative control '$1': exit $rc, failing: '$failing', expected '$4'"; fail=1
    fi
}
# 2 (2/5) m r^2 alone: the parallel-axis term 2 m 0.015^2 left out
control "J_yy without the parallel-axis term" mass-two-spheres \
    's/^leapfrog.mass.inertia.yy = .*/leapfrog.mass.inertia.yy = 8.377580409572783e-07 +- 1e-17/' \
    "mass.inertia.yy "
control "one body 1 mm off" mass-two-bodies 's/^position = 0.03, 0, 0/position = 0.031, 0, 0/' \
    "mass.centroid.x mass.inertia.yy mass.inertia.zz "
exit $fail
