#!/usr/bin/env bash
# Mutation testing (cargo-mutants): plants one bug at a time in the modules where a bug
# changes a result or opens a hole, runs the tests that cover them, and prints, per
# module, how many mutants the tests caught, missed, could not build (unviable) or timed
# out on. The report and the reasons for the equivalent mutants are in referee/MUTANTS.md.
#   scripts/mutants.sh GROUP...   one or more of the groups below, or `all`
#   scripts/mutants.sh --fast     the subset .ci/run runs (a few minutes)
#   scripts/mutants.sh --rerun GROUP...   only the mutants the last run of each group
#                                 missed or timed out on (after new tests); the report
#                                 counts the last outcome of each mutant of both runs
#   scripts/mutants.sh --list     the groups and their files
# MUTANTS_TIMEOUT (seconds, default 300): when a mutant's tests count as hung (a mutant that
# never ends a loop), for groups whose tests take seconds.
# Installs cargo-mutants if missing. Output: target/mutants/GROUP
# (a re-run: target/mutants/GROUP-rerun). Exits 1 if a mutant was missed (or timed out)
# that referee/MUTANTS.md does not list as equivalent.
set -euo pipefail
cd "$(dirname "$0")/.."
# Its own set-up: cargo-mutants, at the version its report was made with.
command -v cargo-mutants >/dev/null || cargo install cargo-mutants@27.1.0 --locked --quiet

# group|files (comma-separated)|test arguments|name filter (-F, the rest of the line, may
# be empty). Test arguments after ` -- ` are test names: only the tests whose name holds
# one of them run (for groups whose test binaries are slow as a whole).
groups=(
  "scoring|engine/src/outcome.rs,referee/arena/src/standings.rs,referee/arena/src/confidence.rs|-p engine -p arena -p referee --lib --test tournament|"
  "clock|referee/jail/src/champion/clock.rs,referee/jail/src/limits.rs,referee/jail/src/rlimits.rs,referee/jail/src/champion/mod.rs|-p jail --lib -p referee --test kits --test games|^referee/jail/src/(champion/clock|limits|rlimits)\.rs|^referee/jail/src/champion/mod\.rs:.*(Budget::|budget_base|Champion::slice|check_slice|check_budget|wall_timeout|memory_fault|replace remaining)"
  "protocol|referee/src/protocol.rs,engine/src/call.rs,loi_protocol/src/etat.rs|-p engine -p referee -p loi_protocol --lib --test games|"
  "records|referee/src/record.rs,referee/src/replay.rs,referee/arena/src/full_log.rs|-p arena -p referee --lib --test games --test views|"
  "csv|referee/arena/src/export/matches_csv.rs,referee/arena/src/export/leaderboard_csv.rs,referee/arena/src/export/seats_csv.rs,referee/arena/src/export/pairwise_csv.rs,referee/arena/src/export/mod.rs,referee/src/commands/gauntlet/mod.rs|-p arena -p referee --lib --test docs --test tournament|^referee/arena/src/export/|pairs_csv"
  "resume|referee/arena/src/store.rs,referee/src/commands/merge.rs,referee/src/commands/tournament/results.rs,referee/arena/src/seam.rs,referee/arena/src/roster.rs|-p arena -p referee --lib --test tournament --test jailed --test games -- store:: tournament::results:: games:: merge resume shard record rebuilt moved|^referee/(arena/src/store|src/commands/merge)\.rs|^referee/src/commands/tournament/results\.rs:.*(check_sources|check_records|differing_field|faults)|^referee/arena/src/seam\.rs:.*Expected::|^referee/arena/src/roster\.rs:.*is_builtin"
  "setup|referee/src/commands/tournament/setup.rs|-p referee --lib --test tournament --test jailed|"
  "jail|referee/jail/src/sandbox/seccomp.rs,referee/jail/src/sandbox/seccomp/page_cache.rs,referee/jail/src/sandbox/seccomp/chain.rs,referee/jail/src/view.rs,referee/jail/src/proc_masks.rs|-p jail --lib -p referee --test jailed --test kits -- view:: sandbox:: machine_wide_counters a_python_champion_outside a_champion_gets_eperm a_grows_down escapes_fail the_remount memory_beyond java_and_node the_line_names attack_01 attack_02 attack_05 attack_06 attack_09 attack_11 runtimes|"
  "trust|referee/arena/src/auth/mod.rs,referee/arena/src/auth/key_file.rs,referee/arena/src/auth/restore.rs|-p arena -p referee --lib --test tournament -- auth:: forged moved_from removed_mac without_a_key dropped_row edited_gauntlet|"
  "census|referee/jail/src/census.rs|-p jail --lib -- census|"
  "build|referee/jail/src/build/copy.rs|-p jail --lib -- build::copy|"
  "hidden|referee/jail/src/hidden.rs|-p jail --lib -- hidden|"
  "snapshot|referee/arena/src/snapshot.rs,referee/arena/src/snapshot/unchanged.rs|-p arena -p referee --lib --test tournament -- snapshot:: rebuilt unreadable before_snapshots|"
  "fate|referee/jail/src/champion/fate.rs|-p jail --lib -- champion::fate|"
  "dispatch|referee/jail/src/sandbox/seccomp/dispatch.rs|-p jail --lib -- sandbox::seccomp|"
  "results|referee/arena/src/run_files.rs|-p arena --lib -- run_files::|"
  "kits|referee/src/kits.rs,referee/jail/src/kits.rs,referee/arena/src/snapshot.rs|-p referee --lib -- kit_hashes::|^referee/(jail/)?src/kits\.rs|^referee/arena/src/snapshot\.rs:.*(kit_hash|kits_identity|kits_differ)"
  "futex|referee/jail/src/futex_call.rs,referee/jail/src/sandbox/futex.rs|-p jail --lib -- futex|"
  "arena|referee/arena/src/check.rs,referee/arena/src/machine.rs,referee/arena/src/row.rs,engine/game/src/replay.rs,engine/game/src/chance.rs,engine/game/src/options.rs,engine/game/src/ranking.rs|-p game -p arena -p referee --lib --test games --test jailed|"
  "commands|referee/src/cli/words.rs|-p referee --lib --test games --test kits|"
)
# The fast subset: the rule-26 points (the engine's tests), and the functions that build
# the seccomp filter, run by the filter's own unit tests (each mutant rebuilds the
# referee's unit-test binary only).
fast=(
  "scoring-fast|engine/src/outcome.rs|-p engine|"
  "seccomp-fast|referee/jail/src/sandbox/seccomp.rs,referee/jail/src/sandbox/seccomp/page_cache.rs|-p jail --lib sandbox::seccomp|Rules::|negative|deny_list|build|page_cache"
)
# --fast mutates the tree in place and builds in its target/ (already built by the suite):
# no copy, no cold build. cargo-mutants puts every file back when it ends.
# MUTANTS_IN_PLACE=1 does the same for any group (in a checkout nobody edits meanwhile).
in_place=()
[ "${MUTANTS_IN_PLACE:-}" != 1 ] || in_place=(--in-place)
# The groups build with the `mutation` profile (Cargo.toml: no debug info, a third of the
# rebuild time); --fast with the suite's own dev build.
profile=(--profile mutation)
rerun=

field() { cut -d'|' -f"$2" <<<"$1"; }

run_group() {
  local spec=$1 name files tests filter args=()
  name=$(field "$spec" 1)
  files=$(field "$spec" 2)
  tests=$(field "$spec" 3)
  filter=$(field "$spec" 4-)
  IFS=, read -ra list <<<"$files"
  for f in "${list[@]}"; do args+=(--file "$f"); done
  local out=target/mutants/$name reports=()
  if [ -n "$rerun" ]; then
    local first=$out/mutants.out
    [ -f "$first/outcomes.json" ] ||
      { echo "no run of $name to re-run: scripts/mutants.sh $name first" >&2; return 1; }
    reports+=("$first/outcomes.json")
    out=target/mutants/$name-rerun
    # The exact names (with line and column) of the mutants missed or timed out on.
    filter=$(cat "$first/missed.txt" "$first/timeout.txt" |
      sed -e 's/[][\\.+*?(){}|^$]/\\&/g' -e 's/^/^/' -e 's/$/$/' | paste -sd'|' -)
    if [ -z "$filter" ]; then
      echo "== $name: nothing to re-run"
      python3 scripts/mutants-report.py "${reports[@]}" referee/MUTANTS.md
      return
    fi
  fi
  [ -n "$filter" ] && args+=(-F "$filter")
  mkdir -p "$out"
  echo "== $name${rerun:+ (re-run)}: ${list[*]}"
  local jobs=(-j "${MUTANTS_JOBS:-1}")
  [ ${#in_place[@]} -eq 0 ] || jobs=()
  # The test arguments go to every cargo command (--cargo-arg), the build too: after `--`
  # they would reach `cargo test` only, and each mutant would build every test binary of
  # the crate (tens of links) to run three.
  local word names=()
  if [[ "$tests" == *" -- "* ]]; then
    read -ra names <<<"${tests#* -- }"
    tests=${tests%% -- *}
  fi
  for word in $tests; do args+=("--cargo-arg=$word"); done
  # Test names go to the test binaries: after cargo-mutants' `--` (cargo test's own
  # arguments), after another `--`.
  local after=()
  [ ${#names[@]} -eq 0 ] || after=(-- -- "${names[@]}")
  cargo mutants "${args[@]}" "${in_place[@]}" "${jobs[@]}" "${profile[@]}" --output "$out" \
    --timeout "${MUTANTS_TIMEOUT:-300}" --no-shuffle "${after[@]}" >"$out/console.log" 2>&1 || true
  reports+=("$out/mutants.out/outcomes.json")
  python3 scripts/mutants-report.py "${reports[@]}" referee/MUTANTS.md
}

case "${1:-}" in
  --list)
    for g in "${groups[@]}"; do
      filter=$(field "$g" 4-)
      echo "$(field "$g" 1): $(field "$g" 2)${filter:+ (the mutants that match -F '$filter')}"
    done
    exit 0 ;;
  --fast) selected=("${fast[@]}"); in_place=(--in-place --baseline skip); profile=() ;;
  all) selected=("${groups[@]}") ;;
  "") echo "usage: scripts/mutants.sh [--rerun] GROUP... | all | --fast | --list" >&2; exit 2 ;;
  *)
    if [ "$1" = --rerun ]; then rerun=1; shift; fi
    # shellcheck disable=SC2046 # group names are words
    [ "${1:-}" != all ] || set -- $(for g in "${groups[@]}"; do field "$g" 1; done)
    selected=()
    for want in "$@"; do
      found=
      for g in "${groups[@]}"; do
        [ "$(field "$g" 1)" = "$want" ] && { selected+=("$g"); found=1; }
      done
      [ -n "$found" ] || { echo "no group $want (scripts/mutants.sh --list)" >&2; exit 2; }
    done ;;
esac
command -v cargo-mutants >/dev/null ||
  { echo "cargo-mutants is missing: cargo install cargo-mutants --locked" >&2; exit 2; }
status=0
for g in "${selected[@]}"; do run_group "$g" || status=1; done
exit $status
