#!/bin/sh
# run.sh -- fault injection: how many deliberate faults does the test suite catch?
#
# usage: tests/mutants/run.sh [--full] [--keep] [--rev REV] [ID...]
#
# For each fault of tests/mutants/catalogue (or only the IDs given) the script replaces
# one literal line of one source file by its faulty version in a scratch copy of the
# tree, rebuilds (the library, the program and the subset's test programs: the others
# load the faulty shared library), runs the fault's subset of `make check` (all of it,
# after rebuilding everything, with --full) and
# reports "caught" (a test failed) or "MISSED" (every test passed); the file is restored
# before the next fault.  A fault whose line is not found exactly once, or that does
# not compile, is reported as "stale" or "no-build" and counts as neither.  The scratch
# copy is a detached git worktree of HEAD (or of the commit REV given with --rev, to
# measure an older suite), or a plain copy of the source tree outside git; it is removed
# at the end unless --keep.
# Exit status: 0 when every valid fault was caught, 1 when one was missed, 2 on usage
# or set-up errors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
catalogue=$here/catalogue
full=0
keep=0
rev=HEAD
while [ $# -gt 0 ]; do
    case $1 in
    --full) full=1; shift ;;
    --keep) keep=1; shift ;;
    --rev) [ $# -ge 2 ] || { echo "run.sh: --rev needs a commit" >&2; exit 2; }
           rev=$2; shift 2 ;;
    --help) sed -n '2,18p' "$0"; exit 0 ;;
    --*) echo "run.sh: unknown option '$1' (--full, --keep, --rev REV, --help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
only=" $* "

scratch=$(mktemp -d "${TMPDIR:-/tmp}/motionbench-mutants.XXXXXX") || exit 2
use_git=0
cleanup() {
    [ $keep -eq 1 ] && { echo "scratch tree kept in $scratch"; return; }
    if [ $use_git -eq 1 ]; then
        git -C "$top" worktree remove --force "$scratch" >/dev/null 2>&1
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP    # killed: the scratch tree is still removed
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    rmdir "$scratch"
    git -C "$top" worktree add --detach "$scratch" "$rev" >/dev/null 2>&1 \
        || { echo "run.sh: git worktree add failed" >&2; exit 2; }
    use_git=1
else
    cp -R "$top/." "$scratch/" && (cd "$scratch" && { [ ! -f Makefile ] || make distclean >/dev/null 2>&1; })
fi
log=$scratch/mutants.log
echo "building a scratch copy in $scratch (log: $log)"
(cd "$scratch" && ./bootstrap && ./configure -q && make -j2 && make -j2 check TESTS=) >"$log" 2>&1 \
    || { echo "run.sh: the unmodified tree does not build (see $log)" >&2; keep=1; exit 2; }

# the check programs among a fault's tests (the others are scripts)
programs_of() {
    for t in $1; do
        case $t in *.sh|*.py) ;; *) printf '%s ' "$t" ;; esac
    done
}

# build what one fault needs: the library and the program, and, without --full, only the
# check programs of its subset (the other test programs and helpers, left as they were
# built, load the faulty library: they are linked to it as a shared library)
build_fault() {
    if [ $full -eq 1 ]; then
        make -j2 >>"$log" 2>&1 && make -j2 check TESTS= >>"$log" 2>&1
    else
        make -j2 >>"$log" 2>&1 && make -j2 $(programs_of "$1") >>"$log" 2>&1
    fi
}

# tests to run for one fault: its subset, through make check's own harness (one .log and
# .trs per test, the rules make check uses), or everything; 1 when a test failed
run_tests() {
    if [ $full -eq 1 ]; then
        make -j2 check >>"$log" 2>&1
        return
    fi
    logs= trs=
    for t in $1; do logs="$logs $t.log"; trs="$trs $t.trs"; done
    rm -f $logs $trs
    make -j2 $logs >>"$log" 2>&1 || return 1
    for f in $trs; do
        [ -f "$f" ] || return 1
        ! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$f" || { cat "${f%.trs}.log" >>"$log"; return 1; }
    done
}

# replace the single line equal to $2 in file $1 by $3 (literal); 1 if not exactly once
inject() {
    sh "$here/inject.sh" "$1" "$2" "$3"
}

caught=0 missed=0 invalid=0
printf '%-30s %-9s %s\n' fault result description
tab=$(printf '\t')
while IFS="$tab" read -r id file old new tests what; do
    case $id in '#'*|'') continue ;; esac
    case $only in '  ') ;; *" $id "*) ;; *) continue ;; esac
    cd "$scratch" || exit 2
    cp "$file" "$file.orig"
    if ! inject "$file" "$old" "$new"; then
        result=stale; invalid=$((invalid + 1))
    elif ! build_fault "$tests"; then
        result=no-build; invalid=$((invalid + 1))
    elif run_tests "$tests"; then
        result=MISSED; missed=$((missed + 1))
    else
        result=caught; caught=$((caught + 1))
    fi
    mv "$file.orig" "$file"
    touch "$file"
    printf '%-30s %-9s %s\n' "$id" "$result" "$what"
done <"$catalogue"
cd "$scratch" && make -j2 >>"$log" 2>&1
scope=$([ $full -eq 1 ] && echo "make check" || echo "each fault's test subset")
echo "caught $caught of $((caught + missed)) faults ($scope); $missed missed, $invalid stale or not building"
[ $missed -eq 0 ]
