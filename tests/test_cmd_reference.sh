#!/bin/sh
# test_cmd_reference.sh -- `motionbench reference` end to end: the three methods agree on
# the harmonic oscillator within the ode estimate (closed form vs 256-bit mpfr: 1e-15, a
# few ulps of a unit state), mpfr prints 79 significant digits at 256 bits, bad input
# exits with status 2 and a message naming the culprit.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; else echo "ok: $2"; fi; }

args="-p harmonic --t-end 10 --set mass=2.385 --set k=7.31 --set x0=0.413 --set v0=-1.27"
xa=$($MB reference $args --method analytic | awk '$1 == "x" { print $2 }')
xm=$($MB reference $args --method mpfr | awk '$1 == "x" { print $2 }')
xo=$($MB reference $args --method ode | awk '$1 == "x" { print $2 }')
eo=$($MB reference $args --method ode | awk '$1 == "error_estimate" { print $2 }')
check "awk -v a=$xa -v b=$xm 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1e-15) }'" \
      "analytic and mpfr agree ($xa vs $xm)"
check "awk -v a=$xo -v b=$xm -v e=$eo 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= e) }'" \
      "ode within its estimate $eo of mpfr"
digits=$(printf '%s' "$xm" | sed 's/e.*//; s/[-.]//g' | wc -c)
check "[ $digits -eq 79 ]" "mpfr at 256 bits prints 79 digits (got $digits)"

$MB reference -p harmonic --t-end 1 --set mas=2 >/dev/null 2>err.$$; rc=$?
check "[ $rc -eq 2 ] && grep -q \"did you mean 'mass'\" err.$$" "unknown parameter: exit 2 with a hint"
$MB reference -p harmonic --t-end 1 --method mpfr:64 >/dev/null 2>err.$$; rc=$?
check "[ $rc -eq 2 ] && grep -q 'BITS in \[113' err.$$" "too few bits: exit 2"
$MB reference -p harmonic >/dev/null 2>err.$$; rc=$?
check "[ $rc -eq 2 ]" "missing --t-end: exit 2"
rm -f err.$$
exit $fail
