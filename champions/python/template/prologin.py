"""template: a Python champion that does nothing, validly.

Copy this folder and write the callbacks (no build). The API: type_case(x, y),
construire_route(x, y), ... and the constants SUCCES, ROUTE, TAILLE_CARTE, ... (the kit's
`api` module; docs/rules.md section 6). print goes to your log (stderr), never to the
referee. A callback you delete does nothing, as this one does.
"""
from api import *  # noqa: F401,F403 (the API and the constants, for your callbacks)


def init_game():
    """Once, before turn 1 (10 s of CPU, start-up included): look at the map; actions
    answer ACTION_INTERDITE."""


def jouer():
    """Phase I of every turn 1..15 (1 s of CPU, as every later callback): build roads and
    houses when mon_tour()."""


def enchere():
    """Phase II of turns 1..14: encherir(montant) for monument_en_cours(); sell houses."""


def placement():
    """Phase III, if you won the auction: construire_monument(x, y)."""


def end_game():
    """Once, after turn 15: the final board, for your log."""
