#!/usr/bin/env bash
# The README's main command: builds the bundled champions and the referee (release), then
# runs a demo round-robin of the bundled champions, one round, seed 2009, named `demo`:
# results/demo/{matches,leaderboard,pairwise}.csv, the leaderboard printed at the end.
# A previous results/demo is replaced. Extra arguments go to `referee tournament`
# (e.g. --jobs 1, --rounds 3).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-champions.sh
cargo build --release -p referee
referee="${CARGO_TARGET_DIR:-target}/release/referee"
rm -rf results/demo
"$referee" tournament \
  champions/c/random champions/python/random champions/cpp/greedy \
  champions/shell/builder.sh random greedy \
  --format round-robin --rounds 1 --seed 2009 --name demo --html "$@"
echo "leaderboard: results/demo/leaderboard.csv"
echo "open in a browser: results/demo/index.html"
