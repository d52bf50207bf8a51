#!/bin/sh
# test_check_formats.sh -- `motionbench check` on hand-made metrics.csv files whose verdicts
# follow from the rules alone (doc/results.md, doc/metrics.md):
#  - error.position is one-sided: 1.0e-3 -> 0.5e-3 (a fall of 50 % >> rel 1e-6) is an
#    improvement (exit 0), a regression with --two-sided (exit 1); 1.0e-3 -> 2.0e-3 is a
#    regression either way;
#  - order.position is two-sided: 2.00 -> 1.50 moves 0.5 > abs 0.01 either way;
#  - the summary line comes first; regressions are grouped under "CASE  INTEGRATOR";
#  - --junit: well-formed, one testcase per baseline row, one testsuite per case;
#  - --tap: plan and ok / not ok lines; --update replaces the baseline and says so;
#  - a baseline written before a metric was renamed (doc/metrics.md, Renamed metrics)
#    matches today's names: the committed baseline with every renamed metric given its old
#    name back compares equal to itself (exit 0, the renamed rows counted), where reading
#    the old names as they are would make those rows missing (exit 1).
set -u
MB=./src/motionbench
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
head='case,integrator,precision,dt,metric,value,tolerance,detail'
table() {   # dir, error.position of case a, order.position of case a, error.position of b
    mkdir -p "$1"
    printf '%s\r\n' "$head" \
        "a,leapfrog,double,0.01,error.position,$2,rel:1e-06," \
        "a,leapfrog,double,,order.position,$3,abs:0.01," \
        "b,rk4,double,0.01,error.position,$4,rel:1e-06," >"$1/metrics.csv"
}
table "$tmp/base" 1.0e-3 2.00 1.0e-6
table "$tmp/better" 0.5e-3 2.00 1.0e-6
table "$tmp/worse" 2.0e-3 1.50 1.0e-6

$MB check -b "$tmp/base" "$tmp/better" >"$tmp/out"; rc=$?
check "one-sided: a fall is no regression (exit $rc)" [ $rc -eq 0 ]
check "one-sided: reported as an improvement" \
    grep -q "^  a  leapfrog: 1 row$" "$tmp/out"
check "summary line first" \
    sh -c "head -1 '$tmp/out' | grep -q '^3 baseline metrics compared: 0 regressions (0 missing) in 0 cases, 1 improvement, 0 new$'"
$MB check --two-sided -b "$tmp/base" "$tmp/better" >"$tmp/out"; rc=$?
check "two-sided: the same fall is a regression (exit $rc)" [ $rc -eq 1 ]

$MB check -b "$tmp/base" "$tmp/worse" --junit "$tmp/j.xml" >"$tmp/out"; rc=$?
check "growth of an error and a lower order are regressions (exit $rc)" [ $rc -eq 1 ]
check "grouped: case and integrator, then each metric with old and new value" \
    sh -c "grep -A2 '^  a  leapfrog: 2 rows$' '$tmp/out' | grep -q 'order.position: baseline 2, now 1.5 (-0.5; tolerance abs:0.01)'"
check "relative change in percent" grep -q "error.position dt=0.01: baseline 0.001, now 0.002 (+100%; tolerance rel:1e-06)" "$tmp/out"
if command -v xmllint >/dev/null 2>&1; then
    check "JUnit XML is well-formed" xmllint --noout "$tmp/j.xml"
    check "JUnit XML validates against the JUnit schema" \
        xmllint --noout --schema "$SRC/tests/data/junit.xsd" "$tmp/j.xml"
    check "JUnit: a testcase per baseline row" [ "$(xmllint --xpath 'count(//testcase)' "$tmp/j.xml")" = 3 ]
    check "JUnit: a testsuite per case" [ "$(xmllint --xpath 'count(//testsuite)' "$tmp/j.xml")" = 2 ]
    check "JUnit: the two regressions of case a fail" \
        [ "$(xmllint --xpath 'count(//testsuite[@name="a"]/testcase/failure)' "$tmp/j.xml")" = 2 ]
else
    echo "FAIL: xmllint (libxml2-utils) is missing: ./bootstrap --deps installs it"; fail=1
fi
$MB check -b "$tmp/base" "$tmp/worse" --tap >"$tmp/tap" 2>/dev/null
check "TAP: plan 1..3 and 2 not ok" \
    sh -c "grep -q '^1\.\.3$' '$tmp/tap' && [ \$(grep -c '^not ok' '$tmp/tap') = 2 ]"

cp "$tmp/worse/metrics.csv" "$tmp/expected"
$MB check -b "$tmp/base" "$tmp/worse" --update >"$tmp/out"; rc=$?
check "--update exits 0 (got $rc)" [ $rc -eq 0 ]
check "--update says what changed" \
    grep -q "^baseline $tmp/base/metrics.csv updated: 2 regressions, 0 improvements and 0 new rows taken over" "$tmp/out"
check "--update replaced the baseline" cmp -s "$tmp/base/metrics.csv" "$tmp/expected"
$MB check -b "$tmp/base" "$tmp/worse" >/dev/null; rc=$?
check "after --update no regression (exit $rc)" [ $rc -eq 0 ]

# old names back: one sed expression per row of the renamed-metrics table of the doc
mkdir -p "$tmp/old" "$tmp/now"
cp "$SRC/reports/baseline/metrics.csv" "$tmp/now/metrics.csv"
back=$(sed -n 's/^| `\([^`]*\)` | `\([^`]*\)` |$/-e s#,\2,#,\1,#/p' "$SRC/doc/metrics.md")
check "the doc lists renamed metrics" [ -n "$back" ]
# shellcheck disable=SC2086
sed $back "$tmp/now/metrics.csv" >"$tmp/old/metrics.csv"
renamed=$(cmp -l "$tmp/now/metrics.csv" "$tmp/old/metrics.csv" >/dev/null 2>&1 && echo 0 ||
          diff "$tmp/now/metrics.csv" "$tmp/old/metrics.csv" | grep -c '^<')
check "the old-named baseline differs in $renamed rows" [ "$renamed" -gt 0 ]
$MB check -b "$tmp/old" "$tmp/now" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "an old-named baseline matches today's names (exit $rc)" [ $rc -eq 0 ]
check "the renamed rows are counted" grep -q ": $renamed rows under a metric's old name" "$tmp/err"
exit $fail
