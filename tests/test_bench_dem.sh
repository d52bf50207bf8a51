#!/bin/sh
# test_bench_dem.sh -- `motionbench bench dem --check` on the smallest packing: the
# contacts at step 0 found through the library's neighbour list and contact model must
# equal those LAMMPS's pair gran/hooke/history finds on the same packing (its compute
# contact/atom, an independent code).  Then a short timed run, whose printout must give
# the peer's input in the configuration its table names.  Skipped (77) without LAMMPS
# (`lmp` on the PATH or $LAMMPS).
set -u
. "$(dirname "$0")/lammps_counted.sh"
MB=${MB_PROGRAM:-./src/motionbench}
LMP=${LAMMPS:-$(command -v lmp || true)}
[ -n "$LMP" ] || { echo "SKIP: no LAMMPS (lmp) on the PATH"; exit 77; }
out=$($MB bench dem --check --max-nodes 1e3 --lammps "$LMP" 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench dem --check exited $st"; exit 1; }
printf '%s\n' "$out" | grep -q "^check: contacts at step 0 equal LAMMPS's at every size: pass$" \
    || { echo "FAIL: no passing contact check"; exit 1; }
# the count itself: one row, both columns equal and non-trivial
printf '%s\n' "$out" | awk '$1 == 864 && NF == 3 { found = 1; if ($2 != $3 || $2 < 1000) bad = 1 }
                           END { exit !(found && !bad) }' \
    || { echo "FAIL: the 864-sphere row lacks equal contact counts"; exit 1; }
# the timed run prints the peer as it ran: its input in the configuration the table names
# (neighbor skin, atom sorting off or at LAMMPS's default), so that a reader can rerun it.
# LAMMPS is run through a script that counts its starts: a configuration's later rounds
# start from the steps of its run charged before, so that its first round alone runs it
# again longer (3 rounds of 8 configurations, and the contact check: at most 33 starts
# when the machine's speed holds; 49 or more if every round ran each configuration twice,
# which it does at this size, the codes' rates being alike)
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
lammps_counted "$tmp" "$LMP" || exit 99
out=$($MB bench dem --max-nodes 1e3 --min-time 0.001 --lammps "$tmp/lmp" 2>&1)
st=$?
starts=$(wc -l < "$tmp/starts")
[ "$starts" -lt 49 ] || { echo "FAIL: LAMMPS started $starts times: rounds do not keep the steps charged"; exit 1; }
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench dem exited $st"; exit 1; }
config=$(printf '%s\n' "$out" | sed -n 's/^charged .*best configuration "\(.*\)", input IN:$/\1/p')
[ -n "$config" ] || { echo "FAIL: no LAMMPS input printed"; exit 1; }
printf '%s\n' "$out" | awk -v c="$config" '$1 == 864 && NF >= 8 { sub(/^.*  /, ""); row = $0 }
    END { exit row != c }' || { echo "FAIL: the table's configuration is not '$config'"; exit 1; }
skin=$(printf '%s\n' "$config" | sed -n 's/^skin \([0-9.]*\), .*/\1/p')
printf '%s\n' "$out" | grep -q "^neighbor $skin bin$" \
    || { echo "FAIL: the printed input lacks 'neighbor $skin bin' of '$config'"; exit 1; }
sorted=$(printf '%s\n' "$out" | grep -c '^atom_modify sort 0 0.0$')
case $config in
*"sort off") [ "$sorted" -eq 1 ] ;;
*) [ "$sorted" -eq 0 ] ;;
esac || { echo "FAIL: atom sorting of the printed input does not match '$config'"; exit 1; }
printf '%s\n' "$out" | grep -q '^pair_style gran/hooke/history 200000 ' \
    || { echo "FAIL: the printed input lacks the pair style"; exit 1; }
# both codes timed on loops as long and as many: a batch of the library before each of
# LAMMPS's 24 runs (3 rounds of 8 configurations), each batch at least 0.2 s of CPU time
# (LAMMPS's loops must last that long for its CPU timer) whatever the slice of time (0.001
# s over 48 loops), so its best batch of S steps at R sphere-steps/s lasted S 864 / R >= 0.2
# s (R as printed, to 4 digits: within 5e-4 of the rate, so >= 0.1998 s); LAMMPS's loops
# at least 10 steps:
# "at 864 spheres: motionbench S (of T run in 24 batches), LAMMPS P (of 24 runs)"
rate=$(printf '%s\n' "$out" | awk '$1 == 864 && NF >= 8 { print $2 }')
printf '%s\n' "$out" | awk -v r="$rate" '$1 == "at" && $2 == 864 && $4 == "motionbench" {
        found = 1; if (r <= 0 || $5 * 864 / r < 0.1998 || $10 != 24 || $13 < 10 || $15 != 24) bad = 1 }
    END { exit !(found && !bad) }' \
    || { echo "FAIL: at 864 spheres not 24 batches of at least 0.2 s, or a LAMMPS loop under 10 steps"; exit 1; }
# the library alone with a slice of time (0.001 s over 3 rounds) shorter than 10 of its
# steps at 864 spheres (about 0.15 ms each): each round runs one untimed step and a batch
# of exactly 10 timed ones, 33 steps in all
out=$($MB bench dem --max-nodes 1e3 --min-time 0.001 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 0 ] || { echo "FAIL: bench dem (library alone) exited $st"; exit 1; }
printf '%s\n' "$out" | grep -q '^at 864 spheres: motionbench 10 (of 33 run in 3 batches)$' \
    || { echo "FAIL: the library's batch is not 10 timed steps after one untimed step a round"; exit 1; }
# bad input: the bench refuses an unknown option with exit 2
$MB bench dem --check --max-nodes 1e3 --bogus >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown option was not refused with exit 2"; exit 1; }
# a size whose estimate (2.56 MiB at 864 spheres) exceeds --memory-limit is refused, exit 2,
# before it is built; under a limit it fits, it runs
$MB bench dem --check --max-nodes 1e3 --memory-limit 1M >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "^motionbench: bench dem: estimated memory 2.56 MiB exceeds --memory-limit, 1 MiB" "$tmp/err" \
    || { echo "FAIL: a size above --memory-limit gave exit $st: $(cat "$tmp/err")"; exit 1; }
$MB bench dem --check --max-nodes 1e3 --memory-limit 1G >/dev/null 2>&1 \
    || { echo "FAIL: a size under --memory-limit was refused"; exit 1; }
$MB bench dem --check --max-nodes 1e3 --memory-limit 0 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --memory-limit 0 was not refused with exit 2"; exit 1; }
# a peer that fails (LAMMPS's ERROR line in its log, a line on its standard error, exit 1)
# is refused with exit 2, the message quoting both, and its files kept where it says
cat > "$tmp/lmp_fails" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -log ] && log=$2; shift; done
printf 'LAMMPS (x)\nERROR: Lost atoms: original 864 current 863\n' > "$log"
echo "a line on standard error" >&2
exit 1
EOS
chmod +x "$tmp/lmp_fails"
$MB bench dem --max-nodes 1e3 --min-time 0.001 --lammps "$tmp/lmp_fails" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "LAMMPS '$tmp/lmp_fails' failed on 864 spheres: LAMMPS '$tmp/lmp_fails' on '.*/in' exited with status 1; its log .*/log: \"ERROR: Lost atoms: original 864 current 863\"; its output .*/log.out: \"a line on standard error\"" "$tmp/err" \
    || { echo "FAIL: a failing peer gave exit $st: $(cat "$tmp/err")"; exit 1; }
kept=$(sed -n "s/^motionbench bench dem: LAMMPS's data, input, log and output are kept in //p" "$tmp/err")
[ -n "$kept" ] && [ -f "$kept/data" ] && [ -f "$kept/log.out" ] \
    || { echo "FAIL: the failed peer's files were not kept and named: $(cat "$tmp/err")"; exit 1; }
rm -rf "$kept"
echo "PASS"
