#!/bin/sh
# test_cmd_score.sh -- `motionbench score` (doc/external.md, section 6).
# 1. The trajectories `simulate` writes for velocity Verlet on Kepler, scored, give the
#    very metrics `run` computes for the same runs (tests/data/score-kepler.case): the same
#    states go through the same measures, so values must agree to the last digit.
# 2. Defective files are refused with "FILE: line L: what" and exit 2, before any score.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
check() {
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi
}
for dt in 0.002 0.001 0.0005; do
    $MB simulate -p kepler --set eccentricity=0.6 -i velocity-verlet --dt $dt --t-end 5 \
        -o "$out/k$dt.csv" || fail=1
done
$MB run -q -o "$out/run" "$SRC/tests/data/score-kepler.case" 2>/dev/null
$MB score -p kepler --set eccentricity=0.6 --t-end 5 -o "$out/score" \
    "$out/k0.002.csv" "$out/k0.001.csv" "$out/k0.0005.csv" > "$out/printed"; rc=$?
check "score exits 0 (got $rc)" $([ $rc -eq 0 ]; echo $?)
# metric,dt,value of both reports (case and integrator columns differ by design)
pick() {
    tr -d '\r' < "$1/metrics.csv" | awk -F, 'NR > 1 && $5 ~ /^(error\.position|error\.velocity|energy\.max_rel_error|energy\.drift_rate|order\.position|order\.velocity)$/ { print $5 "," $4 "," $6 }' | sort
}
pick "$out/run" > "$out/a"
pick "$out/score" > "$out/b"
check "the run report has the compared metrics" $([ "$(wc -l < "$out/a")" -eq 14 ]; echo $?)
check "score and run agree on every compared metric" $(cmp -s "$out/a" "$out/b"; echo $?)
[ $fail -eq 0 ] || diff "$out/a" "$out/b"
check "the orders are printed" $(grep -q '^(all files) *order.position  *1.9999' "$out/printed"; echo $?)

refuse() {   # what, pattern, file content (via printf)
    printf "$3" > "$out/bad.csv"
    f="$out/bad.csv"; [ -n "$3" ] || f="$out/nonexistent.csv"
    $MB score -p harmonic "$f" > /dev/null 2> "$out/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$2" "$out/err"; then
        echo "ok: refused: $1"
    else
        echo "FAIL: $1 (exit $rc: $(cat "$out/err"))"; fail=1
    fi
}
refuse "stale rows" "bad.csv: line 3: repeats line 2 (every state value equal) while the system must move: node 0 is pushed" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,0,0,0,0,0\n0.1,1,0,0,0,0,0\n0.2,1,0,0,0,0,0\n'
refuse "row 0 not the initial state" "bad.csv: line 2: row 0 is not the initial state: node 0: x = 0.99500416527802582, the problem starts at 1" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,0.99500416527802582,0,0,-0.099833416646828155,0,0\n0.1,0.99500416527802582,0,0,-0.099833416646828155,0,0\n'
refuse "uneven rows" "bad.csv: line 4: t = 0.25, expected 0.20000000000000001" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,0,0,0,0,0\n0.1,1,0,0,0,0,0\n0.25,1,0,0,0,0,0\n'
refuse "one row" "bad.csv: line 2: too few rows: 1" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,0,0,0,0,0\n'
refuse "columns of another problem" "bad.csv: line 1: unexpected column 'n1_x'" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz,n1_x\n0,1,0,0,0,0,0,0\n0.1,1,0,0,0,0,0,0\n'
refuse "not starting at 0" "bad.csv: line 2: the first row is at t = 1" \
    't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n1,1,0,0,0,0,0\n1.1,1,0,0,0,0,0\n'
refuse "missing file" "nonexistent.csv: cannot open" ''

# 3. A trajectory that diverges is scored, not refused: status diverged with its line, exit 1.
#    The harmonic oscillator (k = m = 1, x0 = 1) of simulate, with x = 1e308 (absurd: the
#    problem's length scale is 1 + 0 + 1/2 t^2 max|a| = 1.5, the bound 1e6 times that) or
#    NaN from row 1 on.
$MB simulate -p harmonic -i leapfrog --dt 0.1 --t-end 1 -o "$out/h.csv" || fail=1
diverging() {   # what, value of n0_x (found by name in the header) in rows after row 0, pattern
    awk -F, -v OFS=, -v x="$2" 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "n0_x") c = k }
                                 NR > 2 { $c = x } { print }' "$out/h.csv" > "$out/d.csv"
    $MB score -p harmonic "$out/d.csv" > "$out/printed" 2> "$out/err"; rc=$?
    if [ $rc -eq 1 ] && grep -q "status  *diverged .*$3" "$out/printed"; then
        echo "ok: diverged: $1"
    else
        echo "FAIL: diverged: $1 (exit $rc: $(cat "$out/printed" "$out/err"))"; fail=1
    fi
}
diverging "x = 1e308" 1e308 "line 3 (t = 0.1.*): node 0: x = 1e+308 is beyond the divergence bound 1.5e+06"
diverging "x = NaN" nan "line 3 (t = 0.1.*): node 0: x = nan is not finite"
# the honest file is scored ok
$MB score -p harmonic "$out/h.csv" > "$out/printed" 2>&1; rc=$?
check "the same file unchanged scores ok (exit $rc)" $([ $rc -eq 0 ]; echo $?)

# 4. Systems at rest may repeat rows: a still oscillator (x0 = 0: no force, no motion) and
#    a sphere settled on a plane (the leap-frog trajectory repeats thousands of rows once
#    at rest) are not refused.
printf 't,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,0,0,0,0,0,0\n0.1,0,0,0,0,0,0\n0.2,0,0,0,0,0,0\n' > "$out/still.csv"
$MB score -p harmonic --set x0=0 "$out/still.csv" > "$out/printed" 2>&1; rc=$?
check "a still oscillator repeating rows scores ok (exit $rc)" $([ $rc -eq 0 ]; echo $?)
$MB simulate -p sphere-settle -i leapfrog --dt 2e-6 --t-end 0.08 -o "$out/settle.csv" || fail=1
repeats=$(cut -d, -f2- "$out/settle.csv" | awk 'NR > 2 && $0 == p { n++ } { p = $0 } END { print n + 0 }')
check "the settled sphere's trajectory repeats rows ($repeats)" $([ "$repeats" -gt 100 ]; echo $?)
$MB score -p sphere-settle "$out/settle.csv" > "$out/printed" 2> "$out/err"; rc=$?
check "... and score does not refuse it (exit $rc: the reference, not the file)" \
    $([ $rc -ne 2 ] && ! grep -q 'repeats' "$out/err" "$out/printed"; echo $?)

usage() {   # what, pattern, arguments...
    what=$1; pattern=$2; shift 2
    $MB score "$@" > /dev/null 2> "$out/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pattern" "$out/err"; then
        echo "ok: usage: $what"
    else
        echo "FAIL: usage: $what (exit $rc: $(cat "$out/err"))"; fail=1
    fi
}
usage "no problem" "give -p PROBLEM" "$out/k0.002.csv"
usage "unknown problem" "unknown problem 'nosuch'" -p nosuch "$out/k0.002.csv"
usage "parameter out of range" "k = -1 is out of range" -p harmonic --set k=-1 "$out/k0.002.csv"
usage "files ending apart" "ends at t = 4.99999999999967[0-9]*, expected 4 (--t-end)" -p kepler --t-end 4 "$out/k0.002.csv"
exit $fail
