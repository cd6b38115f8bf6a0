// template: a C++ champion that does nothing, validly. Copy this folder, write the
// callbacks, `make`. The API is the C kit's: type_case(x, y), construire_route(x, y), ...
// and the constants SUCCES, ROUTE, TAILLE_CARTE, ... (prologin.hh; docs/rules.md section
// 6). std::cout and printf go to your log (stderr), never to the referee. A callback you
// delete does nothing, as this one does.
#include "prologin.hh"

// Once, before turn 1 (10 s of CPU, start-up included): look at the map; actions answer
// ACTION_INTERDITE.
void init_game() {}

// Phase I of every turn 1..15 (1 s of CPU, as every later callback): build roads and
// houses when mon_tour().
void jouer() {}

// Phase II of turns 1..14: encherir(montant) for monument_en_cours(); sell houses.
void enchere() {}

// Phase III, if you won the auction: construire_monument(x, y).
void placement() {}

// Once, after turn 15: the final board, for your log.
void end_game() {}
