#!/bin/sh
# A one-node Slurm cluster on this machine, for the batch example and its test.
#
#   Scripts/slurm-local.sh start   # munged, slurmctld, slurmd; prints the SLURM_CONF to export
#   Scripts/slurm-local.sh stop
#
# Needs root and Debian's slurm-wlm and munge (apt-get install -y slurm-wlm munge). Everything it
# writes is under $SUBWEAVE_SLURM_DIR (default /tmp/subweave-slurm); the configuration has no
# accounting database (a one-node cluster does not need one), so `sbatch --wait` is how a
# submitter learns that every array task ended well.
set -eu
dir=${SUBWEAVE_SLURM_DIR:-/tmp/subweave-slurm}
conf=$dir/slurm.conf

stop() {
    for name in slurmd slurmctld munged; do
        if [ -f "$dir/$name.pid" ]; then
            kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
            rm -f "$dir/$name.pid"
        fi
    done
}

start() {
    for tool in munged slurmctld slurmd sbatch scontrol; do
        command -v "$tool" >/dev/null 2>&1 || {
            echo "slurm-local: $tool is missing; install it with: apt-get install -y slurm-wlm munge" >&2
            exit 1
        }
    done
    stop
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    host=$(hostname -s)
    # The key: the one the package made, else a new one for this cluster alone.
    key=/etc/munge/munge.key
    if [ ! -r "$key" ]; then
        key=$dir/munge/munge.key
        [ -f "$key" ] || { dd if=/dev/urandom of="$key" bs=1 count=1024 2>/dev/null; chmod 600 "$key"; }
    fi
    munged --force --key-file="$key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"
    cat >"$conf" <<CONF
ClusterName=subweave
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
# Schedule every couple of seconds (a requeued task is started within them, not a minute later).
SchedulerParameters=sched_interval=2,bf_interval=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$conf"
    slurmctld -f "$conf"
    slurmd -f "$conf"
    # Ready when the node is idle (up to 60 s).
    i=0
    until sinfo -h -o %T 2>/dev/null | grep -q idle; do
        i=$((i + 1))
        if [ $i -gt 120 ]; then
            echo "slurm-local: the node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "export SLURM_CONF=$conf"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*) echo "usage: $0 start|stop" >&2; exit 64 ;;
esac
