#!/bin/sh
# ci.sh -- the CI check of an integrator developed outside motionbench (doc/ci-template.md).
#
# usage: ci.sh [REPORT_DIR]          (default: reports/ beside this script)
#   MOTIONBENCH   the program (default: motionbench on PATH)
#
# 1. runs every case of cases/ through the adapters of adapters/: the expectations of the
#    cases judge the integrator against theory (REPORT_DIR/run-junit.xml);
# 2. compares its metrics with baseline/metrics.csv, two-sided (a change in either
#    direction beyond a metric's tolerance is a regression), for the integrators of
#    $INTEGRATORS only (REPORT_DIR/check-junit.xml: one test per case, integrator and time
#    step, the metrics as properties).
# Exit status: 0 both pass, 1 an expectation failed or a metric regressed, 2 bad input (a
# case file, an option, an unreadable baseline).  To accept a deliberate change, refresh
# the baseline:  motionbench check --baseline baseline REPORT_DIR --update
set -u
here=$(cd "$(dirname "$0")" && pwd)
MB=${MOTIONBENCH:-motionbench}
INTEGRATORS=${INTEGRATORS:-external:mine}
out=${1:-$here/reports}

"$MB" run -q --adapters "$here/adapters" -o "$out" --junit "$out/run-junit.xml" "$here/cases"
run_status=$?
[ $run_status -le 1 ] || exit $run_status
"$MB" check -q --baseline "$here/baseline" --integrators "$INTEGRATORS" \
    --junit "$out/check-junit.xml" "$out"
check_status=$?
[ $check_status -le 1 ] || exit $check_status
[ $run_status -eq 0 ] && [ $check_status -eq 0 ] && exit 0
exit 1
