#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, in a directory of its own, for tests and for
# trying scripts/slurm-tournament.sh (docs/cluster.md): munged with a key generated here,
# slurmctld and slurmd with a generated slurm.conf, on free ports. Needs root and the
# Debian packages slurm-wlm and munge (scripts/ci-install.sh).
#
#   scripts/slurm-local.sh start DIR   # prints `export SLURM_CONF=DIR/slurm.conf`
#   scripts/slurm-local.sh stop DIR    # cancels every job, stops every daemon it started
#
# PROCTRACK and TASK choose ProctrackType and TaskPlugin (default proctrack/linuxproc and
# task/none, which need no cgroup set-up); with proctrack/cgroup or task/cgroup a
# cgroup.conf (CgroupPlugin=autodetect) is written too.
set -euo pipefail
[ $# -eq 2 ] || { sed -n 2,8p "$0" >&2; exit 2; }
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
export SLURM_CONF=$dir/slurm.conf

stop() {
  scancel --quiet --full --user=root 2>/dev/null || true
  local daemon pid
  for daemon in slurmd slurmctld munged; do
    pid=$(cat "$dir/$daemon.pid" 2>/dev/null || true)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for daemon in slurmd slurmctld munged; do
    pid=$(cat "$dir/$daemon.pid" 2>/dev/null || true)
    for _ in $(seq 50); do
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$daemon.pid"
  done
}

# A TCP port nobody listens on.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  [ "$(id -u)" = 0 ] || { echo "slurm-local: run as root (slurmd starts jobs as their users)" >&2; exit 2; }
  for tool in munged slurmctld slurmd sbatch python3; do
    command -v "$tool" >/dev/null || { echo "slurm-local: $tool is missing (apt-get install slurm-wlm munge)" >&2; exit 3; }
  done
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  # munged wants its files private to its user; jobs of other users read the spool.
  chmod 755 "$dir"
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge.sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munge.seed"
  local host cpus memory ctld slurmd proctrack=${PROCTRACK:-proctrack/linuxproc}
  local task=${TASK:-task/none}
  host=$(hostname -s)
  cpus=$(nproc)
  memory=$(($(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 1024 / 2))
  ctld=$(free_port)
  slurmd=$(free_port)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld
SlurmdPort=$slurmd
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=$proctrack
TaskPlugin=$task
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=30
SchedulerParameters=sched_interval=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  case "$proctrack $task" in
    *cgroup*) printf 'CgroupPlugin=autodetect\nCgroupAutomount=yes\nConstrainCores=yes\n' >"$dir/cgroup.conf" ;;
  esac
  slurmctld -c -f "$dir/slurm.conf"
  slurmd -f "$dir/slurm.conf"
  for _ in $(seq 150); do
    if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
      echo "export SLURM_CONF=$dir/slurm.conf"
      return
    fi
    sleep 0.2
  done
  echo "slurm-local: the node did not come up in 30 s; logs: $dir/slurmctld.log, $dir/slurmd.log" >&2
  tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  stop
  exit 1
}

case $action in
  start) start ;;
  stop) stop ;;
  *) sed -n 2,8p "$0" >&2; exit 2 ;;
esac
