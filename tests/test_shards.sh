#!/bin/sh
# test_shards.sh -- run --shard K/N and merge (doc/cluster.md).
#  - for N = 1, 2, 3, 5 the shards of a case set (orders over dt lists, an MPFR twin case,
#    an outside program through a python adapter, a case whose expectations fail) merge into
#    runs.csv, metrics.csv and checks.csv byte-identical to one run of the set, with the same
#    exit status, and timing.csv keeps a row of every unit;
#  - with --series the merged series/ equals the single run's;
#  - every shard's units together are the case set once (shard.txt lists);
#  - merge refuses, with exit 2, naming the shard and writing nothing: a missing shard (its
#    units and shard number listed), a shard given twice, a shard of another build, of other
#    case contents, of other options, of another partition, a damaged units.txt, a case file
#    changed since, a directory that is not a shard;
#  - run --plan N partitions without running; bad --shard values are refused.
# Negative controls: tests/mutants/catalogue (shard-*, merge-*).
set -u
MB=${MB_PROGRAM:-$(pwd)/src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 (the adapter of the external case) is missing"; exit 77; }

# the case set: copies, so that the refusal tests may alter them
mkdir -p "$tmp/set/adapters"
for c in cases/harmonic-orders.case cases/compare-twin53.case cases/kepler-e06.case \
         tests/data/external-midstep.case tests/data/injected-faults.case; do
    cp "$SRC/$c" "$tmp/set/"
done
cp "$SRC"/tests/data/adapters/leapfrog-mid*.adapter "$SRC"/tests/data/adapters/leapfrog_mid.py \
   "$tmp/set/adapters/"
cd "$tmp" || exit 2
$MB run -q -j 2 set -o full >full.out 2>&1
full_rc=$?
check "the single run ends with exit 1 (injected-faults fails by design; got $full_rc)" \
    [ "$full_rc" -eq 1 ]
units=$(($(wc -l <full/runs.csv) - 1))

# merged = single, byte for byte
for n in 1 2 3 5; do
    ok=1
    k=1
    while [ $k -le $n ]; do
        $MB run -q -j 1 --shard $k/$n set -o n$n/s$k >n$n.s$k.out 2>&1 || ok=0
        k=$((k + 1))
    done
    check "N=$n: every shard exits 0" [ $ok -eq 1 ]
    listed=$(cat n$n/s*/shard.txt | grep -c '^unit	')
    distinct=$(cat n$n/s*/shard.txt | grep '^unit	' | sort -u | wc -l)
    check "N=$n: the shards list $units units, each once (got $listed, $distinct distinct)" \
        [ "$listed" -eq "$units" ] && [ "$distinct" -eq "$units" ]
    $MB merge -q n$n/s* -o n$n/m >n$n.merge.out 2>&1
    rc=$?
    check "N=$n: merge exits as the single run ($rc, $full_rc)" [ "$rc" -eq "$full_rc" ]
    for f in runs.csv metrics.csv checks.csv; do
        check "N=$n: $f byte-identical" cmp -s full/$f n$n/m/$f
    done
    check "N=$n: timing.csv has every unit's row" \
        [ "$(($(wc -l <n$n/m/timing.csv) - 1))" -eq "$units" ]
    check "N=$n: timing.csv keeps the shards' rows" sh -c \
        "cat n$n/s*/timing.csv | grep -v '^case,' | sort >a; grep -v '^case,' n$n/m/timing.csv | sort >b; cmp -s a b"
done

# series
$MB run -q -j 2 --series set/harmonic-orders.case set/compare-twin53.case -o sfull >/dev/null 2>&1
$MB run -q --series --shard 1/2 set/harmonic-orders.case set/compare-twin53.case -o ss1 >/dev/null 2>&1
$MB run -q --series --shard 2/2 set/harmonic-orders.case set/compare-twin53.case -o ss2 >/dev/null 2>&1
$MB merge -q ss1 ss2 -o sm >/dev/null 2>&1
check "--series: merged series/ equal to the single run's" diff -r sfull/series sm/series
check "--series: series files are split between the shards" \
    [ "$(ls ss1/series | wc -l)" -gt 0 ] && [ "$(ls ss2/series | wc -l)" -gt 0 ]

# refusals: exit 2, the shard named, no report written (an existing one kept as it was)
mkdir -p out && echo keep >out/runs.csv
refused() {   # refused WHAT PATTERN SHARD...
    what=$1 pattern=$2; shift 2
    $MB merge -q "$@" -o out >ref.out 2>&1
    rc=$?
    check "$what: exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "$what: message names it ($pattern)" grep -q -- "$pattern" ref.out
    check "$what: nothing written" sh -c '[ "$(cat out/runs.csv)" = keep ] && [ "$(ls out)" = runs.csv ]'
}
refused "missing shard" "units missing: .*shard(s) 3 of 3" n3/s1 n3/s2
refused "shard given twice" "n3/s2: unit .* present twice: also in n3/s2" n3/s1 n3/s2 n3/s3 n3/s2
refused "shards of another partition" "n2/s1: shard 1/2 of another partition" n3/s1 n2/s1
cp -R n3/s3 other-build
sed 's/^build	.*/build	0.0.0+git.000000000000/' n3/s3/shard.txt >other-build/shard.txt
refused "shard of another build" "other-build: made by motionbench 0.0.0+git.000000000000" \
    other-build n3/s1 n3/s2
mkdir -p set2 && cp -R set/. set2/
sed 's/^k = 2.385/k = 2.386/' set/external-midstep.case >set2/external-midstep.case
$MB run -q --shard 2/3 set2 -o changed/s2 >/dev/null 2>&1
refused "shard of other case contents" "changed/s2: case 'external-midstep' (set2/external-midstep.case) has other contents" \
    n3/s1 changed/s2 n3/s3
$MB run -q --shard 2/3 --timeout 100 set -o opts/s2 >/dev/null 2>&1
refused "shard of other options" "opts/s2: run with other options than n3/s1: 'timeout 0x0p+0' there, 'timeout 0x1.9p+6' here" \
    n3/s1 opts/s2 n3/s3
cp -R n3/s1 damaged
sed '2s/	[0-9]	/	7	/' n3/s1/units.txt >damaged/units.txt
refused "damaged units.txt" "damaged: units.txt does not hash as shard.txt says" damaged n3/s2 n3/s3
refused "not a shard" "full: not a shard directory" full n3/s2
cp set/kepler-e06.case kepler.keep
echo "; edited" >>set/kepler-e06.case
refused "case file changed since the shards ran" "case file set/kepler-e06.case has changed since the shards ran" \
    n3/s1 n3/s2 n3/s3
cp kepler.keep set/kepler-e06.case

# --plan and bad --shard values
$MB run --plan 3 set >plan.out 2>plan.err
check "--plan 3: three shards whose units add up to $units" \
    [ "$(awk -F, 'NR > 1 { s += $2 } END { print s }' plan.out)" -eq "$units" ]
check "--plan: largest over mean printed" grep -q "largest shard's estimated cost over the mean: [0-9.]*$" plan.err
for bad in 0/3 4/3 3 1/0 -1/2 1/x 2/1; do
    $MB run --shard "$bad" set -o badshard >bad.out 2>&1
    rc=$?
    check "--shard $bad: exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "--shard $bad: message" grep -q "shard K of N" bad.out
done
check "bad --shard: nothing written" [ ! -e badshard ]
exit $fail
