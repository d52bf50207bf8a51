#!/bin/sh
# test_plot.sh -- motionbench plot and run --plots (src/report/plot_gnuplot.c, plot_time.c,
# plot_script.c, plot_thin.c).
#  - without gnuplot: exit 2 and a message naming gnuplot, for plot and for run --plots
#    (whose CSV reports are still written);
#  - with gnuplot (skipped, exit 77, where it is absent): one SVG per plot (no PNG, no
#    series/ unless --series), well-formed XML; the plotted points those of runs.csv, the
#    fitted line of slope order.position of metrics.csv; the reference slope of the order
#    the case expects (or the scheme declares), dashed, through the finest fitted point,
#    named "order p" in the legend; axes that end within 4 % (in log) of the data, never
#    a decade past it; the energy error |E - E0| / S on a log axis, thinned to at most
#    2 x 400 + 2 samples per curve with its peak kept (= energy.max_rel_error); points
#    excluded from the fit (the three finest steps of kepler-rk4-roundoff, below the
#    round-off floor) in their own, open-symbol series;
#  - outside programs in the work-precision plot, at the wall time of their runs (top
#    axis, said to include start-up);
#  - the damping envelope fitted to the peaks; rotation invariants against time
#    (angular-momentum errors, quaternion norm error, the flipping body component) for the
#    rotating cases, none for the others.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
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
    check "$stem.svg is an SVG" grep -q '<svg' "$p/$stem.svg"
    if command -v xmllint >/dev/null 2>&1; then
        check "$stem.svg is well-formed SVG" xmllint --noout "$p/$stem.svg"
    fi
done
check "one SVG per plot, no PNG" [ -z "$(ls "$p" | grep '\.png$')" ]
check "every script has its SVG (no script left without a plot)" sh -c \
    "for g in '$p'/*.gp; do [ -f \"\${g%.gp}.svg\" ] || exit 1; done"
check "--plots alone writes no series/" [ ! -e "$tmp/r/series" ]
check "plots.list names every plot" \
    [ "$(grep -vc '^#' "$p/plots.list")" -eq "$(ls "$p" | grep -c '\.svg$')" ]

# blocks of a .dat file, numbered from 1 (gnuplot's index + 1): paragraph mode
block() { awk -v RS= -v b="$2" 'NR == b' "$1"; }
# the used points of osc-a (every run finished, none excluded) are the rows of runs.csv
awk -F, 'NR > 1 && $1 == "osc-a" { printf "%s %s\n", $4, $13 }' "$tmp/r/runs.csv" | sort >"$tmp/runs"
block "$p/osc-a__convergence-position.dat" 1 | sort >"$tmp/plotted"
check "plotted points = runs.csv (dt, error.position)" cmp -s "$tmp/runs" "$tmp/plotted"
slope() { block "$1" "$2" | awk 'NR == 1 { x1 = $1; y1 = $2 } { x2 = $1; y2 = $2 }
                                 END { printf "%.12f", log(y2 / y1) / log(x2 / x1) }'; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d < t && d > -t) }'; }
# the fitted line (block 2) has the slope order.position of metrics.csv
order=$(awk -F, '$1 == "osc-a" && $5 == "order.position" { printf "%.12f", $6 }' "$tmp/r/metrics.csv")
s2=$(slope "$p/osc-a__convergence-position.dat" 2)
check "fitted line slope $s2 = order.position $order" near "$s2" "$order" 1e-9
# the reference slope (block 3): the order the case expects, 1 for explicit Euler (its
# [expect] line), through the finest point of runs.csv
s3=$(slope "$p/osc-a__convergence-position.dat" 3)
check "reference slope $s3 = 1, the expected order" near "$s3" 1 1e-9
finest=$(awk -F, 'NR > 1 && $1 == "osc-a" && (m == "" || $4 < m) { m = $4; e = $13 } END { print m, e }' "$tmp/r/runs.csv")
check "reference slope passes through the finest point ($finest)" sh -c \
    "awk -v RS= 'NR == 3' '$p/osc-a__convergence-position.dat' | grep -qx '$finest'"
gp=$p/osc-a__convergence-position.gp
check "reference slope dashed and named 'order 1 (expected)'" sh -c \
    "grep -q 'index 2 axes x1y1 with lines lc rgb \"#000000\" lw 1 dt (10,6) notitle' '$gp' &&
     grep -q 'dashed: order 1 (expected)' '$gp'"
check "SVG draws a dashed line and names the order" sh -c \
    "grep -q 'stroke-dasharray' '$p/osc-a__convergence-position.svg' &&
     grep -q 'order 1 (expected)' '$p/osc-a__convergence-position.svg'"
check "convergence plot: log x and log y" sh -c "grep -qx 'set logscale x' '$gp' && grep -qx 'set logscale y' '$gp'"
# axes fitted: the range ends lie outside the data by at most 10^(0.04 span + 0.02) (a
# 4 % margin in log, at least 5 %), never a decade
fitted() {  # fitted GP AXIS LO HI
    sed -n "s/^set $2range \[\(.*\):\(.*\)\]$/\1 \2/p" "$1" | awk -v lo="$3" -v hi="$4" '
        { m = exp(log(10) * (0.04 * log(hi / lo) / log(10) + 0.02)) * (1 + 1e-9)
          exit !($1 < lo && $1 >= lo / m && $2 > hi && $2 <= hi * m) }'
}
xr=$(awk -F, 'NR > 1 && $1 == "osc-a" { if (lo == "" || $4 < lo) lo = $4; if ($4 > hi) hi = $4 } END { print lo, hi }' "$tmp/r/runs.csv")
yr=$(awk -F, 'NR > 1 && $1 == "osc-a" { if (lo == "" || $13 < lo) lo = $13; if ($13 > hi) hi = $13 } END { print lo, hi }' "$tmp/r/runs.csv")
check "x axis fitted to the time steps $xr" fitted "$gp" x $xr
check "y axis fitted to the errors $yr" fitted "$gp" y $yr
check "time steps as x tics (less than two decades)" grep -q '^set xtics (0.01, 0.005, 0.0025, 0.00125)$' "$gp"
# a scheme's declared order where the case expects none: leap-frog, order 2
cat >"$tmp/declared.case" <<'END'
[case]
name      = declared
problem   = harmonic
t_end     = 2
reference = analytic
[run]
integrators = leapfrog
dt          = 0.02, 0.01, 0.005
END
$MB run -q -o "$tmp/d" --plots "$tmp/declared.case" >/dev/null 2>&1
check "reference slope of the declared order: 'order 2 (declared)'" \
    grep -q 'dashed: order 2 (declared)' "$tmp/d/plots/declared__convergence-position.gp"
check "declared reference slope 2" near "$(slope "$tmp/d/plots/declared__convergence-position.dat" 3)" 2 1e-9

# the energy error on a log axis, |E - E0| / S; its largest plotted value is the run's
# energy.max_rel_error (the same samples; 9 digits written); kepler-rk4-roundoff's finest
# run has 100001 samples, thinned to at most 802 with the peak kept
eg=$p/kepler-rk4-roundoff__energy.gp
check "energy plot: log y axis" grep -qx 'set logscale y' "$eg"
check "energy plot: the axis says |E - E0| / S and what S is" \
    grep -qF 'set ylabel "|E(t) - E\\_0| / S,  S = energy content at t = 0' "$eg"
rows=$(block "$p/kepler-rk4-roundoff__energy.dat" 1 | wc -l)
check "energy curve thinned to at most 802 samples (got $rows)" [ "$rows" -le 802 -a "$rows" -ge 400 ]
emax=$(block "$p/kepler-rk4-roundoff__energy.dat" 1 | awk '$2 > m { m = $2 } END { printf "%.17g", m }')
metric() { awk -F, -v c="$1" -v m="$2" -v d="$3" '$1 == c && $3 == "double" && $4 == d && $5 == m { v = $6 } END { print v }' \
           "$tmp/r/metrics.csv"; }
finest_dt=$(awk -F, 'NR > 1 && $1 == "kepler-rk4-roundoff" && (m == "" || $4 < m) { m = $4 } END { print m }' "$tmp/r/runs.csv")
emetric=$(metric kepler-rk4-roundoff energy.max_rel_error "$finest_dt")
check "largest plotted energy error $emax = energy.max_rel_error $emetric (peak kept)" \
    awk -v a="$emax" -v b="$emetric" 'BEGIN { d = (a - b) / b; exit !(b > 0 && d < 1e-8 && d > -1e-8) }'

check "excluded points drawn as their own series" \
    grep -q 'rk4: excluded from the fit' "$p/kepler-rk4-roundoff__convergence-velocity.gp"
check "the legend carries the order and its flag" \
    grep -q 'rk4: order 4.0[0-9] ± 0.0[0-9]* \[excluded\]' "$p/kepler-rk4-roundoff__convergence-velocity.gp"
# the under-damped oscillator (zeta = 0.146, period 2 pi / (w sqrt(1 - zeta^2)) = 3.06,
# t_end = 15) has four positive peaks after the start
check "damping plot marks the peaks of each integrator" \
    grep -q 'implicit-euler: peaks ([2-9])' "$p/damped-underdamped__damping.gp"
check "no damping plot where the case has no damping metric" [ ! -e "$p/osc-a__damping.svg" ]
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
# are the run's angmom.max_rel_error and quat.norm_error_max (the same samples, 9 digits)
agg() { awk -F, -v c="$1" -v m="$2" '$1 == c && $3 == "double" && $5 == m { v = $6 } END { print v }' \
        "$tmp/r/metrics.csv"; }
maxL=$(awk 'NF == 2 && $2 > m { m = $2 } END { printf "%.17g", m }' "$p/tennis-racket-flip__angmom-error.dat")
check "largest plotted angular-momentum error $maxL = angmom.max_rel_error" \
    awk -v a="$maxL" -v b="$(agg tennis-racket-flip angmom.max_rel_error)" 'BEGIN { d = (a - b) / b; exit !(d < 1e-8 && d > -1e-8) }'
lastq=$(awk 'NF == 2 { v = $2 } END { printf "%.17g", v }' "$p/tennis-racket-flip__quat-norm.dat")
check "last plotted quaternion norm error $lastq = quat.norm_error_max" \
    awk -v a="$lastq" -v b="$(agg tennis-racket-flip quat.norm_error_max)" 'BEGIN { d = (a - b) / b; exit !(d < 1e-8 && d > -1e-8) }'
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
check "no flip plot where the case has no flip period" [ ! -e "$p/compare-free-body__flip.svg" ]

# --series with --plots: the series are written as well, and plot draws the time plots
# from them as run --plots did from memory
$MB run -q -o "$tmp/s" --series "$SRC/tests/data/runner/osc-a.case" >/dev/null 2>&1
$MB plot "$tmp/s" -o "$tmp/sp" >/dev/null 2>&1; rc=$?
check "plot from series/: exit 0 (got $rc)" [ $rc -eq 0 ]
check "plot from series/ draws what run --plots drew from memory" \
    cmp -s "$tmp/sp/osc-a__energy.dat" "$p/osc-a__energy.dat"

# outside programs: at the wall time of their runs (timing.csv), on the top axis
if command -v python3 >/dev/null 2>&1; then
    $MB run -q -o "$tmp/x" --plots --adapters "$SRC/tests/data/adapters" \
        "$SRC/tests/data/external-midstep.case" >/dev/null 2>&1
    wg=$tmp/x/plots/external-midstep__work-precision.gp
    check "work-precision: the outside program is drawn, by wall time including start-up" \
        grep -q 'axes x2y1 with linespoints .* title "external:leapfrog-mid (wall time, top axis; includes start-up)"' "$wg"
    check "work-precision: the top axis has its own tics (at 1, 2, 5 x 10^k or decades)" \
        sh -c "grep -q -e '^set x2tics (' -e '^set x2tics autofreq' '$wg' && ! grep -qx 'set x2tics' '$wg'"
    check "work-precision: the built-in scheme by force evaluations" \
        grep -q 'axes x1y1 with linespoints .* title "leapfrog"' "$wg"
    awk -F, 'NR > 1 && $2 == "external:leapfrog-mid" { printf "%.6f\n", $7 }' "$tmp/x/timing.csv" | sort >"$tmp/wall"
    block "$tmp/x/plots/external-midstep__work-precision.dat" 1 | awk '{ printf "%.6f\n", $1 }' | sort >"$tmp/x1"
    check "its points are at the wall times of timing.csv" cmp -s "$tmp/wall" "$tmp/x1"
else
    echo "SKIP: python3 missing: no outside program in the work-precision plot"
fi
exit $fail
