#!/bin/sh
# local_cluster.sh -- a one-node Slurm cluster on this machine, for trying the Slurm route
# of doc/cluster.md and for tests/test_slurm.sh: its own munge key and socket, a minimal
# slurm.conf (this host as controller and node, proctrack/linuxproc, task/none,
# select/cons_tres, partition mbtest), state, logs and pid files under DIR, ports chosen
# from the process id.
#
# usage: tools/slurm/local_cluster.sh start DIR   (as root; then export SLURM_CONF=DIR/slurm.conf)
#        tools/slurm/local_cluster.sh stop DIR    (cancels the partition's jobs, stops the
#                                                  daemons started by start DIR)
# Exit: 0 done, 1 a daemon did not start (its log is printed), 2 usage.
set -u
[ $# -eq 2 ] || { sed -n '8,11p' "$0" >&2; exit 2; }
S=$(mkdir -p "$2" && cd "$2" && pwd) || exit 2

stop() {
    export SLURM_CONF="$S/slurm.conf"
    pids=$(cat "$S/pids" 2>/dev/null)
    [ -n "$pids" ] && scancel --quiet --partition=mbtest 2>/dev/null
    for p in $pids; do kill "$p" 2>/dev/null; done
    for i in 1 2 3 4 5 6 7 8 9 10; do
        alive=0
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 1
    done
    [ -S "$S/munge/sock" ] && munged --stop --socket="$S/munge/sock" >/dev/null 2>&1
    rm -f "$S/pids"
    return 0
}

start() {
    mkdir -p "$S/state" "$S/spool" "$S/munge" && chmod 755 "$S/munge" || return 1
    dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$S/munge/munge.key"
    munged --force --socket="$S/munge/sock" --key-file="$S/munge/munge.key" \
        --pid-file="$S/munge/pid" --log-file="$S/munge/log" --seed-file="$S/munge/seed" \
        || { echo "local_cluster.sh: munged does not start" >&2; cat "$S/munge/log" >&2; return 1; }
    host=$(hostname -s)
    port=$((20000 + ($$ % 10000) * 2))
    cat >"$S/slurm.conf" <<EOT
ClusterName=mbtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=mbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOT
    export SLURM_CONF="$S/slurm.conf"
    slurmctld -f "$S/slurm.conf" && slurmd -f "$S/slurm.conf" \
        || { echo "local_cluster.sh: slurmctld or slurmd does not start" >&2; tail "$S"/*.log >&2; return 1; }
    : >"$S/pids"
    for f in slurmctld slurmd; do   # the daemons write their pid files once they run
        for i in $(seq 1 10); do [ -s "$S/$f.pid" ] && break; sleep 1; done
        cat "$S/$f.pid" >>"$S/pids" 2>/dev/null
    done
    for i in $(seq 1 30); do
        sinfo -h -o %t 2>/dev/null | grep -q idle && { echo "export SLURM_CONF=$S/slurm.conf"; return 0; }
        sleep 1
    done
    echo "local_cluster.sh: the node did not become idle in 30 s" >&2
    tail "$S"/*.log >&2
    return 1
}

case $1 in
start) start || { stop; exit 1; } ;;
stop) stop ;;
*) sed -n '8,11p' "$0" >&2; exit 2 ;;
esac
