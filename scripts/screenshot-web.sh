#!/usr/bin/env bash
# Takes PNG screenshots of the game server's web site (`referee serve --web`) at 1366x768
# and 1920x1080 into DIR: the list of games with one in play, a game's page while it is
# played and once it ended, a player's page; each game's live board (the Amazons, Little
# Town, the 2009 game) while played and once ended; the tournaments, a tournament open,
# finished, a league after each of its games, a tied league once it ended (why its winner
# is first), a knockout's bracket, a best-of-three final after its first game and once
# decided, the organiser's forms and a refusal. They are taken by the site's browser tests
# (referee/tests/games/serve_web.rs, serve_web_live.rs, serve_web_tournament.rs,
# serve_web_league.rs, serve_web_knockout.rs) as they play (headless Chromium, driven by
# tests/browser/web.mjs).
#   scripts/screenshot-web.sh DIR
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:?usage: scripts/screenshot-web.sh DIR}")"
command -v node >/dev/null || { echo "screenshot-web: node is missing (scripts/ci-install.sh)" >&2; exit 1; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "screenshot-web: chromium is missing (scripts/ci-install.sh)" >&2; exit 1; }
mkdir -p "$out"
# The test plays as root and as a user: both write here.
chmod 777 "$out"
REFEREE_WEB_SCREENSHOTS="$out" cargo test -q -p referee --test games -- serve_web:: serve_web_live:: serve_web_tournament:: serve_web_league:: \
  serve_web_knockout:: >/dev/null
ls "$out"/web-*.png
