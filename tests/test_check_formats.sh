#!/bin/sh
# test_check_formats.sh -- `motionbench check` on hand-made metrics.csv files whose verdicts
# follow from the rules alone (doc/results.md, doc/metrics.md):
#  - check is two-sided by default: error.position 1.0e-3 -> 0.5e-3 (a fall of 50 % >>
#    rel 1e-6) is a regression (exit 1), and so with --two-sided; with --one-sided it is
#    an improvement (exit 0); 1.0e-3 -> 2.0e-3 is a regression either way; the two
#    options together are refused (exit 2);
#  - order.position is two-sided: 2.00 -> 1.50 moves 0.5 > abs 0.01 either way;
#  - the summary line comes first; regressions are grouped under "CASE  INTEGRATOR";
#  - --junit: well-formed and valid, one testcase per (case, integrator, dt) of the
#    baseline (3: a/leapfrog at dt 0.1, a/leapfrog over the dts, b/rk4), one testsuite per
#    case, named with the shortest text of dt (the table writes dt as %.17g,
#    0.10000000000000001: the name says dt=0.1), every metric of the test a property
#    with its current value, a regression a failure of type "regression" naming the
#    metric, the old and new value;
#  - --tap: plan and ok / not ok lines; --update replaces the baseline and says so;
#  - --integrators: only the named integrators' rows are compared (rk4 alone: its one
#    unchanged row, exit 0, although leapfrog regressed; leapfrog alone: exit 1); a name
#    with no row in either file, and the option with --update, are refused (exit 2);
#  - a baseline written before a metric was renamed (doc/metrics.md, Renamed metrics)
#    matches today's names: the committed baseline with every renamed metric given its old
#    name back compares equal to itself (exit 0, the renamed rows counted), where reading
#    the old names as they are would make those rows missing (exit 1).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
head='case,integrator,precision,dt,metric,value,tolerance,detail'
table() {   # dir, error.position of case a, order.position of case a, error.position of b
    mkdir -p "$1"
    printf '%s\r\n' "$head" \
        "a,leapfrog,double,0.10000000000000001,error.position,$2,rel:1e-06," \
        "a,leapfrog,double,0.10000000000000001,steps,100,," \
        "a,leapfrog,double,,order.position,$3,abs:0.01," \
        "b,rk4,double,0.10000000000000001,error.position,$4,rel:1e-06," >"$1/metrics.csv"
}
table "$tmp/base" 1.0e-3 2.00 1.0e-6
table "$tmp/better" 0.5e-3 2.00 1.0e-6
table "$tmp/worse" 2.0e-3 1.50 1.0e-6

$MB check -b "$tmp/base" "$tmp/better" >"$tmp/out"; rc=$?
check "two-sided by default: a fall of an error is a regression (exit $rc)" [ $rc -eq 1 ]
check "summary line first" \
    sh -c "head -1 '$tmp/out' | grep -q '^4 baseline metrics compared: 1 regression (0 missing) in 1 case, 0 improvements, 0 new$'"
$MB check --two-sided -b "$tmp/base" "$tmp/better" >"$tmp/out"; rc=$?
check "--two-sided: the same fall is a regression (exit $rc)" [ $rc -eq 1 ]
$MB check --one-sided -b "$tmp/base" "$tmp/better" >"$tmp/out"; rc=$?
check "--one-sided: a fall is no regression (exit $rc)" [ $rc -eq 0 ]
check "--one-sided: reported as an improvement" \
    grep -q "^  a  leapfrog: 1 row$" "$tmp/out"
check "--one-sided: said on the summary line" \
    sh -c "head -1 '$tmp/out' | grep -q '^4 baseline metrics compared: 0 regressions (0 missing) in 0 cases, 1 improvement, 0 new (one-sided)$'"
$MB check --one-sided --two-sided -b "$tmp/base" "$tmp/better" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--one-sided with --two-sided refused (exit $rc)" \
    sh -c "[ $rc -eq 2 ] && grep -q 'exclude each other' '$tmp/err'"

$MB check --integrators rk4 -b "$tmp/base" "$tmp/worse" >"$tmp/out"; rc=$?
check "--integrators rk4: leapfrog's regressions not compared (exit $rc)" [ $rc -eq 0 ]
check "--integrators rk4: its one row compared" \
    sh -c "head -1 '$tmp/out' | grep -q '^1 baseline metrics compared: 0 regressions'"
$MB check --integrators ' leapfrog,rk4' -b "$tmp/base" "$tmp/worse" >"$tmp/out"; rc=$?
check "--integrators leapfrog,rk4: leapfrog's regressions found (exit $rc)" [ $rc -eq 1 ]
$MB check --integrators nosuch -b "$tmp/base" "$tmp/worse" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--integrators with a name of no row: exit 2 naming it (exit $rc)" \
    sh -c "[ $rc -eq 2 ] && grep -q \"'nosuch' has no row in\" '$tmp/err'"
$MB check --integrators rk4 --update -b "$tmp/base" "$tmp/worse" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--integrators with --update refused (exit $rc)" [ $rc -eq 2 ]

$MB check -b "$tmp/base" "$tmp/worse" --junit "$tmp/j.xml" >"$tmp/out"; rc=$?
check "growth of an error and a lower order are regressions (exit $rc)" [ $rc -eq 1 ]
check "grouped: case and integrator, then each metric with old and new value" \
    sh -c "grep -A2 '^  a  leapfrog: 2 rows$' '$tmp/out' | grep -q 'order.position: baseline 2, now 1.5 (-0.5; tolerance abs:0.01)'"
check "relative change in percent" grep -q "error.position dt=0.1: baseline 0.001, now 0.002 (+100%; tolerance rel:1e-06)" "$tmp/out"
if command -v xmllint >/dev/null 2>&1; then
    check "JUnit XML is well-formed" xmllint --noout "$tmp/j.xml"
    check "JUnit XML validates against the JUnit schema" \
        xmllint --noout --schema "$SRC/tests/data/junit.xsd" "$tmp/j.xml"
    check "JUnit: a testcase per case, integrator and dt" [ "$(xmllint --xpath 'count(//testcase)' "$tmp/j.xml")" = 3 ]
    check "JUnit: a testsuite per case" [ "$(xmllint --xpath 'count(//testsuite)' "$tmp/j.xml")" = 2 ]
    check "JUnit: the tests named with the shortest dt" \
        [ "$(xmllint --xpath 'string(//testsuite[@name="a"]/testcase[1]/@name)' "$tmp/j.xml")|$(xmllint --xpath 'string(//testsuite[@name="a"]/testcase[2]/@name)' "$tmp/j.xml")|$(xmllint --xpath 'string(//testsuite[@name="b"]/testcase[1]/@name)' "$tmp/j.xml")" = "leapfrog dt=0.1|leapfrog|rk4 dt=0.1" ]
    check "JUnit: the metrics of a test are its properties, with their current values" \
        [ "$(xmllint --xpath 'string(//testcase[@name="leapfrog dt=0.1"]/properties/property[@name="error.position"]/@value)' "$tmp/j.xml")|$(xmllint --xpath 'string(//testcase[@name="leapfrog dt=0.1"]/properties/property[@name="steps"]/@value)' "$tmp/j.xml")" = "2.0e-3|100" ]
    check "JUnit: the two tests of case a fail, as regressions" \
        [ "$(xmllint --xpath 'count(//testsuite[@name="a"]/testcase/failure[@type="regression"])' "$tmp/j.xml")" = 2 ]
    check "JUnit: a regression names the metric, the old and the new value" \
        [ "$(xmllint --xpath 'string(//testcase[@name="leapfrog"]/failure/@message)' "$tmp/j.xml")" = "order.position: baseline 2.00, now 1.50 (tolerance abs:0.01)" ]
    check "JUnit: rk4 passes" [ "$(xmllint --xpath 'count(//testsuite[@name="b"]/testcase/failure)' "$tmp/j.xml")" = 0 ]
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
