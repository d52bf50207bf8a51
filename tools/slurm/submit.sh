#!/bin/sh
# submit.sh -- run a motionbench case set on a Slurm cluster: a job array of N shards
# (motionbench run --shard K/N) and a merge job that starts when every shard has succeeded
# (sbatch --dependency=afterok), writing the report of the whole set (doc/cluster.md).
#
# usage: tools/slurm/submit.sh -n N -o OUT [-m MOTIONBENCH] [-c REF_CACHE] [-j JOBS]
#                              [-w WORKDIR] [-s "SBATCH OPTIONS"] [--write-only] [CASE|DIR ...]
#   -n N          number of shards (array tasks 1..N)
#   -o OUT        report directory written by the merge job
#   -m PROGRAM    the motionbench program (default: motionbench on PATH)
#   -c DIR        reference cache shared by the shards (run --ref-cache)
#   -j JOBS       threads of each shard (run --jobs; default 1, one per task's CPU)
#   -w WORKDIR    where the scripts, shards/K and logs/ go (default OUT.slurm)
#   -s OPTIONS    more sbatch options for both jobs (partition, time, account, ...)
#   --write-only  write the two scripts and print the sbatch commands, submit nothing
# Every path must be visible from every node (a shared file system).  Without CASE|DIR the
# program's default case library runs.
# Exit: 0 submitted (or written), 2 usage error or sbatch failure.
set -u
n='' out='' mb=motionbench cache='' jobs=1 work='' sopts='' write_only=0
usage() { sed -n '6,17p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    -n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
    -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -m) [ $# -ge 2 ] || usage; mb=$2; shift 2 ;;
    -c) [ $# -ge 2 ] || usage; cache=$2; shift 2 ;;
    -j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    -w) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
    -s) [ $# -ge 2 ] || usage; sopts=$2; shift 2 ;;
    --write-only) write_only=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "submit.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
case $n in ''|*[!0-9]*|0) echo "submit.sh: -n N: give a whole number of shards >= 1" >&2; exit 2 ;; esac
[ -n "$out" ] || { echo "submit.sh: -o OUT: give the report directory" >&2; exit 2; }
[ -n "$work" ] || work=$out.slurm
# absolute paths: the jobs may start elsewhere
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
case $mb in */*) mb=$(abs "$mb") ;; esac
out=$(abs "$out")
work=$(abs "$work")
[ -z "$cache" ] || cache=$(abs "$cache")
# single-quoted words for the scripts
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
cases=''
for c in "$@"; do cases="$cases $(q "$c")"; done
mkdir -p "$work/logs" "$work/shards" || exit 2
cat >"$work/shard.sbatch" <<EOT
#!/bin/sh
# shard \$SLURM_ARRAY_TASK_ID of $n of a motionbench case set (tools/slurm/submit.sh)
#SBATCH --job-name=mb-shard
#SBATCH --chdir=$(pwd)
#SBATCH --output=$work/logs/shard-%a.out
#SBATCH --cpus-per-task=$jobs
exec $(q "$mb") run -q -j $jobs --shard "\$SLURM_ARRAY_TASK_ID/$n"${cache:+ --ref-cache $(q "$cache")} -o $(q "$work")/shards/"\$SLURM_ARRAY_TASK_ID"$cases
EOT
cat >"$work/merge.sbatch" <<EOT
#!/bin/sh
# the merge of the $n shards of a motionbench case set (tools/slurm/submit.sh): the shard
# directories present; a missing one is reported as its missing units
#SBATCH --job-name=mb-merge
#SBATCH --chdir=$(pwd)
#SBATCH --output=$work/logs/merge.out
set -- $(q "$work")/shards/*
exec $(q "$mb") merge -q "\$@" -o $(q "$out")
EOT
if [ $write_only -eq 1 ]; then
    echo "job=\$(sbatch --parsable --array=1-$n $sopts $work/shard.sbatch)"
    echo "sbatch --parsable --dependency=afterok:\$job $sopts $work/merge.sbatch"
    exit 0
fi
# shellcheck disable=SC2086  # sopts holds several options
job=$(sbatch --parsable --array=1-"$n" $sopts "$work/shard.sbatch") || exit 2
job=${job%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency=afterok:"$job" $sopts "$work/merge.sbatch") || exit 2
merge=${merge%%;*}
echo "shards: job $job (array 1-$n), merge: job $merge; watch with: squeue -j $job,$merge"
echo "a failed task K: sbatch --array=K $work/shard.sbatch, then the merge after it"
echo "$job $merge" >"$work/jobs"
