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
# command with --resume plays only its missing matches.
set -euo pipefail
[ $# -ge 4 ] && [ "$4" = "--" ] || { sed -n 2,15p "$0" >&2; exit 2; }
name=$1 seed=$2 hosts=$3
shift 4
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
n=$(( $(tr ',' '\n' <<<"$hosts" | wc -l) * 4 ))
args=$(printf '%q ' "$@")
mkdir -p "results/$name"
# Each job runs in $repo on a host (--workdir) and its shard directory is copied back here
# (--return, relative to $repo on both sides). --jobs 1: one shard at a time per host.
seq 1 "$n" | parallel --jobs 1 --sshlogin "$hosts" --workdir "$repo" --line-buffer --tag \
  --return "results/$name/shard-{}-of-$n" \
  "resume=\$([ -f results/$name/shard-{}-of-$n/tournament.json ] && echo --resume); \
   target/release/referee tournament $args --seed $seed --name $name --shard {}/$n \$resume"
target/release/referee merge results/"$name"/shard-*-of-"$n"
