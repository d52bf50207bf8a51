#!/bin/sh
# test_friction_balance.sh -- the energy balance of frictional contacts closes to the
# scheme's order (doc/dem.md, "Energy of the tangential spring"): a Cundall-Strack impact
# in gross sliding and Chung & Ooi's Hertz-Mindlin test 4 at 10 deg (slip, stick, slip)
# within the second-order bound (w h)^2/4 at four steps (leap-frog, verlet-nosquish), and
# the frictional granular gas within the first-order bound of its dashpot's lag, zeta w0 h, at three,
# a frictional column settling on its floor under gravity within z w h + (w h)^2/4
# (leap-frog) and (3/4)(w h)^2 (verlet-nosquish) at two
# (cases/friction-balance-linear.case, cases/friction-balance-mindlin.case,
# cases/granular-gas-friction-balance.case derive the bounds).  The faults they catch are
# in tests/mutants/catalogue (friction-slip-work-*, mindlin-stiffness-work-uncounted); the
# booking of the version before (slip power -F_t.u_t) fails every check of the first two
# (1.2e-2 and 4.2e-3 at every step, quoted in the cases).
# The MPFR twins' energy balance is their own: the 113-bit twins of the first two
# (cases/friction-twin-balance-*.case) within the same bounds, and at 53 bits a twin's
# energy metrics and slip time equal the double run's bit for bit (the twin reproduces the
# double trajectory bit for bit, DESIGN 5b; its energies are read from its own contact
# history).  A twin read from the double instance's history (never advanced in a twin run)
# fails both (tests/mutants/catalogue: friction-twin-reads-double-history).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${srcdir:-.}
. "$SRC/tests/cli_test_lib.sh"
for c in friction-balance-linear friction-balance-mindlin granular-gas-friction-balance \
         granular-column-friction-balance friction-twin-balance-linear \
         friction-twin-balance-mindlin; do
    if $MB run "$SRC/cases/$c.case" -o "$tmp/$c" >"$tmp/$c.out" 2>&1; then
        echo "ok: $c"
    else
        echo "FAIL: $c"; cat "$tmp/$c.out"; fail=1
    fi
    n=$(grep -c ',energy.balance_residual,' "$tmp/$c/metrics.csv" 2>/dev/null)
    [ "${n:-0}" -ge 3 ] || { echo "FAIL: $c reports ${n:-no} balance residuals"; fail=1; }
done
# the 53-bit twins against the double runs: same metrics, same digits
for c in friction-balance-linear friction-balance-mindlin; do
    for p in double mpfr:53; do
        sed -e "s/^dt .*/dt = $(sed -n 's/^dt *= *\([^,]*\),.*/\1/p' "$SRC/cases/$c.case")/" \
            -e "/^\[run\]/a precision = $p" -e '/^\[expect\]/,$d' "$SRC/cases/$c.case" \
            >"$tmp/$c-${p%%:*}.case"
        $MB run "$tmp/$c-${p%%:*}.case" -o "$tmp/$c-${p%%:*}" >"$tmp/$c-${p%%:*}.out" 2>&1 || {
            echo "FAIL: $c at $p"; cat "$tmp/$c-${p%%:*}.out"; fail=1; }
        grep -E ',(energy\.[a-z_]*|contact\.slip_time),' "$tmp/$c-${p%%:*}/metrics.csv" \
            | cut -d, -f2,4- | sort >"$tmp/$c-${p%%:*}.energy"
    done
    n=$(grep -c ',energy\.balance_residual,' "$tmp/$c-double.energy")
    if [ "${n:-0}" -ge 2 ] && cmp -s "$tmp/$c-double.energy" "$tmp/$c-mpfr.energy"; then
        echo "ok: $c: the 53-bit twins' energy metrics are the double runs'"
    else
        echo "FAIL: $c: the 53-bit twins' energy metrics differ from the double runs'"
        diff "$tmp/$c-double.energy" "$tmp/$c-mpfr.energy" | head -20; fail=1
    fi
done
exit $fail
