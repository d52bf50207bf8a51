#!/bin/sh
# test_granular_gas.sh -- the granular-gas cases of the default library run and pass:
# Haff's law with its derived tolerance (cases/granular-gas-haff.case; its negative
# control, tests/data/controls/haff.case, is run by test_metric_controls) and the energy
# balance of the dissipative gas and of a column settling under gravity to each scheme's
# order, symplectic Euler flagged (cases/granular-gas-balance.case,
# cases/granular-column-balance.case).  A contact law whose dissipated work is not counted
# fails the balance (tests/mutants/catalogue).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${srcdir:-.}
. "$SRC/tests/cli_test_lib.sh"
for c in granular-gas-haff granular-gas-balance granular-column-balance; do
    if $MB run "$SRC/cases/$c.case" -o "$tmp/$c" >"$tmp/$c.out" 2>&1; then
        echo "ok: $c"
    else
        echo "FAIL: $c"; cat "$tmp/$c.out"; fail=1
    fi
done
# the Haff metrics are reported with the derived tolerance
grep -q ',haff.tolerance,' "$tmp/granular-gas-haff/metrics.csv" || { echo "FAIL: no haff.tolerance"; fail=1; }
exit $fail
