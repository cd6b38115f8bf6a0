# Runs commands a few at a time (sourced by scripts/test.sh and scripts/test-as-user.sh):
# most tests wait (on a browser, a champion's sleep, a timeout) far more than they compute,
# so one test binary leaves the cores idle; three at once fill them (referee/BENCHMARKS.md,
# "Test binaries three at a time"). REFEREE_TEST_JOBS sets how many.
#   pool_init JOBS DIR         at most JOBS commands at once; their output kept in DIR
#   pool_add KEY NAME CMD...   queues CMD (output: DIR/NAME.out); it never runs while
#                              another command of the same KEY does (a test binary as root
#                              and as the user: the same fixtures in the same places)
#   pool_wait                  runs the queue in order, each command as soon as a place is
#                              free and its KEY is not running; fails if any command failed
# Each command's output is printed whole when it ends, with its status and time, so that
# the log reads one command after another.

pool_init() {
  POOL_JOBS=$1
  POOL_DIR=$2
  POOL_FAILED=()
  POOL_QUEUE=()
  declare -gA POOL_NAMES=() POOL_STARTS=() POOL_KEYS=()
}

pool_add() {
  local key=$1 name=$2
  shift 2
  POOL_QUEUE+=("$key $name $(printf '%q ' "$@")")
}

# Waits for one command to end and prints its output.
pool_reap() {
  local pid status=0
  wait -n -p pid "${!POOL_NAMES[@]}" || status=$?
  local name=${POOL_NAMES[$pid]}
  cat "$POOL_DIR/$name.out"
  echo "pool: $name ended with status $status after $((SECONDS - POOL_STARTS[$pid])) s"
  [ "$status" = 0 ] || POOL_FAILED+=("$name")
  unset "POOL_NAMES[$pid]" "POOL_STARTS[$pid]" "POOL_KEYS[$pid]"
}

# Starts the first queued command whose key is not running; fails if none can start.
pool_start_next() {
  local i key name command running
  for i in "${!POOL_QUEUE[@]}"; do
    read -r key name command <<<"${POOL_QUEUE[$i]}"
    for running in "${POOL_KEYS[@]}"; do
      [ "$running" != "$key" ] || continue 2
    done
    unset "POOL_QUEUE[$i]"
    echo "pool: $name started"
    eval "$command" </dev/null >"$POOL_DIR/$name.out" 2>&1 &
    POOL_NAMES[$!]=$name
    POOL_STARTS[$!]=$SECONDS
    POOL_KEYS[$!]=$key
    return 0
  done
  return 1
}

pool_wait() {
  while [ "${#POOL_QUEUE[@]}" -gt 0 ] || [ "${#POOL_NAMES[@]}" -gt 0 ]; do
    if [ "${#POOL_NAMES[@]}" -ge "$POOL_JOBS" ] || ! pool_start_next; then
      pool_reap
    fi
  done
  [ "${#POOL_FAILED[@]}" = 0 ] || {
    echo "pool: failed: ${POOL_FAILED[*]}"
    return 1
  }
}
