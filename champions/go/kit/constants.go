// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, Go
// kit.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/go/constants.go: edit those, not this file.

package main

// Error codes.

// SUCCES: The action succeeded.
const SUCCES = 0

// PAS_DE_MAISON: There is no house on the cell.
const PAS_DE_MAISON = -2

// PAS_DE_MONUMENT: There is no monument on the cell, no such monument id, or none drawn yet.
const PAS_DE_MONUMENT = -3

// FINANCES_DEPASSEES: You would spend more money than you have.
const FINANCES_DEPASSEES = -4

// BLOCAGE: The building would cut every road off from outside the map (rule 21).
const BLOCAGE = -5

// JOUEUR_INCORRECT: The player id is not 0, 1 or 2.
const JOUEUR_INCORRECT = -7

// NON_CONNEXE: No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
const NON_CONNEXE = -8

// CASE_OCCUPEE: The cell is not buildable by you (rule 19).
const CASE_OCCUPEE = -9

// ACTION_INTERDITE: Not your turn, not this phase, or the action is forbidden.
const ACTION_INTERDITE = -10

// HORS_TERRAIN: The coordinates are off the map.
const HORS_TERRAIN = -12

// TROP_LOIN: distance: further than MAX_DISTANCE, or no path.
const TROP_LOIN = 50

// INFINI: cout_achat_maison: no more house in this callback.
const INFINI = 30000

// Ownership.

// MAIRIE: The town hall: owner of everything no player owns.
const MAIRIE = 3

// Cell kinds.

// VIDE: An empty cell.
const VIDE = 0

// MAISON: A house.
const MAISON = 1

// RESERVATION: A reserved cell.
const RESERVATION = 2

// MONUMENT: A monument.
const MONUMENT = 3

// ROUTE: A road.
const ROUTE = 4

// Bounds, sizes.

// MAX_MONUMENTS: Monuments auctioned in a game.
const MAX_MONUMENTS = 14

// TAILLE_CARTE: Width and height of the map.
const TAILLE_CARTE = 100

// MAX_DISTANCE: The longest distance `distance` computes.
const MAX_DISTANCE = 12

// ARGENT_INITIAL: Each player's money at the start.
const ARGENT_INITIAL = 10

// Monument id -> prestige and range (rule 5).
var prestige = [MAX_MONUMENTS]int{5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2}
var portee = [MAX_MONUMENTS]int{1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1}
