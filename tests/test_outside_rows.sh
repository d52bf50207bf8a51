#!/bin/sh
# test_outside_rows.sh -- [run] outside_rows = samples (doc/cases.md): an outside program's
# granular gas is asked for a row every sample_every steps although it dissipates and has an
# observer, the observer is fed the returned rows alone, and no energy metric is reported
# (the dashpots' work between the rows is unknown).  The adapter tests/data/adapters/
# haff-closed cools the gas exactly by Haff's law with tau = 5 (velocities v0 / (1 + t/tau)),
# so haff.cooling_time must be 5 to round-off (tests/data/outside-rows-haff.case).  Control:
# the same case without the key asks for every step (run.json's sample_every = 1), the
# default for a run with work integrals or an observer.  Skipped (77) without python3.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
export MB_TEST_DUMP_DIR="$tmp" MB_TEST_HAFF_TAU=5
c="$SRC/tests/data/outside-rows-haff.case"
$MB run -q --adapters "$SRC/tests/data/adapters" -o "$tmp/r" "$c" >"$tmp/log" 2>&1; rc=$?
if [ $rc -eq 0 ] && tr -d '\r' < "$tmp/r/checks.csv" | grep -q 'haff.cooling_time = 5 .*,pass$'; then
    echo "ok: haff.cooling_time = tau from the sampled rows"
else
    echo "FAIL: exit $rc"; cat "$tmp/log" "$tmp/r/checks.csv" "$tmp/r/metrics.csv"; fail=1
fi
if [ "$(cat "$tmp/sample_every")" = 20 ]; then
    echo "ok: the adapter is asked for a row every 20 steps"
else
    echo "FAIL: the adapter is asked for a row every $(cat "$tmp/sample_every") steps, not 20"; fail=1
fi
if grep -q ',energy\.' "$tmp/r/metrics.csv"; then
    echo "FAIL: energy metrics reported without the work between the rows"
    grep ',energy\.' "$tmp/r/metrics.csv"; fail=1
else
    echo "ok: no energy metric"
fi
# control: without outside_rows the dissipative gas with an observer is asked for every step
grep -v '^outside_rows' "$c" > "$tmp/steps.case"
$MB run -q --adapters "$SRC/tests/data/adapters" -o "$tmp/s" "$tmp/steps.case" >"$tmp/log2" 2>&1
if [ "$(cat "$tmp/sample_every")" = 1 ]; then
    echo "ok: without outside_rows, a row every step"
else
    echo "FAIL: without outside_rows, a row every $(cat "$tmp/sample_every") steps"; fail=1
fi
exit $fail
