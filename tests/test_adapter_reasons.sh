#!/bin/sh
# test_adapter_reasons.sh -- the shipped adapters explain their failures (doc/external.md,
# section 2; doc/peers.md): an exception without a message, a package program that dies
# without an error message (a silent MPI abort), a package program killed by a signal.
# The package is replaced by a stand-in program first on PATH, so LAMMPS need not be
# installed: the adapter's reason is what is checked, through `motionbench run`.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
check() {   # what, condition (0 = true)
    if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi
}

# 1. mbadapter.guard: an exception with an empty message is named by its type and place
cat > "$out/raise.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import mbadapter as mb

def main(argv):
    raise KeyError()

mb.guard(main, "test adapter")
PY
python3 "$out/raise.py" "$SRC/adapters" 2> "$out/err"; rc=$?
last=$(tail -n 1 "$out/err")
check "guard: exit status 1 (got $rc)" $([ $rc -eq 1 ]; echo $?)
check "guard: last line names type, place and the missing message ($last)" \
    $([ "$last" = "test adapter: KeyError raised at raise.py:6 in main: (the exception has no message)" ]; echo $?)
check "guard: the traceback is kept above it" $(grep -q '^Traceback' "$out/err"; echo $?)
# negative control: Python's own last line is the bare type name
python3 -c 'raise KeyError()' 2> "$out/err0"
check "control: Python alone ends with the bare type name" \
    $([ "$(tail -n 1 "$out/err0")" = "KeyError" ]; echo $?)

# 2. LAMMPS adapter: lmp exits 1 without a word (an MPI abort before LAMMPS reports)
mkdir "$out/bin"
printf '#!/bin/sh\nexit 1\n' > "$out/bin/lmp"
printf '#!/bin/sh\nkill -9 $$\n' > "$out/bin/lmp-killed"
printf '#!/bin/sh\necho "LAMMPS (29 Sep 2021)" > lammps.log\necho "ERROR: Illegal pair_style command (src/pair.cpp:42)" >> lammps.log\necho "Last command: pair_style" >> lammps.log\nexit 1\n' > "$out/bin/lmp-error"
chmod +x "$out/bin/"*
cat > "$out/c.case" <<'CASE'
[case]
name = abort
problem = free-fall
t_end = 0.1
[run]
integrators = external:lammps
dt = 0.05
CASE
run_with() {   # stand-in for lmp; prints the reason of the run
    cp "$out/bin/$1" "$out/bin/use/lmp" 2>/dev/null || { mkdir -p "$out/bin/use"; cp "$out/bin/$1" "$out/bin/use/lmp"; }
    PATH="$out/bin/use:$PATH" $MB run -q -o "$out/r" "$out/c.case" >/dev/null 2>&1
    tr -d '\r' < "$out/r/runs.csv" | tail -n 1
}
# the LAMMPS adapter answers batches (protocol 2): a run stopped by lmp fails alone, with the
# status run_planned saw and the adapter's explanation of the log
row=$(run_with lmp)
check "silent lmp: failed, reason says no ERROR message was printed ($row)" \
    $(echo "$row" | grep -q 'failed,.*lmp stopped in this run (status 1): lmp failed without an ERROR message (a silent MPI abort or a crash before the package reported)'; echo $?)
row=$(run_with lmp-killed)
check "lmp killed: the signal's status is named ($row)" \
    $(echo "$row" | grep -q 'failed,.*lmp stopped in this run (status -9): lmp failed without an ERROR message'; echo $?)
row=$(run_with lmp-error)
check "lmp with an ERROR line: that line is the reason ($row)" \
    $(echo "$row" | grep -q 'failed,.*lmp failed: ERROR: Illegal pair_style command'; echo $?)
# a single run (protocol 1: run.json) explains the exit status itself
mkdir -p "$out/single"
printf '{"protocol": "motionbench-run/1", "case": "c", "integrator": "external:lammps", "adapter": "lammps", "options": {}, "time": {"t0": 0, "dt": 0.05, "steps": 2, "t_end": 0.1, "sample_every": 1}, "rotation": false, "columns": ["t", "n0_x", "n0_y", "n0_z", "n0_vx", "n0_vy", "n0_vz"], "nodes": [{"mass": 1.0, "inertia": [0, 0, 0], "radius": null, "position": [0, 0, 1], "velocity": [0, 0, 0], "orientation": [1, 0, 0, 0], "angular_velocity": [0, 0, 0], "angular_momentum": [0, 0, 0], "blocked": ""}], "forces": [{"model": "gravity", "g": [0, 0, -9.81]}]}\n' > "$out/single/run.json"
for stand in lmp lmp-killed; do
    cp "$out/bin/$stand" "$out/bin/use/lmp"
    (cd "$out/single" && PATH="$out/bin/use:$PATH" python3 "$SRC/adapters/lammps_adapter.py" run.json t.csv > log 2>&1)
    echo "$stand: $(tail -n 1 "$out/single/log")"
done > "$out/single.txt"
check "single run, silent lmp: $(sed -n 1p "$out/single.txt")" \
    $(sed -n 1p "$out/single.txt" | grep -q 'lmp: lmp exited with status 1 without an ERROR message (a silent MPI abort'; echo $?)
check "single run, lmp killed: $(sed -n 2p "$out/single.txt")" \
    $(sed -n 2p "$out/single.txt" | grep -q 'lmp-killed: lmp was killed by signal 9 without an ERROR message'; echo $?)
exit $fail
