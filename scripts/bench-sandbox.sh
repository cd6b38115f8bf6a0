#!/bin/sh
# The cost of the sandbox: spawn time of a trivial champion with every layer on versus none,
# as the current user and (when run as root) as `nobody`. Figures in referee/BENCHMARKS.md,
# section "Sandbox".
#   scripts/bench-sandbox.sh
set -eu
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo bench -p referee --bench sandbox_spawn --no-run 2>/dev/null
bin=$(ls -t "$CARGO_TARGET_DIR"/release/deps/sandbox_spawn-* | grep -v '\.d$' | head -n 1)
echo "== as $(id -un)"
"$bin"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  echo "== as nobody"
  TMPDIR=/tmp setpriv --reuid=65534 --regid=65534 --clear-groups "$bin"
fi
