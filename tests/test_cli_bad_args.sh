#!/bin/sh
# test_cli_bad_args.sh -- command-line input that once produced a meaningless result or
# undefined behaviour: each must be refused with exit status 2 and a message naming
# the culprit, before any work is done.
set -u
MB=${MB_PROGRAM:-./src/motionbench}
fail=0
expect2() {
    what=$1; pattern=$2; shift 2
    "$@" >/dev/null 2>err.$$; rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pattern" err.$$; then
        echo "ok: $what"
    else
        echo "FAIL: $what (exit $rc, stderr: $(cat err.$$))"; fail=1
    fi
}

# one size (10^3) only: a growth exponent fitted through one point is NaN
expect2 "bench implicit-chain --max-n 3000 leaves one size" "--max-n" \
    $MB bench implicit-chain --max-n 3000 --steps 1
expect2 "bench implicit-cloth --max-n 2000 leaves one size" "--max-n" \
    $MB bench implicit-cloth --max-n 2000 --steps 1
# a peer benchmark that cannot run, or prints something other than one rate
expect2 "bench leapfrog --odeint with a missing program" "cannot run peer '/nonexistent/peer'" \
    $MB bench leapfrog --max-nodes 1e3 --min-time 0.1 --odeint /nonexistent/peer
expect2 "bench leapfrog --odeint with a program that prints no rate" "did not print one positive rate" \
    $MB bench leapfrog --max-nodes 1e3 --min-time 0.1 --odeint echo
expect2 "bench leapfrog --odeint with a program that fails" "exited with status 1" \
    $MB bench leapfrog --max-nodes 1e3 --min-time 0.1 --odeint false
# the peer option anywhere among the options (the commands' one parser), once, not empty
expect2 "bench leapfrog --odeint before the size options" "cannot run peer '/nonexistent/peer'" \
    $MB bench leapfrog --odeint /nonexistent/peer --max-nodes 1e3 --min-time 0.1
expect2 "bench leapfrog --odeint twice" "option --odeint is given twice" \
    $MB bench leapfrog --odeint a --odeint b
expect2 "bench fincham --lammps empty" "--lammps: empty program name" \
    $MB bench fincham --lammps "" --max-nodes 1e3
expect2 "bench fincham --lammps without a program" "--lammps needs a program" \
    $MB bench fincham --max-nodes 1e3 --lammps
# list: an unknown word is named, with the lists there are and a hint for a near miss
expect2 "list nonsense" "unknown list 'nonsense'; the lists are integrators, problems and metrics" \
    $MB list nonsense
expect2 "list integrator" "unknown list 'integrator' (did you mean 'integrators'?)" \
    $MB list integrator
rm -f err.$$
exit $fail
