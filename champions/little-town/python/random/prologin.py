"""A Little Town champion, as the original project asks: every action drawn uniformly at
random among the legal ones, from the seat's PROLOGIN_SEED (the same match plays alike)."""
import os
import random

import api

rng = random.Random(int(os.environ.get("PROLOGIN_SEED", "0")))


def init_game():
    print("random champion in seat", api.moi())


def jouer():
    state = api.etat()
    me = state.players[state.me]
    print("round %d: gold %d, wood %d" % (state.round, me.gold, me.wood))
    api.act(rng.choice(api.legal()))
