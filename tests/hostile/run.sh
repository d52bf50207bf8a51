#!/bin/sh
# run.sh -- check every entry of tests/hostile/catalogue: exit status, message, time.
# Usage: tests/hostile/run.sh [NAME...]   (MB_BUILDDIR, MB_SRCDIR as for the other tests;
# MB_PLUGINS=no skips the entries that load a test plug-in)
#
# An entry's limit ("@" suffix) bounds the processor time (user + system) of the
# processes it ran and waited for -- motionbench, its workers, adapters, plug-in children
# -- which measures the work done, whatever else loads the machine; a hang, which does no
# work, is caught by the wall-clock guard instead: every command runs under
# `timeout $guard`, which no entry reaches unless it hangs (an idle machine runs the
# slowest in 3 s; one loaded forty-fold, in 30 s).  An entry whose point is that
# something ends promptly (a signal, a time limit) gives the hang it guards against a
# duration beyond the guard, so that not ending promptly fails it by the guard.
set -u
guard=300
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
MB_BUILDDIR=$(cd "${MB_BUILDDIR:-.}" && pwd)
MB=${MB_PROGRAM:-$MB_BUILDDIR/src/motionbench}
H=$src/tests/hostile
C=$src/cases
export MB MB_BUILDDIR H C
fail=0 count=0 skipped=0
base=$(mktemp -d /tmp/mb-hostile-XXXXXX) || exit 99
trap 'rm -rf "$base"' EXIT
# The bookkeeping of an entry starts few processes, and forks no subshell: shell builtins,
# and functions that set a variable rather than print, so that the catalogue's time is its
# entries' own.  trim NAME: the variable NAME without its leading and trailing blanks.
trim() {
    eval "v=\$$1"
    v=${v#"${v%%[! ]*}"}
    eval "$1=\${v%\"\${v##*[! ]}\"}"
}
# r = the digits of $1 without leading zeros (so that $((...)) does not read them as octal).
nozeros() {
    r=$1
    while :; do case $r in 0?*) r=${r#0} ;; *) break ;; esac; done
}
# r = the seconds of a field of `times` (0m1.230000s, or 0m1.230s in bash) in
# milliseconds, the digits beyond the third of the fraction dropped.
millis() {
    mm=${1%%m*} ss=${1#*m}
    ss=${ss%s} ff=${ss#*.}000
    nozeros "${ff%"${ff#???}"}"
    r=$(( (60 * mm + ${ss%.*}) * 1000 + r ))
}
# ms = the children's processor milliseconds, user + system, in the file of a `times`
# (its second line).
children_ms() {
    { read -r _; read -r cu cs; } < "$1"
    millis "$cu"; ms=$r
    millis "$cs"; ms=$((ms + r))
}
# r = centiseconds since boot from /proc/uptime's first field (12345.67).
centis() {
    nozeros "${1#*.}"
    r=$(( ${1%.*} * 100 + r ))
}
# d = $1 thousandths (hundredths when $2 is 100) as a decimal number.
decimal() {
    if [ "$2" = 100 ]; then d=$(($1 % 100 + 100)); d=$(($1 / 100)).${d#1}
    else d=$(($1 % 1000 + 1000)); d=$(($1 / 1000)).${d#1}; fi
}
# The scratch directories, made and removed fifty at a time (two processes, not two an
# entry): first_scratch N makes those of entries N .. N+49 and removes those before N.
first_scratch() {
    rm -rf "$base/s"
    mkdir "$base/s" || exit 99
    (cd "$base/s" && mkdir $(seq "$1" $(($1 + 49)))) || exit 99
}
# The previous report most entries start from (a run of bom.case), made once and copied
# into an entry's scratch directory by `cp -a "$BOM" "$T/r"`.
BOM=$base/bom
"$MB" run -q -o "$BOM" "$H/bom.case" || { echo "FAIL: the run of bom.case for \$BOM"; exit 1; }
export BOM
while IFS='|' read -r name code msg cmd; do
    case $name in '#'*|'') continue ;; esac
    trim name; trim code; trim msg
    limit=${name#*@} name=${name%@*}
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    # an entry that loads a test plug-in, in a build without shared libraries, which
    # builds none (MB_PLUGINS=no, tests/plugins/local.mk): skipped, and said
    case ${MB_PLUGINS:-yes}:$cmd in
    no:*tests/plugins/*) echo "skip $name (no plug-ins: built without shared libraries)"
                         skipped=$((skipped + 1)); continue ;;
    esac
    count=$((count + 1))
    [ $((count % 50)) != 1 ] || first_scratch $count
    T=$base/s/$count
    export T
    read -r up0 _ < /proc/uptime
    times > "$base/cpu0"
    timeout $guard sh -c "$cmd" > "$T/.out" 2>&1 < /dev/null
    got=$?
    times > "$base/cpu1"
    read -r up1 _ < /proc/uptime
    children_ms "$base/cpu0"; ms0=$ms
    children_ms "$base/cpu1"; ms=$((ms - ms0))
    decimal $ms 1000; cpu=$d
    under=0; [ $ms -lt $((limit * 1000)) ] && under=1
    centis "$up0"; c0=$r
    centis "$up1"; decimal $((r - c0)) 100; took=$d
    ok=1
    [ "$got" = "$code" ] || ok=0
    if [ "$msg" != "-" ] && ! grep -qF -- "$msg" "$T/.out"; then ok=0; fi
    [ "$under" = 1 ] || ok=0
    if [ $ok = 1 ]; then
        echo "ok   $name (exit $got, ${cpu}s processor time, ${took}s)"
    else
        echo "FAIL $name: exit $got (want $code), ${cpu}s processor time (limit ${limit}s), ${took}s, want text: $msg"
        [ "$got" != 124 ] || echo "     stopped by the wall-clock guard of $guard s: a hang"
        sed 's/^/     | /' "$T/.out" | head -5
        fail=1
    fi
done < "$H/catalogue"
echo "hostile catalogue: $count entries, $skipped skipped"
[ $count -gt 0 ] || fail=1
exit $fail
