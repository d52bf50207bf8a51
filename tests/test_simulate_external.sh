#!/bin/sh
# test_simulate_external.sh -- `simulate -i external:NAME`: an outside program run through
# its adapter writes the time series of simulate (doc/external.md, "simulate").
#  - the Python velocity Verlet example (examples/python_adapter) on the harmonic
#    oscillator, 200 steps of 0.01: every position and velocity equals the built-in
#    velocity-verlet's to 1e-12 (the two perform the same kicks and drifts; 200 steps of
#    round-off of a few units of 2^-53 on values of order 1 stay below 1e-13), and so do
#    the energy columns recomputed from its states; the header has no rotation columns
#    (the oscillator does not turn);
#  - an adapter that returns mid-step velocities (tests/data/adapters/leapfrog-mid): its
#    velocities made on-step equal the built-in leapfrog's on-step velocities to 1e-12 on
#    the spring pair (without the synchronisation they differ by O(h) = 1e-3);
#  - an adapter of protocol 2 (tests/data/adapters/batch-good, which answers with the same
#    Python velocity Verlet) runs as a batch of one run: equal to velocity-verlet to 1e-12;
#  - --every 50 keeps rows 0, 50, ..., 200 (5 rows and the header);
#  - refusals (exit 2, named): --dt auto, --precision mpfr, a T that is not a multiple of
#    DT, an adapter not found, an adapter that declines (its reason, "skipped").
# Needs python3 (the adapters are Python); skipped otherwise.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
PY="--adapters $SRC/examples/python_adapter/adapters"
LM="--adapters $SRC/tests/data/adapters"

# largest difference of the columns of $1 named in $3 (comma-separated) against the same
# columns of $2, rows matched by order; "rows" when the row counts differ
max_diff() {
    awk -F, -v cols="$3" '
        FNR == 1 { for (k = 1; k <= NF; k++) col[FILENAME, $k] = k; next }
        FILENAME == ARGV[1] { a[FNR] = $0; na = FNR; next }
        { b[FNR] = $0; nb = FNR }
        END {
            if (na != nb) { print "rows"; exit }
            n = split(cols, c, ",");
            d = 0;
            for (r = 2; r <= na; r++) {
                split(a[r], x, ","); split(b[r], y, ",");
                for (k = 1; k <= n; k++) {
                    e = x[col[ARGV[1], c[k]]] - y[col[ARGV[2], c[k]]];
                    if (e < 0) e = -e;
                    if (e > d) d = e;
                }
            }
            printf "%.3g\n", d
        }' "$1" "$2"
}
below() { awk -v d="$1" -v t="$2" 'BEGIN { exit !(d != "rows" && d + 0 <= t + 0) }'; }

XV=n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz
$MB simulate -p harmonic -i velocity-verlet --dt 0.01 --t-end 2 -o "$tmp/vv.csv"
$MB simulate -p harmonic -i external:pyverlet $PY --dt 0.01 --t-end 2 -o "$tmp/py.csv" 2>"$tmp/err"
rc=$?
check "external:pyverlet runs (exit $rc)" [ $rc -eq 0 ]
d=$(max_diff "$tmp/py.csv" "$tmp/vv.csv" "$XV,energy_kinetic,energy_potential,energy_total,energy_dissipated,energy_external,energy_error")
check "pyverlet equals the built-in velocity-verlet to 1e-12, states and energies (largest difference $d)" below "$d" 1e-12
check "no rotation columns for a system that does not turn" \
    sh -c "head -1 '$tmp/py.csv' | grep -qx 't,energy_kinetic,energy_potential,energy_dissipated,energy_total,energy_external,energy_error,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz'"

XV2=$XV,n1_x,n1_y,n1_z,n1_vx,n1_vy,n1_vz
$MB simulate -p spring-pair -i leapfrog --dt 0.001 --t-end 0.5 -o "$tmp/lf.csv"
$MB simulate -p spring-pair -i external:leapfrog-mid $LM --dt 0.001 --t-end 0.5 -o "$tmp/mid.csv" 2>"$tmp/err"
rc=$?
check "external:leapfrog-mid runs (exit $rc)" [ $rc -eq 0 ]
d=$(max_diff "$tmp/mid.csv" "$tmp/lf.csv" "$XV2")
check "mid-step velocities made on-step: equal to leapfrog's to 1e-12 (largest difference $d)" \
    below "$d" 1e-12

$MB simulate -p harmonic -i external:batch-good $LM --dt 0.01 --t-end 2 -o "$tmp/b.csv" 2>"$tmp/err"
rc=$?
check "an adapter of protocol 2 runs as a batch of one run (exit $rc)" [ $rc -eq 0 ]
d=$(max_diff "$tmp/b.csv" "$tmp/vv.csv" "$XV")
check "protocol 2: equal to the built-in velocity-verlet to 1e-12 (largest difference $d)" below "$d" 1e-12

$MB simulate -p harmonic -i external:pyverlet $PY --dt 0.01 --t-end 2 --every 50 -o "$tmp/e.csv"
check "--every 50: rows 0, 50, 100, 150, 200" \
    sh -c "[ \$(wc -l < '$tmp/e.csv') -eq 6 ] && tail -n 1 '$tmp/e.csv' | grep -q '^2,'"

refused() {   # WHAT TEXT ARGS...: exit 2 and TEXT on standard error
    what=$1 text=$2; shift 2
    $MB simulate "$@" -o "$tmp/no.csv" >/dev/null 2>"$tmp/err"
    rc=$?
    check "$what refused (exit $rc): $text" sh -c "[ $rc -eq 2 ] && grep -qF -- '$text' '$tmp/err' && [ ! -e '$tmp/no.csv' ]"
}
refused "--dt auto" "--dt auto: external:pyverlet runs at a fixed step" \
    -p harmonic -i external:pyverlet $PY --dt auto --t-end 1
refused "--precision mpfr" "--precision mpfr:128: external:pyverlet computes in its own arithmetic" \
    -p harmonic -i external:pyverlet $PY --dt 0.1 --t-end 1 --precision mpfr:128
refused "T not a multiple of DT" "--t-end 1.05 is not a positive multiple of --dt 0.1:" \
    -p harmonic -i external:pyverlet $PY --dt 0.1 --t-end 1.05
refused "an adapter not found" "adapter nosuch: " -p harmonic -i external:nosuch --dt 0.1 --t-end 1
refused "an adapter that declines" "skipped: adapter leapfrog-mid declined: only springs without rotation" \
    -p kepler -i external:leapfrog-mid $LM --dt 0.1 --t-end 1
exit $fail
