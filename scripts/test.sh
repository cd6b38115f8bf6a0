#!/usr/bin/env bash
# The test command of the project (the README's and CI's): builds every champion, then runs
# every test of the workspace. Extra arguments go to `cargo test` (e.g. `-p engine`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-champions.sh
cargo build --workspace --bins
cargo test --workspace "$@"
