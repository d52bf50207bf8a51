#!/bin/sh
# test_scene_bad_input.sh -- every malformed scene of the catalogue tests/data/bad/scene-*.case
# through the command line: exit status 2, the exact file:line message of its .expected file
# on stderr, and the report directory left as it was (a previous report is not lost).
set -u
MB=${MB_PROGRAM:-$PWD/src/motionbench}
DATA=${srcdir:-.}/tests/data/bad
OUT=$(mktemp -d)
fail=0
count=0
echo "previous report" > "$OUT/metrics.csv"
cd "$DATA" || exit 1
for f in scene-*.case; do
    count=$((count + 1))
    "$MB" run "$f" -o "$OUT" -q >/dev/null 2>"$OUT/err"; rc=$?
    want="motionbench: $(cat "${f%.case}.expected")"
    if [ $rc -ne 2 ]; then
        echo "FAIL: $f: exit $rc"; fail=1
    elif [ "$(cat "$OUT/err")" != "$want" ]; then
        echo "FAIL: $f: stderr '$(cat "$OUT/err")', expected '$want'"; fail=1
    elif [ "$(cat "$OUT/metrics.csv")" != "previous report" ] || [ -e "$OUT/runs.csv" ]; then
        echo "FAIL: $f: the report directory was written"; fail=1
    else
        echo "ok: $f"
    fi
done
rm -rf "$OUT"
[ $count -ge 15 ] || { echo "FAIL: only $count malformed scenes"; fail=1; }
exit $fail
