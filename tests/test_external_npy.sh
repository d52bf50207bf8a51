#!/bin/sh
# test_external_npy.sh -- trajectories returned as NumPy .npy arrays (doc/external.md,
# section 4b), end to end through the Python example (examples/python_adapter/verlet.py,
# whose .npy writer is written by hand from the format's definition):
#  - pyverlet-npy (trajectory = npy) on the Kepler case scores exactly as pyverlet (CSV):
#    both carry the same doubles (CSV with 17 significant digits reads back exactly), so
#    metrics.csv must be equal value for value;
#  - pyverlet-both (trajectory = csv, npy) is asked for .npy on an 80-node spring chain and
#    for CSV on a 16-node one (MB_NPY_MIN_NODES = 64), each scoring as pyverlet's CSV;
#  - protocol 2: a batch of the Kepler case's four runs answered as trajectories/K.npy
#    (tests/data/adapters/batch-npy.adapter) scores as the CSV runs; run 0 answered as 0.csv
#    when 0.npy was asked fails the whole batch with the reason;
#  - negative control of the comparison: the same chain at another step size must differ
#    (the reader's own defects and their controls: tests/test_trajectory_npy.c, the hostile
#    catalogue's adapter-npy-* entries and tests/mutants/catalogue).
# Skipped (77) without python3.
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not on PATH"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp

# metrics.csv without the case and integrator columns
values() { tail -n +2 "$1" | cut -d, -f3-; }

sed 's/external:pyverlet\b/external:pyverlet-npy/g; s/^name *= *pyverlet-kepler/name = npy-kepler/' \
    "$SRC/examples/python_adapter/pyverlet-kepler.case" > "$out/npy-kepler.case"
$MB run -q -o "$out/csv" "$SRC/examples/python_adapter/pyverlet-kepler.case" || fail=1
$MB run -q --adapters "$SRC/examples/python_adapter/adapters" -o "$out/npy" "$out/npy-kepler.case" \
    || fail=1
grep -q 'external:pyverlet-npy' "$out/npy/metrics.csv" || { echo "FAIL: no pyverlet-npy runs"; fail=1; }
if [ "$(values "$out/csv/metrics.csv" | grep -v '^double,[^,]*,\(timing\|wall\)')" = \
     "$(values "$out/npy/metrics.csv" | grep -v '^double,[^,]*,\(timing\|wall\)')" ]; then
    echo "ok: Kepler through .npy scores exactly as through CSV"
else
    echo "FAIL: Kepler through .npy differs from CSV"
    diff "$out/csv/metrics.csv" "$out/npy/metrics.csv" | head; fail=1
fi

# the many-body choice: .npy at 80 nodes, CSV at 16
chain() {   # name n integrator
    printf '[case]\nname = %s\nproblem = spring-chain\nt_end = 0.2\nreference = none\n[problem]\nn = %s\nanchors = none\nc = 0\n[run]\nintegrators = external:%s\ndt = 0.002\n' \
        "$1" "$2" "$3" > "$out/$1.case"
}
for n in 80 16; do
    chain both$n $n pyverlet-both
    chain csv$n $n pyverlet-strided
    MB_KEEP_ADAPTER_DIR=1 TMPDIR=$out $MB run -q --adapters "$SRC/tests/data/adapters" \
        -o "$out/r-both$n" "$out/both$n.case" 2> "$out/both$n.err" || fail=1
    $MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/r-csv$n" "$out/csv$n.case" || fail=1
    kept=$(sed -n 's/.*adapter directory kept: //p' "$out/both$n.err")
    want=npy; [ $n -lt 64 ] && want=csv
    if [ -n "$kept" ] && [ -f "$kept/trajectory.$want" ] && grep -q "\"trajectory_format\": \"$want\"" "$kept/run.json"; then
        echo "ok: $n nodes: trajectory.$want asked and returned"
    else
        echo "FAIL: $n nodes: trajectory.$want not asked or not returned ($kept)"; ls "$kept"; fail=1
    fi
    rm -rf "$kept"
    if [ "$(values "$out/r-both$n/metrics.csv" | grep -v ',\(timing\|wall\)')" = \
         "$(values "$out/r-csv$n/metrics.csv" | grep -v ',\(timing\|wall\)')" ] \
       && [ "$(tail -n +2 "$out/r-both$n/metrics.csv" | wc -l)" -gt 3 ]; then
        echo "ok: $n nodes: the same metrics as through CSV"
    else
        echo "FAIL: $n nodes: metrics differ from CSV"; fail=1
    fi
done
# protocol 2: the batch answers K.npy; the wrong form is refused
sed 's/external:pyverlet\b/external:batch-npy/g; s/^name *= *pyverlet-kepler/name = batch-kepler/' \
    "$SRC/examples/python_adapter/pyverlet-kepler.case" > "$out/batch-kepler.case"
$MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/batch" "$out/batch-kepler.case" || fail=1
if [ "$(values "$out/csv/metrics.csv" | grep -v '^double,[^,]*,\(timing\|wall\)')" = \
     "$(values "$out/batch/metrics.csv" | grep -v '^double,[^,]*,\(timing\|wall\)')" ]; then
    echo "ok: a protocol-2 batch through .npy scores exactly as through CSV"
else
    echo "FAIL: the .npy batch differs from CSV"; fail=1
fi
sed 's/external:batch-npy/external:batch-npy-csv/g' "$out/batch-kepler.case" > "$out/batch-csv.case"
$MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/batch-csv" "$out/batch-csv.case" >/dev/null 2>&1
want='trajectories/0.csv: the run asked for a .npy trajectory (trajectory_format) ([0-9]* runs were asked: 0.npy to [0-9]*.npy, '
if [ "$(grep -c "external:batch-npy-csv.*failed.*$want" "$out/batch-csv/runs.csv")" -ge 4 ]; then
    echo "ok: a .csv answer to a run asked for .npy fails the batch"
else
    echo "FAIL: the wrong form was not refused"; cat "$out/batch-csv/runs.csv"; fail=1
fi

# negative control of the comparison: another step size must differ
sed "s/dt = 0.002/dt = 0.001/" "$out/csv80.case" > "$out/csv80b.case"
$MB run -q --adapters "$SRC/tests/data/adapters" -o "$out/r-csv80b" "$out/csv80b.case"
if [ "$(values "$out/r-both80/metrics.csv" | cut -d, -f3- | grep -v ',\(timing\|wall\)')" = \
     "$(values "$out/r-csv80b/metrics.csv" | cut -d, -f3- | grep -v ',\(timing\|wall\)')" ]; then
    echo "FAIL: the comparison cannot tell two step sizes apart"; fail=1
else
    echo "ok: the comparison tells two step sizes apart (negative control)"
fi
exit $fail
