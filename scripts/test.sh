#!/usr/bin/env bash
# The test command of the project (the README's and CI's): builds every champion, checks
# formatting and clippy (warnings are errors), then runs every test of the workspace.
# Extra arguments go to `cargo test` (e.g. `-p engine`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-champions.sh
# The lint gate (lints in the root Cargo.toml's [workspace.lints]): formatting, every
# clippy warning and every rustdoc warning are errors.
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --quiet
cargo build --workspace --bins
cargo test --workspace "$@"
