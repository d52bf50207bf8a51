#!/bin/sh
# test_scene_potential.sh -- a potential of the orientation for expression torques
# (doc/scenes.md): the heavy top of cases/scene-heavy-top.case, whose gravity torque
# m g l (-r23, r13, 0) has the potential V = m g l r33, must pass its checks -- orders 2,
# and an energy error bounded by its O(h^2) bounds, 2e-5 at h = 0.01 and 3e-7 at
# h = 0.00125 -- with the energy judged as conserved (no "driven" detail: the torque's work
# is not external).
# Control: the same top without `potential` books the torque's work as external work
# ("driven: W_ext by Gregory's rule" in the detail).  The refusals of a potential that
# does not match the torque are in the hostile catalogue (potential-torque-*).
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
$MB run -q -o "$out/top" "$SRC/cases/scene-heavy-top.case"; rc=$?
pass=$(tr -d '\r' <"$out/top/checks.csv" | grep -c ',pass$')
driven=$(grep 'energy\.max_rel_error' "$out/top/metrics.csv" | grep -c 'driven')
if [ $rc -eq 0 ] && [ "$pass" -eq 4 ] && [ "$driven" -eq 0 ]; then
    echo "ok: the heavy top with its potential passes its 4 checks, energy conserved:"
    tr -d '\r' <"$out/top/checks.csv" | grep energy
else
    echo "FAIL: heavy top: exit $rc, $pass of 4 checks pass, $driven energy rows driven"
    cat "$out/top/checks.csv"; fail=1
fi
grep -v '^potential' "$SRC/cases/scene-heavy-top.case" >"$out/nopot.case"
$MB run -q -o "$out/nopot" "$out/nopot.case" >/dev/null 2>&1
driven=$(grep 'energy\.max_rel_error' "$out/nopot/metrics.csv" | grep -c "driven: W_ext by Gregory's rule")
if [ "$driven" -eq 4 ]; then
    echo "ok: control: without the potential the torque's work is external (4 runs driven)"
else
    echo "FAIL: control: without the potential $driven of 4 runs are driven"; fail=1
fi
exit $fail
