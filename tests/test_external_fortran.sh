#!/bin/sh
# test_external_fortran.sh -- the Fortran example adapter (examples/fortran_adapter: the
# kick-drift-kick leap-frog reading the flat run description run.txt through
# examples/run_txt/run_txt.f90), built as its descriptor says, in a copy of the examples
# as a user would copy them, and run through its two case files: order 2 in position and
# velocity on the oscillator and on Kepler, and the oscillator's energy error (w h)^2/4.
# motionbench must exit 0 with every check "pass" and every run "ok".
# Negative control: the same adapter with a full first kick (v += h a instead of h/2 a:
# first order in velocity) must make motionbench exit 1 with the order checks failing.
# Skipped (77) without a Fortran compiler (FC, else gfortran).
set -u
MB=${MB_PROGRAM:-${MB_BUILDDIR:-.}/src/motionbench}
SRC=${MB_SRCDIR:-.}
FC=${FC:-gfortran}
command -v "$FC" >/dev/null 2>&1 || { echo "SKIP: no Fortran compiler ($FC)"; exit 77; }
. "$SRC/tests/cli_test_lib.sh"
out=$tmp
build() {   # DIR: compile the adapter there, as its descriptor's comment says
    (cd "$1/fortran_adapter" && $FC -O2 -o fleapfrog ../run_txt/run_txt.f90 leapfrog.f90) \
        >"$out/build.log" 2>&1 || { echo "FAIL: $FC does not build the example"; cat "$out/build.log"; exit 1; }
}
mkdir "$out/ex" "$out/bad"
cp -R "$SRC/examples/run_txt" "$SRC/examples/fortran_adapter" "$out/ex/"
cp -R "$SRC/examples/run_txt" "$SRC/examples/fortran_adapter" "$out/bad/"
chmod -R u+w "$out/ex" "$out/bad"
build "$out/ex"

for c in fleapfrog-harmonic fleapfrog-kepler; do
    $MB run -q -o "$out/$c" "$out/ex/fortran_adapter/$c.case"; rc=$?
    checks=$(tail -n +2 "$out/$c/checks.csv" | wc -l)
    bad=$(tail -n +2 "$out/$c/checks.csv" | tr -d "\r" | grep -vc ',pass$')
    notok=$(tail -n +2 "$out/$c/runs.csv" | grep -c '^[^,]*,external:[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^o]')
    if [ $rc -eq 0 ] && [ "$checks" -ge 3 ] && [ "$bad" -eq 0 ] && [ "$notok" -eq 0 ]; then
        echo "ok: $c ($checks checks pass)"
        grep 'order' "$out/$c/checks.csv"
    else
        echo "FAIL: $c: exit $rc, $bad of $checks checks not passing, $notok runs not ok"
        cat "$out/$c/checks.csv" "$out/$c/runs.csv"; fail=1
    fi
done

# negative control: a full first kick
sed '0,/v = v + 0.5_dp \* h \* a/s//v = v + h * a/' "$SRC/examples/fortran_adapter/leapfrog.f90" \
    >"$out/bad/fortran_adapter/leapfrog.f90"
if cmp -s "$out/bad/fortran_adapter/leapfrog.f90" "$SRC/examples/fortran_adapter/leapfrog.f90"; then
    echo "FAIL: the negative control changed nothing in leapfrog.f90"; fail=1
fi
build "$out/bad"
$MB run -q -o "$out/bad-run" "$out/bad/fortran_adapter/fleapfrog-harmonic.case" 2>/dev/null; rc=$?
failing=$(tr -d '\r' <"$out/bad-run/checks.csv" | grep -c 'order\.velocity.*,fail$')
if [ $rc -eq 1 ] && [ "$failing" -eq 1 ]; then
    echo "ok: negative control (full first kick) fails its velocity order:"
    grep 'order\.velocity' "$out/bad-run/checks.csv"
else
    echo "FAIL: negative control: exit $rc, $failing failing order checks"
    cat "$out/bad-run/checks.csv"; fail=1
fi
exit $fail
