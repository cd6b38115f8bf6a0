#!/usr/bin/env bash
# After the suite: nothing new left in the temporary directory, and no champion process
# (a process whose environment has PROLOGIN_SEED) still running.
#   scripts/check-clean.sh TMPDIR "LISTING BEFORE (ls -A | sort)"
set -euo pipefail
tmp=$1
before=$2
after=$(ls -A "$tmp" | sort)
left=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed '/^$/d')
status=0
if [ -n "$left" ]; then
  echo "the suite left $(printf '%s\n' "$left" | wc -l) entries in $tmp:" >&2
  printf '  %s\n' $left >&2
  status=1
else
  echo "temporary directory $tmp: nothing left by the suite"
fi
champions=$(grep -las 'PROLOGIN_SEED=' /proc/[0-9]*/environ | cut -d/ -f3 | sort -n || true)
if [ -n "$champions" ]; then
  echo "champion processes still running after the suite:" >&2
  for pid in $champions; do
    echo "  $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
  done
  status=1
else
  echo "processes: no champion left"
fi
exit $status
