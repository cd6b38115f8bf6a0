#!/usr/bin/env bash
# Matches per second of a 6-champion round-robin of the bundled champions (20 sets of
# three x ROUNDS), with --jobs 1 and --jobs 2, on this machine. Builds in release first.
# The figures are written down in referee/BENCHMARKS.md, section "Tournament".
#
#   scripts/bench-tournament.sh [ROUNDS]      (default 3: 60 matches per run)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
scripts/build-champions.sh >/dev/null 2>&1
cargo build --release -p referee >/dev/null 2>&1
referee="${CARGO_TARGET_DIR:-target}/release/referee"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "6 champions, round-robin, $rounds round(s), $(nproc) CPUs, $(uname -r)"
for jobs in 1 2; do
  start=$(date +%s.%N)
  "$referee" tournament \
    champions/c/random champions/python/random champions/cpp/greedy \
    champions/shell/builder.sh random greedy \
    --rounds "$rounds" --seed 2009 --name "bench-j$jobs" --results "$out" --jobs "$jobs" \
    >/dev/null 2>"$out/stderr-$jobs" || { cat "$out/stderr-$jobs" >&2; exit 1; }
  end=$(date +%s.%N)
  n=$(($(wc -l <"$out/bench-j$jobs/matches.csv") - 1))
  awk -v n="$n" -v s="$start" -v e="$end" -v j="$jobs" \
    'BEGIN { printf "--jobs %d: %d matches in %.2f s = %.2f matches/s (whole command, pre-run check included)\n", j, n, e - s, n / (e - s) }'
  grep '^played' "$out/stderr-$jobs"
done
