#!/bin/sh
# test_dem_impact_cases.sh -- the DEM impact benchmark cases (cases/dem-impact/, outside
# the default suite, which runs cases/*.case only) run and meet every expectation: the
# contact durations and restitutions of Chung & Ooi's normal-impact tests (1-3; test 2 with its
# published aluminium- and magnesium-alloy spheres and with test 4's alumina) against
# their closed forms; the tangential restitution, rebound angle, rebound spin and first
# stick <-> slip time of the oblique tests (4-8) against the event-located reference and,
# in gross sliding, the impulse solution; the stick regime of the linear-linear law
# against its closed form (e_t = 3/7); the rolling onset and stopping distance of the
# sliding-rolling cases against their closed form -- at every time step and for every
# scheme the cases name.  Their tolerances are derived in each case's comments;
# tests/mutants/catalogue holds the faults they catch (impact-cases-hertz-stiffness: a
# Hertz stiffness 1% high; impact-cases-fric-at-centre: friction without its torque;
# impact-cases-history-rotation-sign: the history turned the wrong way with the normal,
# which only the two-sphere tests 7-8 see).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"

$MB run -j 2 -o "$tmp/r" "$SRC/cases/dem-impact" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "the impact cases pass (exit $rc)" [ "$rc" -eq 0 ]
check "every case ran with no failed or missing check" \
    grep -q "^motionbench: 15 cases, 464 checks: 0 failed, 0 missing" "$tmp/out" "$tmp/err"
[ "$fail" -eq 0 ] || cat "$tmp/out" "$tmp/err"
exit $fail
