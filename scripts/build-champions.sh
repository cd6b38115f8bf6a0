#!/bin/sh
# Builds every champion of the repository with one command; exits non-zero on failure.
#
#   scripts/build-champions.sh          build all
#   scripts/build-champions.sh clean    remove the C/C++ build outputs
#
# - C and C++: every folder champions/c/*/, champions/cpp/*/, champions/amazons/c/*/
#   (the Game of the Amazons) and champions/little-town/c/*/ (Little Town) with a Makefile (the kit folders have none) is built with
#   `referee build` (its `make` in a jail: a Makefile is code), giving its executable
#   `champion`. The referee is $REFEREE, else target/release/referee, else
#   target/debug/referee. Without one that builds (the first build of a clone, or no jail
#   here: no root and no user namespaces), they build with `make` on the host, saying so:
#   they are the repository's own examples, trusted as the repository is (a contestant's
#   folder is built with `referee build`, never this way).
#   Ticket to Ride's C champions, champions/ticket/c/*/, are built the same way.
# - The board's rules as shared libraries in champions/c/kit (champions/c/kit/rules_lib.mk,
#   with cc on the host: the repository's own code): libprologin_rules.so, which the Python
#   kit loads at run time (/kits/c in the jail), and libprologin_rules_jni.so, the Java
#   kit's (when a JDK is here): construction_possible, route_possible and distance without
#   a round trip.
# - Python and shell: nothing else to build.
# - Rust: `cargo build --release -p prologin --bins` builds every champion binary of the
#   Rust kit package (target/release/<name>); new [[bin]]s are picked up automatically.
# - Hook: any executable champions/<lang>/build.sh is run too (from its own folder), for
#   kits that need more.
# - OCaml, Haskell, Pascal: their hooks (champions/ocaml/build.sh, ...) run `make` in each
#   folder of the kit's champions with a Makefile, outside the jail; without the compiler
#   they say so and skip (under CI=true they fail). Lua, Prolog: nothing to build.
set -eu

# Through links too (a folder that links to scripts/): the repository of the real file.
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=${1:-all}
failed=""

step() { printf '== %s\n' "$*" >&2; }

referee=${REFEREE:-}
for candidate in "$root/target/release/referee" "$root/target/debug/referee"; do
  [ -n "$referee" ] || { [ -x "$candidate" ] && referee=$candidate; }
done
on_host=""
if [ -z "$referee" ] && [ "$target" != clean ]; then
  echo "build-champions: no built referee yet (cargo build --release): the repository's own C and C++ champions build with make on the host" >&2
fi

# Builds the folder $1 in a jail (referee build), or with make on the host when the
# referee cannot (missing, too old, or no jail here).
build_dir() {
  if [ -n "$referee" ] && [ -z "$on_host" ]; then
    log=$(mktemp)
    rc=0
    "$referee" build "$1" >"$log" 2>&1 || rc=$?
    case $rc in
      0) rm -f "$log"; return 0 ;;
      4) cat "$log" >&2; rm -f "$log"; return 1 ;;
    esac
    printf 'build-champions: `%s build` cannot build here (exit %s: %s); the repository'"'"'s own champions build with make on the host\n' \
      "$referee" "$rc" "$(grep -v '^sandbox:' "$log" | head -n 1)" >&2
    rm -f "$log"
    on_host=yes
  fi
  make -s -C "$1"
}

for dir in "$root"/champions/c/*/ "$root"/champions/cpp/*/ "$root"/champions/amazons/c/*/ "$root"/champions/ticket/c/*/ "$root"/champions/little-town/c/*/; do
  [ -f "$dir/Makefile" ] || continue
  name=${dir#"$root"/}
  if [ "$target" = clean ]; then
    make -s -C "$dir" clean || failed="$failed $name"
  else
    step "build $name"
    build_dir "$dir" || failed="$failed $name"
  fi
done

if [ "$target" = clean ]; then
  rm -f "$root/champions/c/kit/libprologin_rules.so" "$root/champions/c/kit/libprologin_rules_jni.so" \
    "$root/champions/c/kit/libprologin_rules_pl.so" "$root/champions/c/kit/prologin_rules.node" \
    "$root/champions/c/kit/prologin_rules_lua.so"
else
  step "make -f champions/c/kit/rules_lib.mk"
  make -s -f "$root/champions/c/kit/rules_lib.mk" || failed="$failed champions/c/kit/rules_lib.mk"
fi

if [ "$target" != clean ]; then
  if command -v cargo >/dev/null 2>&1 && [ -f "$root/champions/rust/Cargo.toml" ]; then
    step "cargo build --release -p prologin --bins"
    log=$(mktemp)
    (cd "$root" && cargo build --release -p prologin --bins) >"$log" 2>&1 ||
      failed="$failed champions/rust"
    # Hide the harmless warning given while the package has no binary yet.
    grep -v 'target filter `bins` specified, but no targets matched' "$log" >&2 || true
    rm -f "$log"
  fi
  for hook in "$root"/champions/*/build.sh; do
    [ -x "$hook" ] || continue
    step "$hook"
    (cd "$(dirname "$hook")" && ./build.sh) || failed="$failed ${hook#"$root"/}"
  done
fi

if [ -n "$failed" ]; then
  printf 'build-champions: FAILED:%s\n' "$failed" >&2
  exit 1
fi
printf 'build-champions: all champions built\n' >&2
