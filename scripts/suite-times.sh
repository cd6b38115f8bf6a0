#!/usr/bin/env bash
# Times each test binary of the referee, one after another, in the environment
# scripts/test.sh gives it: per binary its wall and CPU time (its own and its children's),
# per test its time (the harness's --report-time, allowed on stable by RUSTC_BOOTSTRAP for
# the test binary only). referee/BENCHMARKS.md ("The suite's own time") shows its output.
#   scripts/suite-times.sh OUT_DIR [binary name to run first...]
# Writes OUT_DIR/times (`name wall user sys` a line) and OUT_DIR/<name>.out.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/suite-times.sh OUT_DIR [binary...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
export JAVA_TOOL_OPTIONS=-XX:-UsePerfData
cargo test -p referee --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"], m["executable"])' >"$out/binaries"
work=$(mktemp -d "${TMPDIR:-/tmp}/referee-suite.XXXXXX")
chmod 1777 "$work"
trap 'chmod -R u+rwX "$work" 2>/dev/null; rm -rf "$work"' EXIT
: >"$work/skips.log"
chmod 666 "$work/skips.log"
: >"$out/times"
while read -r name exe; do
  (cd referee && TMPDIR="$work" CI=${CI:-true} REFEREE_KEEP_TEST_DIRS=1 \
    REFEREE_REPRODUCE_LOG="$work/reproduce.jsonl" REFEREE_SKIP_LOG="$work/skips.log" \
    RUSTC_BOOTSTRAP=1 /usr/bin/time -f "$name %e %U %S" -a -o "$out/times" \
    "$exe" -Z unstable-options --report-time >"$out/$name.out" 2>&1) || true
done < <(awk -v first="$*" 'BEGIN { n = split(first, f, " "); for (i = 1; i <= n; i++) rank[f[i]] = i }
  { print ($1 in rank ? rank[$1] : n + 1), $0 }' "$out/binaries" | sort -n -s -k1,1 | cut -d' ' -f2-)
cat "$out/times"
