#!/bin/sh
# test_friction_balance.sh -- the energy balance of frictional contacts closes to the
# scheme's order (doc/dem.md, "Energy of the tangential spring"): a Cundall-Strack impact
# in gross sliding and Chung & Ooi's Hertz-Mindlin test 4 at 10 deg (slip, stick, slip)
# within the second-order bound (w h)^2/4 at four steps (leap-frog, verlet-nosquish), and
# the frictional granular gas within the first-order bound of its dashpot's lag, zeta w0 h, at three
# (cases/friction-balance-linear.case, cases/friction-balance-mindlin.case,
# cases/granular-gas-friction-balance.case derive the bounds).  The faults they catch are
# in tests/mutants/catalogue (friction-slip-work-*, mindlin-stiffness-work-uncounted); the
# booking of the version before (slip power -F_t.u_t) fails every check of the first two
# (1.2e-2 and 4.2e-3 at every step, quoted in the cases).
set -u
MB=./src/motionbench
SRC=${srcdir:-.}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for c in friction-balance-linear friction-balance-mindlin granular-gas-friction-balance; do
    if $MB run "$SRC/cases/$c.case" -o "$tmp/$c" >"$tmp/$c.out" 2>&1; then
        echo "ok: $c"
    else
        echo "FAIL: $c"; cat "$tmp/$c.out"; fail=1
    fi
    n=$(grep -c ',energy.balance_residual,' "$tmp/$c/metrics.csv" 2>/dev/null)
    [ "${n:-0}" -ge 3 ] || { echo "FAIL: $c reports ${n:-no} balance residuals"; fail=1; }
done
exit $fail
