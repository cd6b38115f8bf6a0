#!/usr/bin/env bash
# A tournament on a Slurm cluster, with one command (docs/cluster.md is the guide):
#
#   scripts/slurm-tournament.sh submit NAME --seed S --shards N [OPTIONS] -- CHAMPION... [FLAGS]
#   scripts/slurm-tournament.sh rerun NAME I[,J...]   # shards again (a failed task), then merge
#   scripts/slurm-tournament.sh status NAME           # referee status results/NAME, and squeue
#
# `submit` checks on this machine, before submitting anything, that the referee is built,
# that the champions pass the pre-run check, that every file the nodes read is on a shared
# filesystem (when the cluster has other nodes than this one) and that a node has the CPUs
# asked; then it submits an array job (task I plays shard I/N of the schedule into
# results/NAME/shard-I-of-N/) and a merge job that runs once every task succeeded
# (--dependency=afterok), and prints their ids and how to watch and cancel them.
# CHAMPION... [FLAGS] are those of `referee tournament` (--format, --rounds, --matches,
# --from-dir, --manifest, limits, ...). Options:
#   --cpus C       CPUs of each task, and its --jobs (matches at once) [4, at most a node's]
#   --time T       each task's time limit (sbatch --time) [04:00:00]
#   --partition P  the partition (sbatch --partition)
#   --sbatch ARG   one more sbatch argument, for both jobs (repeatable)
#   --shared       the files are on a filesystem every node sees, whatever its type says
# A task killed (scancel, node failure, time limit, preemption) loses its matches in flight
# only: `rerun NAME I` plays what shard I misses, and submits the merge again. Logs go
# beside the key, in KEY.slurm-logs/ (the key's name without .key), never into the results:
# Slurm writes them as you, following links, and whoever writes the results could make one
# a link to your files. It runs where you run it: relative paths (champions, --from-dir,
# --manifest, RESULTS) are taken from the folder you submit from, where the jobs run too
# (run `rerun` from there as well). The referee is $REFEREE (default the repository's
# target/release/referee), the results directory $RESULTS (default ./results). The key that
# authenticates the results is $REFEREE_KEY (default: the referee's own for
# results/NAME, in ~/.local/state/prologin-referee/keys), on a filesystem every node
# sees and readable by you alone: each task and the merge get it as `--key FILE`.
# (Slurm runs the tasks and the merge as `task` and `merge` of this script.)
set -euo pipefail

usage() { sed -n 2,30p "$0" >&2; exit 2; }
die() { echo "slurm-tournament: $*" >&2; exit 2; }
# The repository holds the referee. In a job, Slurm runs a copy of this script (elsewhere):
# the referee and the results come in the job's environment, as `submit` found them.
repo=$(cd "$(dirname "$0")/.." 2>/dev/null && pwd)
script=$repo/scripts/slurm-tournament.sh
referee=${REFEREE:-$repo/target/release/referee}
results=${RESULTS:-results}
# Absolute, so that every line printed works from any folder, and the jobs (started in
# this folder, `--chdir`) find the same ones.
case $referee in /*) ;; */*) referee=$PWD/$referee ;; esac
case $results in /*) ;; *) results=$PWD/$results ;; esac

# The key file of tournament $1: $REFEREE_KEY, else the referee's default for
# $results/$1 (auth/key_file.rs: the first 32 hexadecimal digits of the SHA-256 of its
# absolute path, in the state directory). Never in the results: whoever writes them must
# not read or replace it.
key_of() {
  if [ -n "${REFEREE_KEY:-}" ]; then
    printf '%s\n' "$REFEREE_KEY"
    return
  fi
  mkdir -p "$results"
  local top digest
  top=$(cd "$results" && pwd -P)/$1
  digest=$(printf '%s' "$top" | sha256sum | cut -c1-32)
  printf '%s\n' "${XDG_STATE_HOME:-$HOME/.local/state}/prologin-referee/keys/$digest.key"
}

# Filesystems that only their own machine sees.
local_fs() {
  case $(stat -f -c %T "$1" 2>/dev/null) in
    ext2/ext3 | ext4 | xfs | btrfs | tmpfs | overlayfs | zfs | f2fs | jfs | reiserfs | msdos | vfat) return 0 ;;
    *) return 1 ;;
  esac
}

# Whether the cluster has a node other than this machine.
other_nodes() {
  local me node
  me=$(hostname -s)
  for node in $(sinfo -h -N -o %N | sort -u); do
    case $node in "$me" | localhost | "$(hostname)") ;; *) return 0 ;; esac
  done
  return 1
}

submit() {
  [ $# -ge 1 ] || usage
  local name=$1 seed="" shards="" cpus="" time=04:00:00 shared=0
  local sbatch_args=()
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
      --seed) seed=$2; shift 2 ;;
      --shards) shards=$2; shift 2 ;;
      --cpus) cpus=$2; shift 2 ;;
      --time) time=$2; shift 2 ;;
      --partition) sbatch_args+=("--partition=$2"); shift 2 ;;
      --sbatch) sbatch_args+=("$2"); shift 2 ;;
      --shared) shared=1; shift ;;
      *) die "unknown option $1 (before --); see the top of $0" ;;
    esac
  done
  [ "${1:-}" = "--" ] || die "give the champions and tournament flags after --"
  shift
  [[ $seed =~ ^[0-9]+$ ]] || die "--seed S is required (a number): every shard derives its matches from it"
  [[ $shards =~ ^[1-9][0-9]*$ ]] || die "--shards N is required (a positive number)"
  for flag in "$@"; do
    case $flag in
      --seed | --seed=* | --name | --name=* | --shard | --shard=* | --jobs | --jobs=* | --resume | --results | --results=*)
        die "$flag is set by this script (--seed, NAME, --shards, --cpus); leave it out" ;;
    esac
  done
  command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm submit host"
  [ -x "$referee" ] || die "$referee is not built: cargo build --release (on the shared filesystem), or set REFEREE"
  local largest
  largest=$(sinfo -h -o %c | tr -d '+' | sort -n | tail -1)
  [[ $largest =~ ^[0-9]+$ ]] || die "sinfo gives no node's CPUs: is the cluster up? (sinfo)"
  if [ -z "$cpus" ]; then
    cpus=$((largest < 4 ? largest : 4))
  elif ! [[ $cpus =~ ^[1-9][0-9]*$ ]] || [ "$cpus" -gt "$largest" ]; then
    die "--cpus $cpus: the largest node has $largest CPUs; the tasks would stay pending for ever"
  fi
  local dir=$results/$name key
  [ -e "$dir/shard-1-of-$shards/tournament.json" ] &&
    die "$dir already holds shards of $shards: rerun NAME I for a failed shard, or choose another NAME"
  key=$(key_of "$name")
  # The pre-run check, once, here: the champions start and answer init_game. A shard that
  # no match falls into plays nothing after the check. It also creates the tournament's
  # key (random, mode 0600) if there is none.
  local check
  check=$(mktemp -d "${TMPDIR:-/tmp}/slurm-tournament-check.XXXXXX")
  # shellcheck disable=SC2064 # expand now
  trap "rm -rf '$check'" EXIT
  echo "pre-run check on $(hostname -s):" >&2
  "$referee" tournament "$@" --seed "$seed" --name check --results "$check" \
    --shard 999999999/999999999 --jobs 1 --key "$key" >/dev/null ||
    die "the pre-run check failed (above): fix it before submitting"
  if [ "$shared" = 0 ] && other_nodes; then
    local path
    # The referee, the results, the key and every champion's file must be seen by every node.
    mkdir -p "$results"
    for path in "$referee" "$repo" "$PWD" "$results" "$key" $(sed -n 's/^ *"path": "\(.*\)",$/\1/p' "$check/check/shard-999999999-of-999999999/tournament.json"); do
      [ -e "$path" ] || continue
      local_fs "$path" && die "$path is on a local filesystem ($(stat -f -c %T "$path")) that the other nodes do not see: put the repository and the champions on the shared filesystem, and the key in a folder of it that only you can read (REFEREE_KEY=FILE), or pass --shared if it is one"
    done
  fi
  # What `rerun` submits again: beside the key, out of the results (whoever writes them
  # would otherwise choose what this script runs).
  {
    printf 'seed=%q shards=%q cpus=%q time=%q work=%q\n' "$seed" "$shards" "$cpus" "$time" "$PWD"
    printf 'sbatch_args=('
    [ ${#sbatch_args[@]} -eq 0 ] || printf '%q ' "${sbatch_args[@]}"
    printf ')\nflags=('
    [ $# -eq 0 ] || printf '%q ' "$@"
    printf ')\n'
  } >"$(saved_of "$key")"
  enqueue "$name" "1-$shards"
}

# Where `submit` keeps what `rerun` submits again: beside the key $1.
saved_of() { printf '%s\n' "${1%.key}.slurm.sh"; }

# Where Slurm writes the jobs' logs: beside the key $1 too, a folder only you may write
# (Slurm opens a log as you, following links: in the results, a link planted there by
# whoever writes them would have a job's output truncate and fill your files).
logs_of() { printf '%s\n' "${1%.key}.slurm-logs"; }

# Submits shards $2 (an --array list) of tournament $1 and a merge after them.
enqueue() {
  local name=$1 array=$2 dir=$results/$1
  local seed shards cpus time sbatch_args flags key work=$PWD
  key=$(key_of "$name")
  # shellcheck disable=SC1090
  source "$(saved_of "$key")"
  # The jobs' environment: the referee and the results as found here (sbatch exports it).
  export REFEREE=$referee RESULTS=$results
  local tasks merge logs
  logs=$(logs_of "$key")
  (umask 077 && mkdir -p "$logs")
  tasks=$(sbatch --parsable --array="$array" --job-name="$name" --cpus-per-task="$cpus" \
    --time="$time" --requeue --chdir="$work" --output="$logs/shard-%a.%A.log" \
    "${sbatch_args[@]+"${sbatch_args[@]}"}" "$0" task "$name" "$shards" "$seed" "$key" -- "${flags[@]+"${flags[@]}"}")
  tasks=${tasks%%;*}
  # The merge also waits for this tournament's other tasks still queued or running (a
  # shard re-run while the others play), whatever their end: it refuses an incomplete set.
  local id after=afterok:$tasks
  for id in $(squeue -h --name="$name" -o %F 2>/dev/null | sort -u); do
    [ "$id" = "$tasks" ] || after+=",afterany:$id"
  done
  merge=$(sbatch --parsable --dependency="$after" --kill-on-invalid-dep=yes \
    --job-name="$name-merge" --cpus-per-task=1 --chdir="$work" \
    --output="$logs/merge.%j.log" "${sbatch_args[@]+"${sbatch_args[@]}"}" "$0" merge "$name" "$shards" "$key")
  merge=${merge%%;*}
  cat <<EOF
submitted tournament $name: shards $array of $shards as job $tasks, merge as job $merge (after they all succeed)
watch:   squeue -j $tasks,$merge     $referee status $dir     tail -f $logs/shard-1.$tasks.log
cancel:  scancel $tasks $merge
a failed or cancelled shard I: $script rerun $name I   (plays only its missing matches, then merges; from $work)
results: $dir/leaderboard.csv once job $merge is done (its log: $logs/merge.$merge.log)
EOF
}

task() {
  local name=$1 shards=$2 seed=$3 key=$4
  shift 4
  [ "${1:-}" = "--" ] && shift
  local i=${SLURM_ARRAY_TASK_ID:?run by submit, as an array job}
  local dir=$results/$name/shard-$i-of-$shards
  local jobs=${SLURM_CPUS_PER_TASK:-1}
  echo "shard $i/$shards of $name on $(hostname -s), job ${SLURM_ARRAY_JOB_ID:-?}_$i, --jobs $jobs" >&2
  # A task started again (rerun, requeue) resumes: only the missing matches are played,
  # its seed checked against the shard's.
  if [ -f "$dir/tournament.json" ]; then
    exec "$referee" tournament --name "$name" --results "$results" --shard "$i/$shards" \
      --jobs "$jobs" --seed "$seed" --key "$key" --resume
  fi
  exec "$referee" tournament "$@" --seed "$seed" --name "$name" --results "$results" \
    --shard "$i/$shards" --jobs "$jobs" --key "$key"
}

merge() {
  local name=$1 shards=$2 key=$3 i dirs=()
  for i in $(seq 1 "$shards"); do dirs+=("$results/$name/shard-$i-of-$shards"); done
  exec "$referee" merge --key "$key" "${dirs[@]}"
}

case ${1:-} in
  submit) shift; submit "$@" ;;
  rerun)
    [ $# -eq 3 ] || usage
    [ -f "$(saved_of "$(key_of "$2")")" ] ||
      die "$results/$2 was not submitted by this script: run rerun from the folder submit ran in (or give RESULTS=DIR), with the same REFEREE_KEY if one was given"
    enqueue "$2" "$3" ;;
  status)
    [ $# -eq 2 ] || usage
    "$referee" status "$results/$2"
    squeue -h -n "$2,$2-merge" -o '%i %j %T %M %R' 2>/dev/null || true ;;
  task) shift; task "$@" ;;
  merge) shift; merge "$@" ;;
  *) usage ;;
esac
