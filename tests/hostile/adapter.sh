#!/bin/sh
# adapter.sh MODE STATUS -- one hostile adapter (tests/data/adapters/broken-MODE.adapter)
# run on the harmonic oscillator into "$T/r", over a previous report of bom.case (a copy of
# $BOM, made once by run.sh), with TMPDIR="$T/tmp".  STATUS is the status both runs must get, or "interrupt" ("terminate"):
# SIGINT (SIGTERM) once the adapter has started its daemon, and the previous report must be left byte-identical, or
# "kill": SIGKILL then (the adapter's processes must still go, within 120 s: the keeper's
# grace is 2 s; the private directory of a motionbench killed outright stays).
# No wait here depends on the machine's speed: the signal waits for the daemon (or the
# end of the run), and the runs' time limit (600 s, not the descriptors' 30 s, which a
# loaded machine can exceed) is beyond run.sh's wall-clock guard, so that a run that does
# not end on the signal fails by the guard (the adapter hangs for 4242 s).
# Prints the runs' rows (status and reason) and exits with run's status, or 3 when a run's
# status is not STATUS (or the previous report changed), 4 when a process of the adapter
# outlived the run (broken.py's daemon sleeps MB_TEST_DAEMON_SLEEP s, unique to this
# script's process), 5 when a private directory was left in TMPDIR.
set -u
mode=$1 want=$2
MB_TEST_DAEMON_SLEEP=4245.$$
export MB_TEST_DAEMON_SLEEP
mkdir -p "$T/tmp"
cp -a "$BOM" "$T/r" || exit 9
cp "$T/r/metrics.csv" "$T/before"
printf '[case]\nname = hostile-adapter\nproblem = harmonic\nt_end = 1\n[run]\nintegrators = external:broken-%s\ndt = 0.1, 0.05\n' \
    "$mode" > "$T/c.case"
if [ "$want" = interrupt ] || [ "$want" = terminate ] || [ "$want" = kill ]; then
    sig=INT; [ "$want" = terminate ] && sig=TERM; [ "$want" = kill ] && sig=KILL
    TMPDIR="$T/tmp" "$MB" run -q --timeout 600 --adapters "$H/../data/adapters" -o "$T/r" \
        "$T/c.case" &
    pid=$!
    # until the adapter has started its daemon (or the run has ended without it)
    while [ -z "$(pgrep -f "sleep $MB_TEST_DAEMON_SLEEP")" ] && kill -0 $pid 2>/dev/null; do
        sleep 0.25
    done
    kill -$sig $pid
    wait $pid
    st=$?
    cmp -s "$T/before" "$T/r/metrics.csv" || { echo "adapter.sh: the previous report changed"; exit 3; }
    if [ "$want" = kill ]; then    # the keeper's grace (2 s), then its sweep
        for i in $(seq 240); do
            [ -z "$(pgrep -f "sleep $MB_TEST_DAEMON_SLEEP")" ] && break
            sleep 0.5
        done
        rm -rf "$T/tmp"/motionbench-run-*
    fi
else
    TMPDIR="$T/tmp" "$MB" run -q --timeout 600 --adapters "$H/../data/adapters" -o "$T/r" \
        "$T/c.case"
    st=$?
    tr -d '\r' < "$T/r/runs.csv" | tail -n +2
    n=$(tr -d '\r' < "$T/r/runs.csv" | grep -c "^hostile-adapter,external:broken-$mode,[^,]*,[^,]*,[^,]*,[^,]*,$want,")
    [ "$n" -eq 2 ] || { echo "adapter.sh: status is not $want in both runs"; exit 3; }
fi
left=$(pgrep -f "sleep $MB_TEST_DAEMON_SLEEP")
if [ -n "$left" ]; then
    kill $left
    echo "adapter.sh: a process of the adapter outlived the run"
    exit 4
fi
[ -z "$(ls "$T/tmp")" ] || { echo "adapter.sh: left in TMPDIR: $(ls "$T/tmp")"; exit 5; }
echo "adapter.sh: no process and no private directory left"
exit $st
