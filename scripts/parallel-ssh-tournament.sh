#!/usr/bin/env bash
# A tournament spread over several machines with GNU parallel over ssh: shard I of N runs
# on one of the HOSTS (each with the repository at the same path, champions and referee
# built), its results are brought back, and `referee merge` combines them here.
#
#   scripts/parallel-ssh-tournament.sh NAME SEED "host1,host2,host3" -- CHAMPION... [FLAGS]
#
# Example:
#   scripts/parallel-ssh-tournament.sh final 2009 "node1,node2" -- \
#     --from-dir champions-final --format groups --matches 100
#
# N is 4 shards per host; each host runs one shard at a time with all its cores (--jobs
# defaults to the number of cores). A shard that failed is simply run again: the same
# command plays only its missing matches (--resume), and the merge refuses an incomplete
# shard, naming it. The referee is $REFEREE (default target/release/referee), the results
# directory $RESULTS (default results); ssh options go in PARALLEL_SSH (GNU parallel's).
# The key that authenticates the results is $REFEREE_KEY (default: the referee's own for
# results/NAME, in ~/.local/state/prologin-referee/keys), created here if missing, copied
# to each host at the same path (mode 0600) and given to every shard and to the merge.
# docs/cluster.md is the guide.
set -euo pipefail
[ $# -ge 4 ] && [ "$4" = "--" ] || { sed -n 2,20p "$0" >&2; exit 2; }
name=$1 seed=$2 hosts=$3
shift 4
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
referee=${REFEREE:-target/release/referee}
results=${RESULTS:-results}
n=$(( $(tr ',' '\n' <<<"$hosts" | wc -l) * 4 ))
args=$(printf '%q ' "$@")
q() { printf '%q' "$1"; }
mkdir -p "$results/$name"
# The key: the referee's default for $results/$name (auth/key_file.rs: the first 32
# hexadecimal digits of the SHA-256 of its absolute path), never in the results.
if [ -n "${REFEREE_KEY:-}" ]; then
  key=$REFEREE_KEY
else
  digest=$(printf '%s' "$(cd "$results" && pwd -P)/$name" | sha256sum | cut -c1-32)
  key=${XDG_STATE_HOME:-$HOME/.local/state}/prologin-referee/keys/$digest.key
fi
case $key in /*) ;; *) key=$PWD/$key ;; esac
if [ ! -e "$key" ]; then
  (
    umask 077
    mkdir -p "$(dirname "$key")"
    { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; echo; } >"$key.$$"
    ln "$key.$$" "$key" 2>/dev/null || true
    rm -f "$key.$$"
  )
fi
# Each job runs in $repo on a host (--workdir) and its shard directory is copied back here
# (--return, relative to $repo on both sides: rsync, which puts a folder in place of a link
# it finds where the shard's folders go, never writing through it). Nothing of the results
# is sourced or run here, and no log is written into them: GNU parallel prints each job's
# output here (--tag). --jobs 1: one shard at a time per host. A
# shard that has its tournament.json already resumes (only its missing matches).
shard="$(q "$results/$name")/shard-{}-of-$n"
# The key reaches each host at the same absolute path (--basefile, before its first job).
seq 1 "$n" | parallel --jobs 1 --sshlogin "$hosts" --workdir "$repo" --line-buffer --tag \
  --basefile "$key" --return "$results/$name/shard-{}-of-$n" \
  "if [ -f $shard/tournament.json ]; then \
     $(q "$referee") tournament --name $(q "$name") --results $(q "$results") --shard {}/$n --seed $seed --key $(q "$key") --resume; \
   else \
     $(q "$referee") tournament $args --seed $seed --name $(q "$name") --results $(q "$results") --shard {}/$n --key $(q "$key"); \
   fi"
dirs=()
for i in $(seq 1 "$n"); do dirs+=("$results/$name/shard-$i-of-$n"); done
"$referee" merge --key "$key" "${dirs[@]}"
