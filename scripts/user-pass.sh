# The tests as a normal user (sourced by scripts/test-as-user.sh, and by scripts/test.sh,
# whose whole suite as root queues them in the same pool as root's): the jail's layers
# differ from root's (user namespace, no cgroup, no uid switch). Every test binary runs but
# those where nothing depends on who runs it (below: `as_root_only`), each left out for a
# reason it names; `ALL=1` runs them too. A binary made of several test files
# (referee/tests/<area>/main.rs, a module each) leaves out those modules' tests only.
# The user is `referee-attacks` (created by referee/tests/jailed/attacks.rs, or here with
# useradd), or USER_NAME=name.
#   user_pass_init             the user, its temporary directory (removed on exit)
#   user_pass_add [FILTER]     queues each test binary as the user in the pool (pool.sh),
#                              keyed by the binary's name; the documents' tests kept back
#   user_pass_docs             the documents' tests as the user (alone: they build the
#                              champions in place, as scripts/test.sh says)
#   user_pass_skips            what could not run as the user, and why

user_pass_init() {
  # Snapshot tests (insta) find their files from the workspace root, which they would ask
  # cargo for (not on the user's PATH), and never write there as the user.
  user_root=$PWD
  user=${USER_NAME:-referee-attacks}
  [ "$(id -u)" = 0 ] || { echo "run as root: the tests switch to $user" >&2; return 2; }
  id "$user" >/dev/null 2>&1 ||
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$user"
  # Tests build their C fixtures in the target's temporary directory (CARGO_TARGET_TMPDIR).
  mkdir -p "${CARGO_TARGET_DIR:-target}/tmp"
  chmod 1777 "${CARGO_TARGET_DIR:-target}/tmp"
  # The tests' own temporary directory (sticky and writable by all, like /tmp), removed at
  # the end with whatever the tests and their tools (a browser's profile) left in it.
  user_work=$(mktemp -d "${TMPDIR:-/tmp}/referee-user-suite.XXXXXX")
  chmod 1777 "$user_work"
  # Test parts that cannot run as a user note why here (tests/common/mod.rs).
  user_skips="$user_work/skips.log"
  : >"$user_skips"
  chmod 666 "$user_skips"
  user_alone=()
}

# Test files where a user's run would show nothing new, and why: a binary's name, or a
# module of a binary made of several (referee/tests/<area>/main.rs, one module per file).
as_root_only() {
  case $1 in
    # No champion, no process: rules, statistics, tables of the docs, the CLI's parsing.
    api_checks | bots | properties | rules_* | surfaces | client | protocol | protocol_props | \
      cli_props | claims_table | rules_doc | confidence | tournament_standings | \
      game_scripted | amazons | engine | draw | golden_draws | loi_api | loi_protocol | prologin | greedy | random | \
      scan_rust | script | template | protocol_doc | ticket | rules | model)
      echo "no champion process" ;;
    # Pages and consoles drawn from records; the matches they draw are played as a user by
    # the binaries that test the jail.
    view_* | loi_arena_view | amazons_view* | amazons_frame_browser | index_browser | pages_hostile_text | console | \
      untrusted_text | results_doc | tournament_doc)
      echo "viewers and tables of records" ;;
    # Each test switches to the test user itself, after its root run.
    attacks | attacks_kit | attacks_build | redteam | redteam_stop | redteam_gauntlet | redteam_late | \
      tournament_snapshot | redteam_snapshot | results_links | redteam_proc | open_files | serve | serve_kits | serve_tournament | \
      serve_tournament_kits)
      echo "runs as root and as $user already" ;;
    # What a kit makes of the 2009 forms and of the rules it computes in the champion: the
    # same whoever runs the jail; each language's runtime starts as the user in `kits`.
    kits2009 | kits_rules) echo "the kits' own code, each runtime started as the user in kits" ;;
    # The sequential test's statistics, on in-process bots (gauntlet_runs plays it for real).
    gauntlet) echo "in-process statistics" ;;
    *) return 1 ;;
  esac
}

# Runs a test binary as the user and prints its summary line and its failures. The root
# suite's own settings (its reproduce log, its kept folders) are not the user's.
as_user() {
  local dir=$1 exe=$2 status=0 out
  shift 2
  out=$(cd "$dir" && setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" \
    --clear-groups env -u REFEREE_REPRODUCE_LOG -u REFEREE_KEEP_TEST_DIRS \
    HOME="$user_work" TMPDIR="$user_work" PATH=/usr/local/bin:/usr/bin:/bin \
    JAVA_TOOL_OPTIONS=-XX:-UsePerfData \
    INSTA_WORKSPACE_ROOT="$user_root" INSTA_UPDATE=no REFEREE_SKIP_LOG="$user_skips" \
    "$exe" "$@" 2>&1) || status=1
  echo "$(basename "$exe"): $(echo "$out" | grep -E '^test result' | tail -1)"
  if [ $status != 0 ]; then
    echo "$out" | failures_of
    # No summary line: the binary itself died (a signal, an abort); its last words.
    grep -qE '^test result' <<<"$out" || echo "$out" | tail -5
  fi
  return $status
}

# Each failed test's panic as `cargo test` prints it for root (the `---- name stdout ----`
# heading, the `panicked at` line, the message with an assertion's left and right), kept
# short: up to 12 lines a test (no backtrace), each cut at 300 characters, 5 tests at
# most, the names of those beyond. What a test printed before it panicked is left out.
failures_of() {
  awk '
    function flush() { if (name != "" && shown < 5) { print name; if (text != "") print text; shown++ }
                       else if (name != "") more = more " " substr(name, 6, length(name) - 17)
                       name = ""; text = ""; lines = -1 }
    /^---- .* stdout ----$/ { flush(); name = $0; lines = -1; next }
    /^failures:$/ || /^test result/ { flush(); next }
    name == "" { next }
    lines < 0 && !/panicked at|^Error: / { next }
    lines < 0 { lines = 0 }
    /^note: run with `RUST_BACKTRACE/ || /^stack backtrace:$/ { lines = 12 }
    lines < 12 { text = text (lines ? "\n" : "") "  " substr($0, 1, 300); lines++ }
    END { flush(); if (more != "") print "  and more failed:" more }
  '
}

user_pass_add() {
  # The build is the root pass's (scripts/test.sh): the same command, the same features,
  # so nothing is built again (a `cargo build --workspace --bins` here would resolve other
  # features and relink the referee between the passes).
  local binaries dir exe name tests module t keep args
  binaries=$(cargo test --workspace --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["manifest_path"].rsplit("/", 1)[0], m["executable"])' |
    # The slowest as the user first (scripts/test.sh orders the root pass alike).
    awk '{ n = $2; sub(/.*\//, "", n); sub(/-[^-]*$/, "", n)
      print (n == "kits" ? 0 : n == "games" ? 1 : n == "tournament" ? 2 : 3), $0 }' |
    sort -n -s -k1,1 | cut -d' ' -f2-)
  while read -r dir exe; do
    name=$(basename "$exe")
    name=${name%-*}
    # The test names to run (a name filter given applies): all of a binary but those of
    # its modules (or itself) that run as root only.
    if [ -f "$dir/tests/$name/main.rs" ]; then
      tests=$(cd "$dir" && "$exe" --list "$@" 2>/dev/null | sed -n 's/: test$//p')
      keep=()
      for module in $(sed -n 's/::.*//p' <<<"$tests" | sort -u); do
        if [ "${ALL:-}" != 1 ] && why=$(as_root_only "$module"); then
          echo "$name: $module as root only ($why)"
        else
          while read -r t; do keep+=("$t"); done < <(grep "^$module::" <<<"$tests")
        fi
      done
      [ ${#keep[@]} -gt 0 ] || continue
      args=(--exact "${keep[@]}")
    else
      if [ "${ALL:-}" != 1 ] && why=$(as_root_only "$name"); then
        echo "$name: as root only ($why)"
        continue
      fi
      args=("$@")
    fi
    if [ "$name" = docs ]; then
      user_alone=("$dir" "$exe" "${args[@]}")
    else
      pool_add "$name" "user-$(basename "$exe")" as_user "$dir" "$exe" "${args[@]}"
    fi
  done <<<"$binaries"
}

user_pass_docs() {
  [ "${#user_alone[@]}" = 0 ] || as_user "${user_alone[@]}"
}

user_pass_skips() {
  echo "skipped test parts as $user: $(wc -l <"$user_skips")"
  sed 's/^/  skipped: /' "$user_skips"
}
