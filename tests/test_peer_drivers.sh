#!/bin/sh
# test_peer_drivers.sh -- the independent drivers of tools/peers (the programs the
# performance figures are confirmed with) build against the library as their headers say
# and run: each on a small size, its agreement with the library where it checks one (the
# chain's lean steps against the library's step within 1e-9, the cloth's CHOLMOD solve
# within 1e-3 of the library's Krylov solve), its rates positive, the DEM driver's LAMMPS
# input written.  Not a timing test: no figure is judged.  The cloth's driver is skipped
# without CHOLMOD's header.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
cc=${CC:-gcc}
BUILD=${MB_BUILDDIR:-.}
lib=$BUILD/.libs
[ -f "$lib/libmotionbench.so" ] || { echo "SKIP: no shared library in $lib"; exit 77; }
inc="-I $SRC/src/core -I $SRC/src/forces -I $SRC/src/integrators -I $SRC/src/problems
     -I $SRC/src/metrics -I $SRC/src/linsolve -I $SRC/src/cli -I $SRC/src -I $SRC -I $BUILD"
build() {   # build NAME [EXTRA SOURCES AND FLAGS...]
    name=$1; shift
    # shellcheck disable=SC2086
    "$cc" -O2 -ffp-contract=off $inc -o "$tmp/$name" "$SRC/tools/peers/$name.c" "$@" \
        -L"$lib" -lmotionbench -lgsl -lgslcblas -lm > "$tmp/$name.cc" 2>&1
}
run() {     # run NAME ARGS...: its output in $tmp/NAME.out
    name=$1; shift
    LD_LIBRARY_PATH=$lib "$tmp/$name" "$@" > "$tmp/$name.out" 2>&1
}

check "chain_driver builds" build chain_driver
check "chain_driver runs" run chain_driver 1000 1
check "chain_driver's lean steps agree with the library's within 1e-9" \
    awk '/one step from the same state/ { found = 1
        for (i = 1; i <= NF; i++) if ($i == "v+" || $i == "x+") { v = $(i + 1); sub(/[;,]$/, "", v)
            if (!(v + 0 <= 1e-9)) bad = 1; k++ } }
        END { exit !(found && k == 4 && !bad) }' "$tmp/chain_driver.out"
check "chain_driver prints both ratios" grep -q "library / lane lean: median [0-9.]*" "$tmp/chain_driver.out"

check "chain_peer_count builds" build chain_peer_count "$SRC/src/cli/bench_rebuild.c" "$SRC/src/cli/bench_blocktri.c"
check "chain_peer_count runs" run chain_peer_count 100 2
check "chain_peer_count refuses one particle" sh -c "! LD_LIBRARY_PATH=$lib '$tmp/chain_peer_count' 1 2 2>/dev/null"

check "leapfrog_driver builds" build leapfrog_driver
check "leapfrog_driver runs" run leapfrog_driver 1000 5
check "leapfrog_driver prints a positive ratio" \
    awk '/^n = 1000: whole step/ { for (i = 1; i < NF; i++)
        if ($i == "ratio" && $(i + 1) + 0 > 0) ok = 1 } END { exit !ok }' "$tmp/leapfrog_driver.out"

check "rotation_driver builds" build rotation_driver
check "rotation_driver runs" run rotation_driver verlet-nosquish 100 10
check "rotation_driver prints a positive cost" \
    awk '$1 == "verlet-nosquish," && $4 + 0 > 0 && $5 == "ns" { ok = 1 } END { exit !ok }' \
    "$tmp/rotation_driver.out"

check "dem_driver builds" build dem_driver
check "dem_driver runs" run dem_driver 3 20
check "dem_driver times the first step apart and the 19 after it" \
    grep -q "^the first step (the neighbour list's first build) .* s CPU; the 19 after it .* sphere-steps/s$" \
    "$tmp/dem_driver.out"
mkdir "$tmp/dem"
check "dem_driver writes LAMMPS's data and input" sh -c "LD_LIBRARY_PATH=$lib '$tmp/dem_driver' 3 20 '$tmp/dem' 0.2 0 > '$tmp/dem.out' 2>&1"
check "its input holds the pair style, the skin and sorting off asked for" sh -c "
    grep -q '^pair_style gran/hooke/history 200000 ' '$tmp/dem/in' &&
    grep -q '^neighbor 0.2 bin' '$tmp/dem/in' && grep -q '^atom_modify sort 0 0.0' '$tmp/dem/in' &&
    grep -q '^108 atoms' '$tmp/dem/data'"

if printf '#include <cholmod.h>\n' | "$cc" -E -I /usr/include/suitesparse - > /dev/null 2>&1; then
    check "cloth_driver builds" build cloth_driver -I /usr/include/suitesparse -lcholmod
    check "cloth_driver runs" run cloth_driver 1 30
    check "cloth_driver's CHOLMOD solve agrees with the library's within 1e-3" \
        awk '$1 == 900 && NF == 10 && $9 + 0 <= 1e-3 && $4 + 0 > 0 { ok = 1 } END { exit !ok }' \
        "$tmp/cloth_driver.out"
else
    echo "skip: cloth_driver (no CHOLMOD header)"
fi
[ $fail -eq 0 ] || for f in "$tmp"/*.out "$tmp"/*.cc; do echo "== $f"; cat "$f"; done
exit $fail
