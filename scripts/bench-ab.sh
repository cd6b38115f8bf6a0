#!/usr/bin/env bash
# Matches per second of two versions of the referee, measured in one sitting: each git ref
# is built in release (one scratch worktree, one target directory, so dependencies build
# once), then the same tournament of the bundled champions is played with each binary in
# turn, A B A B ..., each after a pause of BENCH_PAUSE seconds (default 3), and the ratio
# B/A of the medians is printed. On a shared, noisy
# machine only such alternated ratios mean something (referee/BENCHMARKS.md). With `perf`
# installed, each run's CPU time (the referee, its jails and champions: perf's task-clock,
# which follows every child) is measured too, as milliseconds of CPU a match: a figure the
# other users of the machine disturb far less than matches a second.
#
#   scripts/bench-ab.sh REF_A REF_B [PAIRS] [ROUNDS]   (defaults: 5 pairs, 2 rounds = 40 matches)
#   scripts/bench-ab.sh --trivial REF_A REF_B [PAIRS] [ROUNDS]   (defaults: 9 pairs, 100 rounds)
#
# --trivial plays three C champions that answer `fin` to every callback instead (a round
# is one match): what is measured is then the referee and the jail alone, a match's start,
# its callbacks and its files, which real champions' own start-up hides.
set -euo pipefail
cd "$(dirname "$0")/.."
trivial=false
if [ "${1:-}" = --trivial ]; then
  trivial=true
  shift
fi
usage="usage: scripts/bench-ab.sh [--trivial] REF_A REF_B [PAIRS] [ROUNDS]"
a=${1:?$usage}
b=${2:?$usage}
if $trivial; then
  pairs=${3:-9}
  rounds=${4:-100}
else
  pairs=${3:-5}
  rounds=${4:-2}
fi
# Commits, resolved here: in the scratch worktree `HEAD` would name A once A is checked out.
a=$(git rev-parse --verify "$a^{commit}")
b=$(git rev-parse --verify "$b^{commit}")
scripts/build-champions.sh >/dev/null 2>&1
work=$(mktemp -d)
tree="$work/tree"
cleanup() {
  git worktree remove --force "$tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add --detach -q "$tree" "$a"
for side in a b; do
  ref=$a
  [ "$side" = b ] && ref=$b
  git -C "$tree" checkout -q --detach "$ref"
  echo "building $ref ..." >&2
  (cd "$tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q -p referee)
  cp "$work/target/release/referee" "$work/referee-$side"
done
champions=(champions/c/random champions/python/random champions/cpp/greedy
  champions/shell/builder.sh random greedy)
what="$rounds round(s) of 6 champions ($((rounds * 20)) matches a run)"
if $trivial; then
  champions=()
  for name in fin0 fin1 fin2; do
    mkdir -p "$work/$name"
    printf '%s\n' '#include <stdio.h>' \
      'int main(void) { char l[4096]; while (fgets(l, sizeof l, stdin)) { puts("fin"); fflush(stdout); } return 0; }' \
      >"$work/$name/fin.c"
    cc -O2 -o "$work/$name/champion" "$work/$name/fin.c"
    champions+=("$work/$name/champion")
  done
  what="$rounds matches of three champions answering fin"
fi
counted=()
command -v perf >/dev/null && counted=(perf stat -x, -e task-clock -o "$work/cpu" --)
play() { # binary name -> "matches per second" and, with perf, "CPU ms a match"
  local out="$work/results-$2"
  rm -rf "$out"
  # The kernel finishes tearing the last run's jails down (their network namespaces are
  # destroyed in the background) before the next run starts: not billed to it.
  sleep "${BENCH_PAUSE:-3}"
  "${counted[@]}" "$1" tournament "${champions[@]}" \
    --rounds "$rounds" --seed 2009 --name bench --results "$out" --jobs 2 \
    >/dev/null 2>"$work/stderr"
  rm -rf "$out"
  local rate matches
  rate=$(sed -n 's/.*(\([0-9.]*\) matches\/s).*/\1/p' "$work/stderr")
  matches=$(sed -n 's/^played \([0-9]*\) matches.*/\1/p' "$work/stderr")
  if [ ${#counted[@]} -gt 0 ]; then
    echo "$rate $(awk -F, -v m="$matches" '$3 == "task-clock" { printf "%.2f", $1 / m }' "$work/cpu")"
  else
    echo "$rate"
  fi
}
echo "A = $a, B = $b; $pairs pairs of runs, $what, --jobs 2"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
ra=()
rb=()
ca=()
cb=()
for i in $(seq "$pairs"); do
  read -r x xc <<<"$(play "$work/referee-a" "a$i")"
  read -r y yc <<<"$(play "$work/referee-b" "b$i")"
  echo "pair $i: A $x matches/s${xc:+ ($xc ms CPU a match)}, B $y matches/s${yc:+ ($yc ms)}"
  ra+=("$x")
  rb+=("$y")
  ca+=("${xc:-}")
  cb+=("${yc:-}")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma=$(median "${ra[@]}")
mb=$(median "${rb[@]}")
awk -v a="$ma" -v b="$mb" 'BEGIN { printf "median: A %.2f, B %.2f matches/s; B/A = %.3f\n", a, b, b / a }'
if [ ${#counted[@]} -gt 0 ]; then
  ma=$(median "${ca[@]}")
  mb=$(median "${cb[@]}")
  awk -v a="$ma" -v b="$mb" 'BEGIN { printf "median CPU a match: A %.2f ms, B %.2f ms; B/A = %.3f\n", a, b, b / a }'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
