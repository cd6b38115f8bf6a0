#!/bin/sh
# Builds the Pascal kit's champions (every folder here with a Makefile: sample, template)
# with `make`; run by scripts/build-champions.sh. Without `fpc` it says so and skips,
# except under CI=true, where scripts/ci-install.sh must have installed it.
set -eu
cd "$(dirname "$0")"
if ! command -v fpc >/dev/null 2>&1; then
  echo "champions/pascal: 'fpc' not found (Debian: apt-get install fp-compiler); Pascal champions not built" >&2
  [ "${CI:-}" != true ] || exit 1
  exit 0
fi
for dir in */; do
  [ -f "$dir/Makefile" ] || continue
  make -s -C "$dir"
done
