#!/bin/sh
# test_bench_odeint.sh -- the Boost.Odeint peer of `bench leapfrog` end to end: the peer
# program builds from tools/peers/odeint_free_fall.cpp, its --rate form prints one
# positive rate, and `bench leapfrog --odeint` runs it inside its rounds and prints the
# Odeint column and ratio.  Not a timing test: no figure is judged (the benchmark judges
# its targets only at 10^6 nodes and more; this runs 10^3).  Skipped (77) without a C++
# compiler or Boost.Odeint's header (Debian g++, libboost-dev: ./bootstrap --deps=peers).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${MB_SRCDIR:-.}
. "$SRC/tests/cli_test_lib.sh"
cxx=${CXX_FOR_PEERS:-g++}
command -v "$cxx" >/dev/null 2>&1 || { echo "SKIP: no C++ compiler ($cxx)"; exit 77; }
printf '#include <boost/numeric/odeint.hpp>\nint main() { return 0; }\n' > "$tmp/probe.cpp"
"$cxx" -fsyntax-only "$tmp/probe.cpp" 2>/dev/null || { echo "SKIP: no Boost.Odeint header"; exit 77; }

check "the peer builds" "$cxx" -O2 -o "$tmp/odeint_free_fall" "$SRC/tools/peers/odeint_free_fall.cpp"
"$tmp/odeint_free_fall" --rate 1000 0.05 > "$tmp/rate" 2>&1
check "--rate prints one positive number ($(cat "$tmp/rate"))" \
    awk 'NR == 1 && $1 + 0 > 0 && NF == 1 { ok = 1 } END { exit !(ok && NR == 1) }' "$tmp/rate"
check "--rate refuses a bad size" sh -c "! '$tmp/odeint_free_fall' --rate 0 1 2>/dev/null"
$MB bench leapfrog --max-nodes 1e3 --min-time 0.3 --odeint "$tmp/odeint_free_fall" > "$tmp/out" 2>&1
rc=$?
check "bench leapfrog --odeint exits 0 (got $rc)" [ $rc -eq 0 ]
check "the header names the Odeint column and ratio" grep -q "Odeint  whole/Odeint" "$tmp/out"
check "the 1000-node row carries an Odeint rate and a ratio" \
    awk '$1 == 1000 && NF == 8 && $7 + 0 > 0 && $8 + 0 > 0 { ok = 1 } END { exit !ok }' "$tmp/out"
[ $fail -eq 0 ] || cat "$tmp/out"
exit $fail
