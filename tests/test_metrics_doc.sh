#!/bin/sh
# test_metrics_doc.sh -- the metric table (src/metrics/metrics.def) is the one source of the
# metrics reference: the committed doc/metrics.md must be exactly the output of
# `motionbench list metrics --markdown`, and every metric of the committed baseline report
# must be declared in the table (an undeclared name cannot be produced).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
$MB list metrics --markdown >"$tmp/metrics.md"
if cmp -s "$tmp/metrics.md" "$SRC/doc/metrics.md"; then
    echo "ok: doc/metrics.md matches the table"
else
    echo "FAIL: doc/metrics.md differs from 'motionbench list metrics --markdown' (regenerate it):"
    diff "$SRC/doc/metrics.md" "$tmp/metrics.md" | head -20
    fail=1
fi
$MB list metrics | awk '{ print $1 }' | sort >"$tmp/declared"
# the metric column (5th) of the baseline; quoted fields (integrator specs with commas)
# are emptied first so that every comma left separates fields
tail -n +2 "$SRC/reports/baseline/metrics.csv" | tr -d '\r' | sed 's/"[^"]*"//g' | cut -d, -f5 | sort -u >"$tmp/used"
undeclared=$(comm -13 "$tmp/declared" "$tmp/used")
if [ -z "$undeclared" ] && [ -s "$tmp/used" ]; then
    echo "ok: every baseline metric is declared ($(wc -l <"$tmp/used") names)"
else
    echo "FAIL: baseline metrics not in metrics.def: $undeclared"; fail=1
fi
exit $fail
