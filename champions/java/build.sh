#!/bin/sh
# Builds the bundled Java champions (every folder here with a Makefile) with `make`;
# run by scripts/build-champions.sh. Without javac it says so and skips them (a failure
# under CI=true, where scripts/ci-install.sh installs it).
set -eu
cd "$(dirname "$0")"
if ! command -v javac >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "champions/java: javac is missing (scripts/ci-install.sh installs default-jdk-headless)" >&2
    exit 1
  fi
  echo "champions/java: skipped: javac is missing (Debian: apt-get install default-jdk-headless)" >&2
  exit 0
fi
for dir in */; do
  if [ -f "$dir/Makefile" ]; then
    make -s -C "$dir"
  fi
done
