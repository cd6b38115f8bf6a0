"""A Ticket to Ride champion that plays as the subject's PLAY_RANDOM (the referee's
built-in `random`): it keeps every ticket, claims at random a route it can pay for that
touches a city of its tickets or of its routes, and otherwise draws two cards, blind or a
face-up one that is no locomotive, one chance in two each."""

import os
import random

import ticket_to_ride as t2r

rng = random.Random(int(os.environ.get("PROLOGIN_SEED", "0")))


def claimable(routes, i, me, seats):
    a, b, length, colour, twin, owner = routes[i]
    if owner >= 0:
        return False
    if twin >= 0 and routes[twin][5] >= 0:
        return routes[twin][5] != me and seats > 3
    return True


def payment(route, hand):
    """(colour, locomotives) paying `route` from `hand` with the fewest locomotives, or
    None."""
    a, b, length, colour, _twin, _owner = route
    locos = hand[t2r.MULTICOLOR - 1]
    if colour == t2r.MULTICOLOR:  # grey: the colour held most
        colour = max(range(1, 9), key=lambda c: (hand[c - 1], -c))
    have = min(hand[colour - 1], length)
    if have == 0:
        if locos >= length:
            return (route[3], length)
        return None
    if have + locos >= length:
        return (colour, length - have)
    return None


def draw_card():
    faces = [c for c in t2r.row() if c not in (t2r.NONE, t2r.MULTICOLOR)]
    if rng.randrange(2) == 0 or not faces:
        return t2r.drawBlindCard()[0]
    return t2r.drawCard(rng.choice(faces))[0]


def play_turn(me):
    if t2r.ask("status").split()[1] == "first":
        code, _offered = t2r.drawObjectives()
        return code if code != t2r.NORMAL_MOVE else t2r.chooseObjectives([True] * 3)
    routes = t2r.routes()
    hand = t2r.hand()
    seats = t2r.seats()
    cities = set()
    for o in t2r.objectives():
        cities |= {o.city1, o.city2}
    for r in routes:
        if r[5] == me:
            cities |= {r[0], r[1]}
    near = []
    for i, r in enumerate(routes):
        if (r[0] in cities or r[1] in cities) and claimable(routes, i, me, len(seats)):
            pay = payment(r, hand)
            if pay and seats[me][2] >= r[2]:
                near.append((r, pay))
    if near:
        r, (colour, locos) = rng.choice(near)
        return t2r.claimRoute(r[0], r[1], colour, locos)
    code = draw_card()
    return code if code != t2r.NORMAL_MOVE else draw_card()


t2r.connectToServer("localhost", 1234, "random.py")
t2r.waitForT2RGame("TRAINING PLAY_RANDOM")
me, _tracks, _face_up, _cards = t2r.getMap()
code = t2r.NORMAL_MOVE
while code == t2r.NORMAL_MOVE:
    if t2r.isMyTurn():
        code = play_turn(me)
    else:
        code, _move, _replay = t2r.getMove()
t2r.sendComment("won" if code == t2r.WINNING_MOVE else "lost")
t2r.closeConnection()
