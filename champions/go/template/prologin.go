// template: a Go champion that does nothing, validly. Copy this folder, write the
// callbacks, `make`. The API: TypeCase(x, y), ConstruireRoute(x, y), ... and the
// constants SUCCES, ROUTE, ... (docs/rules.md section 6; the kit is package main too).
// fmt.Println goes to your log (stderr), never to the referee. Keep all five callbacks.

package main

// InitGame runs once, before turn 1 (10 s of CPU).
func InitGame() {}

// Jouer is Phase I of every turn 1..15: build roads and houses when MonTour() == 1.
func Jouer() {}

// Enchere is Phase II of turns 1..14: Encherir(montant) for MonumentEnCours().
func Enchere() {}

// Placement is Phase III, if you won the auction: ConstruireMonument(x, y).
func Placement() {}

// EndGame runs once, after turn 15: the final board, for your log.
func EndGame() {}
