#!/bin/sh
# run.sh -- check every entry of tests/hostile/catalogue: exit status, message, time.
# Usage: tests/hostile/run.sh [NAME...]   (MB_BUILDDIR, MB_SRCDIR as for the other tests)
set -u
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
MB=${MB_BUILDDIR:-.}/src/motionbench
case $MB in /*) ;; *) MB=$(pwd)/$MB ;; esac
H=$src/tests/hostile
C=$src/cases
export MB H C
fail=0 count=0
while IFS='|' read -r name code msg cmd; do
    case $name in '#'*|'') continue ;; esac
    name=$(echo "$name" | tr -d ' ') code=$(echo "$code" | tr -d ' ')
    msg=$(echo "$msg" | sed 's/^ *//; s/ *$//')
    limit=${name#*@} name=${name%@*}
    if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then continue; fi
    count=$((count + 1))
    T=$(mktemp -d /tmp/mb-hostile-XXXXXX)
    export T
    start=$(date +%s.%N)
    timeout 60 sh -c "$cmd" > "$T/.out" 2>&1 < /dev/null
    got=$?
    took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    ok=1
    [ "$got" = "$code" ] || ok=0
    if [ "$msg" != "-" ] && ! grep -qF -- "$msg" "$T/.out"; then ok=0; fi
    [ "$(awk -v t="$took" -v l="$limit" 'BEGIN { print (t < l) }')" = 1 ] || ok=0
    if [ $ok = 1 ]; then
        echo "ok   $name (exit $got, ${took}s)"
    else
        echo "FAIL $name: exit $got (want $code), ${took}s (limit ${limit}s), want text: $msg"
        sed 's/^/     | /' "$T/.out" | head -5
        fail=1
    fi
    rm -rf "$T"
done < "$H/catalogue"
echo "hostile catalogue: $count entries"
[ $count -gt 0 ] || fail=1
exit $fail
