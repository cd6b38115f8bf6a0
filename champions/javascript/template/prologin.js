// template: a JavaScript champion that does nothing, validly. Copy this folder and write
// the callbacks. The API's functions and constants are globals: type_case(x, y),
// construire_route(x, y), SUCCES, ... (docs/rules.md section 6). console.log goes to
// your log (stderr), never to the referee.

function init_game() {
  // Once, before turn 1 (10 s of CPU, start-up included).
}

function jouer() {
  // Phase I of every turn 1..15: build roads and houses when mon_tour().
}

function enchere() {
  // Phase II of turns 1..14: encherir(montant) for monument_en_cours().
}

function placement() {
  // Phase III, if you won the auction: construire_monument(x, y).
}

function end_game() {
  // Once, after turn 15: the final board, for your log.
}
