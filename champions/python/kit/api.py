"""The API of "La loi du plus riche" (Prologin 2009 final), Python kit.

Same names and values as the 2009 API; the rules, and every function with its error
codes in the order they are checked, are in docs/rules.md (rule N, section 6). A champion
(prologin.py) does `from api import *` (or `import api`) and defines, at module level, any
of the callbacks init_game(), jouer(), enchere(), placement(), end_game(); run.py loads it
and speaks protocol.md with the referee. print() goes to stderr (the log).

Owns: the protocol streams, the state cache (one `etat` per callback and after each
successful action; reads are a couple of index operations) and the local argument checks.

Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
template champions/api/templates/python/api.py: edit those, not this file.
"""

import os as _os
import sys as _sys

# Error codes.
SUCCES = 0
PAS_DE_MAISON = -2
PAS_DE_MONUMENT = -3
FINANCES_DEPASSEES = -4
BLOCAGE = -5
JOUEUR_INCORRECT = -7
NON_CONNEXE = -8
CASE_OCCUPEE = -9
ACTION_INTERDITE = -10
HORS_TERRAIN = -12
TROP_LOIN = 50
INFINI = 30000
# Ownership.
MAIRIE = 3
# Cell kinds.
VIDE = 0
MAISON = 1
RESERVATION = 2
MONUMENT = 3
ROUTE = 4
# Bounds, sizes.
MAX_MONUMENTS = 14
TAILLE_CARTE = 100
MAX_DISTANCE = 12
ARGENT_INITIAL = 10

_PRESTIGE = (5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2)
_PORTEE = (1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1)

# Protocol streams, set by _serve(); binary, the referee's lines are ASCII.
_in = None
_out = None
_callback = "(none)"

# The cache (protocol.md section 4). The four strings are kept as bytes: indexing a
# bytes object gives the character code directly.
_dirty = True
_figures = [0] * 16
_kinds = b""
_owners = b""
_monuments = b""
_values = b""


def _fail(message):
    """The conversation with the referee broke down: report it and exit at once (no
    exception, so that a champion's `except:` cannot swallow it)."""
    try:
        _sys.stdout.flush()
        _sys.stderr.write("prologin kit (Python): error in %s: %s\n" % (_callback, message))
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
    """An argument as the wire's signed 32-bit integer (the API's `int`): a Python int
    beyond that range would be a protocol fault. Clamping keeps every answer the same: a
    coordinate stays off the map, a bid stays unaffordable or negative."""
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


def _act(name, *args):
    global _dirty
    r = _ask(name, *args)
    if r == SUCCES:
        _dirty = True
    return r


def _refresh():
    global _dirty, _figures, _kinds, _owners, _monuments, _values, _construction, _route
    _send(b"etat\n")
    fields = _read_line("etat").split()
    if len(fields) != 20 or any(len(f) != 10000 for f in fields[16:]):
        _fail("unparsable answer to `etat`: expected 16 integers and 4 strings "
              "of 10000 characters")
    try:
        _figures = [int(f) for f in fields[:16]]
    except ValueError:
        _fail("unparsable answer to `etat`: a figure is not an integer")
    _kinds, _owners, _monuments, _values = fields[16:]
    _dirty = False
    if _rules is not None:
        _rules.prologin_rules_board(_kinds, _owners)
        _construction = _route = None


# The board's rules (rules 19 to 21: construction_possible, route_possible, distance):
# the C kit's, one implementation for every kit (prologin_rules_lib.c), loaded through
# ctypes as the shared library scripts/build-champions.sh builds beside it
# ($PROLOGIN_KITS/c/libprologin_rules.so; /kits/c in the jail; PROLOGIN_RULES_LIB names
# another). The board is given to it at each fill of the cache; the first
# construction_possible or route_possible after that fetches every cell's two answers at
# once, so that a call is a lookup. Without the library, each is a round trip, said once.
_rules = None
_construction = None
_route = None


def _rules_library():
    """The rules library, or None (said on stderr: the rules are then asked)."""
    path = _os.environ.get("PROLOGIN_RULES_LIB")
    if not path:
        kits = _os.environ.get("PROLOGIN_KITS")
        here = _os.path.dirname(_os.path.abspath(__file__))
        c_kit = _os.path.join(kits, "c") if kits else _os.path.join(here, "..", "..", "c", "kit")
        path = _os.path.join(c_kit, "libprologin_rules.so")
    try:
        import ctypes
        lib = ctypes.CDLL(path)
        lib.prologin_rules_board.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
        lib.prologin_rules_board.restype = None
        lib.prologin_rules_tables.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
        lib.prologin_rules_tables.restype = None
        lib.prologin_rules_distance.argtypes = (ctypes.c_int,) * 4
        lib.prologin_rules_distance.restype = ctypes.c_int
    except (OSError, AttributeError, ImportError) as e:
        _sys.stderr.write("prologin kit (Python): no rules library (%s): construction_possible, "
                          "route_possible and distance ask the referee, a round trip each "
                          "(build it: scripts/build-champions.sh)\n" % e)
        return None
    return lib


def _rules_tables():
    """Every cell's construction_possible and route_possible for the cached board."""
    global _construction, _route
    import ctypes
    construction = (ctypes.c_byte * 10000)()
    route = (ctypes.c_byte * 10000)()
    _rules.prologin_rules_tables(construction, route)
    _construction, _route = list(construction), list(route)


def _figure(i):
    if _dirty:
        _refresh()
    return _figures[i]


# Information functions.

def type_case(x, y):
    """The kind of the cell: VIDE, MAISON, RESERVATION, MONUMENT or ROUTE."""
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _dirty:
        _refresh()
    return _kinds[y * 100 + x] - 48


def valeur_case(x, y):
    """The value of the cell: the sum of the prestiges of the monuments whose range
    covers it; may be negative."""
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _dirty:
        _refresh()
    return _values[y * 100 + x] - 64


def appartenance(x, y):
    """The owner (0, 1 or 2) of the house or reservation on the cell, MAIRIE for any
    other cell."""
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _dirty:
        _refresh()
    return _owners[y * 100 + x] - 48


def type_monument(x, y):
    """The id of the monument built on the cell, or PAS_DE_MONUMENT."""
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _dirty:
        _refresh()
    c = _monuments[y * 100 + x]
    return PAS_DE_MONUMENT if c == 46 else c - 97


def portee_monument(num_monument):
    """The range of a monument (1 to 3)."""
    if not 0 <= num_monument < MAX_MONUMENTS:
        return PAS_DE_MONUMENT
    return _PORTEE[num_monument]


def prestige_monument(num_monument):
    """The prestige of a monument (-2 to +5)."""
    if not 0 <= num_monument < MAX_MONUMENTS:
        return PAS_DE_MONUMENT
    return _PRESTIGE[num_monument]


def numero_tour():
    """The turn number, 1 to 15."""
    return _figure(0)


def commence():
    """The player who opens Phase I; during Phases II and III, the one who will open
    the next turn's Phase I."""
    return _figure(2)


def montant_encheres(num_joueur):
    """A player's bid in the last resolved auction; 0 before the first one."""
    if not 0 <= num_joueur <= 2:
        return JOUEUR_INCORRECT
    return _figure(13 + num_joueur)


def vainqueur_encheres():
    """The winner of the last resolved auction; 0 before the first one."""
    return _figure(4)


def score(num_joueur):
    """A player's houses' worth, money excluded (rule 9): the final score is finances +
    score."""
    if not 0 <= num_joueur <= 2:
        return JOUEUR_INCORRECT
    return _figure(10 + num_joueur)


def finances(num_joueur):
    """A player's money."""
    if not 0 <= num_joueur <= 2:
        return JOUEUR_INCORRECT
    return _figure(7 + num_joueur)


def monument_en_cours():
    """The monument most recently put up for auction; PAS_DE_MONUMENT in the first
    Phase I."""
    return _figure(3)


def distance(x1, y1, x2, y2):
    """The shortest walk from (x1, y1) to (x2, y2) in 4-steps over empty cells, roads
    and your reservations; TROP_LOIN beyond MAX_DISTANCE or without a path."""
    if _rules is None:
        return _ask("distance", x1, y1, x2, y2)
    if _dirty:
        _refresh()
    return _rules.prologin_rules_distance(_arg(x1), _arg(y1), _arg(x2), _arg(y2))


def route_possible(x, y):
    """SUCCES if you may build a road on (x, y), else HORS_TERRAIN, CASE_OCCUPEE or
    NON_CONNEXE."""
    if _rules is None:
        return _ask("route_possible", x, y)
    if _dirty:
        _refresh()
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _route is None:
        _rules_tables()
    return _route[y * 100 + x]


def construction_possible(x, y):
    """SUCCES if you may build a house or a monument on (x, y), else HORS_TERRAIN,
    CASE_OCCUPEE, BLOCAGE or NON_CONNEXE."""
    if _rules is None:
        return _ask("construction_possible", x, y)
    if _dirty:
        _refresh()
    if not (0 <= x < 100 and 0 <= y < 100):
        return HORS_TERRAIN
    if _construction is None:
        _rules_tables()
    return _construction[y * 100 + x]


def cout_achat_maison():
    """The price of your next house in this callback, or INFINI when you may build no
    more."""
    return _figure(5)


def cout_achat_route():
    """The price of your next road in this callback."""
    return _figure(6)


def mon_tour():
    """Whether you may act now; if not, every action answers ACTION_INTERDITE. Start
    jouer, enchere and placement with `if (mon_tour() == false) return;`."""
    return _figure(1) != 0


# Actions.

def construire_route(x, y):
    """Builds a road on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
    NON_CONNEXE or FINANCES_DEPASSEES."""
    return _act("construire_route", x, y)


def construire_maison(x, y):
    """Builds a house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
    NON_CONNEXE, BLOCAGE or FINANCES_DEPASSEES."""
    return _act("construire_maison", x, y)


def reserver_case(x, y):
    """Reserves the cell (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
    NON_CONNEXE, BLOCAGE or FINANCES_DEPASSEES."""
    return _act("reserver_case", x, y)


def detruire_maison(x, y):
    """Destroys the house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, PAS_DE_MAISON
    or FINANCES_DEPASSEES."""
    return _act("detruire_maison", x, y)


def vendre_maison(x, y):
    """Sells your house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE or
    PAS_DE_MAISON."""
    return _act("vendre_maison", x, y)


def encherir(montant):
    """Places your bid in this auction. Else ACTION_INTERDITE or FINANCES_DEPASSEES."""
    return _act("encherir", montant)


def construire_monument(x, y):
    """Builds the monument you won on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE,
    CASE_OCCUPEE, NON_CONNEXE or BLOCAGE."""
    return _act("construire_monument", x, y)


_CALLBACKS = ("init_game", "jouer", "enchere", "placement", "end_game")


def _connect(proto_in, proto_out):
    """Sets the protocol streams (binary files): the referee's lines, our requests."""
    global _in, _out
    _in, _out = proto_in, proto_out


def _serve(champion):
    """Runs the protocol loop, calling `champion`'s callbacks. Returns the exit status."""
    global _dirty, _callback, _rules
    _rules = _rules_library()
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
        callback = getattr(champion, name, None)
        if callback is not None:
            callback()
        _sys.stdout.flush()
        _send(b"fin\n")
    if not ended:
        print("prologin kit (Python): the referee closed the connection before end_game",
              file=_sys.stderr)
        return 1
    return 0
