#!/bin/sh
# test_run_summary.sh -- what `motionbench run` prints and exits with when expectations
# fail, and its CI formats (JUnit XML, TAP), on tests/data/injected-faults.case (the
# facts each verdict rests on are stated in that file).
#  - exit status 1; every failed expectation named with its value and its bound;
#  - the run that diverged without the case expecting it named with step and reason;
#  - --junit: well-formed XML (xmllint), one <testcase> per verdict, grouped in one
#    <testsuite> per case, <failure> exactly for the failed ones;
#  - --tap: plan 1..N and one ok / not ok line per verdict.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
CASE=$SRC/tests/data/injected-faults.case

$MB run -j 2 -o "$tmp/r" --junit "$tmp/r/junit.xml" "$CASE" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "exit status 1 when expectations fail (got $rc)" [ "$rc" -eq 1 ]
check "order failure named with value, bound and the pairwise orders" \
    grep -q "FAILED  injected-faults: leapfrog: expected leapfrog.order.position = 3 +- 0.1, got [0-9.]*; pairwise 2 (dt 0.01 -> 0.005), 1.56 (dt 1 -> 0.01)$" "$tmp/out"
check "energy bound failure named with value" \
    grep -q "leapfrog dt=0.01: expected leapfrog.energy.max_rel_error@0.01 = < 1e-9, got 2\.[0-9]*e-05" "$tmp/out"
check "unexpected divergence named with step and reason" \
    grep -q "explicit-euler dt=1: expected status = ok (implied: no status expectation), got diverged (step 20, t = 20: energy blow-up" "$tmp/out"
check "passing expectation not listed as a failure" \
    sh -c "! grep -q 'explicit-euler.order.position' '$tmp/out'"
check "per-case table with orders" grep -q "^  leapfrog        3/3 ok  position" "$tmp/out"
check "the table counts the unexpected divergence, not as expected" \
    grep -q "^  explicit-euler  2/3 ok (1 diverged)  position" "$tmp/out"
check "a legend explains n/N ok and the flags" grep -q "^n/N ok: runs of the integrator that reached t_end" "$tmp/out"
check "the run that did not finish is listed on stderr with its reason" \
    grep -q "^  injected-faults explicit-euler dt=1: diverged: step 20, t = 20: energy blow-up" "$tmp/err"

# a negative control: the divergence the case expects is labelled as expected, in the
# table and on stderr, and the case passes
$MB run -o "$tmp/nc" "$SRC/cases/harmonic-explicit-euler-blowup.case" >"$tmp/nc.out" 2>"$tmp/nc.err"
rc=$?
check "negative control passes (got $rc)" [ "$rc" -eq 0 ]
check "expected divergence labelled in the table" grep -q "1/2 ok (1 diverged, expected)" "$tmp/nc.out"
check "expected divergence labelled on stderr" \
    grep -q "^  harmonic-explicit-euler-blowup explicit-euler dt=1: diverged (expected): step" "$tmp/nc.err"
check "closing line counts 4 checks, 3 failed" grep -q "1 case, 4 checks: 3 failed, 0 missing" "$tmp/err"

if command -v xmllint >/dev/null 2>&1; then
    x=$tmp/r/junit.xml
    check "JUnit XML is well-formed" xmllint --noout "$x"
    check "JUnit XML validates against the JUnit schema" \
        xmllint --noout --schema "$SRC/tests/data/junit.xsd" "$x"
    check "JUnit: 4 testcases" [ "$(xmllint --xpath 'count(//testsuite/testcase)' "$x")" = 4 ]
    check "JUnit: 3 failures" [ "$(xmllint --xpath 'count(//testcase/failure)' "$x")" = 3 ]
    check "JUnit: suite per case with counts" \
        [ "$(xmllint --xpath 'string(//testsuite[@name="injected-faults"]/@failures)' "$x")" = 3 ]
    check "JUnit: the passing test has no failure" \
        [ "$(xmllint --xpath 'count(//testcase[contains(@name,"explicit-euler.order")]/failure)' "$x")" = 0 ]
else
    echo "FAIL: xmllint (libxml2-utils) is missing: ./bootstrap --deps installs it"; fail=1
fi

$MB run -q -j 1 --tap -o "$tmp/t" "$CASE" >"$tmp/tap" 2>/dev/null
check "TAP: version and plan" sh -c "head -2 '$tmp/tap' | tr '\n' ' ' | grep -q '^TAP version 13 1\.\.4 $'"
check "TAP: 3 not ok" [ "$(grep -c '^not ok ' "$tmp/tap")" = 3 ]
check "TAP: 1 ok" [ "$(grep -c '^ok ' "$tmp/tap")" = 1 ]
exit $fail
