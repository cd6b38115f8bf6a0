#!/usr/bin/env bash
# Screenshots of the replay page of every game (the 2009 game, the Amazons, Ticket to Ride,
# Little Town), each at a laptop's 1366x768, a projector's 1920x1080 and 4K (3840x2160), in normal vision
# and as Chromium simulates deuteranopia, protanopia and achromatopsia (greyscale): the
# pages' drivers (tests/browser/*.mjs) with VISION set (tests/browser/cdp.mjs; the test
# view_palette::the_simulated_screenshots_show_the_board_as_the_model_sees_it checks that
# these simulations turn the 2009 board's pixels into what the Machado 2009 model says).
#   scripts/screenshot-pages.sh [STEP|last]
# Writes RESULTS/pages/GAME-WIDTHxHEIGHT-VISION.png (RESULTS: results by default) and the
# matches beside them; REFEREE=PATH uses that referee instead of building one; SIZES="1366x768"
# takes only those sizes (all three by default). Ticket to Ride and Little Town play with
# every seat they have, so that each seat's colour is in the shot.
set -euo pipefail
cd "$(dirname "$0")/.."
step="${1:-last}"
out="${RESULTS:-results}/pages"
command -v node >/dev/null || { echo "screenshot-pages: node is missing (scripts/ci-install.sh)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "screenshot-pages: chromium is missing (scripts/ci-install.sh)" >&2; exit 1; }
referee="${REFEREE:-}"
if [ -z "$referee" ]; then
  cargo build -q -p referee
  referee="${CARGO_TARGET_DIR:-target}/debug/referee"
fi
mkdir -p "$out"
anchor="last"
[ "$step" = last ] || anchor="step=$step"
# GAME, its driver, then the match's arguments.
play() {
  local game="$1"
  shift
  "$referee" "$@" --out "$out/$game-match" --html >/dev/null 2>&1
}
play loi match random greedy random --seed 5
play amazons --game amazons match mobility random --seed 3
play ticket --game ticket-to-ride match strong strong random random random --seed 3
play town --game little-town match random random random random --seed 2
for game in loi:viewer amazons:amazons ticket:ticket town:town; do
  name="${game%%:*}"
  driver="${game##*:}"
  for size in ${SIZES:-1366x768 1920x1080 3840x2160}; do
    for vision in none deuteranopia protanopia achromatopsia; do
      shot="$out/$name-$size-${vision/none/normal}.png"
      VISION="$vision" node "tests/browser/$driver.mjs" "$out/$name-match/replay.html#$anchor" \
        --screenshot "$shot" --size "$size" >/dev/null
      echo "screenshot: $shot"
    done
  done
done
