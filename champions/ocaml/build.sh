#!/bin/sh
# Builds the OCaml kit's champions (every folder here with a Makefile: sample, template)
# with `make`; run by scripts/build-champions.sh. Without `ocamlopt` it says so and skips,
# except under CI=true, where scripts/ci-install.sh must have installed it.
set -eu
cd "$(dirname "$0")"
if ! command -v ocamlopt >/dev/null 2>&1; then
  echo "champions/ocaml: 'ocamlopt' not found (Debian: apt-get install ocaml-nox); OCaml champions not built" >&2
  [ "${CI:-}" != true ] || exit 1
  exit 0
fi
for dir in */; do
  [ -f "$dir/Makefile" ] || continue
  make -s -C "$dir"
done
