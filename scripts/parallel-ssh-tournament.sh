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
# Each job runs in $repo on a host (--workdir) and its shard directory is copied back here
# (--return, relative to $repo on both sides). --jobs 1: one shard at a time per host. A
# shard that has its tournament.json already resumes (only its missing matches).
shard="$(q "$results/$name")/shard-{}-of-$n"
seq 1 "$n" | parallel --jobs 1 --sshlogin "$hosts" --workdir "$repo" --line-buffer --tag \
  --return "$results/$name/shard-{}-of-$n" \
  "if [ -f $shard/tournament.json ]; then \
     $(q "$referee") tournament --name $(q "$name") --results $(q "$results") --shard {}/$n --resume; \
   else \
     $(q "$referee") tournament $args --seed $seed --name $(q "$name") --results $(q "$results") --shard {}/$n; \
   fi"
dirs=()
for i in $(seq 1 "$n"); do dirs+=("$results/$name/shard-$i-of-$n"); done
"$referee" merge "${dirs[@]}"
