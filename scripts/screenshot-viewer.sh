#!/usr/bin/env bash
# Plays a match, writes its replay page and takes a PNG screenshot of the viewer into
# results/viewer.png (headless Chromium, driven by tests/browser/viewer.mjs).
#   scripts/screenshot-viewer.sh [SEED] [STEP|last]
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-5}"
step="${2:-last}"
command -v node >/dev/null || { echo "screenshot-viewer: node is missing (scripts/ci-install.sh)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "screenshot-viewer: chromium is missing (scripts/ci-install.sh)" >&2; exit 1; }
cargo build -q -p referee
target="${CARGO_TARGET_DIR:-target}"
dir="results/viewer-match"
"$target/debug/referee" match random greedy random --seed "$seed" --out "$dir" --html >/dev/null
anchor="last"
[ "$step" = last ] || anchor="step=$step"
node tests/browser/viewer.mjs "$dir/replay.html#$anchor" --screenshot results/viewer.png --size 1280x1000 >/dev/null
echo "screenshot: results/viewer.png (replay: $dir/replay.html)"
