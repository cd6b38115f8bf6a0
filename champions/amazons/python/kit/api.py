"""The API of the Game of the Amazons (protocol-amazons.md), Python kit.

Same names and values as section 3 of the page. A champion (prologin.py) does
`from api import *` (or `import api`) and defines, at module level, any of the callbacks
init_game(), jouer(), end_game(); run.py loads it and speaks the protocol with the
referee. print() goes to stderr (the log).

Owns: the protocol streams, the board cache (one `etat` per callback and after each
successful `deplacer`; `case` is then an index operation), what the kit knows without
asking (`mon_tour`, `numero_coup` from the arrows on the board, `couleur` asked once),
and the local argument checks.
"""

import os as _os
import sys as _sys

# Error codes.
SUCCES = 0
ACTION_INTERDITE = -1
HORS_PLATEAU = -2
PAS_TON_AMAZONE = -3
DEPLACEMENT_IMPOSSIBLE = -4
TIR_IMPOSSIBLE = -5
# Contents of a square.
VIDE = 0
MOI = 1
ADVERSAIRE = 2
FLECHE = 3
# The board is TAILLE x TAILLE.
TAILLE = 10

# Protocol streams, set by _connect(); binary, the referee's lines are ASCII.
_in = None
_out = None
_callback = "(none)"

# The cache: the `etat` line as bytes (indexing gives the digit's code), whether it is
# stale, the colour (asked once), and whether this `jouer` has moved.
_dirty = True
_board = b""
_couleur = None
_moved = False


def _fail(message):
    """The conversation with the referee broke down: report it and exit at once (no
    exception, so that a champion's `except:` cannot swallow it)."""
    try:
        _sys.stdout.flush()
        _sys.stderr.write("amazons kit (Python): error in %s: %s\n" % (_callback, message))
        _sys.stderr.flush()
    finally:
        _os._exit(2)


def _send(data):
    try:
        _out.write(data)
        _out.flush()
    except OSError as e:
        _fail("writing to the referee: %s" % e)


def _read_line(what):
    try:
        line = _in.readline()
    except OSError as e:
        _fail("reading from the referee: %s" % e)
    if not line:
        _fail("the referee closed the connection while we waited for `%s`" % what)
    return line.rstrip(b"\r\n")


def _arg(v):
    """An argument as the wire's signed 32-bit integer: clamping keeps the answer (a
    coordinate beyond that range stays off the board)."""
    v = int(v)
    return -2147483648 if v < -2147483648 else 2147483647 if v > 2147483647 else v


def _ask(name, *args):
    """Sends the request `name args...` in the canonical form and returns its answer."""
    _send(("%s%s\n" % (name, "".join(" %d" % _arg(a) for a in args))).encode("ascii"))
    line = _read_line(name)
    try:
        return int(line)
    except ValueError:
        _fail("unparsable answer `%s` to `%s`: expected an integer"
              % (line[:60].decode("ascii", "replace"), name))


def _refresh():
    global _dirty, _board
    _send(b"etat\n")
    line = _read_line("etat")
    if len(line) != TAILLE * TAILLE or line.strip(b"0123") != b"":
        _fail("unparsable answer to `etat`: expected 100 digits 0 to 3")
    _board = line
    _dirty = False


# Information functions.

def case(x, y):
    """VIDE, MOI, ADVERSAIRE or FLECHE; HORS_PLATEAU off the board."""
    if not (0 <= x < TAILLE and 0 <= y < TAILLE):
        return HORS_PLATEAU
    if _dirty:
        _refresh()
    return _board[y * TAILLE + x] - 48


def couleur():
    """0 white (you move first), 1 black."""
    global _couleur
    if _couleur is None:
        _couleur = _ask("couleur")
    return _couleur


def numero_coup():
    """Moves played so far: every move shoots one arrow, so the arrows on the board."""
    if _dirty:
        _refresh()
    return _board.count(b"3")


def mon_tour():
    """True during your `jouer` before your move (the page's 1 or 0, as a bool)."""
    return _callback == "jouer" and not _moved


# Action.

def deplacer(x1, y1, x2, y2, x3, y3):
    """The amazon on (x1, y1) goes to (x2, y2) and shoots to (x3, y3): SUCCES or an error
    code (a refused move changes nothing)."""
    global _dirty, _moved
    r = _ask("deplacer", x1, y1, x2, y2, x3, y3)
    if r == SUCCES:
        _dirty = True
        _moved = True
    return r


_CALLBACKS = ("init_game", "jouer", "end_game")


def _connect(proto_in, proto_out):
    """Sets the protocol streams (binary files): the referee's lines, our requests."""
    global _in, _out
    _in, _out = proto_in, proto_out


def _serve(champion):
    """Runs the protocol loop, calling `champion`'s callbacks. Returns the exit status."""
    global _dirty, _callback, _moved
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
        _dirty = True
        _moved = False
        callback = getattr(champion, name, None)
        if callback is not None:
            callback()
        _sys.stdout.flush()
        _send(b"fin\n")
    if not ended:
        print("amazons kit (Python): the referee closed the connection before end_game",
              file=_sys.stderr)
        return 1
    return 0
