#!/usr/bin/env bash
# The referee's memory over a long tournament with champions that ask a lot: a heavy asker
# (ASKS questions a callback, `valeur_case`, like the 2009 champion `groopy`) and a flooder
# (the cheapest request, `mon_tour`, as fast as it can), with `random` and `greedy`:
# 4 sets of three, ROUNDS rounds each (default 50: 200 matches), `--jobs 2`. Samples the
# tournament process's resident memory as matches complete and prints it at match 20, at
# the end and its peak, then the record sizes. Figures: referee/BENCHMARKS.md, "Memory".
#   scripts/bench-memory.sh [ROUNDS] [ASKS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-50}
asks=${2:-3000}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo build --release -p referee >/dev/null 2>&1
referee="$CARGO_TARGET_DIR/release/referee"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/asker" "$work/flooder"
cc -O2 -DASKS="$asks" -o "$work/asker/champion" referee/benches/fixtures/asker.c
cat >"$work/flood.c" <<'C'
#include <stdio.h>
#include <string.h>
/* In every callback: ASKS cheap requests (`mon_tour`), then `fin`. */
int main(void) {
  char line[65536];
  while (fgets(line, sizeof line, stdin)) {
    for (int i = 0; i < ASKS; i++) {
      fputs("mon_tour\n", stdout); fflush(stdout);
      if (!fgets(line, sizeof line, stdin)) return 1;
    }
    fputs("fin\n", stdout); fflush(stdout);
  }
  return 0;
}
C
cc -O2 -DASKS="$asks" -o "$work/flooder/champion" "$work/flood.c"
echo "$(nproc) CPUs, $(uname -r), as $(id -un); $rounds rounds of 4 sets, ASKS=$asks"
"$referee" tournament "$work/asker" "$work/flooder" random greedy --rounds "$rounds" \
  --seed 1 --name mem --results "$work" --jobs 2 >/dev/null 2>"$work/err" &
pid=$!
samples="$work/samples"
: >"$samples"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
  rows=0
  [ -f "$work/mem/matches.csv" ] && rows=$(($(wc -l <"$work/mem/matches.csv") - 1))
  [ -n "$rss" ] && echo "$rows $rss" >>"$samples"
  sleep 0.1
done
wait "$pid" || { cat "$work/err" >&2; exit 1; }
awk -v total=$((rounds * 4)) '
  { if ($1 >= 20 && !at20) at20 = $2; last = $2; if ($2 > peak) peak = $2; if ($1 >= 20 && $2 > peak20) peak20 = $2 }
  END {
    printf "RSS at match 20: %.1f MB; at the end (%d matches): %.1f MB; peak: %.1f MB; peak after match 20 / at match 20: %.2f\n",
      at20 / 1024, total, last / 1024, peak / 1024, peak20 / at20
  }' "$samples"
sizes=$(find "$work/mem/matches" -name record.json -printf '%s\n' | sort -n)
echo "records: $(echo "$sizes" | wc -l), largest $(echo "$sizes" | tail -1) bytes, median $(echo "$sizes" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') bytes, all $(du -sh "$work/mem/matches" | cut -f1)"
