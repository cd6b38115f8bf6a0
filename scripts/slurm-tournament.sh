#!/usr/bin/env bash
# A tournament as a Slurm array job: task I of N plays shard I/N of the schedule into
# results/<name>/shard-I-of-N/ (a shared filesystem), and a last job, run after the
# array, merges them. Every task computes the same schedule from the same seed, so no
# coordination is needed; a task that died is re-run with the same command (--resume
# plays only its missing matches).
#
#   sbatch --array=1-8 scripts/slurm-tournament.sh        # the shards
#   sbatch --dependency=afterany:<array job id> --wrap \
#     'target/release/referee merge results/final/shard-*-of-8'   # the merge
#
# Edit NAME, SEED and CHAMPIONS below (or set them in the environment). The referee and
# the champions must be built on the shared filesystem first (scripts/build-champions.sh,
# cargo build --release).
#SBATCH --job-name=tournament
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=results/slurm-%A_%a.log
set -euo pipefail
NAME=${NAME:-final}
SEED=${SEED:-2009}
CHAMPIONS=${CHAMPIONS:---from-dir champions-final}
FORMAT=${FORMAT:---format groups --matches 100}
referee=${REFEREE:-target/release/referee}
: "${SLURM_ARRAY_TASK_ID:?run with sbatch --array=1-N}"
: "${SLURM_ARRAY_TASK_COUNT:?run with sbatch --array=1-N}"
shard="$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"
dir="results/$NAME/shard-$SLURM_ARRAY_TASK_ID-of-$SLURM_ARRAY_TASK_COUNT"
resume=()
[ -f "$dir/tournament.json" ] && resume=(--resume)
# shellcheck disable=SC2086 # CHAMPIONS and FORMAT are word lists
exec "$referee" tournament $CHAMPIONS $FORMAT --seed "$SEED" --name "$NAME" \
  --shard "$shard" --jobs "${SLURM_CPUS_PER_TASK:-1}" "${resume[@]}"
