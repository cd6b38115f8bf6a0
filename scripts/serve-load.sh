#!/usr/bin/env bash
# The game server's load test (referee/BENCHMARKS.md, "Game server under load"): builds the
# referee and referee/examples/serve_load.rs, which starts `referee serve` on loopback and
# holds at once 1,000 idle clients, 200 playing training games, slow clients (a byte a
# second), garbage, clients leaving mid-game and one that never reads; it checks that the
# server lives and that every game a client saw end is finished in the store with its
# record, and prints the games per second, the latency of a move and the server's memory.
# Bounded in count (the flags) and time (--seconds); exits non-zero on a crash or a lost
# game. Extra arguments replace the figures of BENCHMARKS.md's run:
#   scripts/serve-load.sh                          # --idle 1000 --playing 200 ...
#   scripts/serve-load.sh --idle 50 --playing 10   # a small run
set -euo pipefail
cd "$(dirname "$0")/.."
# The whole workspace selected, as scripts/test.sh builds it (no second build of the deps).
cargo build --quiet --workspace --bin referee --example serve_load
target=${CARGO_TARGET_DIR:-target}
figures=(--idle 1000 --playing 200 --slow 10 --garbage 20 --leavers 20 --seconds 500)
[ "$#" -gt 0 ] && figures=("$@")
exec "$target/debug/examples/serve_load" --referee "$target/debug/referee" "${figures[@]}"
