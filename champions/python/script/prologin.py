"""The Python kit's `script` champion: the cross-language script
(champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
(champions/api/README.md) with print(), which the kit sends to the log.

Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
template champions/api/templates/python/script.py: edit those, not this file.
"""

from api import *


def _say(call, answer):
    print("script: %s = %d" % (call, int(answer)))


def _scan():
    """One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003."""
    h = [0, 0, 0, 0]
    for y in range(TAILLE_CARTE):
        for x in range(TAILLE_CARTE):
            h[0] = (h[0] * 31 + type_case(x, y) + 100) % 1000003
            h[1] = (h[1] * 31 + valeur_case(x, y) + 100) % 1000003
            h[2] = (h[2] * 31 + appartenance(x, y) + 100) % 1000003
            h[3] = (h[3] * 31 + type_monument(x, y) + 100) % 1000003
    print("script: scan = %d %d %d %d" % tuple(h))


def _start(callback):
    t = numero_tour()
    print("script: %s %d" % (callback, t))
    return t


def init_game():
    t = _start("init_game")
    if True:
        _say("numero_tour", numero_tour())
        _say("mon_tour", mon_tour())
        _say("commence", commence())
        _say("monument_en_cours", monument_en_cours())
        _say("vainqueur_encheres", vainqueur_encheres())
        _say("cout_achat_maison", cout_achat_maison())
        _say("cout_achat_route", cout_achat_route())
        _say("finances 0", finances(0))
        _say("finances 1", finances(1))
        _say("finances 2", finances(2))
        _say("finances 3", finances(3))
        _say("finances -1", finances(-1))
        _say("score 0", score(0))
        _say("score 1", score(1))
        _say("score 2", score(2))
        _say("score 3", score(3))
        _say("montant_encheres 0", montant_encheres(0))
        _say("montant_encheres 2", montant_encheres(2))
        _say("montant_encheres -1", montant_encheres(-1))
        _say("portee_monument 0", portee_monument(0))
        _say("portee_monument 9", portee_monument(9))
        _say("portee_monument 13", portee_monument(13))
        _say("portee_monument 14", portee_monument(14))
        _say("portee_monument -1", portee_monument(-1))
        _say("prestige_monument 0", prestige_monument(0))
        _say("prestige_monument 12", prestige_monument(12))
        _say("prestige_monument 13", prestige_monument(13))
        _say("prestige_monument 14", prestige_monument(14))
        _say("type_case 50 50", type_case(50, 50))
        _say("type_case 0 0", type_case(0, 0))
        _say("type_case -1 0", type_case(-1, 0))
        _say("type_case 100 5", type_case(100, 5))
        _say("type_case 5 100", type_case(5, 100))
        _say("valeur_case 50 50", valeur_case(50, 50))
        _say("valeur_case 99 99", valeur_case(99, 99))
        _say("valeur_case -1 -1", valeur_case(-1, -1))
        _say("appartenance 50 50", appartenance(50, 50))
        _say("appartenance 0 99", appartenance(0, 99))
        _say("appartenance 100 100", appartenance(100, 100))
        _say("type_monument 50 50", type_monument(50, 50))
        _say("type_monument 0 0", type_monument(0, 0))
        _say("type_monument -5 3", type_monument(-5, 3))
        _say("distance 50 50 50 52", distance(50, 50, 50, 52))
        _say("distance 50 50 62 50", distance(50, 50, 62, 50))
        _say("distance 50 50 63 50", distance(50, 50, 63, 50))
        _say("distance 0 0 99 99", distance(0, 0, 99, 99))
        _say("distance -1 0 0 0", distance(-1, 0, 0, 0))
        _say("route_possible 50 51", route_possible(50, 51))
        _say("route_possible 51 51", route_possible(51, 51))
        _say("route_possible 70 70", route_possible(70, 70))
        _say("route_possible -1 0", route_possible(-1, 0))
        _say("construction_possible 51 51", construction_possible(51, 51))
        _say("construction_possible 50 50", construction_possible(50, 50))
        _say("construction_possible 70 70", construction_possible(70, 70))
        _say("construction_possible 0 100", construction_possible(0, 100))
        _say("construire_route 50 51", construire_route(50, 51))
        _say("construire_maison 51 51", construire_maison(51, 51))
        _say("encherir 1", encherir(1))
        _say("detruire_maison -1 0", detruire_maison(-1, 0))
        _scan()


def jouer():
    t = _start("jouer")
    if True:
        _say("mon_tour", mon_tour())
        _say("commence", commence())
        _say("monument_en_cours", monument_en_cours())
        _say("vainqueur_encheres", vainqueur_encheres())
        _say("cout_achat_maison", cout_achat_maison())
        _say("cout_achat_route", cout_achat_route())
        _say("finances 0", finances(0))
        _say("finances 1", finances(1))
        _say("finances 2", finances(2))
        _say("score 0", score(0))
        _say("score 1", score(1))
        _say("score 2", score(2))
        _say("montant_encheres 0", montant_encheres(0))
        _say("montant_encheres 1", montant_encheres(1))
        _say("montant_encheres 2", montant_encheres(2))
    if t == 1:
        _say("construire_route 50 51", construire_route(50, 51))
        _say("construire_route 50 51", construire_route(50, 51))
        _say("construire_route 70 70", construire_route(70, 70))
        _say("construire_route -1 5", construire_route(-1, 5))
        _say("cout_achat_route", cout_achat_route())
        _say("finances 0", finances(0))
        _say("type_case 50 51", type_case(50, 51))
        _say("appartenance 50 51", appartenance(50, 51))
        _say("route_possible 50 52", route_possible(50, 52))
        _say("construction_possible 51 52", construction_possible(51, 52))
        _say("construire_maison 51 52", construire_maison(51, 52))
        _say("type_case 51 52", type_case(51, 52))
        _say("appartenance 51 52", appartenance(51, 52))
        _say("valeur_case 51 52", valeur_case(51, 52))
        _say("score 0", score(0))
        _say("cout_achat_maison", cout_achat_maison())
        _say("finances 0", finances(0))
        _say("construire_maison 49 52", construire_maison(49, 52))
        _say("construire_maison 49 50", construire_maison(49, 50))
        _say("cout_achat_maison", cout_achat_maison())
        _say("reserver_case 51 50", reserver_case(51, 50))
        _say("reserver_case 51 50", reserver_case(51, 50))
        _say("type_case 51 50", type_case(51, 50))
        _say("appartenance 51 50", appartenance(51, 50))
        _say("distance 50 50 50 53", distance(50, 50, 50, 53))
        _say("distance 50 51 51 50", distance(50, 51, 51, 50))
        _say("detruire_maison 49 52", detruire_maison(49, 52))
        _say("vendre_maison 80 80", vendre_maison(80, 80))
        _say("encherir 1", encherir(1))
        _say("construire_monument 52 52", construire_monument(52, 52))
        _say("finances 0", finances(0))
        _scan()
    if t == 2:
        _say("construire_route 50 52", construire_route(50, 52))
        _say("construire_route 50 53", construire_route(50, 53))
        _say("construire_route 50 54", construire_route(50, 54))
        _say("cout_achat_route", cout_achat_route())
        _say("construire_maison 49 53", construire_maison(49, 53))
        _say("construire_maison 51 53", construire_maison(51, 53))
        _say("cout_achat_maison", cout_achat_maison())
        _say("vendre_maison 51 52", vendre_maison(51, 52))
        _say("appartenance 51 52", appartenance(51, 52))
        _say("type_case 51 52", type_case(51, 52))
        _say("finances 0", finances(0))
        _say("detruire_maison 49 53", detruire_maison(49, 53))
        _say("finances 0", finances(0))
        _scan()
    if t == 5:
        _say("construire_route 49 50", construire_route(49, 50))
        _say("construire_route 48 50", construire_route(48, 50))
        _say("construire_maison 48 49", construire_maison(48, 49))
        _say("construire_maison 48 51", construire_maison(48, 51))
        _say("reserver_case 47 50", reserver_case(47, 50))
        _say("detruire_maison 48 49", detruire_maison(48, 49))
        _say("finances 0", finances(0))
        _say("score 0", score(0))
        _scan()
    if t == 15:
        _say("construire_route 51 49", construire_route(51, 49))
        _say("construire_maison 52 49", construire_maison(52, 49))
        _say("score 0", score(0))
        _say("finances 0", finances(0))
        _scan()


def enchere():
    t = _start("enchere")
    if True:
        _say("mon_tour", mon_tour())
        _say("monument_en_cours", monument_en_cours())
        _say("finances 0", finances(0))
        _say("encherir -1", encherir(-1))
        _say("encherir 100000", encherir(100000))
        _say("encherir 1", encherir(1))
        _say("encherir 1", encherir(1))
        _say("finances 0", finances(0))
        _say("montant_encheres 0", montant_encheres(0))
        _say("construire_route 50 49", construire_route(50, 49))
    if t == 3:
        _scan()
        _say("vendre_maison 49 50", vendre_maison(49, 50))


def placement():
    t = _start("placement")
    if True:
        _say("mon_tour", mon_tour())
        _say("monument_en_cours", monument_en_cours())
        _say("vainqueur_encheres", vainqueur_encheres())
        _say("montant_encheres 0", montant_encheres(0))
        _say("construire_monument -1 -1", construire_monument(-1, -1))
        _say("construire_monument 50 50", construire_monument(50, 50))
        _say("construire_maison 60 60", construire_maison(60, 60))
        _say("construction_possible 52 48", construction_possible(52, 48))
        _say("construire_monument 52 48", construire_monument(52, 48))
        _say("construire_monument 52 48", construire_monument(52, 48))
        _say("type_monument 52 48", type_monument(52, 48))
        _say("valeur_case 52 48", valeur_case(52, 48))
        _say("valeur_case 51 49", valeur_case(51, 49))
        _say("construire_monument 53 47", construire_monument(53, 47))
        _say("construire_monument 49 55", construire_monument(49, 55))
        _say("construire_monument 51 55", construire_monument(51, 55))
        _say("construire_monument 49 54", construire_monument(49, 54))
        _say("construire_monument 51 54", construire_monument(51, 54))
        _say("type_monument 49 55", type_monument(49, 55))
        _say("type_monument 51 55", type_monument(51, 55))
        _say("valeur_case 50 55", valeur_case(50, 55))
        _scan()


def end_game():
    t = _start("end_game")
    if True:
        _say("numero_tour", numero_tour())
        _say("mon_tour", mon_tour())
        _say("commence", commence())
        _say("score 0", score(0))
        _say("score 1", score(1))
        _say("score 2", score(2))
        _say("finances 0", finances(0))
        _say("finances 1", finances(1))
        _say("finances 2", finances(2))
        _say("montant_encheres 0", montant_encheres(0))
        _say("vainqueur_encheres", vainqueur_encheres())
        _say("construire_route 50 49", construire_route(50, 49))
        _say("vendre_maison 51 53", vendre_maison(51, 53))
        _say("encherir 1", encherir(1))
        _say("construire_monument 1 1", construire_monument(1, 1))
        _scan()
