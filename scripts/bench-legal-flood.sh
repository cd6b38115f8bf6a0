#!/bin/bash
# The referee's own CPU against a Little Town champion that pipelines `legal` 1,000 times a
# turn (referee/tests/fixtures/town/legal_flood.py) on a 16 x 16 board, beside that
# champion's CPU: what a hostile champion makes the referee spend (referee/BENCHMARKS.md,
# "Little Town's legal under a flood").
#
#   scripts/bench-legal-flood.sh [REFEREE] [SEEDS]
#
# REFEREE: the binary (target/release/referee by default); SEEDS: the match seeds (1 2 3).
# The referee's CPU is its process's own (every thread, no child: /proc/PID/stat's utime and
# stime, read every 10 ms until it exits); the champion writes its own at end_game.
set -euo pipefail
cd "$(dirname "$0")/.."
referee=$(realpath "${1:-target/release/referee}")
seeds=${2:-1 2 3}
flood=$PWD/referee/tests/fixtures/town/legal_flood.py
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-legal-flood.XXXXXX")
trap 'rm -rf "$work"' EXIT
tick=$(getconf CLK_TCK)
printf '%-6s %14s %16s %10s %8s\n' seed "referee (ms)" "champion (ms)" requests ratio
for seed in $seeds; do
    "$referee" --game little-town match "$flood" random --seed "$seed" \
        --option width=16 --option height=16 --out "$work/$seed" >/dev/null 2>&1 &
    pid=$!
    ticks=0
    # Read without a fork, so that the sampling costs next to nothing.
    while read -r -a stat 2>/dev/null <"/proc/$pid/stat" && [ "${stat[2]}" != Z ]; do
        ticks=$((stat[13] + stat[14]))
        sleep 0.01
    done
    wait "$pid"
    referee_ms=$((ticks * 1000 / tick))
    champion_ms=$(sed -n 's/^cpu \([0-9]*\) ms$/\1/p' "$work/$seed/seat0.stderr")
    read -r requests faults < <(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(sum(c["requests"] for c in r["callbacks"] if c["seat"] == 0), len(r["faults"]))' \
        "$work/$seed/record.json")
    ratio=$(python3 -c "print(f'{$referee_ms / max(${champion_ms:-0}, 1):.1f}x')")
    printf '%-6s %14s %16s %10s %8s %s\n' "$seed" "$referee_ms" "${champion_ms:--}" \
        "$requests" "$ratio" "$([ "$faults" = 0 ] || echo "($faults faults)")"
done
