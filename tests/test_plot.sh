#!/bin/sh
# test_plot.sh -- motionbench plot and run --plots (src/report/plot_gnuplot.c).
#  - without gnuplot: exit 2 and a message naming gnuplot, for plot and for run --plots
#    (whose CSV reports are still written);
#  - with gnuplot (skipped, exit 77, where it is absent): PNG and SVG per plot, the SVG
#    well-formed XML, the plotted points those of runs.csv, the fitted line of slope
#    order.position of metrics.csv, points excluded from the fit (the three finest steps
#    of kepler-rk4-roundoff, below the round-off floor) in their own, open-symbol series;
#  - the damping envelope fitted to the peaks; rotation invariants against time
#    (angular-momentum errors, quaternion norm error, the flipping body component) for the
#    rotating cases, none for the others.
set -u
MB=./src/motionbench
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"

# no gnuplot in PATH
PATH=/nonexistent $MB run -q -o "$tmp/r0" --plots "$SRC/tests/data/runner/osc-a.case" \
    >/dev/null 2>"$tmp/err"; rc=$?
check "run --plots without gnuplot: exit 2 (got $rc)" [ $rc -eq 2 ]
check "run --plots without gnuplot: the message names gnuplot" grep -q "gnuplot is not installed" "$tmp/err"
check "run --plots without gnuplot: no report is written (the plots cannot be)" [ ! -e "$tmp/r0/runs.csv" ]
PATH=/nonexistent $MB plot "$tmp/r0" 2>"$tmp/err"; rc=$?
check "plot without gnuplot: exit 2 (got $rc)" [ $rc -eq 2 ]
$MB plot "$tmp/nowhere" 2>"$tmp/err"; rc=$?
check "plot of a missing report: exit 2 naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'nowhere/runs.csv' '$tmp/err'"

command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }

$MB run -q -o "$tmp/r" --plots "$SRC/tests/data/runner/osc-a.case" \
    "$SRC/cases/kepler-rk4-roundoff.case" "$SRC/cases/damped-underdamped.case" \
    "$SRC/cases/compare-free-body.case" "$SRC/cases/tennis-racket-flip.case" >/dev/null 2>&1; rc=$?
check "run --plots: exit 0 (got $rc)" [ $rc -eq 0 ]
p=$tmp/r/plots
for stem in osc-a__convergence-position osc-a__work-precision osc-a__energy \
            kepler-rk4-roundoff__convergence-velocity damped-underdamped__damping \
            compare-free-body__angmom-error compare-free-body__angmom-direction \
            compare-free-body__quat-norm tennis-racket-flip__angmom-error \
            tennis-racket-flip__angmom-direction tennis-racket-flip__quat-norm \
            tennis-racket-flip__flip; do
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
check "damping plot marks the peaks of each integrator" \
    grep -q 'implicit-euler: peaks ([2-9])' "$p/damped-underdamped__damping.gp"
check "no damping plot where the case has no damping metric" [ ! -e "$p/osc-a__damping.png" ]
# the fitted envelope A exp(-lambda t) of the peaks: lambda = zeta omega_n = c / (2 m) =
# 0.83 / 2.74 = 0.3029 for the exact motion; each Euler scheme shifts zeta by about
# h omega / 2 (the case's damping.ratio_error, 0.0051 of 0.146 at dt = 0.005), 3.5 %, so
# both fits lie within 5 % of c / (2 m), and on opposite sides (implicit Euler adds damping)
lam() { sed -n "s/.*$1: fitted envelope A exp(-λ t), λ = \([0-9.e+-]*\) \/T.*/\1/p" \
        "$p/damped-underdamped__damping.gp"; }
li=$(lam implicit-euler); le=$(lam explicit-euler)
check "damping envelope fits: implicit $li > c/2m > explicit $le, both within 5 %" \
    awk -v a="$li" -v b="$le" -v r=0.302919708 'BEGIN { exit !(a > r && b < r && a < 1.05 * r && b > 0.95 * r) }'

# rotation invariants against time, for the rotating cases only
finite_dat() {  # every data line: two finite numbers
    awk 'NF == 0 { next } NF != 2 { bad = 1 }
         { for (k = 1; k <= 2; k++) if ($k !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) bad = 1 }
         END { exit bad || NR == 0 }' "$1"
}
for stem in compare-free-body__angmom-error compare-free-body__angmom-direction \
            compare-free-body__quat-norm tennis-racket-flip__angmom-error \
            tennis-racket-flip__angmom-direction tennis-racket-flip__quat-norm \
            tennis-racket-flip__flip; do
    check "$stem.dat holds finite numbers only" finite_dat "$p/$stem.dat"
done
for stem in compare-free-body__angmom-error compare-free-body__quat-norm; do
    check "$stem: legend names both integrators, with distinct dash patterns" sh -c \
        "grep -q 'dt 1 pi [0-9]* title \"verlet-nosquish, dt = 0.003312\"' '$p/$stem.gp' &&
         grep -q 'dt 2 pi [0-9]* title \"leapfrog\\[aspherical=fincham-halfstep\\], dt' '$p/$stem.gp'"
done
# the largest plotted |L - L0| / |L0| and the last plotted norm error of the finest run
# are the run's angmom.max_rel_error and quat.norm_error_max (the same samples)
metric() { awk -F, -v c="$1" -v m="$2" '$1 == c && $3 == "double" && $5 == m { v = $6 } END { print v }' \
           "$tmp/r/metrics.csv"; }
maxL=$(awk 'NF == 2 && $2 > m { m = $2 } END { printf "%.17g", m }' "$p/tennis-racket-flip__angmom-error.dat")
check "largest plotted angular-momentum error $maxL = angmom.max_rel_error" \
    awk -v a="$maxL" -v b="$(metric tennis-racket-flip angmom.max_rel_error)" 'BEGIN { exit !(a == b) }'
lastq=$(awk 'NF == 2 { v = $2 } END { printf "%.17g", v }' "$p/tennis-racket-flip__quat-norm.dat")
check "last plotted quaternion norm error $lastq = quat.norm_error_max" \
    awk -v a="$lastq" -v b="$(metric tennis-racket-flip quat.norm_error_max)" 'BEGIN { exit !(a == b) }'
# the flipping component: its zero crossings (linearly interpolated) come one elliptic
# period apart, 6.729135 (the case's closed form; +- 0.002 as the case expects of the
# metric: the scheme's period error at dt = 0.0025, the interpolation error over a
# 0.005 sample spacing being far smaller)
per=$(awk 'NF == 2 { if (n++ && ($2 > 0) != (w > 0)) { c = t + ($1 - t) * w / (w - $2);
                          if (k++) last = c; else first = c } t = $1; w = $2 }
           END { if (k > 1) printf "%.6f %d", (last - first) / (k - 1), k }' "$p/tennis-racket-flip__flip.dat")
check "flip plot: zero crossings one period 6.729135 +- 0.002 apart (got $per)" \
    awk -v p="${per% *}" -v k="${per#* }" 'BEGIN { d = p - 6.729135; exit !(k >= 2 && d < 0.002 && d > -0.002) }'
for c in osc-a kepler-rk4-roundoff damped-underdamped; do
    check "no rotation plot for the non-rotating case $c" sh -c \
        "! ls '$p' | grep -q -e '^${c}__angmom' -e '^${c}__quat' -e '^${c}__flip'"
done
check "no flip plot where the case has no flip period" [ ! -e "$p/compare-free-body__flip.png" ]
exit $fail
