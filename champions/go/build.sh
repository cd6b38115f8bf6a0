#!/bin/sh
# Builds the bundled Go champions (every folder here with a Makefile) with `make`;
# run by scripts/build-champions.sh. Without go it says so and skips them (a failure
# under CI=true, where scripts/ci-install.sh installs it).
set -eu
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "champions/go: go is missing (scripts/ci-install.sh installs golang-go)" >&2
    exit 1
  fi
  echo "champions/go: skipped: go is missing (Debian: apt-get install golang-go)" >&2
  exit 0
fi
for dir in */; do
  if [ -f "$dir/Makefile" ]; then
    make -s -C "$dir"
  fi
done
