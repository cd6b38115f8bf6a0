#!/usr/bin/env bash
# Runs the test binaries of the workspace as a normal user alone (scripts/user-pass.sh says
# which and why), after building them as the caller; scripts/test.sh as root runs them with
# its own (this script is for a filter, or after a root pass run otherwise).
#   scripts/test-as-user.sh [test-name-filter]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/pool.sh
. scripts/pool.sh
# shellcheck source=scripts/user-pass.sh
. scripts/user-pass.sh
user_pass_init
trap 'rm -rf "$user_work"' EXIT
# A JVM started on the host (javac building the Java champions) writes /tmp/hsperfdata_<user>
# whatever TMPDIR says, unless told not to (scripts/test.sh says the same).
JAVA_TOOL_OPTIONS=-XX:-UsePerfData scripts/build-champions.sh >/dev/null
# Three binaries at once, as the root pass (scripts/pool.sh says why).
mkdir "$user_work/pool"
pool_init "${REFEREE_TEST_JOBS:-3}" "$user_work/pool"
user_pass_add "$@"
failed=0
pool_wait || failed=1
user_pass_docs || failed=1
user_pass_skips
exit $failed
