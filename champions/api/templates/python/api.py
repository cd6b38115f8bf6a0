"""The API of "La loi du plus riche" (Prologin 2009 final), Python kit.

Same names and values as the 2009 API; the rules, and every function with its error
codes in the order they are checked, are in docs/rules.md (rule N, section 6). A champion
(prologin.py) does `from api import *` (or `import api`) and defines, at module level, any
of the callbacks init_game(), jouer(), enchere(), placement(), end_game(); run.py loads it
and speaks protocol.md with the referee. print() goes to stderr (the log).

Owns: the protocol streams, the state cache (one `etat` per callback and after each
successful action; reads are a couple of index operations) and the local argument checks.

{{ notice | wrap(86) | join("\n") }}
"""

import os as _os
import sys as _sys

{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}
# {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
{{ c.name }} = {{ c.value }}
{% endfor %}

_PRESTIGE = ({{ api.monuments.prestige | join(", ") }})
_PORTEE = ({{ api.monuments.portee | join(", ") }})

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
    construction = (ctypes.c_byte * {{ api.game.map_size * api.game.map_size }})()
    route = (ctypes.c_byte * {{ api.game.map_size * api.game.map_size }})()
    _rules.prologin_rules_tables(construction, route)
    _construction, _route = list(construction), list(route)


def _figure(i):
    if _dirty:
        _refresh()
    return _figures[i]


{% set ns = namespace(kind="") %}
{% for f in api.functions %}
{% if f.kind != ns.kind %}
# {{ "Information functions." if f.kind == "info" else "Actions." }}

{% set ns.kind = f.kind %}
{% endif %}
def {{ f.name }}({{ f.args | map(attribute="name") | join(", ") }}):
    """{{ f.en | wrap(80) | join("\n    ") }}"""
{% if f.check == "coords" %}
    if not (0 <= x < {{ api.game.map_size }} and 0 <= y < {{ api.game.map_size }}):
        return HORS_TERRAIN
{% elif f.check == "player" %}
    if not 0 <= num_joueur <= 2:
        return JOUEUR_INCORRECT
{% elif f.check == "monument" %}
    if not 0 <= num_monument < MAX_MONUMENTS:
        return PAS_DE_MONUMENT
{% endif %}
{% if f.answer == "cell" %}
    if _dirty:
        _refresh()
{% for s in api.etat.strings if s.name == f.cell %}
{% if s.none is defined %}
    c = _{{ s.name }}[y * {{ api.game.map_size }} + x]
    return {{ s.none_answer }} if c == {{ s.none | ord }} else c - {{ s.offset }}
{% else %}
    return _{{ s.name }}[y * {{ api.game.map_size }} + x] - {{ s.offset }}
{% endif %}
{% endfor %}
{% elif f.answer == "figure" %}
    return _figure({{ f.figure }}{{ " + num_joueur" if f.check == "player" }}){{ " != 0" if f.result == "bool" }}
{% elif f.answer == "table" %}
    return _{{ f.table | upper }}[num_monument]
{% elif f.rule %}
    if _rules is None:
        return _ask("{{ f.name }}"{% for a in f.args %}, {{ a.name }}{% endfor %})
    if _dirty:
        _refresh()
{% if f.args | length == 4 %}
    return _rules.prologin_rules_{{ f.name }}({% for a in f.args %}_arg({{ a.name }}){{ ", " if not loop.last }}{% endfor %})
{% else %}
    if not (0 <= x < {{ api.game.map_size }} and 0 <= y < {{ api.game.map_size }}):
        return HORS_TERRAIN
    if _{{ "construction" if f.name == "construction_possible" else "route" }} is None:
        _rules_tables()
    return _{{ "construction" if f.name == "construction_possible" else "route" }}[y * {{ api.game.map_size }} + x]
{% endif %}
{% else %}
    return _{{ f.answer }}("{{ f.name }}"{% for a in f.args %}, {{ a.name }}{% endfor %})
{% endif %}


{% endfor %}
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
