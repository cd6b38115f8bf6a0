"""The Ticket to Ride Python kit: the subject's client API over protocol-ticket-to-ride.md.

A champion is a program written as the subject asks (connect, wait for a game, get the
map, then play your moves and get the others' until a move does not return NORMAL_MOVE),
with the subject's names:

    import ticket_to_ride as t2r
    t2r.connectToServer("localhost", 1234, "me")       # no server here: does nothing
    name, nb_cities, nb_tracks = t2r.waitForT2RGame("TRAINING RANDOM")
    me, tracks, face_up, cards = t2r.getMap()
    ...
    code, move, replay = t2r.getMove()                  # the others' moves, one by one
    code = t2r.claimRoute(city1, city2, t2r.RED, 1)
    t2r.closeConnection()

Importing the module moves the protocol to private descriptors: print() goes to stderr
(the match's log), never to the referee. A move the rules refuse is a fault that loses the
match (there are no error codes): ask first (hand(), row(), routes(), status()).

The referee, or a game server (REFEREE_SERVER), is not trusted: every count and index of
its answers is checked, the board's counts are read once (the first `game` and `routes`
answers), and an answer that disagrees or is out of range stops the kit with an error
naming it, never an exception a champion's `except:` could swallow.
"""

import os
import sys
from collections import namedtuple

# t_color
NONE, PURPLE, WHITE, BLUE, YELLOW, ORANGE, BLACK, RED, GREEN, MULTICOLOR = range(10)
COLORS = ["none", "purple", "white", "blue", "yellow", "orange", "black", "red", "green", "locomotive"]
# t_typeMove
CLAIM_ROUTE, DRAW_BLIND_CARD, DRAW_CARD, DRAW_OBJECTIVES, CHOOSE_OBJECTIVES = range(1, 6)
# t_return_code
NORMAL_MOVE, WINNING_MOVE, LOSING_MOVE = 0, 1, -1

Objective = namedtuple("Objective", "city1 city2 score")


class Move:
    """A t_move: `type` and the fields of its kind (claimRoute: city1, city2, color,
    nbLocomotives; drawCard: card, faceUp; drawBlindCard: card (NONE when another seat drew
    it); drawObjectives: objectives (unknown for another seat); chooseObjectives:
    nbObjectives, chosen). `seat` is the seat that played it."""

    def __init__(self, type, seat, **fields):
        self.type = type
        self.seat = seat
        self.city1 = self.city2 = self.color = self.nbLocomotives = 0
        self.card = NONE
        self.faceUp = []
        self.objectives = []
        self.nbObjectives = 0
        self.chosen = []
        self.__dict__.update(fields)

    def __repr__(self):
        return "Move(%r)" % self.__dict__


def color_number(name):
    """A colour's t_color from its protocol name (`grey` routes are MULTICOLOR)."""
    return MULTICOLOR if name == "grey" else COLORS.index(name)


def _take_protocol_fds():
    # A game server's socket when REFEREE_SERVER names one, else stdin and stdout.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import referee_connect

    sock = referee_connect.connect("ticket-to-ride")
    del sys.path[0]
    fds = (sock, os.dup(sock)) if sock is not None else (os.dup(0), os.dup(1))
    proto_in = os.fdopen(fds[0], "r")
    proto_out = os.fdopen(fds[1], "w")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr
    return proto_in, proto_out


_in, _out = _take_protocol_fds()
_printable = sys.modules["referee_connect"].printable
_callback = None   # the callback we are in (None before the first)
_turn_over = False  # our `jouer` is over: its `fin` waits for the next call that needs it
_me = None         # our seat
_seen = 0          # moves of the match already fetched (`moves N`)
_queue = []        # the others' moves not yet given by getMove
_final = None      # WINNING_MOVE or LOSING_MOVE once the match is over


def _die(message):
    sys.stdout.flush()
    sys.stderr.write("ticket_to_ride kit (Python): %s\n" % message)
    sys.stderr.flush()
    os._exit(2)


def _ints(request, answer=None):
    """The answer to `request` (asked unless given) as integers."""
    answer = ask(request) if answer is None else answer
    try:
        return [int(w) for w in answer.split()]
    except ValueError:
        _die("the answer to `%s` holds a word that is not a number: %s"
             % (request, _printable(answer)))


def _bounded(request, what, value, lo, hi):
    """`value` (`what` of the answer to `request`), which must lie in [lo, hi]."""
    if not lo <= value <= hi:
        _die("the answer to `%s` gives %s %d (%d to %d)" % (request, what, value, lo, hi))
    return value


def ask(line):
    """Sends `line` (a question or a move of the protocol) and returns the answer line."""
    _out.write(line + "\n")
    _out.flush()
    answer = _in.readline()
    if not answer:
        _die("the referee closed the protocol while we waited for `%s`" % line)
    return answer.rstrip("\r\n")


def _next_callback():
    """Ends the current callback (`fin`) and waits for the next one; exits at the end."""
    global _callback, _turn_over
    _turn_over = False
    if _callback is not None:
        _out.write("fin\n")
        _out.flush()
        _callback = None
    line = _in.readline()
    if not line:
        sys.exit(0)
    _callback = line.strip()
    return _callback


# The board's bounds: far above every board of the game (36 cities, 100 routes).
MAX_SEATS, MAX_CITIES, MAX_ROUTES, MAX_LENGTH = 5, 1000, 10000, 100
_seats = _cities = _nb_routes = None  # from the first `game` answer
_board = None  # the first `routes` answer: (city1, city2, length, t_color, twin, owner)


def _started():
    """On to the first callback, and the first `game` answer read (asked once)."""
    global _me, _seats, _cities, _nb_routes
    if _callback is None and _me is None:
        _next_callback()
    if _me is None:
        words = _ints("game")
        if len(words) != 6:
            _die("the answer to `game` has %d numbers, not 6" % len(words))
        _seats = _bounded("game", "seats", words[0], 1, MAX_SEATS)
        if not 0 <= words[1] < _seats:
            _die("the answer to `game` gives us seat %d of %d" % (words[1], _seats))
        _cities = _bounded("game", "cities", words[2], 1, MAX_CITIES)
        if not 0 <= words[3] <= MAX_ROUTES:
            _die("the answer to `game` gives %d routes (0 to %d)" % (words[3], MAX_ROUTES))
        _nb_routes = words[3]
        _me = words[1]


def _read_routes():
    """The answer to `routes`, checked: as many routes as `game` said, cities, lengths,
    colours and owners in range, every twin another route whose twin is this one."""
    words = ask("routes").split()
    if len(words) % 6 or len(words) // 6 != _nb_routes:
        _die("the answer to `routes` lists %d routes, not the %d of `game`"
             % (len(words) // 6, _nb_routes))
    routes = []
    for i in range(_nb_routes):
        a, b, length, colour, twin, owner = words[6 * i:6 * i + 6]
        numbers = _ints("routes", " ".join((a, b, length, twin, owner)))
        for what, value, lo, hi in zip(
                ("a city", "a city", "a length", "a twin", "an owner"), numbers,
                (0, 0, 1, -1, -1), (_cities - 1, _cities - 1, MAX_LENGTH, MAX_ROUTES, _seats - 1)):
            _bounded("routes", what, value, lo, hi)
        if colour != "grey" and colour not in COLORS:
            _die("the answer to `routes` gives route %d the colour %s" % (i, _printable(colour)))
        colour = color_number(colour)
        if colour == NONE:
            _die("the answer to `routes` gives route %d no colour" % i)
        routes.append((numbers[0], numbers[1], numbers[2], colour, numbers[3], numbers[4]))
    for i, route in enumerate(routes):
        twin = route[4]
        if twin == i:
            _die("the answer to `routes` makes route %d its own twin" % i)
        if twin >= len(routes) or (twin >= 0 and routes[twin][4] != i):
            _die("the answer to `routes`: route %d names route %d as its twin, which does not "
                 "name it back (%d routes)" % (i, twin, len(routes)))
    return routes


def _read_board():
    """The board: read once, from the first `game` and `routes` answers."""
    global _board
    _started()
    if _board is None:
        _board = _read_routes()
    return _board


def _is_track(routes, i):
    """A route is a track unless it is the second of a double route: the one rule of the
    tracks' count (waitForT2RGame) and of the tracks given (getMap)."""
    return routes[i][4] < 0 or routes[i][4] > i


def _result():
    """Our code at the end: WINNING_MOVE if we placed first."""
    words = _ints("result")
    if len(words) != 2 * _seats:
        _die("the answer to `result` has %d numbers, not 2 per seat" % len(words))
    return WINNING_MOVE if words[2 * _me] == 1 else LOSING_MOVE


def _fetch_moves():
    global _seen
    request = "moves %d" % _seen
    parts = ask(request).split(";")
    _seen = _ints(request, parts[0])[0] if parts[0].strip() else _seen
    for text in parts[1:]:
        try:
            _queue_move(text)
        except (ValueError, IndexError):
            _die("the answer to `moves` holds the move %s" % _printable(text))


def _queue_move(text):
    """The move `text` of `moves` queued for getMove, unless it is ours."""
    words = text.split()
    seat, kind = int(words[0]), words[1]
    if not 0 <= seat < _seats:
        _die("the answer to `moves` names seat %d of %d" % (seat, _seats))
    if seat == _me or kind == "leave":
        return
    if kind == "blind":
        _queue.append(Move(DRAW_BLIND_CARD, seat))
    elif kind == "take":
        _queue.append(Move(DRAW_CARD, seat, card=COLORS.index(words[2])))
    elif kind == "tickets":
        _queue.append(Move(DRAW_OBJECTIVES, seat))
    elif kind == "keep":
        _queue.append(Move(CHOOSE_OBJECTIVES, seat, nbObjectives=int(words[2])))
    elif kind == "claim":
        a, b = int(words[2]), int(words[3])
        if not (0 <= a < _cities and 0 <= b < _cities):
            _die("the answer to `moves` claims a route of cities %d and %d (0 to %d)"
                 % (a, b, _cities - 1))
        _queue.append(Move(CLAIM_ROUTE, seat, city1=a, city2=b,
                           color=COLORS.index(words[4]), nbLocomotives=int(words[5])))
    else:
        raise ValueError(kind)


def _to_end():
    """The match is over: on to `end_game`, our code from its result."""
    global _final
    while _callback != "end_game":
        _next_callback()
    _fetch_moves()
    _final = _result()
    return _final


def _my_turn():
    """Gets to our `jouer`; False if the match ended first."""
    _started()
    while _callback != "jouer" or _turn_over:
        if _final is not None or _callback == "end_game":
            if _final is None:
                _to_end()
            return False
        _next_callback()
    return True


def _play(line):
    """Plays the move `line` in our turn: its answer and our code."""
    global _turn_over
    if not _my_turn():
        return None, _final
    answer = ask(line)
    status = ask("status").split()
    if len(status) < 4:
        _die("the answer to `status` is %s" % _printable(" ".join(status)))
    if status[3] == "1":
        return answer, _to_end()
    _turn_over = _ints("status", status[0])[0] != _me
    return answer, NORMAL_MOVE


# The connection: a champion is started by the referee, already in its match.
def connectToServer(serverName="", port=0, name=""):
    """Nothing to do: the referee started this program in its match."""


def closeConnection():
    """Ends the current callback, and every later one, until the referee closes."""
    while True:
        _next_callback()


def waitForT2RGame(gameType=""):
    """The match: (its name, the number of cities, the number of tracks)."""
    board = _read_board()
    return "ticket-to-ride", _cities, sum(_is_track(board, i) for i in range(len(board)))


def _tracks():
    board = _read_board()
    tracks = []
    for i, (a, b, length, colour, twin, _owner) in enumerate(board):
        if _is_track(board, i):
            tracks += [a, b, length, colour, board[twin][3] if twin >= 0 else NONE]
    return tracks


def getMap():
    """(our seat (0 moves first), the tracks: 5 numbers each (city1, city2, length, color1,
    color2: NONE for a single track), the 5 face-up cards, the cards in our hand)."""
    _started()
    return _me, _tracks(), row(), [c for c, n in enumerate(hand(), 1) for _ in range(n)]


def isMyTurn():
    """Whether it is our turn now: every move of the others given by getMove, and the
    referee waits for ours. False once the match is over."""
    if _queue or _final is not None:
        return False
    _started()
    if _callback != "jouer" or _turn_over:
        _next_callback()
        if _callback == "end_game":
            _to_end()
            return False
        _fetch_moves()
    return not _queue


def getMove():
    """The next move of another seat: (code, Move, replay), replay True when that seat
    plays again (after a first card, or after drawing tickets)."""
    if not _queue:
        _started()
        if _final is None:
            if _callback == "jouer" and not _turn_over:
                _die("getMove() on your own turn: play a move (isMyTurn() tells)")
            _next_callback()
            if _callback == "end_game":
                _to_end()
            else:
                _fetch_moves()
        if not _queue:
            return _final if _final is not None else NORMAL_MOVE, None, False
    move = _queue.pop(0)
    if move.type == DRAW_CARD:
        move.faceUp = row()
    replay = bool(_queue) and _queue[0].seat == move.seat
    code = _final if (not _queue and _final is not None) else NORMAL_MOVE
    return code, move, replay


def claimRoute(city1, city2, color, nbLocomotives):
    """Claims the route city1 - city2 paying with cards of `color` and `nbLocomotives`
    locomotives: the code."""
    return _play("claim %d %d %s %d" % (city1, city2, COLORS[color], nbLocomotives))[1]


def drawBlindCard():
    """Draws the pile's top card: (code, its colour)."""
    answer, code = _play("blind")
    return code, COLORS.index(answer) if answer in COLORS else NONE


def drawCard(card):
    """Takes a face-up card of colour `card`: (code, the face-up cards after it)."""
    _answer, code = _play("take %s" % COLORS[card])
    return code, row() if code == NORMAL_MOVE else []


def drawObjectives():
    """Draws three tickets: (code, the three Objectives to choose among)."""
    answer, code = _play("tickets")
    objectives = []
    if code == NORMAL_MOVE:
        for text in answer.split(", "):
            a, b, points = text.split()
            objectives.append(Objective(int(a), int(b), int(points)))
    return code, objectives


def chooseObjectives(chosen):
    """Keeps the tickets drawn whose `chosen` is true (3 booleans): the code."""
    return _play("keep %s" % " ".join("1" if c else "0" for c in chosen))[1]


# What the seat sees, asked of the referee.
def hand():
    """Our cards: 9 counts, for PURPLE ... MULTICOLOR (index 0 is PURPLE)."""
    _started()
    cards = _ints("hand")
    if len(cards) != 9 or min(cards) < 0:
        _die("the answer to `hand` is not 9 counts: %s" % cards)
    return cards


def row():
    """The 5 face-up cards (t_color, NONE for an empty place)."""
    _started()
    words = ask("row").split()
    if len(words) != 5 or any(w not in COLORS for w in words):
        _die("the answer to `row` is not 5 colours: %s" % _printable(" ".join(words)))
    return [COLORS.index(w) for w in words]


def routes():
    """Every route: (city1, city2, length, t_color (MULTICOLOR: grey), twin, owner), twin
    and owner -1 when none."""
    board = _read_board()
    now = _read_routes()
    for i, (first, route) in enumerate(zip(board, now)):
        if first[:5] != route[:5]:
            _die("the answer to `routes` disagrees with its first about route %d" % i)
    return now


def objectives():
    """Our tickets, as Objectives."""
    _started()
    words = _ints("objectives")
    if not words or words[0] < 0 or len(words) != 1 + 3 * words[0]:
        _die("the answer to `objectives` does not hold its count of tickets: %s" % words[:4])
    return [Objective(*words[1 + 3 * i:4 + 3 * i]) for i in range(words[0])]


def seats():
    """Each seat's (cards, tickets, wagons, points, out)."""
    _started()
    words = _ints("seats")
    if len(words) != 5 * _seats:
        _die("the answer to `seats` has %d numbers, not 5 per seat" % len(words))
    return [tuple(words[i:i + 5]) for i in range(0, len(words), 5)]


def me():
    """Our seat."""
    _started()
    return _me


def printCity(city):
    """Writes the name of `city` on stderr."""
    _started()
    sys.stderr.write(_printable(ask("city %d" % city)) + "\n")


def printMap():
    """Writes the routes and who owns them, and our hand, on stderr."""
    for i, (a, b, length, colour, _twin, owner) in enumerate(routes()):
        sys.stderr.write("route %d: %d-%d, %d %s, %s\n" % (
            i, a, b, length, COLORS[colour] if colour != MULTICOLOR else "grey",
            "free" if owner < 0 else "seat %d" % owner))
    sys.stderr.write("hand: %s\n" % hand())


def sendComment(comment):
    """A comment for whoever watches: written on stderr (the match's console)."""
    sys.stderr.write("comment: %s\n" % comment)
    return NORMAL_MOVE
