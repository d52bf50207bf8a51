#!/bin/sh
# smoke.sh -- the bounded smoke-fuzz of `make fuzz`, run by CI (doc/hardening.md).
#
# Two targets: the case-file loader (fuzz_case_file, seed corpus tests/fuzz/corpus) and
# the trajectory reader of outside integrators (fuzz_trajectory, tests/fuzz/corpus-trajectory).
# With a libFuzzer toolchain: build them (tests/fuzz/build.sh, incremental, in
# $MB_BUILDDIR/fuzz-build) and run a fixed number of executions of each from a fixed
# seed over its corpus (new inputs go to a scratch directory; the corpus is not modified).
# Without one: replay each seed corpus through the same entry point linked with a plain
# main (tests/fuzz/replay.sh, as `make check` does), so the harness code still runs.
# A toolchain that is there but cannot build the targets (tests/fuzz/build.sh exits other
# than 0 or 77) fails: a harness that stopped building must not pass as a missing tool.
# MB_FUZZ_RUNS sets the number of executions per target (default 3000).
set -u
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${MB_BUILDDIR:-.}
runs=${MB_FUZZ_RUNS:-3000}

# fuzz TARGET CORPUS: a bounded libFuzzer run; a finding (crash, leak, timeout) is written
# into a scratch directory, copied next to the build log and named; the fuzzer's own exit
# status is the verdict
fuzz() {
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/mb-fuzz-XXXXXX")
    mkdir "$scratch/new"
    LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        "$build/fuzz-build/$1" -runs="$runs" -seed=12385 -max_len=65536 \
        -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        -artifact_prefix="$scratch/" "$scratch/new" "$2" > "$scratch/log" 2>&1 &&
        st=0 || st=$?
    echo "== $1"
    tail -n 12 "$scratch/log"
    for a in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
        [ -f "$a" ] || continue
        cp "$a" "$build/fuzz-finding-$1-$(basename "$a")"
        echo "smoke.sh: finding kept as $build/fuzz-finding-$1-$(basename "$a")"
    done
    rm -rf "$scratch"
    return $st
}

sh "$src/tests/fuzz/build.sh" "$build/fuzz-build" > "$build/fuzz-build.log" 2>&1 \
    && built=0 || built=$?
case $built in
0)  status=0
    fuzz fuzz_case_file "$src/tests/fuzz/corpus" || status=$?
    fuzz fuzz_trajectory "$src/tests/fuzz/corpus-trajectory" || status=$?
    exit $status ;;
77) echo "smoke.sh: no libFuzzer toolchain ($(tail -n 1 "$build/fuzz-build.log")); replaying the corpora"
    exec sh "$src/tests/fuzz/replay.sh" ;;
*)  # a toolchain that cannot build the targets is a broken harness, not a missing tool
    tail -n 20 "$build/fuzz-build.log" >&2
    echo "smoke.sh: tests/fuzz/build.sh failed (exit $built; log: $build/fuzz-build.log)" >&2
    exit 1 ;;
esac
