#!/bin/sh
# test_plot.sh -- motionbench plot and run --plots (src/report/plot_gnuplot.c).
#  - without gnuplot: exit 2 and a message naming gnuplot, for plot and for run --plots
#    (whose CSV reports are still written);
#  - with gnuplot (skipped, exit 77, where it is absent): PNG and SVG per plot, the SVG
#    well-formed XML, the plotted points those of runs.csv, the fitted line of slope
#    order.position of metrics.csv, points excluded from the fit (the three finest steps
#    of kepler-rk4-roundoff, below the round-off floor) in their own, open-symbol series.
set -u
MB=./src/motionbench
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"

# no gnuplot in PATH
PATH=/nonexistent $MB run -q -o "$tmp/r0" --plots "$SRC/tests/data/runner/osc-a.case" \
    >/dev/null 2>"$tmp/err"; rc=$?
check "run --plots without gnuplot: exit 2 (got $rc)" [ $rc -eq 2 ]
check "run --plots without gnuplot: the message names gnuplot" grep -q "gnuplot is not installed" "$tmp/err"
check "run --plots without gnuplot: the reports are written" [ -s "$tmp/r0/runs.csv" ]
PATH=/nonexistent $MB plot "$tmp/r0" 2>"$tmp/err"; rc=$?
check "plot without gnuplot: exit 2 (got $rc)" [ $rc -eq 2 ]
$MB plot "$tmp/nowhere" 2>"$tmp/err"; rc=$?
check "plot of a missing report: exit 2 naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'nowhere/runs.csv' '$tmp/err'"

command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }

$MB run -q -o "$tmp/r" --plots "$SRC/tests/data/runner/osc-a.case" \
    "$SRC/cases/kepler-rk4-roundoff.case" "$SRC/cases/damped-underdamped.case" >/dev/null 2>&1; rc=$?
check "run --plots: exit 0 (got $rc)" [ $rc -eq 0 ]
p=$tmp/r/plots
for stem in osc-a__convergence-position osc-a__work-precision osc-a__energy \
            kepler-rk4-roundoff__convergence-velocity damped-underdamped__damping; do
    check "$stem.png is a PNG" sh -c "head -c 8 '$p/$stem.png' | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'"
    if command -v xmllint >/dev/null 2>&1; then
        check "$stem.svg is well-formed SVG" xmllint --noout "$p/$stem.svg"
    fi
done
# the used points of osc-a (every run finished, none excluded) are the rows of runs.csv
awk -F, 'NR > 1 && $1 == "osc-a" { printf "%s %s\n", $4, $13 }' "$tmp/r/runs.csv" | sort >"$tmp/runs"
awk 'NF == 2 { n++ } n <= 4 && NF == 2 { print }' "$p/osc-a__convergence-position.dat" | sort >"$tmp/plotted"
check "plotted points = runs.csv (dt, error.position)" cmp -s "$tmp/runs" "$tmp/plotted"
# the fitted line (the block after the points) has the slope order.position
slope=$(awk 'NF == 2 { n++; if (n == 5) { x1 = $1; y1 = $2 } if (n == 6) { x2 = $1; y2 = $2 } }
             END { printf "%.12f", log(y2 / y1) / log(x2 / x1) }' "$p/osc-a__convergence-position.dat")
order=$(awk -F, '$1 == "osc-a" && $5 == "order.position" { printf "%.12f", $6 }' "$tmp/r/metrics.csv")
check "fitted line slope $slope = order.position $order" \
    awk -v a="$slope" -v b="$order" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'
check "excluded points drawn as their own series" \
    grep -q 'rk4: excluded from the fit' "$p/kepler-rk4-roundoff__convergence-velocity.gp"
check "the legend carries the order and its flag" \
    grep -q 'rk4: order 4.0[0-9] ± 0.0[0-9]* \[excluded\]' "$p/kepler-rk4-roundoff__convergence-velocity.gp"
# the under-damped oscillator (zeta = 0.146, period 2 pi / (w sqrt(1 - zeta^2)) = 3.06,
# t_end = 15) has four positive peaks after the start
check "damping plot joins the peaks of each integrator" \
    grep -q 'implicit-euler: peaks ([2-9])' "$p/damped-underdamped__damping.gp"
check "no damping plot where the case has no damping metric" [ ! -e "$p/osc-a__damping.png" ]
exit $fail
