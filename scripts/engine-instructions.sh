#!/usr/bin/env bash
# Instructions per unit of the engine's fixed benchmark work (`cargo bench -p engine -- fixed`),
# counted by callgrind: repeatable on a loaded machine, where times are not. Each part is
# counted inside one function only (`--toggle-collect`), so setup work (playing the games a
# replay replays, building the late-game board) is left out.
#
#   scripts/engine-instructions.sh                 # the bench binary of this checkout
#   scripts/engine-instructions.sh OLD NEW         # two bench binaries side by side, NEW/OLD
#
# A bench binary of another commit: `cargo bench -p engine --no-run` there prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
if [ $# -eq 0 ]; then
    bin=$(cargo bench -p engine --bench engine --no-run --message-format=json 2>/dev/null |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
    [ -n "$bin" ] || { echo "could not build the engine's bench binary: run cargo bench -p engine --no-run" >&2; exit 1; }
    set -- "$bin"
fi

# part, the function counted, units of work in the part, what a unit is
parts=(
    "games engine::random_game 10 a_random_game_(player_and_engine)"
    "replay engine::common::replay 10 the_same_game's_calls_replayed_(engine_alone)"
    "cells engine::sweep 20 construction_possible_on_10,000_cells_after_a_change"
    "cells-limit engine::sweep_limit 20 the_same_answers_from_the_board_(no_API_layer)"
    "driver engine::driver_game 20 the_stage_driver_alone"
)

count() { # binary part function -> instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$3" "$1" fixed "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '%-13s' part
for bin in "$@"; do printf '%16s' "$(basename "$bin" | cut -c1-15)"; done
[ $# -gt 1 ] && printf '%8s' ratio
printf '  per unit\n'
for row in "${parts[@]}"; do
    read -r part fn units what <<<"$row"
    printf '%-13s' "$part"
    first=
    last=
    for bin in "$@"; do
        n=$(count "$bin" "$part" "$fn")
        [ -n "$n" ] && [ "$n" -gt 0 ] || { echo; echo "no instructions counted in $fn of $bin" >&2; exit 1; }
        per=$((n / units))
        printf '%16s' "$per"
        first=${first:-$per}
        last=$per
    done
    [ $# -gt 1 ] && printf '%8s' "$(awk -v a="$last" -v b="$first" 'BEGIN { printf "%.3fx", a / b }')"
    printf '  %s\n' "${what//_/ }"
done
