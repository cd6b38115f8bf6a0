#!/usr/bin/env bash
# The cost of watching the game server's site (referee/BENCHMARKS.md, "Live site: the cost
# of watchers"): one `referee serve --web` plays Amazons training games (each against the
# built-in `random`, the client another `random`: `referee --game amazons bot random` on
# the connection), first with no one watching, then with WATCHERS watchers, then with none
# again, in one run; prints the moves a second of each phase and the ratio.
#
# A watcher does what a browser on a game's board page does (referee/view/assets/frame/live.js):
# at each `moved` of the game's event stream it fetches the board so far
# (`/game/NAME/board.json`, the record replayed and drawn) on its own keep-alive
# connection. The site keeps at most 8 event streams a source and counts all of loopback
# as one source, so the watchers of a game share one stream read by this script, which
# tells each of them every `moved`: the 50 fetches are a browser's each, the 49 other
# streams (a line every 200 ms at most) are not made. `--per-address 128` lets loopback
# hold the 50 watchers' connections (16 by default, a source's share of the site's doors).
#
#   scripts/bench-web.sh                 # 4 games at once, 3 rounds a phase, 50 watchers
#   GAMES=4 ROUNDS=3 WATCHERS=50 REFEREE=target/release/referee scripts/bench-web.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REFEREE=${REFEREE:-target/debug/referee}
GAMES=${GAMES:-4}
ROUNDS=${ROUNDS:-3}
WATCHERS=${WATCHERS:-50}
[ -x "$REFEREE" ] || { echo "bench-web: no $REFEREE: build it (cargo build -p referee) or set REFEREE" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/referee-bench-web.XXXXXX")
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
"$REFEREE" serve --listen 127.0.0.1:0 --web 127.0.0.1:0 --results "$work/results" \
    --games-per-minute 100000 --per-address 128 >"$work/log" 2>&1 &
server=$!
for _ in $(seq 100); do
    grep -q "web site on" "$work/log" && break
    sleep 0.1
done
grep -q "web site on" "$work/log" || { cat "$work/log" >&2; exit 1; }
port=$(grep -o "listening on [0-9.:]*" "$work/log" | head -1 | sed 's/.*://')
site=$(grep -o "web site on http://[0-9.:]*" "$work/log" | head -1 | sed 's|.*http://||')
echo "bench-web: $REFEREE, $GAMES games at once, $ROUNDS rounds a phase, $WATCHERS watchers; load $(cut -d' ' -f1-3 /proc/loadavg)"
REFEREE="$REFEREE" PORT="$port" SITE="$site" RESULTS="$work/results" GAMES="$GAMES" \
    ROUNDS="$ROUNDS" WATCHERS="$WATCHERS" python3 - <<'EOF'
import http.client, json, os, socket, subprocess, threading, time

referee, port, site = os.environ["REFEREE"], int(os.environ["PORT"]), os.environ["SITE"]
results = os.environ["RESULTS"]
games, rounds, watchers = (int(os.environ[k]) for k in ("GAMES", "ROUNDS", "WATCHERS"))
host, web_port = site.rsplit(":", 1)
failed, fetched = [], [0]


def framed(sock):
    head = b""
    while len(head) < 6:
        part = sock.recv(6 - len(head))
        if not part:
            raise RuntimeError("the server closed the connection")
        head += part
    n, body = int(head), b""
    while len(body) < n:
        body += sock.recv(n - len(body))
    return body.decode()


def play(index, names):
    """One training game, its client the built-in random on the socket; its name."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"CLIENT_NAME bench%d\n" % index)
    assert framed(sock) == "OK"
    sock.sendall(b"WAIT_GAME TRAINING random game=amazons timeout=60\n")
    answer = framed(sock)
    assert answer == "OK", answer
    name = framed(sock)
    framed(sock)  # the seats
    names.append(name)
    bot = subprocess.Popen([referee, "--game", "amazons", "bot", "random"],
                           stdin=sock.fileno(), stdout=sock.fileno(), stderr=subprocess.DEVNULL)
    bot.wait()
    sock.close()
    return name


def follow(name, count, done):
    """`count` watchers of game `name`, told by one event stream, until `done`."""
    moved = threading.Condition()
    state = {"version": 0, "ended": False}

    def watcher():
        try:
            watch()
        except Exception as e:  # counted: a run with a failed watcher is no figure
            failed.append(repr(e))

    def watch():
        conn = http.client.HTTPConnection(host, int(web_port), timeout=60)
        seen = 0
        while True:
            with moved:
                moved.wait_for(lambda: state["version"] > seen or state["ended"])
                if state["ended"]:
                    return
                seen = state["version"]
            conn.request("GET", "/game/%s/board.json" % name)
            answer = conn.getresponse()
            body = answer.read()
            # Before its first callback a game has no board yet: live.js passes over it.
            if answer.status == 404 and body.startswith(b"This game has no move yet"):
                continue
            if answer.status != 200:
                raise RuntimeError("board.json: %d %s" % (answer.status, body[:200]))
            fetched[0] += 1
            if b'"ended"' in body[:12]:
                return

    threads = [threading.Thread(target=watcher) for _ in range(count)]
    for t in threads:
        t.start()
    conn = http.client.HTTPConnection(host, int(web_port), timeout=60)
    conn.request("GET", "/game/%s/events" % name)
    stream = conn.getresponse()
    try:
        while not done.is_set():
            line = stream.fp.readline()
            if not line:
                break
            if line.startswith(b"event: moved"):
                with moved:
                    state["version"] += 1
                    moved.notify_all()
            elif line.startswith(b"event: ended"):
                break
    finally:
        with moved:
            state["ended"] = True
            moved.notify_all()
        conn.close()
    for t in threads:
        t.join()


def moves_of(name):
    with open(os.path.join(results, name, "record.json")) as f:
        record = json.load(f)
    # Each `jouer` of the Amazons plays one move; init_game and end_game play none.
    return sum(1 for c in record["callbacks"] if c.get("callback", c.get("name")) == "jouer")


def phase(label, watching):
    fetched[0] = 0
    moves, start = 0, time.monotonic()
    for r in range(rounds):
        names, done = [], threading.Event()
        players = [threading.Thread(target=play, args=(r * games + g, names)) for g in range(games)]
        for p in players:
            p.start()
        followers = []
        if watching:
            while len(names) < games:
                time.sleep(0.01)
            for g, name in enumerate(names):
                count = watching // games + (1 if g < watching % games else 0)
                f = threading.Thread(target=follow, args=(name, count, done))
                f.start()
                followers.append(f)
        for p in players:
            p.join()
        done.set()
        for f in followers:
            f.join()
        moves += sum(moves_of(n) for n in names)
    took = time.monotonic() - start
    rate = moves / took
    print("%-22s %5d moves in %6.1f s: %6.1f moves a second, %d boards fetched"
          % (label, moves, took, rate, fetched[0]), flush=True)
    return rate


quiet = phase("no watcher", 0)
watched = phase("%d watchers" % watchers, watchers)
again = phase("no watcher, again", 0)
if failed:
    raise SystemExit("bench-web: %d watchers failed, no figure: %s" % (len(failed), failed[0]))
print("watched / unwatched: %.2f (unwatched: the mean of both phases without a watcher)"
      % (watched / ((quiet + again) / 2)))
EOF
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
