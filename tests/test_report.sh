#!/bin/sh
# test_report.sh -- motionbench report: the HTML page of a report directory.
#  - the page is well-formed (xmllint parses it as XML: polyglot HTML5) and every image it
#    shows is an SVG file inside the report directory (the plots of REPORT/plots, not a
#    copy: REPORT/html holds index.html alone), or inside DIR for a page written elsewhere;
#  - the plots run --plots drew are used as they are (not drawn again); others are drawn;
#  - it opens with a per-integrator summary whose counts are those of runs.csv and
#    checks.csv (counted here with awk), and shows each case's description;
#  - size: run --plots + report of a small case set (with a 100001-sample run) stays
#    within 3 files per plot plus the report's own, and 120 kB per plot;
#  - the failed expectations of tests/data/injected-faults.case (3, see that file) are
#    listed in a section before the list of cases; the passing case osc-a is listed too;
#  - orders with standard error and pairwise orders, flags and the references appear;
#  - without gnuplot: exit 2 naming it.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"

$MB run -q -o "$tmp/r" "$SRC/tests/data/injected-faults.case" \
    "$SRC/tests/data/runner/osc-a.case" >/dev/null 2>&1
PATH=/nonexistent $MB report "$tmp/r" 2>"$tmp/err"; rc=$?
check "report without gnuplot: exit 2 naming it" sh -c "[ $rc -eq 2 ] && grep -q gnuplot '$tmp/err'"
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }
command -v xmllint >/dev/null 2>&1 || { echo "FAIL: xmllint (libxml2-utils) is missing"; exit 1; }

$MB report "$tmp/r" 2>/dev/null; rc=$?
h=$tmp/r/html/index.html
check "report: exit 0 (got $rc)" [ $rc -eq 0 ]
check "index.html is well-formed" xmllint --noout "$h"
imgs=$(xmllint --xpath '//*[local-name()="img"]/@src' "$h" 2>/dev/null | sed 's/ src="\([^"]*\)"/\1\n/g')
check "the page shows plots" [ -n "$imgs" ]
outside=0
for i in $imgs; do
    case $i in /*|*://*) outside=1 ;; ../plots/*.svg) ;; *) outside=1 ;; esac
    [ -f "$tmp/r/html/$i" ] || outside=1
done
check "every image is an SVG of REPORT/plots" [ $outside -eq 0 ]
check "the HTML directory copies no plot" [ "$(ls "$tmp/r/html")" = index.html ]
check "no reference outside the directory (href)" \
    sh -c "! xmllint --xpath '//@href' '$h' 2>/dev/null | grep -q -e '://' -e '=\"/'"
# -o elsewhere: a directory complete in itself
$MB report "$tmp/r" -o "$tmp/elsewhere/html" 2>/dev/null
check "report -o elsewhere: its plots in its own directory" sh -c \
    "grep -q 'src=\"plots/osc-a__convergence-position.svg\"' '$tmp/elsewhere/html/index.html' &&
     [ -f '$tmp/elsewhere/html/plots/osc-a__convergence-position.svg' ]"
first_fail=$(grep -n 'Failed and missing expectations' "$h" | head -1 | cut -d: -f1)
cases_at=$(grep -n '<h2>Cases</h2>' "$h" | cut -d: -f1)
check "failed expectations come first" sh -c "[ -n '$first_fail' ] && [ '$first_fail' -lt '$cases_at' ]"
check "3 failed rows in the list of failed expectations" \
    [ "$(xmllint --xpath 'count((//*[local-name()="table"])[2]//*[local-name()="tr" and @class="fail"])' "$h")" = 3 ]
check "the unexpected divergence is named" grep -q 'status = ok (implied: no status expectation)' "$h"
check "orders with standard error and pairwise orders" \
    sh -c "grep -q 'order of position &#177; standard error' '$h' && grep -q 'pairwise orders' '$h'"
check "flag of a fit with an excluded point (explicit Euler at dt = 1 diverged)" \
    grep -q '<span class="flag">\[excluded' "$h"
check "reference provenance" grep -q '<td>analytic</td><td>double</td>' "$h"

# the per-integrator summary opens the page (the first table), its counts recomputed
# from runs.csv and checks.csv
first_h2=$(grep -n '<h2' "$h" | head -1)
check "the page opens with the per-integrator summary" sh -c "echo '$first_h2' | grep -q 'Integrators across the cases'"
cells() {   # the summary row of integrator $1: its cells, one per line
    xmllint --xpath "(//*[local-name()='table'])[1]//*[local-name()='tr'][*[1]='$1']/*[local-name()='td']" "$h" 2>/dev/null |
        sed 's/<td[^>]*>/\n/g; s/<[^>]*>//g' | sed '/^$/d'
}
heads=$(xmllint --xpath "(//*[local-name()='table'])[1]//*[local-name()='th']" "$h" 2>/dev/null |
        sed 's/<th>/\n/g; s/<[^>]*>//g' | sed '/^$/d' | tr '\n' '|')
check "summary columns: cases, runs finished, checks by verdict, measured orders" \
    sh -c "echo '$heads' | grep -q '^integrator|cases|runs finished|checks pass|checks fail|measured order of position|'"
for spec in leapfrog explicit-euler; do
    got=$(cells "$spec" | sed -n 2,5p | tr '\n' ' ')
    want=$(awk -F, -v s="$spec" '{ sub(/\r$/, "") } FNR == 1 { f++; next }
        f == 1 && $2 == s { if (!($1 in c)) { c[$1]; n++ } all++; ok += $7 == "ok" }
        f == 2 && $2 == s { pass += $NF == "pass"; failed += $NF == "fail" }
        END { printf "%d %d/%d %d %d ", n, ok, all, pass, failed }' "$tmp/r/runs.csv" "$tmp/r/checks.csv")
    check "summary of $spec: '$got' = runs.csv and checks.csv '$want'" [ "$got" = "$want" ]
done
ord=$(awk -F, '$2 == "leapfrog" && $5 == "order.position" && $4 == "" { printf "%.2f", $6 }' "$tmp/r/metrics.csv")
check "summary: the measured order of leapfrog's position ($ord, 1 case)" \
    sh -c "xmllint --xpath \"(//*[local-name()='table'])[1]\" '$h' | grep -q '$ord <small>(1 case)</small>'"

# each case's description, from its case file
$MB run -q -o "$tmp/k" --plots "$SRC/cases/kepler-rk4-roundoff.case" "$SRC/cases/compare-kepler.case" \
    "$SRC/tests/data/runner/osc-a.case" "$SRC/cases/damped-underdamped.case" \
    "$SRC/cases/tennis-racket-flip.case" >/dev/null 2>&1
before=$(ls -l --time-style=full-iso "$tmp/k/plots" | md5sum)
sleep 1
$MB report "$tmp/k" 2>/dev/null
hk=$tmp/k/html/index.html
for c in kepler-rk4-roundoff compare-kepler; do
    d=$(sed -n 's/^description *= *//p' "$SRC/cases/$c.case" | sed 's/&/\&amp;/g')
    check "the description of $c is on the page" grep -qF "$d" "$hk"
done
check "report uses the plots run --plots drew (none drawn again)" \
    [ "$(ls -l --time-style=full-iso "$tmp/k/plots" | md5sum)" = "$before" ]
svgs=$(ls "$tmp/k/plots" | grep -c '\.svg$')
check "the page shows every plot once ($svgs)" [ "$(grep -c '<img' "$hk")" -eq "$svgs" ]
# the size of the whole report directory: 3 files per plot (.svg, .gp, .dat) + plots.list
# and gnuplot.log + the 5 CSV files + index.html; 120 kB per plot at most (an SVG of
# 7 curves of at most 802 points, ~ 30 bytes a point, with its data at ~ 20 bytes a
# point: 7 x 802 x 50 = 280 kB for the largest, most are 20-40 kB) -- series of every
# run (kepler-rk4-roundoff's finest alone: 18 MB) would break it
files=$(find "$tmp/k" -type f | wc -l)
check "files: $files = 3 x $svgs plots + 8" [ "$files" -eq $((3 * svgs + 8)) ]
kb=$(du -sk "$tmp/k" | cut -f1)
check "size: $kb kB <= 120 kB x $svgs plots" [ "$kb" -le $((120 * svgs)) ]
exit $fail
