#!/bin/sh
# run.sh -- fault injection: how many deliberate faults does the test suite catch?
#
# usage: tests/mutants/run.sh [--full] [--keep] [--rev REV] [ID...]
#
# For each fault of tests/mutants/catalogue (or only the IDs given) the script replaces
# one literal line of one source file by its faulty version in a scratch copy of the
# tree, rebuilds, runs the fault's subset of `make check` (all of it with --full) and
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
    --help) sed -n '2,16p' "$0"; exit 0 ;;
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

# tests to run for one fault: its subset, or everything
run_tests() {
    if [ $full -eq 1 ]; then
        make -j2 check >>"$log" 2>&1
    else
        make -j2 check TESTS="$1" >>"$log" 2>&1
    fi
}

# replace the single line equal to $2 in file $1 by $3 (literal); 1 if not exactly once
inject() {
    awk -v old="$2" -v new="$3" '
        $0 == old { n++; print new; next } { print }
        END { exit n != 1 }' "$1" >"$1.mutant" && mv "$1.mutant" "$1"
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
    elif ! make -j2 >>"$log" 2>&1 || ! make -j2 check TESTS= >>"$log" 2>&1; then
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
