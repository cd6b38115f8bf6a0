#!/bin/sh
# Builds the bundled C# champions (every folder here with a Makefile) with `make`;
# run by scripts/build-champions.sh. Without mcs it says so and skips them (a failure
# under CI=true, where scripts/ci-install.sh installs it).
set -eu
cd "$(dirname "$0")"
if ! command -v mcs >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "champions/csharp: mcs is missing (scripts/ci-install.sh installs mono-mcs)" >&2
    exit 1
  fi
  echo "champions/csharp: skipped: mcs is missing (Debian: apt-get install mono-mcs)" >&2
  exit 0
fi
for dir in */; do
  if [ -f "$dir/Makefile" ]; then
    make -s -C "$dir"
  fi
done
