#!/usr/bin/env bash
# Lines each game costs, by part (rules, adapter, views, human seat, commands, bots, tests),
# non-blank lines of the files listed here for each game: what ARCHITECTURE.md's table
# shows. A file a game owns goes in its list; the shared frame (arena, runner, the replay
# page's frame, jail) in none.
#
#   scripts/game-lines.sh          # the table, Markdown
set -euo pipefail
cd "$(dirname "$0")/.."

# Non-blank lines of the given files and folders' *.rs, *.js, *.css, *.html files.
count() {
    local total=0 n
    for path in "$@"; do
        [ -e "$path" ] || { echo "scripts/game-lines.sh: $path is gone: update the lists" >&2; exit 1; }
        n=$(find "$path" -type f \( -name '*.rs' -o -name '*.js' -o -name '*.css' -o -name '*.html' \) \
            -exec grep -hcv '^[[:space:]]*$' {} + | awk '{s += $1} END {print s + 0}')
        total=$((total + n))
    done
    echo "$total"
}

row() {
    local game=$1; shift
    local rules=$1 adapter=$2 views=$3 human=$4 commands=$5 bots=$6 tests=$7
    local r a v h c b t
    r=$(count $rules); a=$(count $adapter); v=$(count $views); h=$(count $human)
    c=$(count $commands); b=$(count $bots); t=$(count $tests)
    echo "| $game | $r | $a | $v | $h | $c | $b | $((a + v + h + c + b)) | $t |"
}

echo "| game | rules | adapter | views | human seat | commands | bots | outside its rules | tests |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
row "La loi du plus riche (2009)" \
    "engine/src/board.rs engine/src/blocking.rs engine/src/price.rs engine/src/distance.rs engine/src/state.rs engine/src/turn.rs engine/src/game.rs engine/src/api.rs engine/src/call.rs engine/src/snapshot.rs engine/src/setup.rs engine/src/monument.rs engine/src/outcome.rs engine/src/player.rs engine/src/constants.rs engine/src/lib.rs engine/src/model.rs" \
    "referee/src/protocol.rs referee/arena/src/full_log.rs referee/src/games/loi_wire.rs referee/src/games/loi_play.rs" \
    "referee/src/view/auction.rs referee/src/view/console.rs referee/src/view/console_text.rs referee/src/view/step_actions.rs referee/src/view/terminal.rs referee/src/view/timeline.rs referee/src/view/html.rs referee/src/view/loi_frame.rs referee/src/view/loi_arena.rs referee/src/view/loi_history.rs referee/src/view/assets/loi" \
    "referee/src/human/loi.rs" \
    "" \
    "engine/src/bots loi_protocol/src" \
    "engine/tests referee/tests/games/match_faults.rs referee/tests/games/replay_tamper.rs referee/tests/views/view_browser.rs referee/tests/views/view_browser_layout.rs referee/tests/views/view_browser_modes.rs referee/tests/views/view_browser_steps.rs referee/tests/views/view_html.rs referee/tests/views/view_palette.rs referee/tests/views/view_terminal.rs referee/tests/views/loi_arena_view.rs referee/tests/views/viewer_page referee/tests/games/loi_wire.rs referee/tests/games/loi_v4.rs"
row "Game of the Amazons" \
    "amazons/src/board.rs amazons/src/square.rs amazons/src/model.rs amazons/src/lib.rs" \
    "referee/games/amazons/src/wire.rs referee/games/amazons/src/lib.rs referee/games/amazons/src/play.rs" \
    "referee/games/amazons/src/page.rs referee/games/amazons/src/page_frame.rs referee/games/amazons/assets" \
    "referee/games/amazons/src/human.rs" \
    "" \
    "amazons/src/bots.rs referee/games/amazons/src/bot.rs" \
    "amazons/tests referee/tests/games/amazons_cli.rs referee/tests/kits/amazons_kits.rs referee/tests/games/amazons_match.rs referee/tests/games/amazons_tournament.rs referee/tests/views/amazons_view.rs referee/tests/views/amazons_view_browser.rs referee/tests/views/amazons_frame_browser.rs referee/tests/jailed/redteam_amazons.rs"
row "Ticket to Ride" \
    "engine/ticket/src/action.rs engine/ticket/src/board.rs engine/ticket/src/card.rs engine/ticket/src/legal.rs engine/ticket/src/lib.rs engine/ticket/src/model.rs engine/ticket/src/play.rs engine/ticket/src/score.rs engine/ticket/src/state.rs engine/ticket/src/view.rs" \
    "referee/games/ticket/src/wire.rs referee/games/ticket/src/lib.rs referee/games/ticket/src/play.rs referee/games/ticket/src/lines.rs referee/src/serve/codes.rs" \
    "referee/games/ticket/src/page.rs referee/games/ticket/assets" \
    "referee/games/ticket/src/human.rs" \
    "" \
    "engine/ticket/src/bots referee/games/ticket/src/bot.rs" \
    "engine/ticket/tests referee/tests/games/ticket_cli.rs referee/tests/kits/ticket_kits.rs referee/tests/views/ticket_frame_browser.rs"
row "Little Town" \
    "engine/town/src/action.rs engine/town/src/afford.rs engine/town/src/board.rs engine/town/src/buildings.rs engine/town/src/extension.rs engine/town/src/lib.rs engine/town/src/model.rs engine/town/src/resources.rs engine/town/src/state.rs" \
    "referee/games/town/src/wire.rs referee/games/town/src/lib.rs referee/games/town/src/play.rs" \
    "referee/games/town/src/page.rs referee/games/town/assets" \
    "referee/games/town/src/human.rs" \
    "" \
    "engine/town/src/bots referee/games/town/src/bot.rs" \
    "engine/town/tests referee/tests/games/town_runner.rs referee/tests/kits/town_kits.rs referee/tests/views/town_view_browser.rs"
echo
echo "Not counted above: the Amazons' records of before (amazons_arena's v1*.rs, $(count referee/games/amazons/src/v1.rs referee/games/amazons/src/v1_faults.rs) lines), read once and made again;"
echo "nor the 2009 game's records of before (games/loi_v4.rs with record.rs, replay.rs and replay_checks.rs, $(count referee/src/games/loi_v4.rs referee/src/record.rs referee/src/replay.rs referee/src/replay_checks.rs) lines), checked as then and made again;"
echo "nor Little Town's records of version 1 (town_arena's v1.rs, $(count referee/games/town/src/v1.rs) lines), checked with version 1's scores and made again."
echo
echo "Written once and counted in no game: the arena (referee/arena/src: the match loop, records and their check, the Game seam, tournaments, gauntlets, results; $(count referee/arena/src) lines), the replay page's frame (referee/view: the timeline, keys, charts, console, the templates' engine; $(count referee/view) lines) and the jail (referee/jail/src, $(count referee/jail/src) lines)."
