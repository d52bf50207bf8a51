#!/bin/sh
# test_external_broken.sh -- a catalogue of broken outside integrators
# (tests/data/adapters/broken-*.adapter, doc/external.md): each run must end with its exact
# status and a reason naming the adapter and the defect; the good adapter beside them is
# scored as usual; the report is complete; motionbench exits 1 (runs of outside programs
# failed), or 0 when they were only skipped; no process or private directory is left.
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

TMPDIR="$out/tmp" $MB run -q --adapters "$SRC/examples/python_adapter/adapters" \
    -o "$out/r" "$SRC/tests/data/external-broken.case" 2>"$out/err"; rc=$?
check "exit status 1 when outside programs failed (got $rc)" $([ $rc -eq 1 ]; echo $?)
for f in runs metrics checks timing; do
    check "$f.csv written" $([ -s "$out/r/$f.csv" ]; echo $?)
done
tr -d '\r' < "$out/r/runs.csv" > "$out/runs"
check "runs.csv: one row per (integrator, dt): 27 x 2" \
    $([ "$(tail -n +2 "$out/runs" | wc -l)" -eq 54 ]; echo $?)

# expect INTEGRATOR STATUS REASON-PATTERN: both runs (dt 0.1, 0.05) of the integrator
expect() {
    n=$(grep -c "^external-broken,external:$1,[^,]*,[^,]*,[^,]*,[^,]*,$2,.*$3" "$out/runs")
    if [ "$n" -eq 2 ]; then
        echo "ok: $1: $2"
    else
        echo "FAIL: $1: expected $2 with '$3'; got:"; grep ",external:$1," "$out/runs"; fail=1
    fi
}
expect pyverlet ok ''
expect nosuch failed 'adapter nosuch: no descriptor nosuch.adapter in '
expect broken-missing-command failed "command './no-such-program' not found"
expect broken-not-on-path failed "command 'motionbench-test-no-such-program' not found on PATH"
expect broken-not-executable failed "command './not-executable.sh' is not executable"
expect broken-exit3 failed 'exit status 3: something went wrong inside the adapter (test)'
expect broken-crash failed 'killed by signal 11'
expect broken-hang failed 'time limit of 1 s exceeded (process group killed)'
expect broken-nothing failed 'trajectory.csv: cannot open: No such file or directory'
expect broken-too-few failed 'trajectory.csv: line [0-9]*: too few rows: '
expect broken-too-many failed 'trajectory.csv: line [0-9]*: too many rows: '
expect broken-missing-column failed "trajectory.csv: line 1: missing column 'n0_vz'"
expect broken-extra-column failed "trajectory.csv: line 1: unexpected column 'n0_temperature'"
expect broken-swapped-columns failed "trajectory.csv: line 1: column 2 is 'n0_y', expected 'n0_x'"
expect broken-wrong-time failed 'trajectory.csv: line [0-9]*: t = 0.5[25]*0*[0-9]*, expected 0.5 '
expect broken-nan diverged 'trajectory line 5 (t = 0.[0-9]*): node 0: x = nan is not finite'
expect broken-inf diverged 'trajectory line 5 (t = 0.[0-9]*): node 0: y = -inf is not finite'
expect broken-huge diverged 'trajectory line 3 (t = 0.[0-9]*): node 0: x = 1e+308 is beyond the divergence bound'
expect broken-stale failed 'trajectory.csv: line 3: repeats line 2 (every state value equal) while the system must move: node 0 is pushed (net force fx = -2.385)'
expect broken-alias failed 'trajectory.csv: line 2: row 0 is not the initial state: node 0: x = 1.000999[0-9]*, the problem starts at 1 '
expect broken-non-number failed "trajectory.csv: line 5: column n0_x: '1.0abc' is not a number"
expect broken-short-row failed 'trajectory.csv: line 5: 6 fields, the header has 7'
expect broken-decline skipped "adapter broken-decline declined: this adapter cannot express"
expect broken-requires skipped 'requires motionbench-test-no-such-program, not found on PATH'
# The text a run's message holds (doc/hardening.md, "Texts of fixed size"): the whole text
# up to 1023 bytes; a longer one cut to its first 1015 bytes, less a UTF-8 character the
# cut would split (Python's decoder drops the incomplete one), and the mark "...[cut]".
message_of() {
    python3 -c 'import sys
t = sys.argv[1].encode("utf-8", "surrogateescape")
if len(t) > 1023:
    t = t[:1015].decode("utf-8", "ignore").encode("utf-8") + b"...[cut]"
sys.stdout.buffer.write(t)' "$1"
}
# the reason of broken-module with the interpreter at $1
module_reason() {
    printf '%s' "adapter broken-module: requires python3:motionbench_test_no_such_module.sub: $1 cannot import motionbench_test_no_such_module.sub (ModuleNotFoundError: No module named 'motionbench_test_no_such_module')"
}
# python3:json imports, the module after it does not: the interpreter's path (the python3
# first on PATH) and Python's own words are quoted, the whole reason as a run's message
# holds it
want=$(message_of "$(module_reason "$(command -v python3)")")
n=$(LC_ALL=C awk -F, -v want="$want" '$2 == "external:broken-module" && $7 == "skipped" && $NF == want' \
    "$out/runs" | wc -l)
check "broken-module: skipped with the reason '$want'" $([ "$n" -eq 2 ]; echo $?)
# a failure quotes the last three non-empty lines of the log, not the bare last one
expect broken-empty-exception failed 'exit status 1: File ""[^"]*broken.py"", line [0-9]*, in <module> | raise RuntimeError() *# the traceback.s last line is the bare type name | RuntimeError"*$'
expect broken-many-lines failed 'exit status 4: line two: the cause (test) | line three | line four"*$'

tr -d '\r' < "$out/r/checks.csv" > "$out/checks"
check "the good adapter's order is scored and passes" \
    $(grep -q '^external-broken,external:pyverlet,,.*,pass$' "$out/checks"; echo $?)
check "an expectation on a declined adapter is 'skipped'" \
    $(grep -q '^external-broken,external:broken-decline,,.*,,skipped$' "$out/checks"; echo $?)
check "no metric of a failed run is reported" \
    $(! tr -d '\r' < "$out/r/metrics.csv" | grep ',external:broken-[^,]*,' | grep -v ',status,\|,steps,' | grep -q .; echo $?)
check "no private directory is left in TMPDIR" $([ -z "$(ls "$out/tmp")" ]; echo $?)
# only this test's own leftovers count (another run of the suite on the machine may be
# mid-way): a process of the hanging adapter carries this test's TMPDIR in its environment
own_sleepers() {
    for p in $(pgrep -f 'sleep 4243'); do
        tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qxF "TMPDIR=$out/tmp" && echo "$p"
    done
}
check "the hanging adapter's process group is gone" $([ -z "$(own_sleepers)" ]; echo $?)

TMPDIR="$out/tmp" $MB run -q --adapters "$SRC/examples/python_adapter/adapters" \
    -o "$out/s" "$SRC/tests/data/external-skipped.case" 2>"$out/err"; rc=$?
check "exit status 0 when outside programs were only skipped (got $rc)" $([ $rc -eq 0 ]; echo $?)
check "skipped expectations are listed as such" \
    $([ "$(tr -d '\r' < "$out/s/checks.csv" | grep -c ',skipped$')" -eq 4 ]; echo $?)

# the time limit: the case key overrides the descriptor's 1 s, --timeout overrides both
cat > "$out/hang.case" <<CASE
[case]
name = hang
problem = harmonic
t_end = 1
[run]
integrators = external:broken-hang
dt = 0.1
timeout = 0.5
CASE
cp -r "$SRC/tests/data/adapters" "$out/adapters"
TMPDIR="$out/tmp" $MB run -q -o "$out/h1" "$out/hang.case" 2>/dev/null
check "[run] timeout = 0.5 is the limit" \
    $(grep -q 'time limit of 0.5 s exceeded' "$out/h1/runs.csv"; echo $?)
TMPDIR="$out/tmp" $MB run -q --timeout 0.25 -o "$out/h2" "$out/hang.case" 2>/dev/null
check "--timeout 0.25 overrides it" \
    $(grep -q 'time limit of 0.25 s exceeded' "$out/h2/runs.csv"; echo $?)

# A reason longer than a run's message: the interpreter first on PATH sits in a directory
# more than 1023 bytes deep, named with U+00E9 (2 bytes in UTF-8) and one or two ASCII
# letters chosen so that the cut, after byte 1015 of the reason, falls inside a character.
# The message is the reason's first 1014 bytes and the mark (1022 bytes): not the first
# 1015, which would end in half a character, nor the unmarked first 1023 (controls).
deep=$(python3 -c 'import sys
out, prefix = sys.argv[1], sys.argv[2].encode()
for pad in ("p", "pp"):
    d = out + "/" + pad + "/" + "/".join(["\u00e9" * 100] * 6)
    if (prefix + d.encode()).__getitem__(1015) & 0xC0 == 0x80:
        print(d)
        break' "$out/deep" "$(module_reason '')")
mkdir -p "$deep" && ln -s "$(command -v python3)" "$deep/python3"
cat > "$out/long.case" <<CASE
[case]
name = long
problem = harmonic
t_end = 1
[run]
integrators = external:broken-module
dt = 0.1
CASE
[ -d "$out/adapters" ] || cp -r "$SRC/tests/data/adapters" "$out/adapters"
PATH="$deep:$PATH" TMPDIR="$out/tmp" $MB run -q -o "$out/long" "$out/long.case" 2>/dev/null
full=$(module_reason "$deep/python3")
want=$(message_of "$full")
got=$(tr -d '\r' < "$out/long/runs.csv" | tail -n 1 | LC_ALL=C awk -F, '{ print $NF }')
check "a reason longer than the message: the cut falls inside a character (set-up)" \
    $([ -n "$deep" ] && [ "$(printf '%s' "$full" | LC_ALL=C wc -c)" -gt 1023 ]; echo $?)
check "... the message is its first bytes and the mark, exactly" $([ "$got" = "$want" ]; echo $?)
check "... backed off to the character: 1022 bytes, ending in '...[cut]'" \
    $(case $got in *'...[cut]') [ "$(printf '%s' "$got" | LC_ALL=C wc -c)" -eq 1022 ] ;; *) false ;; esac; echo $?)
check "... control: not the unmarked first 1023 bytes" \
    $([ "$got" != "$(printf '%s' "$full" | LC_ALL=C cut -b 1-1023)" ]; echo $?)

# a case file that gives an adapter an option its descriptor does not list: file:line, exit 2
cat > "$out/opt.case" <<'CASE'
[case]
name = opt
problem = harmonic
t_end = 1
[run]
integrators = external:pyverlet[fix=nve]
dt = 0.1
CASE
$MB run -q --adapters "$SRC/examples/python_adapter/adapters" -o "$out/o" "$out/opt.case" \
    2> "$out/err"; rc=$?
check "an option the descriptor does not list: exit 2 (got $rc)" $([ $rc -eq 2 ]; echo $?)
check "... with file:line and the option named" \
    $(grep -q "opt.case:6: adapter pyverlet has no option 'fix'" "$out/err"; echo $?)
check "... and no report written" $([ ! -e "$out/o" ]; echo $?)
exit $fail
