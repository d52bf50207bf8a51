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
# The bookkeeping of an entry starts few processes (shell builtins where they serve), so
# that the catalogue's time is its entries' own.  A text without its leading and trailing
# blanks:
trim() {
    v=${1#"${1%%[! ]*}"}
    printf '%s' "${v%"${v##*[! ]}"}"
}
# From two outputs of `times` (their second lines: the user and system time of the children
# waited for so far, as 0m1.230000s 0m0.040000s) and the seconds since boot at the start
# and the end: the processor seconds between them (cpu), whether they are below the limit
# (under) and the wall-clock seconds (took), as shell assignments.
measure='
    function seconds(f,  p) { split(f, p, "m"); sub("s", "", p[2]); return 60 * p[1] + p[2] }
    NR == 2 { a = seconds($1) + seconds($2) }
    NR == 4 { t = seconds($1) + seconds($2) - a
              printf "cpu=%.3f under=%d took=%.2f\n", t, t < limit, up1 - up0 }'
while IFS='|' read -r name code msg cmd; do
    case $name in '#'*|'') continue ;; esac
    name=$(trim "$name") code=$(trim "$code") msg=$(trim "$msg")
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
    T=$base/$count
    mkdir "$T" || exit 99
    export T
    read -r up0 _ < /proc/uptime
    times > "$T/.cpu0"
    timeout $guard sh -c "$cmd" > "$T/.out" 2>&1 < /dev/null
    got=$?
    times > "$T/.cpu1"
    read -r up1 _ < /proc/uptime
    cpu=unknown under=0 took=unknown        # unless measure says otherwise: a failure
    eval "$(awk -v limit="$limit" -v up0="$up0" -v up1="$up1" "$measure" "$T/.cpu0" "$T/.cpu1")"
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
    rm -rf "$T"
done < "$H/catalogue"
echo "hostile catalogue: $count entries, $skipped skipped"
[ $count -gt 0 ] || fail=1
exit $fail
