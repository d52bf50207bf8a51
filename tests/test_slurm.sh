#!/bin/sh
# test_slurm.sh -- the Slurm route of doc/cluster.md, for real: a one-node Slurm cluster
# started on this machine by tools/slurm/local_cluster.sh (its own munge key and socket,
# slurm.conf with this host as controller and node, proctrack/linuxproc, task/none,
# select/cons_tres, state under a scratch directory, ports chosen from the process id), then
#  - tools/slurm/submit.sh runs a case set (orders, an MPFR twin case, an outside program)
#    as an array of 3 shards and the merge job (afterok); the merged runs.csv, metrics.csv
#    and checks.csv equal a single-machine run byte for byte, timing.csv has every run;
#  - a cancelled array task: its shard is missing, the merge job waits
#    (DependencyNeverSatisfied), motionbench merge by hand names the shard's units and
#    number; the task resubmitted alone and the merge after it give the same report.
# The daemons it started are stopped on exit.  Needs root and Debian's slurm-wlm and munge;
# otherwise skipped (exit 77) with the reason.
set -u
MB=${MB_PROGRAM:-$(pwd)/src/motionbench}
SRC=$(cd "${MB_SRCDIR:-.}" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root (the test starts slurmctld, slurmd and munged)"; exit 77; }
for p in slurmctld slurmd munged sbatch squeue scontrol scancel python3; do
    command -v $p >/dev/null 2>&1 || { echo "SKIP: $p not found (apt-get install slurm-wlm munge python3)"; exit 77; }
done
tmp=$(mktemp -d)
fail=0
check() {
    what=$1; shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
S=$tmp/slurm
trap 'sh "$SRC/tools/slurm/local_cluster.sh" stop "$S"; rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM
sh "$SRC/tools/slurm/local_cluster.sh" start "$S" >"$tmp/start.out" 2>&1
check "a one-node cluster is up (tools/slurm/local_cluster.sh start)" [ $? -eq 0 ]
grep -q '^export SLURM_CONF=' "$tmp/start.out" || { cat "$tmp/start.out"; exit 1; }
export SLURM_CONF="$S/slurm.conf"

# state of a job (array tasks merged) once it has ended; "" on timeout
wait_job() {   # wait_job ID SECONDS
    for i in $(seq 1 "$2"); do
        st=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' ')
        case $st in *PENDING*|*RUNNING*|*CONFIGURING*|*COMPLETING*|'') sleep 1 ;; *) echo "$st"; return ;; esac
    done
}
same_report() {   # same_report DIR
    for f in runs.csv metrics.csv checks.csv; do cmp -s "$tmp/full/$f" "$1/$f" || return 1; done
}

# ---- the case set, one machine ----
cd "$tmp" || exit 2
mkdir -p set/adapters
for c in cases/harmonic-orders.case cases/compare-twin53.case cases/kepler-e06.case \
         tests/data/external-midstep.case; do
    cp "$SRC/$c" set/
done
cp "$SRC"/tests/data/adapters/leapfrog-mid*.adapter "$SRC"/tests/data/adapters/leapfrog_mid.py set/adapters/
$MB run -q -j 2 set -o full >full.out 2>&1
check "single-machine run: exit 0" [ $? -eq 0 ]

# ---- 3 shards and the merge on Slurm ----
sh "$SRC/tools/slurm/submit.sh" -n 3 -o merged -m "$MB" -c cache -w work set >submit.out 2>&1
check "submit.sh: exit 0" [ $? -eq 0 ]
read -r job merge <work/jobs || { cat submit.out; exit 1; }
check "squeue shows the array and the merge" sh -c "squeue -h -j $job,$merge -o %i | grep -q ." 
st=$(wait_job "$merge" 600)
check "merge job COMPLETED (got '$st')" [ "$st" = "COMPLETED " ]
check "array tasks COMPLETED" sh -c "[ \"\$(scontrol show job $job | sed -n 's/.*JobState=\([A-Z]*\).*/\1/p' | sort -u)\" = COMPLETED ]"
check "3 shard directories" [ "$(ls work/shards | wc -l)" -eq 3 ]
check "merged report byte-identical to the single run" same_report merged
check "timing.csv has every run" [ "$(wc -l <merged/timing.csv)" -eq "$(wc -l <full/timing.csv)" ]

# ---- a cancelled task: missing units, resubmitted alone ----
sh "$SRC/tools/slurm/submit.sh" -n 3 -o merged2 -m "$MB" -c cache -w work2 -s "--hold" set >submit2.out 2>&1
read -r job2 merge2 <work2/jobs
scancel "${job2}_2"
scontrol release "${job2}_1" "${job2}_3" "$merge2"
wait_job "$job2" 600 >/dev/null
# the controller re-evaluates dependencies in its scheduling passes, some seconds apart on
# a loaded machine: poll for the reason (up to 120 s) instead of reading it once
for i in $(seq 1 120); do
    reason=$(squeue -h -j "$merge2" -o %r 2>/dev/null)
    [ "$reason" = DependencyNeverSatisfied ] && break
    sleep 1
done
check "merge job waits on the failed array (reason '$reason')" [ "$reason" = DependencyNeverSatisfied ]
check "the cancelled shard is missing" [ ! -e work2/shards/2/shard.txt ]
$MB merge -q work2/shards/* -o byhand >byhand.out 2>&1
rc=$?
check "merge by hand: exit 2 (got $rc)" [ $rc -eq 2 ]
check "merge by hand: names the units of shard 2 of 3" grep -q "units missing: .*shard(s) 2 of 3" byhand.out
check "merge by hand: no report" [ ! -e byhand ]
scancel "$merge2"
again=$(sbatch --parsable --array=2 work2/shard.sbatch)
again=${again%%;*}
merge3=$(sbatch --parsable --dependency=afterok:"$again" work2/merge.sbatch)
merge3=${merge3%%;*}
st=$(wait_job "$merge3" 600)
check "resubmitted task and merge COMPLETED (got '$st')" [ "$st" = "COMPLETED " ]
check "report after the resubmission byte-identical" same_report merged2
[ $fail -eq 0 ] || { tail -n 20 "$S/slurmctld.log"; cat "$tmp"/work*/logs/*.out; }
exit $fail
