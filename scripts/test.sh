#!/usr/bin/env bash
# The test command of the project (the README's and CI's): builds every champion, checks
# formatting, clippy and rustdoc (warnings are errors), then runs every test of the
# workspace, as root and (run as root) as a normal user too, then plays again the matches
# the tests played. Extra arguments go to `cargo test` (e.g. `-p engine`): the lint gate,
# then those tests, as the caller only.
set -euo pipefail
cd "$(dirname "$0")/.."
# A JVM started on the host (javac building the Java champions, or a test's) writes
# /tmp/hsperfdata_<user> whatever TMPDIR says, unless told not to. Champions never see
# this variable: their environment is cleared.
export JAVA_TOOL_OPTIONS=-XX:-UsePerfData
# Each step says how long it took, as .ci/run's do.
timed() {
  local start=$SECONDS status=0
  "$@" || status=$?
  echo "test.sh: '$*' took $((SECONDS - start)) s" >&2
  return $status
}
# Its own set-up: what the tests need (compilers, Chromium, Slurm, ...), installed if
# missing; already there, this takes no time.
timed scripts/ci-install.sh
timed scripts/build-champions.sh
# The lint gate (lints in the root Cargo.toml's [workspace.lints]): formatting, every
# clippy warning and every rustdoc warning are errors. Formatting first (no build); clippy
# and rustdoc below.
timed cargo fmt --all --check
lint_gate() {
  timed cargo clippy --workspace --all-targets -- -D warnings &&
    RUSTDOCFLAGS="-D warnings" timed cargo doc --no-deps --workspace --quiet
}
# No `cargo build` before the tests: `cargo test` builds what it runs, the referee's binary
# included. Every cargo command here selects the whole workspace, so that all resolve the
# dependencies' features alike: a `cargo build --workspace --bins` (no dev-dependencies) or
# a `cargo run -p referee` (one package's) resolves others and builds the referee, its jail
# and arena crates, clap and a dozen more a second and third time (referee/BENCHMARKS.md,
# "Where a clean .ci/run goes").
# The tests run with their own temporary directory, kept until the end: every match they
# play notes its reproduce command (REFEREE_REPRODUCE_LOG), and each is played again and
# its record compared (referee/examples/reproduce_suite.rs).
outer_tmp=${TMPDIR:-/tmp}
work=$(mktemp -d "$outer_tmp/referee-suite.XXXXXX")
# Sticky and writable by all, like /tmp: some tests run a part as another user.
chmod 1777 "$work"
trap 'chmod -R u+rwX "$work" 2>/dev/null; rm -rf "$work"' EXIT
# A test part that cannot run here notes why in REFEREE_SKIP_LOG (tests/common/mod.rs:
# under CI=true a missing tool or privilege fails instead); the summary is printed last.
skips="$work/skips.log"
: >"$skips"
chmod 666 "$skips"
export TMPDIR="$work" REFEREE_KEEP_TEST_DIRS=1 REFEREE_REPRODUCE_LOG="$work/reproduce.jsonl" \
  REFEREE_SKIP_LOG="$skips"
if [ $# -gt 0 ]; then
  lint_gate
  cargo test --workspace --no-fail-fast "$@"
else
  # The whole suite: its test binaries three at a time (scripts/pool.sh says why), the
  # slowest first, each from its package's folder as `cargo test` runs it. As root, the
  # same binaries as a normal user in the same pool (scripts/user-pass.sh), never a binary
  # as root and as the user at once: the user's fill the places root's tail leaves.
  # REFEREE_USER_PASS=0 leaves them out (scripts/test-as-user.sh runs them alone).
  timed cargo test --workspace --no-run
  binaries=$(cargo test --workspace --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
slowest = ["jailed", "tournament", "kits", "games", "views"]
found = []
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        name = m["target"]["name"]
        rank = slowest.index(name) if name in slowest else len(slowest)
        found.append((rank, m["manifest_path"].rsplit("/", 1)[0], name, m["executable"]))
for rank, folder, name, exe in sorted(found, key=lambda f: f[0]):
    print(folder, name, exe)')
  # shellcheck source=scripts/pool.sh
  . scripts/pool.sh
  mkdir "$work/pool"
  pool_init "${REFEREE_TEST_JOBS:-3}" "$work/pool"
  # In a subshell: the documents' binary runs in this shell, which must stay at the root.
  run_binary() { echo "     Running $2" && (cd "$1" && "$2"); }
  # The documents' tests (`docs`) run their commands as typed, which build the champions
  # and the release referee in place (a champion rewritten while another test starts it:
  # "Text file busy"): alone, after the others.
  alone=()
  while read -r folder name exe; do
    if [ "$name" = docs ]; then
      alone=("$folder" "$exe")
    else
      pool_add "$name" "$name" run_binary "$folder" "$exe"
    fi
  done <<<"$binaries"
  user_pass=""
  if [ "$(id -u)" = 0 ] && [ "${REFEREE_USER_PASS:-1}" = 1 ]; then
    # shellcheck source=scripts/user-pass.sh
    . scripts/user-pass.sh
    # The user's temporary folder beside root's, not in it: a root test that looks for
    # what is left under its TMPDIR must not find the user's tests' processes.
    TMPDIR=$outer_tmp user_pass_init
    trap 'chmod -R u+rwX "$work" 2>/dev/null; rm -rf "$work" "$user_work"' EXIT
    user_pass=1
    user_pass_add
  fi
  # The lint gate's clippy and rustdoc check the code without building it: nothing they
  # compile serves the tests (referee/BENCHMARKS.md, "Where a clean .ci/run goes"), and the
  # tests leave a core idle most of the time; so they run beside the tests, then the
  # doctests (cargo's lock on the build folder keeps them after). The suite fails if any
  # of them does.
  { lint_gate && timed cargo test --workspace --doc; } >"$work/lint.out" 2>&1 &
  lint=$!
  # insta finds the snapshots from the workspace's root, which it would ask cargo for. Not
  # for the cargo commands above: a build reads it (a change, and it builds again).
  export INSTA_WORKSPACE_ROOT=$PWD
  failed=0
  timed pool_wait || failed=1
  wait "$lint" || failed=1
  cat "$work/lint.out"
  [ "${#alone[@]}" = 0 ] || timed run_binary "${alone[@]}" || failed=1
  if [ -n "$user_pass" ]; then
    timed user_pass_docs || failed=1
  fi
fi
# REFEREE_REPLAY_SHARE=N plays again one in N of the distinct matches (.ci/run: a fifth,
# for its time budget); all of them by default.
if [ -s "$work/reproduce.jsonl" ]; then
  cargo build --quiet --workspace --example reproduce_suite
  target=${CARGO_TARGET_DIR:-target}
  timed "$target/debug/examples/reproduce_suite" \
    "$work/reproduce.jsonl" "$target/debug/referee" --share "${REFEREE_REPLAY_SHARE:-1}"
fi
echo "skipped test parts: $(wc -l <"$skips")"
sed 's/^/  skipped: /' "$skips"
[ -z "${user_pass:-}" ] || user_pass_skips
exit "${failed:-0}"
