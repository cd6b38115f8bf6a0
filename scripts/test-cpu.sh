#!/usr/bin/env bash
# The CPU of each test of one test binary, every process it starts counted (Chromium and
# orphaned champions too, which /usr/bin/time misses): each test run alone (`--exact`) in a
# cpuacct cgroup of its own (cgroup v1, as root), in the environment scripts/test.sh gives
# it. referee/BENCHMARKS.md ("The CPU of each test") shows its output.
#   scripts/test-cpu.sh BINARY_PATH [FILTER]     (run as root, from the repository's root)
# Prints `cpu_s wall_s test` a line, the heaviest first, then the sum.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=$(readlink -f "${1:?usage: scripts/test-cpu.sh BINARY_PATH [FILTER]}")
shift
acct=/sys/fs/cgroup/cpuacct
[ -w "$acct" ] || { echo "test-cpu: needs root and cgroup v1's cpuacct at $acct" >&2; exit 2; }
group=$acct/test-cpu.$$
mkdir "$group"
work=$(mktemp -d "${TMPDIR:-/tmp}/referee-cpu.XXXXXX")
chmod 1777 "$work"
: >"$work/skips.log"
chmod 666 "$work/skips.log"
trap 'chmod -R u+rwX "$work" 2>/dev/null; rm -rf "$work"; rmdir "$group" 2>/dev/null || true' EXIT
export JAVA_TOOL_OPTIONS=-XX:-UsePerfData
out=$work/times
: >"$out"
(cd referee && "$exe" --list "$@" 2>/dev/null) | sed -n 's/: test$//p' >"$work/tests"
while read -r t; do
  before=$(cat "$group/cpuacct.usage")
  start=$(date +%s.%N)
  (
    echo "$BASHPID" >"$group/cgroup.procs"
    cd referee
    exec env TMPDIR="$work" CI=${CI:-true} REFEREE_KEEP_TEST_DIRS=1 \
      REFEREE_REPRODUCE_LOG="$work/reproduce.jsonl" REFEREE_SKIP_LOG="$work/skips.log" \
      "$exe" --exact "$t" --test-threads 1 >"$work/last.out" 2>&1
  ) || echo "test-cpu: $t FAILED" >&2
  # What the test left running (a browser host) ends with it or is counted as it ends.
  for _ in $(seq 150); do [ -s "$group/cgroup.procs" ] || break; sleep 0.2; done
  [ ! -s "$group/cgroup.procs" ] || echo "test-cpu: $t left processes running: $(tr '\n' ' ' <"$group/cgroup.procs")" >&2
  end=$(date +%s.%N)
  after=$(cat "$group/cpuacct.usage")
  printf '%.1f %.1f %s\n' "$(echo "($after - $before) / 1000000000" | bc -l)" \
    "$(echo "$end - $start" | bc -l)" "$t" >>"$out"
done <"$work/tests"
sort -rn "$out"
awk '{ c += $1; w += $2 } END { printf "%.1f %.1f total (%d tests)\n", c, w, NR }' "$out"
