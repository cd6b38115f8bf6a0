"""The API of Little Town (protocol-little-town.md), Python kit.

A champion (prologin.py) does `import api` and defines, at module level, any of the
callbacks init_game(), jouer(), end_game(); run.py loads it and speaks the protocol with
the referee. print() goes to stderr (the log).

In jouer, the champion takes exactly one action (collect or build): the action ends the
turn (the referee answers nothing), and an action the rules refuse excludes the player
(rule 15 of docs/rules-little-town.md): ask legal() when in doubt. A jouer that returns
without an action is a fault too.

Owns: the protocol streams, the `etat` line parsed into a State, the one action a turn.
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


class State:
    """The whole match, from the `etat` line (protocol-little-town.md section 4)."""

    def __init__(self, line):
        n = [int(w) for w in line.split()]
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
    return int(_ask("moi"))


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
    return [tuple(int(c) for c in w.split(",")) for w in _ask("voisins %d %d" % (x, y)).split()]


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
