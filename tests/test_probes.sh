#!/bin/sh
# test_probes.sh -- [run] probe: the state of every run at chosen step times, written to
# probes.csv without a reference (doc/cases.md).  tests/data/probes-free-fall.case probes
# free fall at t = 0, 0.25, 0.5, 1 with the leap-frog (exact: x0 + v0 t - g t^2/2,
# v0 - g t) and explicit Euler (z = the exact z + g t h/2, v exact), dt = 0.05 and 0.025:
# every row must hold its scheme's closed form at its step time to 1e-12 of the scale
# (round-off of at most 40 steps; a probe taken one step off moves z by ~ |v| h, 1e-2).
# The same probes come back from --jobs 2 and from two shards merged; a later report
# without probes in the same directory leaves no stale probe rows.
# Negative control: the closed form of the wrong scheme (leap-frog rows against explicit
# Euler's, and back) must fail the comparison.  Skipped (77) without python3.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
case_file="$SRC/tests/data/probes-free-fall.case"
$MB run -q --jobs 1 -o "$out/r" "$case_file" || { echo "FAIL: run exited $?"; exit 1; }

closed_forms() {   # PROBES.CSV SWAP: 0 each scheme against its own form, 1 against the other's
    python3 - "$1" "$2" <<'PY'
import csv, sys
g, z0, vx0, vz0 = 9.81, 10.3, 0.83, 2.385
rows = list(csv.DictReader(open(sys.argv[1])))
swap, bad = sys.argv[2] == "1", 0
for r in rows:
    t, h = float(r["t"]), float(r["dt"])
    euler = (r["integrator"] == "explicit-euler") != swap
    z = z0 + vz0 * t - g * t * t / 2 + (g * t * h / 2 if euler else 0.0)
    want = {"x": vx0 * t, "y": 0.0, "z": z, "vx": vx0, "vy": 0.0, "vz": vz0 - g * t,
            "qw": 1.0, "qx": 0.0, "qy": 0.0, "qz": 0.0, "wx": 0.0, "wy": 0.0, "wz": 0.0}
    for k, v in want.items():
        if abs(float(r[k]) - v) > 1e-12 * 20:       # 1e-12 of the scale z0 + |vz0| ~ 20
            bad += 1
            if not swap:
                print("row", r["integrator"], r["dt"], r["t"], k, r[k], "closed form", v)
print(len(rows), bad)
PY
}
set -- $(closed_forms "$out/r/probes.csv" 0 | tail -n 1)
if [ "$1" -eq 16 ] && [ "$2" -eq 0 ]; then
    echo "ok: 16 probes (2 schemes x 2 dt x 4 times) hold their closed forms"
else
    echo "FAIL: $1 probes, $2 values off their closed forms"
    closed_forms "$out/r/probes.csv" 0; fail=1
fi
set -- $(closed_forms "$out/r/probes.csv" 1 | tail -n 1)
if [ "$2" -gt 0 ]; then
    echo "ok: negative control: against the other scheme's closed form $2 values are off"
else
    echo "FAIL: negative control: the other scheme's closed form passes"; fail=1
fi

$MB run -q --jobs 2 -o "$out/j2" "$case_file"
$MB run -q --shard 1/2 -o "$out/s1" "$case_file" && $MB run -q --shard 2/2 -o "$out/s2" "$case_file" \
    && $MB merge -o "$out/m" "$out/s1" "$out/s2" >/dev/null 2>&1
for d in j2 m; do
    if cmp -s "$out/r/probes.csv" "$out/$d/probes.csv"; then
        echo "ok: probes.csv identical from $d"
    else
        echo "FAIL: probes.csv differs from $d"; fail=1
    fi
done
# a report without probes written over one with probes leaves no stale rows
$MB run -q -o "$out/r" "$SRC/tests/data/mass-two-spheres.case"
if [ "$(wc -l <"$out/r/probes.csv")" -eq 1 ]; then
    echo "ok: a report without probes replaces the earlier probes.csv by its header"
else
    echo "FAIL: stale probes.csv rows after a report without probes"; fail=1
fi
exit $fail
