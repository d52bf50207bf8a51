#!/bin/sh
# test_bench_fincham.sh -- `motionbench bench fincham --lammps` times the library's codes
# and LAMMPS's fix nve/asphere on as many loops, alike: a batch of every library code
# before each run of LAMMPS (5 rounds of its 3 configurations: 15 batches of each code, 15
# runs of LAMMPS), each batch at least 10 steps and 0.2 s after one untimed step, each
# LAMMPS loop at least 10 steps and long enough for its CPU timer; the peer's input
# printed in the configuration the table names, and the ratio the table prints read from
# its own columns.  Skipped (77) without LAMMPS (`lmp` on the PATH or $LAMMPS).
set -u
. "$(dirname "$0")/lammps_counted.sh"
MB=${MB_PROGRAM:-./src/motionbench}
LMP=${LAMMPS:-$(command -v lmp || true)}
[ -n "$LMP" ] || { echo "SKIP: no LAMMPS (lmp) on the PATH"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# LAMMPS is run through a script that counts its starts: a configuration's later rounds
# start from the steps of its run charged before, so that its first round alone runs it
# again longer (15 runs charged and 3 run again: about 18 starts when the machine's speed
# holds; 30 if every round ran each configuration twice, which it would at this size)
lammps_counted "$tmp" "$LMP" || exit 99
out=$($MB bench fincham --max-nodes 1e3 --min-time 0.001 --lammps "$tmp/lmp" 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench fincham exited $st"; exit 1; }
starts=$(wc -l < "$tmp/starts")
[ "$starts" -ge 15 ] && [ "$starts" -lt 30 ] \
    || { echo "FAIL: LAMMPS started $starts times: not 15 charged runs, or rounds do not keep the steps charged"; exit 1; }
# every code's batches last at least 0.2 s of CPU time with LAMMPS timed (its loops must,
# for its CPU timer), whatever the slice of time (0.001 s over 5 rounds x 3 slots x 6
# codes): each code's best batch of S steps at R body-steps/s lasted S 1000 / R >= 0.2 s
# (R as printed, to 4 digits: within 5e-4 of the rate, so >= 0.1998 s); 15 batches of
# each code, 15 runs of LAMMPS
line=$(printf '%s\n' "$out" | grep '^at 1000 bodies:')
case $line in
"at 1000 bodies: leapfrog "*", in 15 batches each; LAMMPS "*" (of 15 runs)") ;;
*) echo "FAIL: not 15 batches of every code and 15 LAMMPS runs: '$line'"; exit 1 ;;
esac
row=$(printf '%s\n' "$out" | awk '$1 == 1000 && NF == 10')
printf '%s\n%s\n' "$row" "$line" | awk 'NR == 1 { r["leapfrog"] = $2; r["plain"] = $3
        r["fincham-half"] = $5; r["fincham-woo"] = $6; r["verlet-nosquish"] = $7 }
    NR == 2 { sub(/^at 1000 bodies: /, ""); sub(/, in 15 batches each.*/, "")
        k = split($0, code, ", ")
        for (i = 1; i <= k; i++) { split(code[i], w, " ")
            name = w[1]; s = w[2]; if (name == "plain") s = w[3]
            found++; if (!(r[name] > 0) || s * 1000 / r[name] < 0.1998) bad = 1 } }
    END { exit !(found == 5 && !bad) }' \
    || { echo "FAIL: a code's best batch lasted less than 0.2 s: '$row' / '$line'"; exit 1; }
peer_steps=$(printf '%s\n' "$line" | sed -n 's/.*; LAMMPS \([0-9]*\) (of 15 runs)$/\1/p')
[ "${peer_steps:-0}" -ge 10 ] || { echo "FAIL: a LAMMPS loop of ${peer_steps:-?} steps, under 10"; exit 1; }
# the table's ratio is verlet-nosquish / LAMMPS of its own columns (printed to 4 and 3
# digits: equal within 0.2 %)
printf '%s\n' "$out" | awk '$1 == 1000 && NF == 10 { found = 1; r = $7 / $8
        if (r / $9 < 0.998 || r / $9 > 1.002) bad = 1 }
    END { exit !(found && !bad) }' \
    || { echo "FAIL: the 1000-body row's nosquish/LAMMPS is not verlet-nosquish / LAMMPS"; exit 1; }
# the peer as it ran: its input in the configuration the table names
config=$(printf '%s\n' "$out" | sed -n 's/^charged .*best configuration "\(.*\)", input IN:$/\1/p')
[ -n "$config" ] || { echo "FAIL: no LAMMPS input printed"; exit 1; }
printf '%s\n' "$out" | awk -v c="$config" '$1 == 1000 && NF == 10 { row = $10 } END { exit row != c }' \
    || { echo "FAIL: the table's configuration is not '$config'"; exit 1; }
sorted=$(printf '%s\n' "$out" | grep -c '^atom_modify sort 0 0.0$')
paired=$(printf '%s\n' "$out" | grep -c '^pair_style zero 0.5$')
case $config in
pair-zero) [ "$sorted" -eq 0 ] && [ "$paired" -eq 1 ] ;;
pair-zero,sort-off) [ "$sorted" -eq 1 ] && [ "$paired" -eq 1 ] ;;
no-pair,sort-off) [ "$sorted" -eq 1 ] && [ "$paired" -eq 0 ] ;;
*) false ;;
esac || { echo "FAIL: the printed input does not match '$config'"; exit 1; }
printf '%s\n' "$out" | grep -q "^LAMMPS at 1000 bodies: run as OMP_NUM_THREADS=1 .* -var n 1000 -var steps $peer_steps,\$" \
    || { echo "FAIL: the printed command is not that of the best loop ($peer_steps steps)"; exit 1; }
# the library alone: one slot a round, 5 batches of each code, 55 steps run
out=$($MB bench fincham --max-nodes 1e3 --min-time 0.001 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench fincham (library alone) exited $st"; exit 1; }
printf '%s\n' "$out" | grep -q '^at 1000 bodies: leapfrog 10 of 55, fincham-half 10 of 55, fincham-woo 10 of 55, verlet-nosquish 10 of 55, plain loop 10 of 55, in 5 batches each$' \
    || { echo "FAIL: the library's batches alone are not 5 of 10 steps after an untimed one"; exit 1; }
# bad input: an unknown option is refused with exit 2, a peer that fails with exit 2
$MB bench fincham --max-nodes 1e3 --bogus >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown option was not refused with exit 2"; exit 1; }
# the largest size's estimate (1856 B a body: 1.77 MiB at 10^3) above --memory-limit is
# refused, exit 2, before anything is allocated (nothing timed: no table printed)
$MB bench fincham --max-nodes 1e3 --memory-limit 1M >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "^motionbench: bench fincham: estimated memory 1.77 MiB exceeds --memory-limit, 1 MiB" "$tmp/err" \
    && ! grep -q "^ *1000 " "$tmp/out" \
    || { echo "FAIL: a size above --memory-limit gave exit $st: $(cat "$tmp/err")"; exit 1; }
$MB bench fincham --max-nodes 1e3 --min-time 0.001 --lammps /bin/false >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "LAMMPS peer '/bin/false' failed at 1000 bodies (pair-zero): LAMMPS's run of [0-9]* steps failed: LAMMPS '/bin/false' on '.*/in0' exited with status 1;" "$tmp/err" \
    || { echo "FAIL: a failing peer gave exit $st: $(cat "$tmp/err")"; exit 1; }
# its files kept where the message says, with the output of the failed run
kept=$(sed -n "s/^motionbench bench fincham: LAMMPS's inputs, log and output are kept in //p" "$tmp/err")
[ -n "$kept" ] && [ -f "$kept/in0" ] && [ -f "$kept/log.out" ] \
    || { echo "FAIL: the failed peer's files were not kept and named: $(cat "$tmp/err")"; exit 1; }
rm -rf "$kept"
echo "PASS"
