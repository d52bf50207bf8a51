#!/bin/sh
# test_run_flat.sh -- run.txt, the flat form of the run description (doc/external.md,
# section 3a), against run.json.  An adapter that keeps both files and declines
# (tests/data/adapters/flat-dump.adapter) runs on problems that cover every kind of value:
# central force, springs to anchors and between nodes, dashpots, gravity, drag, contacts
# with a plane, torques and rotation, fixed nodes (null mass), blocked degrees of freedom,
# an opaque model, a granular gas on the neighbour list and a deforming cell.  For each run:
#   - tests/flat_vs_json.py parses both files independently (Python's json module, the
#     flat grammar's line rules) and requires every value of run.json in run.txt, exactly,
#     and nothing else;
#   - the C reader of examples/run_txt prints values that must equal run.json's;
#   - the same twelve runs as one batch (protocol 2, tests/data/adapters/flat-dump-batch.adapter):
#     runs.txt against runs.json, and each run of runs.txt against its single run's run.txt.
# Negative controls: a changed last digit, a dropped line, an extra line, two swapped
# array elements and a changed string in run.txt each make flat_vs_json.py fail, and a
# changed time step, id or run count in runs.txt.
# Skipped (77) without python3.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
CC=${CC:-cc}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
mkdir "$out/dump" "$out/cases"

# problem and [problem] lines; each case declines at once, so t_end is short
while read -r problem sets; do
    {
        printf '[case]\nname = flat-%s\nproblem = %s\nt_end = 0.1\nreference = none\n' \
            "$problem" "$problem"
        printf '[problem]\n'
        for s in $sets; do echo "$s" | sed 's/=/ = /'; done
        printf '[run]\nintegrators = external:flat-dump\ndt = 0.05\n'
    } >"$out/cases/$problem.case"
    MB_FLAT_DUMP="$out/dump" $MB run -q --adapters "$SRC/tests/data/adapters" \
        -o "$out/report-$problem" "$out/cases/$problem.case" 2>"$out/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $problem: motionbench run exited $rc"; cat "$out/err"; fail=1
    fi
done <<'EOF'
kepler eccentricity=0.6
harmonic k=2.385
damped
spring-chain
projectile
axial-torque-top
sphere-wall
pendulum-link
box-on-plane
free-rigid-body
granular-gas spheres=20 friction=0.4
affine-flow t_switch=0.25
EOF

runs=$(ls "$out/dump" | wc -l)
if [ "$runs" -ne 12 ]; then
    echo "FAIL: $runs run descriptions kept, 12 expected"; fail=1
fi
for d in "$out"/dump/*; do
    if python3 "$SRC/tests/flat_vs_json.py" "$d/run.json" "$d/run.txt" >"$out/diff"; then
        echo "ok: $(sed -n 's/^case //p' "$d/run.txt"): run.txt carries run.json's" \
            "$(grep -vc '^#' "$d/run.txt") lines of values"
    else
        echo "FAIL: $d: run.txt and run.json differ"; cat "$out/diff"; fail=1
    fi
done

# a batch (protocol 2): the ten cases in one invocation, one runs.json and runs.txt
mkdir "$out/batch" "$out/batch-cases"
for c in "$out"/cases/*.case; do
    sed 's/^integrators = external:flat-dump$/integrators = external:flat-dump-batch/' "$c" \
        >"$out/batch-cases/$(basename "$c")"
done
MB_FLAT_DUMP="$out/batch" $MB run -q --adapters "$SRC/tests/data/adapters" \
    -o "$out/report-batch" "$out"/batch-cases/*.case 2>"$out/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the batch: motionbench run exited $rc"; cat "$out/err"; fail=1; }
batch=$(ls -d "$out"/batch/batch-* 2>/dev/null)
if [ "$(echo "$batch" | grep -c .)" -ne 1 ]; then
    echo "FAIL: one batch expected, kept: '$batch'"; fail=1
elif python3 "$SRC/tests/flat_vs_json.py" "$batch/runs.json" "$batch/runs.txt" >"$out/diff"; then
    echo "ok: runs.txt carries runs.json's $(grep -vc '^#' "$batch/runs.txt") lines of values"
else
    echo "FAIL: runs.txt and runs.json differ"; cat "$out/diff"; fail=1
fi
# run K of runs.txt, its prefix runs.K. taken off, is the single run's run.txt: the same
# lines but the batch's own three (id, trajectory, protocol) and the adapter's name
n=$(sed -n 's/^runs\.count //p' "$batch/runs.txt" 2>/dev/null)
[ "${n:-0}" -eq 12 ] || { echo "FAIL: runs.count '${n:-}', 12 expected"; fail=1; }
k=0
while [ "$k" -lt "${n:-0}" ]; do
    grep "^runs\.$k\." "$batch/runs.txt" | sed "s/^runs\.$k\.//" \
        | grep -v '^id \|^trajectory \|^protocol ' | sed 's/flat-dump-batch/flat-dump/' \
        >"$out/batch-run.txt"
    name=$(sed -n 's/^case //p' "$out/batch-run.txt")
    single=$(grep -l "^case $name\$" "$out"/dump/*/run.txt)
    if grep -v '^#\|^protocol ' "$single" | cmp -s - "$out/batch-run.txt"; then
        echo "ok: run $k of runs.txt ($name) is its single run's run.txt"
    else
        echo "FAIL: run $k of runs.txt ($name) differs from $single:"
        grep -v '^#\|^protocol ' "$single" | diff - "$out/batch-run.txt" | head -5; fail=1
    fi
    k=$((k + 1))
done

# the C reader: every listed key as run.json has it (17 significant digits)
if $CC -o "$out/run_txt_get" "$SRC/examples/run_txt/run_txt.c" \
       "$SRC/examples/run_txt/run_txt_get.c" 2>"$out/err"; then
    for d in "$out"/dump/*; do
        keys="case time.dt time.steps nodes.count nodes.0.mass nodes.0.position nodes.0.inertia
              forces.count columns rotation"
        grep -q '^forces\.0\.model ' "$d/run.txt" && keys="$keys forces.0.model"
        # shellcheck disable=SC2086
        "$out/run_txt_get" "$d/run.txt" $keys >"$out/got" 2>&1
        python3 - "$d/run.json" $keys >"$out/want" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
def at(v, key):
    for part in key.split("."):
        if part == "count":
            return len(v)
        v = v[int(part)] if isinstance(v, list) else v[part]
    return v
def text(v):
    if isinstance(v, list):
        return " ".join(text(e) for e in v)
    if isinstance(v, bool):
        return "1" if v else "0"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return "%.17g" % v
    return v
for key in sys.argv[2:]:
    print(text(at(run, key)))
EOF
        if cmp -s "$out/got" "$out/want"; then
            echo "ok: the C reader reads $(sed -n 1p "$out/want") as run.json has it"
        else
            echo "FAIL: the C reader on $d:"; diff "$out/want" "$out/got"; fail=1
        fi
    done
else
    echo "FAIL: the C reader does not compile"; cat "$out/err"; fail=1
fi

# negative controls: each fault of run.txt is found
d=$(dirname "$(grep -l '^case flat-kepler$' "$out"/dump/*/run.txt)")
control() {   # NAME SED-SCRIPT
    sed "$2" "$d/run.txt" >"$out/bad.txt"
    if cmp -s "$out/bad.txt" "$d/run.txt"; then
        echo "FAIL: negative control '$1' changed nothing"; fail=1
    elif python3 "$SRC/tests/flat_vs_json.py" "$d/run.json" "$out/bad.txt" >/dev/null; then
        echo "FAIL: negative control '$1' passes"; fail=1
    else
        echo "ok: negative control '$1' fails"
    fi
}
control "time.dt changed" '/^time\.dt /s/0\.05/0.06/'
control "line dropped" '/^time\.steps /d'
control "extra line" '$a\
time.extra 1'
control "array elements swapped" '/^nodes\.0\.velocity /s/ \([^ ]*\) \([^ ]*\) / \2 \1 /'
control "string changed" '/^problem\.name /s/$/x/'
d=$batch
control() {   # NAME SED-SCRIPT: the same faults in runs.txt
    sed "$2" "$d/runs.txt" >"$out/bad.txt"
    if cmp -s "$out/bad.txt" "$d/runs.txt"; then
        echo "FAIL: negative control '$1' changed nothing"; fail=1
    elif python3 "$SRC/tests/flat_vs_json.py" "$d/runs.json" "$out/bad.txt" >/dev/null; then
        echo "FAIL: negative control '$1' passes"; fail=1
    else
        echo "ok: negative control '$1' fails"
    fi
}
control "runs.3.time.dt changed" '/^runs\.3\.time\.dt /s/0\.05/0.06/'
control "runs.5.id changed" '/^runs\.5\.id /s/5$/6/'
control "runs.count changed" '/^runs\.count /s/12/11/'
exit $fail
