#!/bin/sh
# test_report.sh -- motionbench report: a self-contained HTML directory.
#  - the page is well-formed (xmllint parses it as XML: polyglot HTML5) and every image it
#    shows is a file inside its directory;
#  - the failed expectations of tests/data/injected-faults.case (3, see that file) are
#    listed in a section before the list of cases; the passing case osc-a is listed too;
#  - orders with standard error and pairwise orders, flags and the references appear;
#  - without gnuplot: exit 2 naming it.
set -u
MB=./src/motionbench
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"

$MB run -q -o "$tmp/r" "$SRC/tests/data/injected-faults.case" \
    "$SRC/tests/data/runner/osc-a.case" >/dev/null 2>&1
PATH=/nonexistent $MB report "$tmp/r" 2>"$tmp/err"; rc=$?
check "report without gnuplot: exit 2 naming it" sh -c "[ $rc -eq 2 ] && grep -q gnuplot '$tmp/err'"
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot is not installed"; exit 77; }
command -v xmllint >/dev/null 2>&1 || { echo "FAIL: xmllint (libxml2-utils) is missing"; exit 1; }

$MB report "$tmp/r" -o "$tmp/html" 2>/dev/null; rc=$?
h=$tmp/html/index.html
check "report: exit 0 (got $rc)" [ $rc -eq 0 ]
check "index.html is well-formed" xmllint --noout "$h"
imgs=$(xmllint --xpath '//*[local-name()="img"]/@src' "$h" 2>/dev/null | sed 's/ src="\([^"]*\)"/\1\n/g')
check "the page shows plots" [ -n "$imgs" ]
missing=0
for i in $imgs; do
    case $i in /*|*://*) missing=1 ;; esac
    [ -f "$tmp/html/$i" ] || missing=1
done
check "every image is a file inside the report directory" [ $missing -eq 0 ]
check "no reference outside the directory (href)" \
    sh -c "! xmllint --xpath '//@href' '$h' 2>/dev/null | grep -q -e '://' -e '=\"/'"
first_fail=$(grep -n 'Failed and missing expectations' "$h" | head -1 | cut -d: -f1)
cases_at=$(grep -n '<h2>Cases</h2>' "$h" | cut -d: -f1)
check "failed expectations come first" sh -c "[ -n '$first_fail' ] && [ '$first_fail' -lt '$cases_at' ]"
check "3 failed rows in the summary" \
    [ "$(xmllint --xpath 'count((//*[local-name()="table"])[1]//*[local-name()="tr" and @class="fail"])' "$h")" = 3 ]
check "the unexpected divergence is named" grep -q 'status = ok (implied: no status expectation)' "$h"
check "orders with standard error and pairwise orders" \
    sh -c "grep -q 'order of position &#177; standard error' '$h' && grep -q 'pairwise orders' '$h'"
check "flag of a fit with an excluded point (explicit Euler at dt = 1 diverged)" \
    grep -q '<span class="flag">\[excluded' "$h"
check "reference provenance" grep -q '<td>analytic</td><td>double</td>' "$h"
exit $fail
