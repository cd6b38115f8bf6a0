#!/usr/bin/env bash
# The subject's own C client library (clientAPI.c + TicketToRideAPI.c, public in the Coding
# Game Server's repository, kept outside ours) against `referee serve`, by the steps of
# docs/server.md, section 8: builds that section's program, as a contestant saves it, on the
# library of a checkout left untouched; starts a server on a free loopback port; plays a
# training game against PLAY_RANDOM and a free game of two such programs; lists the games
# and replays each record. Exits non-zero at the first step that fails (a build, a game
# that does not end, a game not finished in the store, a record that does not replay).
#
#   git clone https://github.com/thilaire/CodingGameServer ~/CodingGameServer
#   scripts/cgs-client.sh ~/CodingGameServer
#   REFEREE=target/release/referee scripts/cgs-client.sh ~/CodingGameServer
set -euo pipefail
cd "$(dirname "$0")/.."
cgs="$(realpath "${1:?usage: scripts/cgs-client.sh CHECKOUT_OF_THE_CODING_GAME_SERVER}")"
REFEREE=${REFEREE:-target/debug/referee}
[ -x "$REFEREE" ] || { echo "cgs-client: no $REFEREE: build it (cargo build -p referee) or set REFEREE" >&2; exit 2; }
api="$cgs/clientAPI/C" game="$cgs/games/TicketToRide/API"
for f in "$api/clientAPI.c" "$game/TicketToRideAPI.c"; do
    [ -f "$f" ] || { echo "cgs-client: no $f: give a checkout of the Coding Game Server (thilaire/CodingGameServer)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/referee-cgs-client.XXXXXX")
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The program of docs/server.md, section 8 (its one C block), on the library as it is.
awk '/^```c$/ {on = 1; next} /^```$/ {on = 0} on' docs/server.md >"$work/player.c"
cc -o "$work/player" "$work/player.c" "$api/clientAPI.c" "$game/TicketToRideAPI.c" -I"$api" -I"$game"

"$REFEREE" serve --listen 127.0.0.1:0 --results "$work/results" >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 300); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/server.log")
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "cgs-client: the server did not listen within 30 s" >&2; cat "$work/server.log" >&2; exit 1; }

# Each program prints its game's name first and `we won` or `we lost` at its end.
played() {
    grep -q '^game .* over after .* turns of ours: we \(won\|lost\)$' "$1" \
        || { echo "cgs-client: the program's game did not end: $1" >&2; cat "$1" >&2; exit 1; }
    tail -n 3 "$1"
}
echo "== a training game against PLAY_RANDOM"
timeout 300 "$work/player" localhost "$port" me "TRAINING PLAY_RANDOM timeout=30" >"$work/me.out"
played "$work/me.out"
echo "== a free game: alice against bob"
timeout 300 "$work/player" localhost "$port" alice "" >"$work/alice.out" &
alice=$!
timeout 300 "$work/player" localhost "$port" bob "" >"$work/bob.out"
wait "$alice"
played "$work/alice.out"
played "$work/bob.out"

echo "== the store's games, and each record replayed"
"$REFEREE" serve --results "$work/results" games | tee "$work/games.txt"
[ "$(grep -c ' finished ' "$work/games.txt")" -eq 2 ] \
    || { echo "cgs-client: two finished games expected" >&2; cat "$work/server.log" >&2; exit 1; }
for record in "$work"/results/*/record.json; do
    "$REFEREE" --game ticket-to-ride replay "$record" | tail -n 1
done
echo "cgs-client: the subject's library played a training game and a free game; both replay"
