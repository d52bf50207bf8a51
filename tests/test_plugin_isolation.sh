#!/bin/sh
# test_plugin_isolation.sh -- runs of plugin schemes in child processes (doc/plugins.md,
# "Isolation and trust"), end to end with the schemes of tests/plugins/misbehaving_plugin.c:
#  1. A case mixing leap-frog, the forest-ruth example and schemes that segfault, abort,
#     call exit(0) or exit(3), or close their descriptors: exit status 1, each misbehaving
#     run "failed" with the signal or the exit status named, and the rows of the two good
#     schemes byte-identical to a case holding only those two (nothing of the crashes
#     leaks into the other runs).
#  2. Well-behaved plugins: runs.csv, metrics.csv, checks.csv and every series file are
#     byte-identical forked and --plugins-in-process, with --jobs 1 and --jobs 3.
#  3. A scheme that hangs: --timeout 1 fails its runs with the limit named, and its
#     process is gone; SIGTERM or SIGINT to motionbench ends the child too, exit 2, and the
#     previous report stays byte-identical.
#  4. Negative controls: with --plugins-in-process the segfaulting scheme kills motionbench
#     (exit 139, the previous report untouched) and exit(0) ends it with status 0 and no
#     report: the isolation is what protects.
set -u
# built without shared libraries (configure --disable-shared): no plug-in to load
[ "${MB_PLUGINS:-yes}" != no ] || { echo "SKIP: no plug-ins: built without shared libraries"; exit 77; }
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
fail=0
work=plugin-isolation-test.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cp tests/plugins/.libs/misbehaving.so examples/.libs/forest_ruth.so \
   examples/.libs/leapfrog_dkd.so "$SRC/examples/plugins-harmonic.case" "$work/"

ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# write_case FILE INTEGRATORS: a harmonic oscillator, two steps of dt, plugins loaded
write_case() {
    cat > "$1" <<EOF
[case]
name      = isolation
problem   = harmonic
t_end     = 0.16
reference = analytic

[run]
plugins     = forest_ruth.so, misbehaving.so
integrators = $2
dt          = 0.04, 0.02
EOF
}

# status and message of every run of integrator $2 in report $1 (one line per dt; the
# CSV lines end in CR LF)
runs_of() { awk -F, -v i="$2" '{ sub(/\r$/, "") } $2 == i { print $7 "|" $NF }' "$1/runs.csv"; }

# --- 1. misbehaving schemes among good ones --------------------------------------------
write_case "$work/mixed.case" \
    "leapfrog, segfaults, aborts, forest-ruth, exits-zero, exits-three, closes-fds"
$MB run -q -j 3 -o "$work/mixed" "$work/mixed.case" >"$work/out" 2>&1; rc=$?
[ $rc -eq 1 ] && ok "failed plugin runs: exit status 1" || bad "exit status $rc, want 1: $(cat "$work/out")"
expect_runs() {
    want=$(printf '%s\n%s' "$2" "$2")
    got=$(runs_of "$work/mixed" "$1")
    [ "$got" = "$want" ] && ok "$1: $2" || bad "$1: got '$got', want '$2' twice"
}
expect_runs segfaults 'failed|plug-in killed by signal 11 (Segmentation fault)'
expect_runs aborts 'failed|plug-in killed by signal 6 (Aborted)'
expect_runs exits-zero 'failed|plug-in called exit(0)'
expect_runs exits-three 'failed|plug-in called exit(3)'
expect_runs closes-fds \
    'failed|plug-in result: the child could not send it (did the plug-in close its descriptors?)'
expect_runs leapfrog 'ok|'
expect_runs forest-ruth 'ok|'
write_case "$work/good.case" "leapfrog, forest-ruth"
$MB run -q -j 1 --plugins-in-process -o "$work/good" "$work/good.case" >/dev/null 2>&1
for f in runs metrics; do
    grep -E '^[^,]*,(leapfrog|forest-ruth),|^case,' "$work/mixed/$f.csv" > "$work/$f.kept"
    if cmp -s "$work/$f.kept" "$work/good/$f.csv"; then
        ok "$f.csv rows of the good schemes as without the misbehaving ones"
    else
        bad "$f.csv rows of the good schemes differ from a case without the misbehaving ones"
    fi
done

# --- 2. forked and in-process reports are byte-identical ----------------------------------
for mode in "-j 1" "-j 3" "-j 1 --plugins-in-process" "-j 3 --plugins-in-process"; do
    dir=$(echo "$mode" | tr -d ' -')
    $MB run -q --series $mode -o "$work/$dir" "$work/plugins-harmonic.case" >/dev/null 2>&1 \
        || bad "plugins-harmonic.case $mode failed"
done
for dir in j3 j1pluginsinprocess j3pluginsinprocess; do
    same=1
    for f in runs.csv metrics.csv checks.csv; do
        cmp -s "$work/j1/$f" "$work/$dir/$f" || same=0
    done
    diff -r "$work/j1/series" "$work/$dir/series" >/dev/null || same=0
    [ -n "$(ls "$work/j1/series")" ] || same=0
    [ $same = 1 ] && ok "reports byte-identical: forked -j 1 and $dir" \
                  || bad "reports differ: forked -j 1 and $dir"
done

# --- 3. a scheme that hangs -----------------------------------------------------------
write_case "$work/hang.case" "leapfrog, hangs"
# (timeout -k: were the plug-in in process, motionbench would catch SIGTERM and stay stuck)
MB_TEST_PID_FILE=$PWD/$work/pid timeout -k 5 30 $MB run -q -j 1 --timeout 1 -o "$work/hang" \
    "$work/hang.case" >"$work/out" 2>&1; rc=$?
want='failed|plug-in: time limit of 1 s exceeded (child killed; [run] timeout or --timeout sets it)'
if [ $rc -eq 1 ] && [ "$(runs_of "$work/hang" hangs)" = "$(printf '%s\n%s' "$want" "$want")" ] \
   && [ "$(runs_of "$work/hang" leapfrog | head -1)" = "ok|" ]; then
    ok "a hanging scheme fails its runs at --timeout"
else
    bad "hanging scheme with --timeout 1: exit $rc, $(runs_of "$work/hang" hangs)"
fi
pid=$(cat "$work/pid" 2>/dev/null)
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok "the timed-out child is gone" \
    || bad "the timed-out child ($pid) is still there"

for sig in TERM INT; do
    cp -R "$work/j1" "$work/prev-$sig"
    cp -R "$work/j1" "$work/before"
    rm -f "$work/pid"
    MB_TEST_PID_FILE=$PWD/$work/pid $MB run -q -j 1 -o "$work/prev-$sig" "$work/hang.case" \
        >"$work/out" 2>&1 &
    mbpid=$!
    n=0
    while [ ! -s "$work/pid" ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
    kill -$sig $mbpid
    n=0
    while kill -0 $mbpid 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    if kill -0 $mbpid 2>/dev/null; then
        bad "SIG$sig: motionbench still running 10 s later"
        kill -KILL $mbpid
    fi
    wait $mbpid; rc=$?
    child=$(cat "$work/pid" 2>/dev/null)
    [ $rc -eq 2 ] && grep -q 'interrupted; the previous report is kept' "$work/out" \
        && ok "SIG$sig with a hanging plugin: exit 2, interrupted" \
        || bad "SIG$sig: exit $rc, $(cat "$work/out")"
    [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null && ok "SIG$sig: the plugin's child is gone" \
        || bad "SIG$sig: the plugin's child ($child) is still there"
    diff -r "$work/before" "$work/prev-$sig" >/dev/null && ok "SIG$sig: previous report byte-identical" \
        || bad "SIG$sig: the previous report changed"
    rm -rf "$work/before"
done

# --- 4. negative controls: in process, nothing protects --------------------------------
write_case "$work/seg.case" "leapfrog, segfaults"
cp -R "$work/j1" "$work/prev-seg"
sh -c "exec $MB run -q -j 1 --plugins-in-process -o '$work/prev-seg' '$work/seg.case'" \
    >/dev/null 2>&1; rc=$?
[ $rc -eq 139 ] && ok "control: in process, the segfault kills motionbench (exit 139)" \
    || bad "control: in-process segfault gave exit $rc, want 139 (SIGSEGV)"
diff -r "$work/j1" "$work/prev-seg" >/dev/null && ok "control: previous report untouched" \
    || bad "control: the previous report changed"
write_case "$work/exit.case" "leapfrog, exits-zero"
$MB run -q -j 1 --plugins-in-process -o "$work/exit-report" "$work/exit.case" >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -e "$work/exit-report/runs.csv" ] \
    && ok "control: in process, exit(0) ends motionbench with status 0 and no report" \
    || bad "control: in-process exit(0) gave exit $rc"
exit $fail
