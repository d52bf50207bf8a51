#!/bin/sh
# test_cli_datadir.sh -- --version and where the program finds its data (doc/install.md).
#  1. --version prints the version and the GPLv3+ notice, exit 0.
#  2. Started from another directory, the build-tree program takes the source tree's case
#     library (run --help names it).
#  3. MOTIONBENCH_DATADIR overrides: run with no argument runs exactly the cases of
#     $MOTIONBENCH_DATADIR/cases (one small case here), and check with no --baseline
#     reads $MOTIONBENCH_DATADIR/reports/baseline (missing here: exit 2 naming it).
set -u
MB=${MB_PROGRAM:-$(pwd)/src/motionbench}
SRC=$(cd "${MB_SRCDIR:-.}" && pwd)
fail=0
work=$(pwd)/datadir-test.$$
mkdir -p "$work/data/cases" "$work/elsewhere"
trap 'rm -rf "$work"' EXIT
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

out=$($MB --version) && echo "$out" | grep -q '^motionbench [0-9]' \
    && echo "$out" | grep -q 'GPLv3+' && ok "--version" || bad "--version: $out"

named=$(cd "$work/elsewhere" && $MB run --help | tr '\n' ' ' \
        | sed -n 's/.*default case library (\([^ ]*\)\/cases:.*/\1/p')
if [ -n "$named" ] && [ "$(cd "$named" && pwd -P)" = "$(cd "$SRC" && pwd -P)" ]; then
    ok "build-tree program takes the source tree's cases"
else
    bad "run --help from elsewhere names '$named', not the source tree $SRC"
fi

cp "$SRC/cases/free-fall.case" "$work/data/cases/"
if (cd "$work/elsewhere" && MOTIONBENCH_DATADIR="$work/data" $MB run -q -o rep) \
    && [ "$(cut -d, -f1 "$work/elsewhere/rep/runs.csv" | sort -u | grep -vc '^case$')" = 1 ]; then
    ok "MOTIONBENCH_DATADIR: run with no argument ran its one case"
else
    bad "MOTIONBENCH_DATADIR run"
fi
(cd "$work/elsewhere" && MOTIONBENCH_DATADIR="$work/data" $MB check rep) 2>"$work/err"
rc=$?
[ $rc -eq 2 ] && grep -q "$work/data/reports/baseline/metrics.csv" "$work/err" \
    && ok "check without --baseline reads the data directory's baseline" \
    || bad "check default baseline (exit $rc: $(cat "$work/err"))"
exit $fail
