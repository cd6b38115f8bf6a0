#!/usr/bin/env bash
# The test command of the project (the README's and CI's): builds every champion, checks
# formatting and clippy (warnings are errors), then runs every test of the workspace.
# Extra arguments go to `cargo test` (e.g. `-p engine`).
set -euo pipefail
cd "$(dirname "$0")/.."
# A JVM started on the host (javac building the Java champions, or a test's) writes
# /tmp/hsperfdata_<user> whatever TMPDIR says, unless told not to. Champions never see
# this variable: their environment is cleared.
export JAVA_TOOL_OPTIONS=-XX:-UsePerfData
# Each step says how long it took, as .ci/run's do.
timed() {
  local start=$SECONDS
  "$@"
  echo "test.sh: '$*' took $((SECONDS - start)) s" >&2
}
# Its own set-up: what the tests need (compilers, Chromium, Slurm, ...), installed if
# missing; already there, this takes no time.
timed scripts/ci-install.sh
timed scripts/build-champions.sh
# The lint gate (lints in the root Cargo.toml's [workspace.lints]): formatting, every
# clippy warning and every rustdoc warning are errors.
timed cargo fmt --all --check
timed cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" timed cargo doc --no-deps --workspace --quiet
# No `cargo build` before the tests: `cargo test` builds what it runs, the referee's binary
# included. Every cargo command here selects the whole workspace, so that all resolve the
# dependencies' features alike: a `cargo build --workspace --bins` (no dev-dependencies) or
# a `cargo run -p referee` (one package's) resolves others and builds the referee, its jail
# and arena crates, clap and a dozen more a second and third time (referee/BENCHMARKS.md,
# "Where a clean .ci/run goes").
# The tests run with their own temporary directory, kept until the end: every match they
# play notes its reproduce command (REFEREE_REPRODUCE_LOG), and each is played again and
# its record compared (referee/examples/reproduce_suite.rs).
work=$(mktemp -d "${TMPDIR:-/tmp}/referee-suite.XXXXXX")
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
  cargo test --workspace --no-fail-fast "$@"
else
  # The whole suite: its test binaries three at a time (scripts/pool.sh says why), the
  # slowest first, each from its package's folder as `cargo test` runs it; the doctests
  # through cargo meanwhile.
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
  # insta finds the snapshots from the workspace's root, which it would ask cargo for.
  export INSTA_WORKSPACE_ROOT=$PWD
  # shellcheck source=scripts/pool.sh
  . scripts/pool.sh
  mkdir "$work/pool"
  pool_init "${REFEREE_TEST_JOBS:-3}" "$work/pool"
  run_binary() { echo "     Running $2" && cd "$1" && "$2"; }
  # The documents' tests (`docs`) run their commands as typed, which build the champions
  # and the release referee in place (a champion rewritten while another test starts it:
  # "Text file busy"): alone, after the others.
  every_test() {
    pool_add doctests cargo test --workspace --doc
    local n=0 folder name exe
    while read -r folder name exe; do
      n=$((n + 1))
      if [ "$name" = docs ]; then
        alone=("$folder" "$exe")
      else
        pool_add "$n-$name" run_binary "$folder" "$exe"
      fi
    done <<<"$binaries"
    pool_wait
    (run_binary "${alone[@]}")
  }
  timed every_test
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
