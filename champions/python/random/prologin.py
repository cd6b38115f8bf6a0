"""random: a Python champion that plays random moves next to the roads.

Seeds itself from PROLOGIN_SEED, so a match replays identically."""
import os
import random

from api import *

rng = random.Random()


def spots(diagonals):
    """Free cells with a road among their 4 (or 8) neighbours, in a stable order."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    if diagonals:
        steps += ((1, 1), (1, -1), (-1, 1), (-1, -1))
    found = set()
    for y in range(TAILLE_CARTE):
        for x in range(TAILLE_CARTE):
            if type_case(x, y) == ROUTE:
                for dx, dy in steps:
                    if type_case(x + dx, y + dy) == VIDE:
                        found.add((x + dx, y + dy))
    return sorted(found)


def init_game():
    rng.seed(int(os.environ.get("PROLOGIN_SEED", "0")))
    print("random (Python): hello, first player is", commence())


def jouer():
    if mon_tour() == False:
        return
    for _ in range(2):
        roads = spots(False)
        if roads:
            construire_route(*rng.choice(roads))
    for _ in range(2):
        if cout_achat_maison() > finances(0):
            break
        houses = spots(True)
        if houses:
            construire_maison(*rng.choice(houses))


def enchere():
    if not mon_tour():
        return
    encherir(rng.randint(0, min(finances(0), 3)))


def placement():
    if not mon_tour():
        return
    cells = spots(True)
    rng.shuffle(cells)
    for x, y in cells[:5]:
        if construire_monument(x, y) == SUCCES:
            return


def end_game():
    print("random (Python): money", finances(0), "houses", score(0))
