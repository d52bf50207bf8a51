#!/bin/sh
# startup_share.sh -- the share of the peers set's wall time spent starting packages
# (doc/peers.md, "Start-up: protocol 2").  From a built tree:
#     tools/peers/startup_share.sh [ROUNDS] [OUTDIR] [PROTOCOLS]
# (default 1 round, ./startup, "2 1").  Each round runs `motionbench run -q cases/peers` once
# per protocol of PROTOCOLS, in that order (the default alternates them): with the shipped
# descriptors (protocol 2: a batch per descriptor over every case of the set) and with copies
# of them saying `protocol = 1` (one invocation per run), so that both meet the same load.
# Before each run every program the set starts is timed doing nothing, the fastest of three
# starts: each adapter on an empty batch ({"protocol": "motionbench-batch/2", "runs": []}),
# `yade -n -x` of an empty script, `lmp`/`liggghts -in /dev/null`, `gmx_d -version`.
# The starts a run makes are counted from its runs.csv:
#   protocol 2: one interpreter per adapter; one yade, lmp, liggghts per batch that runs any
#     (the Yade adapter re-executes itself in yade: its empty batch times both);
#   protocol 1: one interpreter per run; one yade, lmp, liggghts per run not declined;
#   both: two gmx_d (grompp, mdrun) per GROMACS run not declined.
# Printed per run: wall time, start-ups, their summed time, and that sum over the wall time.
set -u
rounds=${1:-1}
out=${2:-startup}
protocols=${3:-2 1}
mb=src/motionbench
[ -x "$mb" ] || { echo "startup_share.sh: run from a built tree ($mb not found)" >&2; exit 2; }
mkdir -p "$out/v1" || exit 2
for a in adapters/*.adapter; do
    sed -e 's/^protocol   = 2/protocol   = 1/' -e "s| \([a-z]*_adapter.py\)| $PWD/adapters/\1|" \
        "$a" >"$out/v1/$(basename "$a")"
done
printf '{"protocol": "motionbench-batch/2", "runs": []}\n' >"$out/empty.json"
: >"$out/empty.py"

fastest() {   # COMMAND...: the fastest of three runs, in seconds
    best=
    for _ in 1 2 3; do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1 </dev/null
        t=$(echo "$(date +%s.%N) - $t0" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" -eq 1 ]; then best=$t; fi
    done
    echo "$best"
}

startups() {   # seconds of one start of each program, as NAME=SECONDS lines
    for a in lammps yade liggghts siconos ase gromacs; do
        cmd=$(sed -n 's/^command *= *//p' "adapters/$a.adapter")
        prog=${cmd%% *}
        script=adapters/${cmd##* }
        rm -rf "$out/traj"; mkdir "$out/traj"
        echo "$a=$(fastest "$prog" "$script" "$out/empty.json" "$out/traj")"
    done
    echo "yade_program=$(fastest yade -n -x "$out/empty.py")"
    echo "lmp=$(fastest lmp -in /dev/null -log none -screen none)"
    echo "liggghts_program=$(fastest liggghts -in /dev/null -log none -screen none)"
    echo "gmx_d=$(fastest gmx_d -quiet -version)"
}

share() {   # PROTOCOL REPORT WALL STARTUPS-FILE
    awk -F, -v protocol="$1" -v wall="$3" '
        FNR == NR { split($0, kv, "="); s[kv[1]] = kv[2]; next }
        FNR == 1 { next }
        $2 ~ /^"?external:/ {
            a = $2; sub(/^"?external:/, "", a); sub(/[\[",].*/, "", a)
            st = $0; ran = (st !~ /,skipped,/)
            runs[a]++; if (ran) done[a]++
        }
        END {
            n = 0; t = 0
            for (a in runs) {
                if (a == "yade") {      # the adapter re-executes itself in yade (s[yade]
                    if (protocol == 1) { # holds both); a declined run of protocol 1 does not
                        n += runs[a] + done[a]; t += done[a] * s[a]
                        t += (runs[a] - done[a]) * (s[a] - s["yade_program"])
                    } else { n += 2; t += s[a] }
                    continue
                }
                k = protocol == 1 ? runs[a] : 1; n += k; t += k * s[a]
                p = a == "lammps" ? "lmp" : a == "liggghts" ? "liggghts_program" : ""
                if (p != "" && done[a]) { k = protocol == 1 ? done[a] : 1; n += k; t += k * s[p] }
                if (a == "gromacs") { n += 2 * done[a]; t += 2 * done[a] * s["gmx_d"] }
            }
            printf "protocol %d: wall %.1f s, %d start-ups, %.1f s starting, share %.1f %%\n",
                   protocol, wall, n, t, 100 * t / wall
        }' "$4" "$2/runs.csv"
}

one() {   # ROUND PROTOCOL
    dir=$out/p$2-r$1
    startups >"$out/startups-p$2-r$1.txt"
    rm -rf "$dir"
    t0=$(date +%s.%N)
    if [ "$2" -eq 1 ]; then
        $mb run -q --adapters "$out/v1" cases/peers -o "$dir" >/dev/null 2>&1
    else
        $mb run -q cases/peers -o "$dir" >/dev/null 2>&1
    fi
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    share "$2" "$dir" "$wall" "$out/startups-p$2-r$1.txt"
}

r=1
while [ "$r" -le "$rounds" ]; do
    echo "round $r (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    for p in $protocols; do
        one "$r" "$p"
    done
    r=$((r + 1))
done
