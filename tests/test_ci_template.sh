#!/bin/sh
# test_ci_template.sh -- the CI template for a user's repository (examples/ci,
# doc/ci-template.md), run from a copy as a user's CI would run it:
#  - ci.sh on the committed cases and baseline: exit 0; run-junit.xml and check-junit.xml
#    written and valid against tests/data/junit.xsd; the check's tests are those of
#    external:mine only (--integrators: 4 + 1 tests of mine-harmonic, 3 + 1 of mine-kepler,
#    none of velocity-verlet), named with the shortest dt (dt=0.0025);
#  - a change of the built-in velocity-verlet's rows in the baseline (its error.position
#    doubled) does not fail the user's CI (exit 0): the check is restricted to the user's
#    integrator;
#  - negative control: the integrator's kicks changed at the level of its truncation error,
#    (h/2) a -> (h/2)(1 + 1e-5 h^2) a (a stiffness k (1 + 1e-5 h^2): the order stays 2, the
#    energy error (w h)^2/4 = 5.9625e-5 moves by at most 1e-5 h^2 = 1e-9 < 1e-8 at h =
#    0.01): every expectation still holds, but the errors move by 1e-6 to 1e-4 relative
#    (on Kepler they fall), beyond the tolerance rel 1e-6: ci.sh exits 1 and
#    check-junit.xml holds failures of type "regression" in both cases; one-sided, the
#    Kepler case (whose errors all fell) would have passed;
#  - the GitHub Actions and GitLab CI examples run ci/ci.sh and keep the JUnit files it
#    writes (and parse as YAML when python3 has the yaml module).
# Needs python3 (the example integrator); skipped otherwise.
set -u
MB=${MB_PROGRAM:-$(pwd)/src/motionbench}
SRC=$(cd "${MB_SRCDIR:-.}" && pwd)
. "$SRC/tests/cli_test_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }

# a copy with the layout of examples/ (the adapter runs ../../python_adapter/verlet.py)
copy() {
    mkdir -p "$1" && cp -R "$SRC/examples/ci" "$SRC/examples/python_adapter" "$1/" &&
        rm -rf "$1/ci/reports"
}
valid() {   # JUnit file against the schema, when xmllint is there
    command -v xmllint >/dev/null 2>&1 || return 0
    xmllint --noout --schema "$SRC/tests/data/junit.xsd" "$1" 2>/dev/null
}
count() { xmllint --xpath "count($2)" "$1" 2>/dev/null; }

copy "$tmp/a"
MOTIONBENCH=$MB sh "$tmp/a/ci/ci.sh" "$tmp/a/out" >"$tmp/out" 2>&1; rc=$?
check "ci.sh passes on the committed baseline (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/  | /' "$tmp/out" | tail -n 20
both_valid() {
    [ -s "$1/run-junit.xml" ] && valid "$1/run-junit.xml" && [ -s "$1/check-junit.xml" ] &&
        valid "$1/check-junit.xml"
}
check "run-junit.xml and check-junit.xml written and valid" both_valid "$tmp/a/out"
if command -v xmllint >/dev/null 2>&1; then
    j=$tmp/a/out/check-junit.xml
    check "check: 5 tests of mine-harmonic, 4 of mine-kepler" \
        [ "$(count "$j" '//testsuite[@name="mine-harmonic"]/testcase')|$(count "$j" '//testsuite[@name="mine-kepler"]/testcase')" = "5|4" ]
    check "check: no test of velocity-verlet (--integrators external:mine)" \
        [ "$(count "$j" '//testcase[starts-with(@name, "velocity-verlet")]')" = 0 ]
    check "check: tests named with the shortest dt" \
        [ "$(count "$j" '//testcase[@name="external:mine dt=0.0025"]')" = 1 ]
fi

copy "$tmp/b"
awk -F, -v OFS=, '$2 == "velocity-verlet" && $5 == "error.position" { $6 = 2 * $6 } { print }' \
    "$tmp/b/ci/baseline/metrics.csv" >"$tmp/m" && mv "$tmp/m" "$tmp/b/ci/baseline/metrics.csv"
check "the baseline's velocity-verlet rows changed" \
    sh -c "! cmp -s '$SRC/examples/ci/baseline/metrics.csv' '$tmp/b/ci/baseline/metrics.csv'"
MOTIONBENCH=$MB sh "$tmp/b/ci/ci.sh" "$tmp/b/out" >"$tmp/out" 2>&1; rc=$?
check "a change of velocity-verlet's rows does not fail the user's CI (exit $rc)" [ $rc -eq 0 ]

copy "$tmp/c"
sed -i 's/0\.5 \* h \* a\[i\]\[k\]/0.5 * h * (1 + 1e-5 * h * h) * a[i][k]/g' \
    "$tmp/c/python_adapter/verlet.py"
check "negative control: both kicks of the integrator changed" \
    [ "$(grep -c '0.5 \* h \* (1 + 1e-5 \* h \* h)' "$tmp/c/python_adapter/verlet.py")" = 2 ]
MOTIONBENCH=$MB sh "$tmp/c/ci/ci.sh" "$tmp/c/out" >"$tmp/out" 2>&1; rc=$?
check "negative control: ci.sh fails on the regression (exit $rc)" [ $rc -eq 1 ]
check "negative control: the expectations still hold (the check found it)" \
    sh -c "! grep -q '<failure' '$tmp/c/out/run-junit.xml'"
if command -v xmllint >/dev/null 2>&1; then
    j=$tmp/c/out/check-junit.xml
    check "negative control: tests of both cases fail as regressions" \
        [ "$(count "$j" '//testsuite[@name="mine-harmonic"]//failure[@type="regression"]')" -gt 0 -a "$(count "$j" '//testsuite[@name="mine-kepler"]//failure[@type="regression"]')" -gt 0 ]
fi

$MB check -q --one-sided --baseline "$tmp/c/ci/baseline" --integrators external:mine \
    "$tmp/c/out" >"$tmp/out" 2>&1
check "negative control: one-sided, the Kepler case's falls would have passed" \
    sh -c "grep -q '^  mine-harmonic  external:mine' '$tmp/out' && ! grep -q '^  mine-kepler' '$tmp/out'"

for y in github-actions.yml gitlab-ci.yml; do
    check "$y runs ci/ci.sh" grep -q 'sh ci/ci.sh reports' "$SRC/examples/ci/$y"
done
check "gitlab-ci.yml keeps both JUnit files ci.sh writes" \
    sh -c "grep -q 'reports/run-junit.xml' '$SRC/examples/ci/gitlab-ci.yml' && grep -q 'reports/check-junit.xml' '$SRC/examples/ci/gitlab-ci.yml' && grep -q 'run-junit.xml' '$SRC/examples/ci/ci.sh' && grep -q 'check-junit.xml' '$SRC/examples/ci/ci.sh'"
if python3 -c 'import yaml' 2>/dev/null; then
    check "the CI examples are YAML" python3 -c 'import sys, yaml; [yaml.safe_load(open(f)) for f in sys.argv[1:]]' \
        "$SRC/examples/ci/github-actions.yml" "$SRC/examples/ci/gitlab-ci.yml"
fi
exit $fail
