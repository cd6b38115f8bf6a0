#!/usr/bin/env bash
# Plays a match, writes its replay page and takes PNG screenshots of it with headless
# Chromium (driven by tests/browser/viewer.mjs): a laptop (1366x768), a 1080p projector
# (1920x1080), a 4K screen (1920x1080 CSS pixels at pixel ratio 2: 3840x2160) and
# presentation mode on the projector at the last step (its winner banner).
#   scripts/screenshot-viewer.sh [SEED] [STEP|last]
# Writes results/viewer-1366x768.png, viewer-1920x1080.png, viewer-3840x2160.png and
# viewer-presentation.png, the match in results/viewer-match. RESULTS=DIR writes them there
# instead; REFEREE=PATH uses that referee instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-5}"
step="${2:-last}"
out="${RESULTS:-results}"
command -v node >/dev/null || { echo "screenshot-viewer: node is missing (scripts/ci-install.sh)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "screenshot-viewer: chromium is missing (scripts/ci-install.sh)" >&2; exit 1; }
referee="${REFEREE:-}"
if [ -z "$referee" ]; then
  cargo build -q -p referee
  referee="${CARGO_TARGET_DIR:-target}/debug/referee"
fi
mkdir -p "$out"
dir="$out/viewer-match"
"$referee" match random greedy random --seed "$seed" --out "$dir" --html >/dev/null 2>&1
anchor="last"
[ "$step" = last ] || anchor="step=$step"
page="$dir/replay.html#$anchor"
shoot() { # NAME, then the driver's options
  local name="$1"
  shift
  node tests/browser/viewer.mjs "$page" --screenshot "$out/$name.png" "$@" >/dev/null
  echo "screenshot: $out/$name.png"
}
shoot viewer-1366x768 --size 1366x768
shoot viewer-1920x1080 --size 1920x1080
shoot viewer-3840x2160 --size 1920x1080 --scale 2
page="$dir/replay.html#last"
shoot viewer-presentation --size 1920x1080 --press p
echo "replay: $dir/replay.html"
