#!/usr/bin/env bash
# Runs every test binary of the workspace as a normal user (the jail's layers differ from
# root's: user namespace, no cgroup, no uid switch), after building them as the caller.
# Run as root: the user is `referee-attacks` (created by referee/tests/attacks.rs, or here
# with useradd), or USER_NAME=name.
#   scripts/test-as-user.sh [test-name-filter]
set -euo pipefail
cd "$(dirname "$0")/.."
# Snapshot tests (insta) find their files from the workspace root, which they would ask
# cargo for (not on the user's PATH), and never write there as the user.
root=$PWD
user=${USER_NAME:-referee-attacks}
[ "$(id -u)" = 0 ] || { echo "run as root: the tests switch to $user" >&2; exit 2; }
id "$user" >/dev/null 2>&1 ||
  useradd --system --user-group --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin "$user"
scripts/build-champions.sh >/dev/null
cargo build --workspace --bins >/dev/null 2>&1
# Tests build their C fixtures in the target's temporary directory (CARGO_TARGET_TMPDIR).
mkdir -p "${CARGO_TARGET_DIR:-target}/tmp"
chmod 1777 "${CARGO_TARGET_DIR:-target}/tmp"
binaries=$(cargo test --workspace --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["manifest_path"].rsplit("/", 1)[0], m["executable"])')
failed=0
# Test parts that cannot run as a user note why here (tests/common/mod.rs); printed last.
skips=$(mktemp "${TMPDIR:-/tmp}/referee-user-skips.XXXXXX")
chmod 666 "$skips"
trap 'rm -f "$skips"' EXIT
while read -r dir exe; do
  name=$(basename "$exe")
  out=$(cd "$dir" && setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" \
    --clear-groups env HOME=/tmp TMPDIR=/tmp PATH=/usr/local/bin:/usr/bin:/bin \
    INSTA_WORKSPACE_ROOT="$root" INSTA_UPDATE=no REFEREE_SKIP_LOG="$skips" \
    "$exe" "$@" 2>&1) || failed=1
  echo "$name: $(echo "$out" | grep -E '^test result' | tail -1)"
  echo "$out" | grep -E 'FAILED|panicked' | head -5 || true
done <<<"$binaries"
echo "skipped test parts as $user: $(wc -l <"$skips")"
sed 's/^/  skipped: /' "$skips"
exit $failed
