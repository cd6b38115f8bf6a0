#!/usr/bin/env bash
# Does one tournament slow another down? Matches per second of a round-robin of six copies
# of the trivial C champion (champions/c/random), alone and then two at once (same
# command, started together), with --jobs 1 and --jobs 2, for each variant. Each pair is
# run right after its solo run, so compare each tournament's rate with the solo rate of
# the same rep (the machine may be shared). The figures are written down in
# referee/BENCHMARKS.md, section "Pinning".
#
#   scripts/bench-pinning.sh [VARIANT...]
#
# A VARIANT is LABEL=BINARY[,FLAG...]: default `pin=<release referee>` and
# `no-pin=<release referee>,--no-pin`. Environment: REFEREE (the referee binary; skips
# the release build), ROUNDS (default 3: 60 matches a tournament), REPS (default 3),
# JOBS (default "1 2").
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
reps=${REPS:-3}
jobs_list=${JOBS:-1 2}
make -s -C champions/c/random >/dev/null
if [ -z "${REFEREE:-}" ]; then
  cargo build --release -p referee >/dev/null 2>&1
  REFEREE="${CARGO_TARGET_DIR:-target}/release/referee"
fi
[ $# -gt 0 ] || set -- "pin=$REFEREE" "no-pin=$REFEREE,--no-pin"
work=$(mktemp -d)
chmod 755 "$work" # champions run as other uids under the sandbox
trap 'rm -rf "$work"' EXIT
# Six copies: a champion may be listed once only.
champions=()
for i in 1 2 3 4 5 6; do
  mkdir "$work/c$i"
  cp champions/c/random/champion "$work/c$i/champion"
  champions+=("$work/c$i")
done

# run NAME JOBS BINARY FLAGS...: one tournament; prints its matches/s (matches alone).
run() {
  local name=$1 jobs=$2 binary=$3
  shift 3
  "$binary" tournament "${champions[@]}" --rounds "$rounds" --seed 2009 --name "$name" \
    --results "$work/results" --jobs "$jobs" "$@" >/dev/null 2>"$work/$name.stderr" ||
    { cat "$work/$name.stderr" >&2; exit 1; }
  sed -n 's/^played .*(\([0-9.]*\) matches\/s).*/\1/p' "$work/$name.stderr"
}

# The machine's idle and steal (time the hypervisor gave to other guests) since $1, in %.
cpu_since() {
  awk -v before="$1" '/^cpu / { split(before, b); t = 0; for (i = 2; i <= NF; i++) t += $i - b[i]
    printf "idle %.0f%%, steal %.0f%%", 100 * ($5 - b[5]) / t, 100 * ($9 - b[9]) / t }' /proc/stat
}
start=$(grep '^cpu ' /proc/stat)

echo "6 copies of champions/c/random, round-robin, $rounds round(s) ($((20 * rounds)) matches)," \
  "$(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %4s %3s %8s %8s %8s %7s %7s %10s %5s  %s\n' variant jobs rep solo A B A/solo B/solo '(A+B)/solo' load 'machine meanwhile'
n=0
for jobs in $jobs_list; do
  for rep in $(seq "$reps"); do
    for variant in "$@"; do
      label=${variant%%=*}
      IFS=, read -r -a words <<<"${variant#*=}"
      binary=${words[0]}
      flags=("${words[@]:1}")
      n=$((n + 1))
      row_start=$(grep '^cpu ' /proc/stat)
      solo=$(run "solo$n" "$jobs" "$binary" ${flags[@]+"${flags[@]}"})
      run "a$n" "$jobs" "$binary" ${flags[@]+"${flags[@]}"} >"$work/a$n.rate" &
      a=$!
      run "b$n" "$jobs" "$binary" ${flags[@]+"${flags[@]}"} >"$work/b$n.rate" &
      b=$!
      wait "$a" "$b"
      awk -v l="$label" -v j="$jobs" -v r="$rep" -v s="$solo" \
        -v a="$(cat "$work/a$n.rate")" -v b="$(cat "$work/b$n.rate")" \
        -v load="$(cut -d' ' -f1 /proc/loadavg)" -v cpu="$(cpu_since "$row_start")" \
        'BEGIN { printf "%-10s %4d %3d %8.2f %8.2f %8.2f %7.2f %7.2f %10.2f %5.1f  %s\n", l, j, r, s, a, b, a / s, b / s, (a + b) / s, load, cpu }'
      rm -rf "$work/results"
    done
  done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg); over the run: $(cpu_since "$start")"
