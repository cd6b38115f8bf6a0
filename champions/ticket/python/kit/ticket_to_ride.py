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
_callback = None   # the callback we are in (None before the first)
_turn_over = False  # our `jouer` is over: its `fin` waits for the next call that needs it
_me = None         # our seat
_seen = 0          # moves of the match already fetched (`moves N`)
_queue = []        # the others' moves not yet given by getMove
_final = None      # WINNING_MOVE or LOSING_MOVE once the match is over


def _die(message):
    sys.stderr.write("ticket_to_ride kit (Python): %s\n" % message)
    sys.exit(2)


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


def _started():
    global _me
    if _callback is None and _me is None:
        _next_callback()
    if _me is None:
        _me = int(ask("game").split()[1])


def _result():
    """Our code at the end: WINNING_MOVE if we placed first."""
    words = ask("result").split()
    return WINNING_MOVE if words[2 * _me] == "1" else LOSING_MOVE


def _fetch_moves():
    global _seen
    parts = ask("moves %d" % _seen).split(";")
    _seen = int(parts[0])
    for text in parts[1:]:
        words = text.split()
        seat, kind = int(words[0]), words[1]
        if seat == _me or kind == "leave":
            continue
        if kind == "blind":
            _queue.append(Move(DRAW_BLIND_CARD, seat))
        elif kind == "take":
            _queue.append(Move(DRAW_CARD, seat, card=COLORS.index(words[2])))
        elif kind == "tickets":
            _queue.append(Move(DRAW_OBJECTIVES, seat))
        elif kind == "keep":
            _queue.append(Move(CHOOSE_OBJECTIVES, seat, nbObjectives=int(words[2])))
        elif kind == "claim":
            _queue.append(Move(CLAIM_ROUTE, seat, city1=int(words[2]), city2=int(words[3]),
                               color=COLORS.index(words[4]), nbLocomotives=int(words[5])))


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
    if status[3] == "1":
        return answer, _to_end()
    _turn_over = int(status[0]) != _me
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
    _started()
    words = ask("game").split()
    return "ticket-to-ride", int(words[2]), len(_tracks())


def _tracks():
    words = ask("routes").split()
    routes = [words[i:i + 6] for i in range(0, len(words), 6)]
    tracks = []
    for i, (a, b, length, colour, twin, _owner) in enumerate(routes):
        twin = int(twin)
        if twin >= 0 and twin < i:
            continue
        second = color_number(routes[twin][3]) if twin >= 0 else NONE
        tracks += [int(a), int(b), int(length), color_number(colour), second]
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
    return [int(w) for w in ask("hand").split()]


def row():
    """The 5 face-up cards (t_color, NONE for an empty place)."""
    _started()
    return [COLORS.index(w) for w in ask("row").split()]


def routes():
    """Every route: (city1, city2, length, t_color (MULTICOLOR: grey), twin, owner), twin
    and owner -1 when none."""
    _started()
    words = ask("routes").split()
    return [(int(words[i]), int(words[i + 1]), int(words[i + 2]), color_number(words[i + 3]),
             int(words[i + 4]), int(words[i + 5])) for i in range(0, len(words), 6)]


def objectives():
    """Our tickets, as Objectives."""
    _started()
    words = [int(w) for w in ask("objectives").split()]
    return [Objective(*words[1 + 3 * i:4 + 3 * i]) for i in range(words[0])]


def seats():
    """Each seat's (cards, tickets, wagons, points, out)."""
    _started()
    words = [int(w) for w in ask("seats").split()]
    return [tuple(words[i:i + 5]) for i in range(0, len(words), 5)]


def me():
    """Our seat."""
    _started()
    return _me


def printCity(city):
    """Writes the name of `city` on stderr."""
    _started()
    sys.stderr.write(ask("city %d" % city) + "\n")


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
