# Runs commands a few at a time (sourced by scripts/test.sh and scripts/test-as-user.sh):
# most tests wait (on a browser, a champion's sleep, a timeout) far more than they compute,
# so one test binary leaves the cores idle; three at once fill them (referee/BENCHMARKS.md,
# "Test binaries three at a time"). REFEREE_TEST_JOBS sets how many.
#   pool_init JOBS DIR     at most JOBS commands at once; their output kept in DIR
#   pool_add NAME CMD...   waits for a free place, then starts CMD (output: DIR/NAME.out)
#   pool_wait              waits for all; fails if any command failed
# Each command's output is printed whole when it ends, with its status and time, so that
# the log reads one command after another.

pool_init() {
  POOL_JOBS=$1
  POOL_DIR=$2
  POOL_FAILED=()
  declare -gA POOL_NAMES=() POOL_STARTS=()
}

# Waits for one command to end and prints its output.
pool_reap() {
  local pid status=0
  wait -n -p pid "${!POOL_NAMES[@]}" || status=$?
  local name=${POOL_NAMES[$pid]}
  cat "$POOL_DIR/$name.out"
  echo "pool: $name ended with status $status after $((SECONDS - POOL_STARTS[$pid])) s"
  [ "$status" = 0 ] || POOL_FAILED+=("$name")
  unset "POOL_NAMES[$pid]" "POOL_STARTS[$pid]"
}

pool_add() {
  local name=$1
  shift
  while [ "${#POOL_NAMES[@]}" -ge "$POOL_JOBS" ]; do pool_reap; done
  echo "pool: $name started"
  "$@" </dev/null >"$POOL_DIR/$name.out" 2>&1 &
  POOL_NAMES[$!]=$name
  POOL_STARTS[$!]=$SECONDS
}

pool_wait() {
  while [ "${#POOL_NAMES[@]}" -gt 0 ]; do pool_reap; done
  [ "${#POOL_FAILED[@]}" = 0 ] || {
    echo "pool: failed: ${POOL_FAILED[*]}"
    return 1
  }
}
