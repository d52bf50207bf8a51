#!/bin/sh
# replay.sh -- the fuzz harnesses of `make check` (doc/hardening.md): replay both seed
# corpora (tests/fuzz/corpus, tests/fuzz/corpus-trajectory) through the fuzz entry points
# linked with a plain main (tests/fuzz_replay, tests/fuzz_replay_trajectory), so the
# harness code and its checks run on every input without a libFuzzer toolchain.
# The bounded fuzzing itself is `make fuzz` (tests/fuzz/smoke.sh), run by CI.
set -u
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${MB_BUILDDIR:-.}
"$build/tests/fuzz_replay" "$src/tests/fuzz/corpus" || exit $?
exec "$build/tests/fuzz_replay_trajectory" "$src/tests/fuzz/corpus-trajectory"
