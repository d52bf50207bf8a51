#!/bin/sh
# build.sh -- build the libFuzzer targets of the case-file loader and of the trajectory
# reader of outside integrators (doc/hardening.md).
#
#   tests/fuzz/build.sh [BUILDDIR]      (default BUILDDIR: fuzz-build)
#
# Compiles every libmotionbench source (the list of src/*/local.mk, and the build's
# generated mb_build_id.c) with clang,
# -fsanitize=fuzzer-no-link,address,undefined (coverage for the fuzzer, ASan and UBSan
# for its findings), and links tests/fuzz/fuzz_case_file.c and fuzz_trajectory.c with
# -fsanitize=fuzzer into BUILDDIR/.  Objects are rebuilt only when a source or header is newer.
# Needs clang with the libFuzzer runtime (Debian: clang; `./bootstrap --deps=fuzz`
# installs it) and a configured tree (config.h).  Then, for a campaign:
#   fuzz-build/fuzz_case_file -max_total_time=3600 -rss_limit_mb=4096 \
#       fuzz-build/corpus tests/fuzz/corpus
# Exit 77 (skip) when clang cannot build a fuzzer.
set -eu
src=${MB_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${1:-fuzz-build}
CLANG=${CLANG:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
if ! command -v "$CLANG" >/dev/null 2>&1 \
   || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' \
        | "$CLANG" -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
    echo "build.sh: $CLANG cannot build a libFuzzer target (install clang: ./bootstrap --deps=fuzz)" >&2
    exit 77
fi
config=${MB_BUILDDIR:-$src}/config.h
[ -f "$config" ] || { echo "build.sh: no $config: run ./configure first" >&2; exit 2; }
# the one generated source of the library (the build's identity, src/core/local.mk)
build_id=${MB_BUILDDIR:-$src}/mb_build_id.c
[ -f "$build_id" ] || { echo "build.sh: no $build_id: run make first" >&2; exit 2; }
mkdir -p "$out/obj" "$out/corpus"
inc="-I$(dirname "$config") -I$src"
for d in "$src"/src/*/; do inc="$inc -I$d"; done
newest_header=$(ls -t "$src"/src/*/*.h "$src"/src/*/*_source.c "$config" | head -n 1)
objs=""
for f in $(sed -n 's/^libmotionbench_la_SOURCES += //p' "$src"/src/*/local.mk) "$build_id"; do
    case $f in /*) path=$f ;; *) path=$src/$f ;; esac
    o="$out/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o"
    objs="$objs $o"
    if [ ! -f "$o" ] || [ "$path" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
        echo "  CLANG    $f"
        # shellcheck disable=SC2086
        "$CLANG" -DHAVE_CONFIG_H $inc -DMB_SRCDIR="\"$src\"" -std=gnu11 -g -O1 \
            -ffp-contract=off -fsanitize=fuzzer-no-link $SAN -c "$path" -o "$o"
    fi
done
for target in fuzz_case_file fuzz_trajectory; do
    # shellcheck disable=SC2086
    "$CLANG" $inc -std=gnu11 -g -O1 -fsanitize=fuzzer $SAN "$src/tests/fuzz/$target.c" \
        $objs -lgsl -lgslcblas -lmpfr -lgmp -linih -ljansson -lmatheval -lm -lpthread \
        -o "$out/$target"
    echo "build.sh: $out/$target"
done
