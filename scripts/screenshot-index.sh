#!/usr/bin/env bash
# Plays a small tournament with --html (the built-in champions, the shell ones, one that
# crashes in its third jouer) and takes PNG screenshots of its index at 1366x768 and
# 1920x1080 into results/index-1366x768.png and results/index-1920x1080.png, and of one
# champion's page (headless Chromium, driven by tests/browser/index.mjs).
#   scripts/screenshot-index.sh [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-5}"
command -v node >/dev/null || { echo "screenshot-index: node is missing (scripts/ci-install.sh)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "screenshot-index: chromium is missing (scripts/ci-install.sh)" >&2; exit 1; }
cargo build -q -p referee
target="${CARGO_TARGET_DIR:-target}"
work="results/index-demo-champions"
mkdir -p "$work"
crash="$work/crashes.sh"
printf '#!/bin/sh\nn=0\nwhile read -r c; do\n  echo "callback $c" >&2\n  [ "$c" = jouer ] && n=$((n+1))\n  [ $n -ge 3 ] && exit 3\n  echo fin\ndone\n' >"$crash"
chmod +x "$crash"
rm -rf results/index-demo
"$target/debug/referee" tournament random greedy champions/shell/builder.sh champions/shell/passive.sh "$crash" \
  --rounds 3 --seed "$seed" --name index-demo --html >/dev/null 2>&1
for size in 1366x768 1920x1080; do
  node tests/browser/index.mjs results/index-demo/index.html --screenshot "results/index-$size.png" --size "$size" >/dev/null
done
node tests/browser/index.mjs results/index-demo/champions/crashes.sh.html --screenshot results/index-champion.png --size 1366x768 >/dev/null
echo "screenshots: results/index-1366x768.png results/index-1920x1080.png results/index-champion.png (index: results/index-demo/index.html)"
