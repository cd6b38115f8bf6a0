#!/usr/bin/env bash
# The cost of the jail, in one run on this machine (compare the ratios, not the absolute
# figures: the machines are shared and noisy):
#  1. the whole life of a trivial static C program started bare and under the candidate
#     mechanisms (unshare(1), bubblewrap), timed by hyperfine;
#  2. spawn and whole life of a trivial champion through the referee's own code,
#     `--sandbox off` against the jail (benches/sandbox_spawn.rs);
#  3. matches per second of trivial C champions (answer `fin` to every callback),
#     `--jobs 2`, `--sandbox off` against the jail, and two such tournaments at once;
#     then `--jobs 1` alone against two `--jobs 1` tournaments at once (together they fit
#     two CPUs: each should keep most of its solo rate).
# Figures are written down in referee/BENCHMARKS.md, section "Jail".
#   scripts/bench-jail.sh [MATCHES_ROUNDS]      (default 20 rounds: 20 matches a run)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-60}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo build --release -p referee >/dev/null 2>&1
referee="$CARGO_TARGET_DIR/release/referee"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cat >"$work/trivial.c" <<'C'
#include <unistd.h>
int main(void) { char c; while (read(0, &c, 1) == 1 && c != '\n'); return 0; }
C
cat >"$work/fin.c" <<'C'
#include <stdio.h>
#include <string.h>
/* Answers `fin` to every callback: the cheapest champion there is. */
int main(void) {
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    if (strchr("-0123456789", line[0]) == NULL) { fputs("fin\n", stdout); fflush(stdout); }
  }
  return 0;
}
C
cc -O2 -static -o "$work/trivial" "$work/trivial.c"
for i in 1 2 3; do mkdir -p "$work/fin$i"; cc -O2 -o "$work/fin$i/champion" "$work/fin.c"; done
echo "$(nproc) CPUs, $(uname -r), as $(id -un)"

echo "== 1. a trivial static program, whole life (hyperfine, mean)"
if command -v hyperfine >/dev/null; then
  userns=""; [ "$(id -u)" = 0 ] || userns="-U -r"
  cmds=("$work/trivial </dev/null")
  cmds+=("unshare $userns -p -f -m -i -u -n --mount-proc $work/trivial </dev/null")
  if command -v bwrap >/dev/null; then
    cmds+=("bwrap --unshare-all --die-with-parent --proc /proc --dev /dev --tmpfs /tmp \
--ro-bind /usr /usr --ro-bind /lib /lib --ro-bind-try /lib64 /lib64 --ro-bind $work $work \
$work/trivial </dev/null")
  else
    echo "(bubblewrap not installed: apt-get install bubblewrap)"
  fi
  hyperfine -N --warmup 20 --runs 300 --style basic "${cmds[@]}" 2>&1 | grep -E "Benchmark|Time|User"
else
  echo "(hyperfine not installed: apt-get install hyperfine)"
fi

echo "== 2. the referee's own spawn (benches/sandbox_spawn.rs)"
cargo bench -p referee --bench sandbox_spawn 2>/dev/null | grep -v '^$'

echo "== 3. matches per second, trivial C champions, --jobs 2"
rate() { # name, jobs, extra flags...
  local name=$1 jobs=$2; shift 2
  local start end n
  start=$(date +%s.%N)
  "$referee" tournament "$work/fin1" "$work/fin2" "$work/fin3" --rounds "$rounds" --seed 1 \
    --name "$name" --results "$work" --jobs "$jobs" "$@" >/dev/null 2>"$work/$name.err" ||
    { cat "$work/$name.err" >&2; return 1; }
  end=$(date +%s.%N)
  n=$(($(wc -l <"$work/$name/matches.csv") - 1))
  awk -v n="$n" -v s="$start" -v e="$end" -v name="$name" \
    'BEGIN { printf "%-22s %4d matches in %6.2f s = %6.1f matches/s\n", name, n, e - s, n / (e - s) }'
}
rate off 2 --sandbox off
rate jail 2
rate jail-again 2
echo "-- two jailed tournaments of --jobs 2 at once"
rate both-a 2 & rate both-b 2 & wait
echo "== 4. --jobs 1: alone, then two at once"
rate solo-1 1
rate solo-1-again 1
rate pair-a 1 & rate pair-b 1 & wait
