#!/bin/sh
# test_external_batch.sh -- protocol 2 (doc/external.md, section 2b): fake adapters
# (tests/data/adapters/batch-*.adapter) answer the runs of two cases in one invocation each,
# beside the same velocity Verlet one run per invocation (pyverlet, protocol 1).  The good
# batch is invoked once for its four runs and scores exactly as pyverlet; every hostile
# batch ends each run with its exact status and reason: trajectories swapped between runs of
# different time steps (caught by the times) or of different initial states (caught by row
# 0), one trajectory too many, one missing, a run answered twice, a stray file, a FIFO, a run
# declined, a run failed, a failing or declining invocation.  No private directory is left.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
mkdir "$out/tmp"
check() {   # what, condition (0 = true)
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi
}

BATCH_INVOCATIONS="$out/invocations" TMPDIR="$out/tmp" $MB run -q -j 2 \
    --adapters "$SRC/examples/python_adapter/adapters" --adapters "$SRC/tests/data/adapters" \
    -o "$out/r" "$SRC/tests/data/external-batch.case" "$SRC/tests/data/external-batch-b.case" \
    2>"$out/err"; rc=$?
check "exit status 1 when outside programs failed (got $rc)" $([ $rc -eq 1 ]; echo $?)
tr -d '\r' < "$out/r/runs.csv" > "$out/runs"
check "runs.csv: one row per run: 13 x 2 + 3 x 2" \
    $([ "$(tail -n +2 "$out/runs" | wc -l)" -eq 32 ]; echo $?)
check "the good batch ran once for its 4 runs of both cases" \
    $([ "$(grep -c '^good ' "$out/invocations")" -eq 1 ] \
      && grep -qx 'good 4 external-batch external-batch-b' "$out/invocations"; echo $?)
check "12 batches, one invocation each (exit77 included)" \
    $([ "$(wc -l < "$out/invocations")" -eq 12 ]; echo $?)

# the good batch's rows equal pyverlet's from the status on (same scheme, same numbers)
for c in external-batch external-batch-b; do
    grep "^$c,external:pyverlet," "$out/runs" | cut -d, -f3- > "$out/one"
    grep "^$c,external:batch-good," "$out/runs" | cut -d, -f3- > "$out/two"
    check "$c: the batch's runs score exactly as one run per invocation" \
        $(cmp -s "$out/one" "$out/two" && [ -s "$out/one" ]; echo $?)
done

# expect CASE INTEGRATOR DT STATUS REASON-PATTERN (dt as runs.csv writes it)
expect() {
    if grep -q "^$1,external:$2,[^,]*,$3,[^,]*,[^,]*,$4,.*$5" "$out/runs"; then
        echo "ok: $1 $2 dt=$3: $4"
    else
        echo "FAIL: $1 $2 dt=$3: expected $4 with '$5'; got:"; grep "^$1,external:$2,[^,]*,$3," "$out/runs"; fail=1
    fi
}
d1=0.10000000000000001 d2=0.050000000000000003
A=external-batch B=external-batch-b
expect $A batch-good $d1 ok ''
expect $B batch-good $d2 ok ''
expect $A batch-swap $d1 failed 'adapter batch-swap: trajectories/0.csv: line 3: t = 0.050000000000000003, expected 0.10000000000000001 (row 1)'
expect $A batch-swap $d2 failed 'adapter batch-swap: trajectories/1.csv: line 3: t = 0.10000000000000001, expected 0.050000000000000003 (row 1)'
expect $A batch-swap-case $d1 failed 'adapter batch-swap-case: trajectories/0.csv: line 2: row 0 is not the initial state: node 0: x = 0.5, the problem starts at 1 '
expect $B batch-swap-case $d2 failed 'adapter batch-swap-case: trajectories/3.csv: line 2: row 0 is not the initial state: node 0: x = 1, the problem starts at 0.5 '
for d in $d1 $d2; do
    expect $A batch-extra $d failed 'adapter batch-extra: trajectories/2.csv: not an answer to a run of the batch (2 runs were asked: 0.csv to 1.csv, K.declined or K.failed)'
    expect $A batch-twice $d failed 'adapter batch-twice: trajectories/0.csv: run answered twice'
    expect $A batch-stray $d failed 'adapter batch-stray: trajectories/notes.txt: not an answer to a run of the batch'
    expect $A batch-fifo $d failed 'adapter batch-fifo: trajectories/0.csv: not a regular file: refused unread'
    expect $A batch-exit3 $d failed 'adapter batch-exit3: exit status 3: something went wrong after the runs (test)'
    expect $A batch-exit77 $d skipped 'adapter batch-exit77 declined: this batch is declined whole (test)'
done
expect $A batch-missing $d1 ok ''
expect $A batch-missing $d2 failed 'adapter batch-missing: no trajectories/1.csv for run 1 of 2'
expect $A batch-decline $d1 ok ''
expect $A batch-decline $d2 skipped 'adapter batch-decline declined: run 1 is declined by this adapter (test)'
expect $A batch-fail $d1 ok ''
expect $A batch-fail $d2 failed 'adapter batch-fail: run 1 failed: the package crashed on run 1 (test)'
check "no private directory is left in TMPDIR" $([ -z "$(ls "$out/tmp")" ]; echo $?)

# The line of K.declined is quoted up to 199 bytes: a longer one is cut to its first 191
# and the mark "...[cut]" (doc/external.md); one of exactly 199 bytes is whole (control).
mkdir -p "$out/long/adapters"
printf '[adapter]\nname = batch-long\nprotocol = 2\ncommand = python3 long.py\nrequires = python3\ntimeout = 30\n' \
    > "$out/long/adapters/batch-long.adapter"
cat > "$out/long/adapters/long.py" <<'PY'
import json, os, sys
runs = json.load(open(sys.argv[1]))["runs"]
lines = ["0123456789" * 30, "abcdefghij" * 19 + "abcdefghi"]     # 300 and 199 bytes
for run in runs:
    with open(os.path.join(sys.argv[2], "%d.declined" % run["id"]), "w") as fh:
        fh.write(lines[run["id"]] + "\n")
PY
printf '[case]\nname = long\nproblem = harmonic\nt_end = 1\n[run]\nintegrators = external:batch-long\ndt = 0.1, 0.05\n' \
    > "$out/long/c.case"
TMPDIR="$out/tmp" $MB run -q -o "$out/rl" "$out/long/c.case" 2>/dev/null
long0="adapter batch-long declined: $(printf '0123456789%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 | cut -b 1-191)...[cut]"
long1="adapter batch-long declined: $(printf 'abcdefghij%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19)abcdefghi"
tr -d '\r' < "$out/rl/runs.csv" | tail -n +2 | awk -F, '{ print $7 "," $NF }' > "$out/long.got"
printf 'skipped,%s\nskipped,%s\n' "$long0" "$long1" > "$out/long.want"
check "a K.declined line of 300 bytes: its first 191 and '...[cut]'; of 199 bytes: whole" \
    $(cmp -s "$out/long.got" "$out/long.want"; echo $?)

# protocol 3 is refused with file:line
mkdir "$out/ad"
printf '[adapter]\nname = three\nprotocol = 3\ncommand = python3 x.py\n' > "$out/ad/three.adapter"
printf '[case]\nname = c\nproblem = harmonic\nt_end = 1\n[run]\nintegrators = external:three[x=1]\ndt = 0.1\n' > "$out/c.case"
$MB run -q --adapters "$out/ad" -o "$out/r3" "$out/c.case" 2>"$out/err3"; rc=$?
check "a descriptor of protocol 3 is refused, exit 2 (got $rc)" \
    $([ $rc -eq 2 ] && grep -q 'three.adapter:3: protocol = 3: this motionbench speaks protocols 1 and 2' "$out/err3"; echo $?)
exit $fail
