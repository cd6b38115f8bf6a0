// The Go kit's `script` champion: the cross-language script
// (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
// (champions/api/README.md) with fmt.Println, which the kit sends to the log.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/go/prologin.go: edit those, not this file.

package main

import "fmt"

func say(call string, answer int) {
	fmt.Printf("script: %s = %d\n", call, answer)
}

// scan keeps one digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
func scan() {
	var h [4]int
	for y := 0; y < TAILLE_CARTE; y++ {
		for x := 0; x < TAILLE_CARTE; x++ {
			h[0] = (h[0]*31 + TypeCase(x, y) + 100) % 1000003
			h[1] = (h[1]*31 + ValeurCase(x, y) + 100) % 1000003
			h[2] = (h[2]*31 + Appartenance(x, y) + 100) % 1000003
			h[3] = (h[3]*31 + TypeMonument(x, y) + 100) % 1000003
		}
	}
	fmt.Printf("script: scan = %d %d %d %d\n", h[0], h[1], h[2], h[3])
}

func start(callback string) int {
	t := NumeroTour()
	fmt.Printf("script: %s %d\n", callback, t)
	return t
}

func InitGame() {
	t := start("init_game")
	_ = t
	if true {
		say("numero_tour", NumeroTour())
		say("mon_tour", MonTour())
		say("commence", Commence())
		say("monument_en_cours", MonumentEnCours())
		say("vainqueur_encheres", VainqueurEncheres())
		say("cout_achat_maison", CoutAchatMaison())
		say("cout_achat_route", CoutAchatRoute())
		say("finances 0", Finances(0))
		say("finances 1", Finances(1))
		say("finances 2", Finances(2))
		say("finances 3", Finances(3))
		say("finances -1", Finances(-1))
		say("score 0", Score(0))
		say("score 1", Score(1))
		say("score 2", Score(2))
		say("score 3", Score(3))
		say("montant_encheres 0", MontantEncheres(0))
		say("montant_encheres 2", MontantEncheres(2))
		say("montant_encheres -1", MontantEncheres(-1))
		say("portee_monument 0", PorteeMonument(0))
		say("portee_monument 9", PorteeMonument(9))
		say("portee_monument 13", PorteeMonument(13))
		say("portee_monument 14", PorteeMonument(14))
		say("portee_monument -1", PorteeMonument(-1))
		say("prestige_monument 0", PrestigeMonument(0))
		say("prestige_monument 12", PrestigeMonument(12))
		say("prestige_monument 13", PrestigeMonument(13))
		say("prestige_monument 14", PrestigeMonument(14))
		say("type_case 50 50", TypeCase(50, 50))
		say("type_case 0 0", TypeCase(0, 0))
		say("type_case -1 0", TypeCase(-1, 0))
		say("type_case 100 5", TypeCase(100, 5))
		say("type_case 5 100", TypeCase(5, 100))
		say("valeur_case 50 50", ValeurCase(50, 50))
		say("valeur_case 99 99", ValeurCase(99, 99))
		say("valeur_case -1 -1", ValeurCase(-1, -1))
		say("appartenance 50 50", Appartenance(50, 50))
		say("appartenance 0 99", Appartenance(0, 99))
		say("appartenance 100 100", Appartenance(100, 100))
		say("type_monument 50 50", TypeMonument(50, 50))
		say("type_monument 0 0", TypeMonument(0, 0))
		say("type_monument -5 3", TypeMonument(-5, 3))
		say("distance 50 50 50 52", Distance(50, 50, 50, 52))
		say("distance 50 50 62 50", Distance(50, 50, 62, 50))
		say("distance 50 50 63 50", Distance(50, 50, 63, 50))
		say("distance 0 0 99 99", Distance(0, 0, 99, 99))
		say("distance -1 0 0 0", Distance(-1, 0, 0, 0))
		say("route_possible 50 51", RoutePossible(50, 51))
		say("route_possible 51 51", RoutePossible(51, 51))
		say("route_possible 70 70", RoutePossible(70, 70))
		say("route_possible -1 0", RoutePossible(-1, 0))
		say("construction_possible 51 51", ConstructionPossible(51, 51))
		say("construction_possible 50 50", ConstructionPossible(50, 50))
		say("construction_possible 70 70", ConstructionPossible(70, 70))
		say("construction_possible 0 100", ConstructionPossible(0, 100))
		say("construire_route 50 51", ConstruireRoute(50, 51))
		say("construire_maison 51 51", ConstruireMaison(51, 51))
		say("encherir 1", Encherir(1))
		say("detruire_maison -1 0", DetruireMaison(-1, 0))
		scan()
	}
}

func Jouer() {
	t := start("jouer")
	_ = t
	if true {
		say("mon_tour", MonTour())
		say("commence", Commence())
		say("monument_en_cours", MonumentEnCours())
		say("vainqueur_encheres", VainqueurEncheres())
		say("cout_achat_maison", CoutAchatMaison())
		say("cout_achat_route", CoutAchatRoute())
		say("finances 0", Finances(0))
		say("finances 1", Finances(1))
		say("finances 2", Finances(2))
		say("score 0", Score(0))
		say("score 1", Score(1))
		say("score 2", Score(2))
		say("montant_encheres 0", MontantEncheres(0))
		say("montant_encheres 1", MontantEncheres(1))
		say("montant_encheres 2", MontantEncheres(2))
	}
	if t == 1 {
		say("construire_route 50 51", ConstruireRoute(50, 51))
		say("construire_route 50 51", ConstruireRoute(50, 51))
		say("construire_route 70 70", ConstruireRoute(70, 70))
		say("construire_route -1 5", ConstruireRoute(-1, 5))
		say("cout_achat_route", CoutAchatRoute())
		say("finances 0", Finances(0))
		say("type_case 50 51", TypeCase(50, 51))
		say("appartenance 50 51", Appartenance(50, 51))
		say("route_possible 50 52", RoutePossible(50, 52))
		say("construction_possible 51 52", ConstructionPossible(51, 52))
		say("construire_maison 51 52", ConstruireMaison(51, 52))
		say("type_case 51 52", TypeCase(51, 52))
		say("appartenance 51 52", Appartenance(51, 52))
		say("valeur_case 51 52", ValeurCase(51, 52))
		say("score 0", Score(0))
		say("cout_achat_maison", CoutAchatMaison())
		say("finances 0", Finances(0))
		say("construire_maison 49 52", ConstruireMaison(49, 52))
		say("construire_maison 49 50", ConstruireMaison(49, 50))
		say("cout_achat_maison", CoutAchatMaison())
		say("reserver_case 51 50", ReserverCase(51, 50))
		say("reserver_case 51 50", ReserverCase(51, 50))
		say("type_case 51 50", TypeCase(51, 50))
		say("appartenance 51 50", Appartenance(51, 50))
		say("distance 50 50 50 53", Distance(50, 50, 50, 53))
		say("distance 50 51 51 50", Distance(50, 51, 51, 50))
		say("detruire_maison 49 52", DetruireMaison(49, 52))
		say("vendre_maison 80 80", VendreMaison(80, 80))
		say("encherir 1", Encherir(1))
		say("construire_monument 52 52", ConstruireMonument(52, 52))
		say("finances 0", Finances(0))
		scan()
	}
	if t == 2 {
		say("construire_route 50 52", ConstruireRoute(50, 52))
		say("construire_route 50 53", ConstruireRoute(50, 53))
		say("construire_route 50 54", ConstruireRoute(50, 54))
		say("cout_achat_route", CoutAchatRoute())
		say("construire_maison 49 53", ConstruireMaison(49, 53))
		say("construire_maison 51 53", ConstruireMaison(51, 53))
		say("cout_achat_maison", CoutAchatMaison())
		say("vendre_maison 51 52", VendreMaison(51, 52))
		say("appartenance 51 52", Appartenance(51, 52))
		say("type_case 51 52", TypeCase(51, 52))
		say("finances 0", Finances(0))
		say("detruire_maison 49 53", DetruireMaison(49, 53))
		say("finances 0", Finances(0))
		scan()
	}
	if t == 5 {
		say("construire_route 49 50", ConstruireRoute(49, 50))
		say("construire_route 48 50", ConstruireRoute(48, 50))
		say("construire_maison 48 49", ConstruireMaison(48, 49))
		say("construire_maison 48 51", ConstruireMaison(48, 51))
		say("reserver_case 47 50", ReserverCase(47, 50))
		say("detruire_maison 48 49", DetruireMaison(48, 49))
		say("finances 0", Finances(0))
		say("score 0", Score(0))
		scan()
	}
	if t == 15 {
		say("construire_route 51 49", ConstruireRoute(51, 49))
		say("construire_maison 52 49", ConstruireMaison(52, 49))
		say("score 0", Score(0))
		say("finances 0", Finances(0))
		scan()
	}
}

func Enchere() {
	t := start("enchere")
	_ = t
	if true {
		say("mon_tour", MonTour())
		say("monument_en_cours", MonumentEnCours())
		say("finances 0", Finances(0))
		say("encherir -1", Encherir(-1))
		say("encherir 100000", Encherir(100000))
		say("encherir 1", Encherir(1))
		say("encherir 1", Encherir(1))
		say("finances 0", Finances(0))
		say("montant_encheres 0", MontantEncheres(0))
		say("construire_route 50 49", ConstruireRoute(50, 49))
	}
	if t == 3 {
		scan()
		say("vendre_maison 49 50", VendreMaison(49, 50))
	}
}

func Placement() {
	t := start("placement")
	_ = t
	if true {
		say("mon_tour", MonTour())
		say("monument_en_cours", MonumentEnCours())
		say("vainqueur_encheres", VainqueurEncheres())
		say("montant_encheres 0", MontantEncheres(0))
		say("construire_monument -1 -1", ConstruireMonument(-1, -1))
		say("construire_monument 50 50", ConstruireMonument(50, 50))
		say("construire_maison 60 60", ConstruireMaison(60, 60))
		say("construction_possible 52 48", ConstructionPossible(52, 48))
		say("construire_monument 52 48", ConstruireMonument(52, 48))
		say("construire_monument 52 48", ConstruireMonument(52, 48))
		say("type_monument 52 48", TypeMonument(52, 48))
		say("valeur_case 52 48", ValeurCase(52, 48))
		say("valeur_case 51 49", ValeurCase(51, 49))
		say("construire_monument 53 47", ConstruireMonument(53, 47))
		say("construire_monument 49 55", ConstruireMonument(49, 55))
		say("construire_monument 51 55", ConstruireMonument(51, 55))
		say("construire_monument 49 54", ConstruireMonument(49, 54))
		say("construire_monument 51 54", ConstruireMonument(51, 54))
		say("type_monument 49 55", TypeMonument(49, 55))
		say("type_monument 51 55", TypeMonument(51, 55))
		say("valeur_case 50 55", ValeurCase(50, 55))
		scan()
	}
}

func EndGame() {
	t := start("end_game")
	_ = t
	if true {
		say("numero_tour", NumeroTour())
		say("mon_tour", MonTour())
		say("commence", Commence())
		say("score 0", Score(0))
		say("score 1", Score(1))
		say("score 2", Score(2))
		say("finances 0", Finances(0))
		say("finances 1", Finances(1))
		say("finances 2", Finances(2))
		say("montant_encheres 0", MontantEncheres(0))
		say("vainqueur_encheres", VainqueurEncheres())
		say("construire_route 50 49", ConstruireRoute(50, 49))
		say("vendre_maison 51 53", VendreMaison(51, 53))
		say("encherir 1", Encherir(1))
		say("construire_monument 1 1", ConstruireMonument(1, 1))
		scan()
	}
}
