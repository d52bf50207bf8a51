#!/bin/sh
# smoke.sh -- the bounded smoke-fuzz of `make check` (doc/hardening.md).
#
# With a libFuzzer toolchain: build the target (tests/fuzz/build.sh, incremental, in
# $MB_BUILDDIR/fuzz-build) and run a fixed number of executions from a fixed seed over
# the seed corpus (new inputs go to a scratch directory; the corpus is not modified).
# Without one: replay the seed corpus through the same entry point linked with a plain
# main (tests/fuzz_replay), so the harness code still runs.  MB_FUZZ_RUNS sets the
# number of executions (default 3000).
set -u
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${MB_BUILDDIR:-.}
corpus=$src/tests/fuzz/corpus
runs=${MB_FUZZ_RUNS:-3000}
if sh "$src/tests/fuzz/build.sh" "$build/fuzz-build" > "$build/fuzz-build.log" 2>&1; then
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/mb-fuzz-XXXXXX")
    mkdir "$scratch/new"
    # a finding (crash, leak, timeout) is written into the scratch directory, copied
    # next to the build log and named; the fuzzer's own exit status is the verdict
    LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        "$build/fuzz-build/fuzz_case_file" -runs="$runs" -seed=12385 -max_len=65536 \
        -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        -artifact_prefix="$scratch/" "$scratch/new" "$corpus" > "$scratch/log" 2>&1 &&
        st=0 || st=$?
    tail -n 12 "$scratch/log"
    for a in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
        [ -f "$a" ] || continue
        cp "$a" "$build/fuzz-finding-$(basename "$a")"
        echo "smoke.sh: finding kept as $build/fuzz-finding-$(basename "$a")"
    done
    rm -rf "$scratch"
    exit $st
fi
echo "smoke.sh: no libFuzzer build (see $build/fuzz-build.log); replaying the corpus"
exec "$build/tests/fuzz_replay" "$corpus"
