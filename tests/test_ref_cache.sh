#!/bin/sh
# test_ref_cache.sh -- the reference cache (--ref-cache DIR, MOTIONBENCH_REF_CACHE;
# doc/cluster.md) on cases with ode references (a free body, a scene read from its case
# file) and an mpfr one (a scene):
#  - filling it and reading it back give reports byte-identical to a run without it;
#  - an entry is really used: an entry altered with a matching checksum changes the report
#    (so the byte-identical runs above did read the cache);
#  - a damaged entry (a byte changed, the checksum left) and a foreign one (another entry's
#    bytes under its name) are refused with a note on stderr, recomputed (the report as
#    without a cache) and replaced by a valid entry;
#  - two runs at once on one empty cache give the same reports and leave only valid entries
#    and no temporary file;
#  - the environment variable does what the option does; an unusable directory is exit 2.
set -u
MB=${MB_PROGRAM:-$(pwd)/src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
mkdir -p "$tmp/set"
for c in compare-free-body scene-body-force scene-heavy-top; do
    cp "$SRC/cases/$c.case" "$tmp/set/"
done
cd "$tmp" || exit 2
same() {   # same DIR: the report in DIR equals the run without a cache
    for f in runs.csv metrics.csv checks.csv; do cmp -s plain/$f "$1/$f" || return 1; done
}
$MB run -q -j 2 set -o plain >/dev/null 2>&1
$MB run -q -j 2 --ref-cache c set -o fill >/dev/null 2>fill.err
n=$(ls c/*.ref | wc -l)
check "filling: entries written ($n)" [ "$n" -ge 3 ]
check "filling: report byte-identical" same fill
check "filling: no note on stderr" [ ! -s fill.err ]
$MB run -q -j 2 --ref-cache c set -o hit >/dev/null 2>hit.err
check "cache hit: report byte-identical" same hit
check "cache hit: no note on stderr" [ ! -s hit.err ]
MOTIONBENCH_REF_CACHE=c $MB run -q -j 2 set -o env >/dev/null 2>env.err
check "MOTIONBENCH_REF_CACHE: report byte-identical, no note" sh -c 'cmp -s plain/runs.csv env/runs.csv && [ ! -s env.err ]'

# the entry of the free body's reference at t_end
e=$(grep -l '^problem free-rigid-body' c/*.ref | head -n 1)
cp "$e" entry.keep
reseal() {   # reseal FILE: a valid checksum for altered contents
    head -n -1 "$1" >body && { cat body; printf 'sha256 %s\n' "$(sha256sum <body | cut -c1-64)"; } >"$1"
}
# a valid but altered entry: the first position number of the state changed
sed -i 's/^state \([^ ]*\) /state 0x1.8p+0 /' "$e" && reseal "$e"
$MB run -q -j 2 --ref-cache c set -o altered >/dev/null 2>&1
check "an entry is used: a resealed altered entry changes runs.csv" \
    sh -c '! cmp -s plain/runs.csv altered/runs.csv'
cp entry.keep "$e"

# damaged: one byte of the state changed, the checksum left as it was
sed -i 's/^state \([^ ]*\) \([^ ]*\)p/state \1 \2q/' "$e"
$MB run -q -j 2 --ref-cache c set -o damaged >/dev/null 2>damaged.err
check "damaged entry: note on stderr" grep -q "reference cache: .*$(basename "$e"): damaged (its SHA-256 does not match); recomputed" damaged.err
check "damaged entry: report byte-identical" same damaged
check "damaged entry: replaced by the valid one" cmp -s "$e" entry.keep
# foreign: another entry's (valid) bytes under this name
other=$(grep -L '^problem free-rigid-body' c/*.ref | head -n 1)
cp "$other" "$e"
$MB run -q -j 2 --ref-cache c set -o foreign >/dev/null 2>foreign.err
check "foreign entry: note on stderr" grep -q "$(basename "$e"): foreign (made for another reference or build); recomputed" foreign.err
check "foreign entry: report byte-identical" same foreign
check "foreign entry: replaced by the valid one" cmp -s "$e" entry.keep
# truncated
head -c 200 entry.keep >"$e"
$MB run -q -j 2 --ref-cache c set -o truncated >/dev/null 2>truncated.err
check "truncated entry: refused and recomputed" sh -c 'grep -q "damaged" truncated.err && cmp -s "$0" entry.keep' "$e"
check "truncated entry: report byte-identical" same truncated

# two runs at once on one empty cache (and two shards on it, merged)
$MB run -q -j 1 --ref-cache cc set -o con1 >/dev/null 2>con1.err &
p1=$!
$MB run -q -j 1 --ref-cache cc set -o con2 >/dev/null 2>con2.err &
p2=$!
wait $p1; wait $p2
check "concurrent: both reports byte-identical" sh -c 'for d in con1 con2; do for f in runs.csv metrics.csv checks.csv; do cmp -s plain/$f $d/$f || exit 1; done; done'
check "concurrent: no temporary file left" [ -z "$(ls -A cc | grep -v '\.ref$')" ]
$MB run -q -j 2 --ref-cache cc set -o after >/dev/null 2>after.err
check "concurrent: every entry valid afterwards (no note)" [ ! -s after.err ]
$MB run -q --ref-cache cs --shard 1/2 set -o sh1 >/dev/null 2>&1 &
p1=$!
$MB run -q --ref-cache cs --shard 2/2 set -o sh2 >/dev/null 2>&1 &
p2=$!
wait $p1; wait $p2
$MB merge -q sh1 sh2 -o merged >/dev/null 2>&1
check "two shards on one cache: merged report byte-identical" same merged

printf 'x' >notadir
$MB run -q --ref-cache notadir set -o bad >bad.out 2>&1
rc=$?
check "--ref-cache on a file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--ref-cache on a file: message" grep -q "reference cache notadir: not a directory" bad.out
exit $fail
