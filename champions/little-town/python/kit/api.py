"""The API of Little Town (protocol-little-town.md), Python kit.

A champion (prologin.py) does `import api` and defines, at module level, any of the
callbacks init_game(), jouer(), end_game(); run.py loads it and speaks the protocol with
the referee. print() goes to stderr (the log).

In jouer, the champion takes exactly one action (collect or build): the action ends the
turn (the referee answers nothing), and an action the rules refuse excludes the player
(rule 15 of docs/rules-little-town.md): ask legal() when in doubt. A jouer that returns
without an action is a fault too.

Owns: the protocol streams, the `etat` line parsed into a State, the one action a turn.

The referee, or a game server (REFEREE_SERVER), is not trusted: every size, seat and kind
of its answers is checked, and an answer out of range stops the kit with an error naming
it, never an exception a champion's `except:` could swallow.
"""

import os as _os
import sys as _sys

# Contents of a position (State.content), as the `etat` line writes them.
INVALID = -1
FREE = 0
CORN, FISH, WOOD, STONE = 1, 2, 3, 4
FARM, SAWMILL, PONTOON, QUARRY = 5, 6, 7, 8
# With the powers (option powers=on, rule 22).
CATHEDRAL, CASTLE, WATCHTOWER, MARKET = 9, 10, 11, 12
# A player's status (Player.status).
IN, ELIMINATED, EXCLUDED = 0, 1, 2
KINDS = ("farm", "sawmill", "pontoon", "quarry", "cathedral", "castle", "watchtower", "market")
BOARDS = ("rectangle", "cardinal", "diagonal", "torus", "infernal")

_in = None
_out = None
_callback = "(none)"
_acted = False


def _fail(message):
    """The conversation with the referee broke down: report it and exit at once (no
    exception, so that a champion's `except:` cannot swallow it)."""
    try:
        _sys.stdout.flush()
        _sys.stderr.write("little-town kit (Python): error in %s: %s\n" % (_callback, message))
        _sys.stderr.flush()
    finally:
        _os._exit(2)


def _send(text):
    try:
        _out.write(text.encode("ascii") + b"\n")
        _out.flush()
    except OSError as e:
        _fail("writing to the referee: %s" % e)


def _ask(request):
    _send(request)
    try:
        line = _in.readline()
    except OSError as e:
        _fail("reading from the referee: %s" % e)
    if not line:
        _fail("the referee closed the connection while we waited for `%s`" % request)
    return line.rstrip(b"\r\n").decode("ascii", "replace")


class Player:
    """A seat's holdings: stock by resource, workers left this round, buildings built,
    status (IN, ELIMINATED, EXCLUDED)."""

    def __init__(self, numbers):
        self.corn, self.fish, self.wood, self.stone, self.gold = numbers[:5]
        self.free_workers, self.buildings, self.status = numbers[5:8]


# The largest match a kit holds (the C kit's MAX_SIDE and MAX_PLAYERS).
MAX_SIDE, MAX_PLAYERS = 16, 4


def _numbers(request, line):
    """The answer `line` to `request` as integers."""
    try:
        return [int(w) for w in line.split()]
    except ValueError:
        _fail("`%s` holds a word that is not a number" % request)


def _check_etat(n):
    """Stops the kit unless the `etat` numbers `n` describe a match this kit holds, every
    seat and kind in range and no number missing or left over."""
    if len(n) < 13:
        _fail("`etat` ends early (%d numbers)" % len(n))
    width, height, board, players, me, to_play, first = n[0], n[1], n[2], n[5], n[6], n[7], n[8]
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        _fail("`etat` gives a board of %d by %d: this kit holds 1 to %d a side"
              % (width, height, MAX_SIDE))
    for what, value, lo, hi in (("the board's kind", board, 0, len(BOARDS) - 1),
                                ("the number of players as", players, 1, MAX_PLAYERS)):
        if not lo <= value <= hi:
            _fail("`etat` gives %s %d (%d to %d)" % (what, value, lo, hi))

    def seat(what, value, none):
        if not (-1 if none else 0) <= value < players:
            _fail("`etat` gives %s seat %d of %d" % (what, value, players))

    seat("us", me, False)
    seat("the turn to", to_play, True)
    seat("the first player as", first, True)
    cells = width * height
    size = 13 + 3 * cells + 8 * players
    if len(n) < size + 4:
        _fail("`etat` ends early (%d numbers)" % len(n))
    if len(n) not in (size + 4, size + 8):
        _fail("`etat` holds more than its %d numbers" % (size + 4))
    for i in range(cells):
        content, owner, worker = n[13 + 3 * i:16 + 3 * i]
        if not INVALID <= content <= MARKET:
            _fail("`etat` gives a position's content %d (%d to %d)" % (content, INVALID, MARKET))
        seat("a building's owner as", owner, True)
        seat("a worker's owner as", worker, True)
    for p in range(players):
        status = n[13 + 3 * cells + 8 * p + 7]
        if not IN <= status <= EXCLUDED:
            _fail("`etat` gives a player's status %d (%d to %d)" % (status, IN, EXCLUDED))


class State:
    """The whole match, from the `etat` line (protocol-little-town.md section 4)."""

    def __init__(self, line):
        n = _numbers("etat", line)
        _check_etat(n)
        (self.width, self.height, board, self.round, self.rounds, self.players_count,
         self.me, self.to_play, self.first, self.workers, self.max_buildings,
         self.upkeep, self.food_price) = n[:13]
        self.board = BOARDS[board]
        cells = self.width * self.height
        at = 13
        self.content = n[at:at + 3 * cells:3]
        self.owner = n[at + 1:at + 3 * cells:3]
        self.worker = n[at + 2:at + 3 * cells:3]
        at += 3 * cells
        self.players = [Player(n[at + 8 * p:at + 8 * p + 8]) for p in range(self.players_count)]
        at += 8 * self.players_count
        # Four kinds, or eight in a match with the powers (rule 22).
        self.supply = dict(zip(KINDS, n[at:]))

    def at(self, x, y):
        """The content of position (x, y)."""
        return self.content[y * self.width + x]


# Information functions.

def moi():
    """Your seat, 0 to 3."""
    n = _numbers("moi", _ask("moi"))
    if len(n) != 1 or not 0 <= n[0] < MAX_PLAYERS:
        _fail("`moi` gives our seat %s (0 to %d)" % (" ".join(map(str, n)), MAX_PLAYERS - 1))
    return n[0]


def etat():
    """The whole match as a State."""
    return State(_ask("etat"))


def legal():
    """Your legal actions now, as the texts `collect` and `build` take (empty when it is
    not your turn)."""
    line = _ask("legal")
    return [a for a in line.split(";") if a]


def voisins(x, y):
    """The neighbours of (x, y), as (x, y) pairs (empty for no valid position)."""
    words = _ask("voisins %d %d" % (x, y)).split()
    pairs = [_numbers("voisins", w.replace(",", " ")) for w in words]
    if len(pairs) > 8 or any(len(p) != 2 or not (0 <= p[0] < MAX_SIDE and 0 <= p[1] < MAX_SIDE)
                             for p in pairs):
        _fail("`voisins` gives more than 8 positions or one out of the board")
    return [tuple(p) for p in pairs]


# Actions: one per jouer, which it ends.

def act(text):
    """Takes the action `text` (as legal() writes it). Returns False without sending it
    when this jouer already took one, or outside jouer."""
    global _acted
    if _callback != "jouer" or _acted:
        print("little-town kit (Python): `%s` not sent: one action a turn, in jouer" % text,
              file=_sys.stderr)
        return False
    _acted = True
    _send(text)
    return True


def collect(x, y, activate=()):
    """Places a worker on (x, y), collects from its neighbouring mines and activates the
    neighbouring buildings listed as (x, y) pairs."""
    words = ["collect %d,%d" % (x, y)]
    if activate:
        words.append("activate " + " ".join("%d,%d" % p for p in activate))
    return act(" ".join(words))


def build(x, y, kind):
    """Places a worker on (x, y) and builds `kind` (farm, sawmill, pontoon, quarry)."""
    return act("build %d,%d %s" % (x, y, kind))


_CALLBACKS = ("init_game", "jouer", "end_game")


def _connect(proto_in, proto_out):
    """Sets the protocol streams (binary files): the referee's lines, our requests."""
    global _in, _out
    _in, _out = proto_in, proto_out


def _serve(champion):
    """Runs the protocol loop, calling `champion`'s callbacks. Returns the exit status."""
    global _callback, _acted
    ended = False
    while True:
        try:
            line = _in.readline()
        except OSError as e:
            _fail("reading from the referee: %s" % e)
        if not line:
            break
        name = line.rstrip(b"\r\n").decode("ascii", "replace")
        if name not in _CALLBACKS:
            _fail("unknown callback `%s` from the referee" % name[:60])
        _callback = name
        ended = name == "end_game"
        _acted = False
        callback = getattr(champion, name, None)
        if callback is not None:
            callback()
        _sys.stdout.flush()
        if not _acted:
            _send("fin")
    if not ended:
        print("little-town kit (Python): the referee closed the connection before end_game",
              file=_sys.stderr)
        return 1
    return 0
