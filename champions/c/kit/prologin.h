/* prologin.h -- the API of "La loi du plus riche" (Prologin 2009 final), C kit.
 *
 * Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
 * template champions/api/templates/c/prologin.h: edit those, not this file.
 *
 * Same names, values and signatures as the 2009 API. The rules, and every function with
 * its error codes in the order they are checked: docs/rules.md (rule N, section 6).
 * Write the five callbacks below in your prologin.c; a callback you do not write does
 * nothing. The kit (prologin_kit.c) provides main() and speaks protocol.md with the referee.
 * Your stdout goes to stderr (the log): printf freely.
 */
#ifndef PROLOGIN_H
#define PROLOGIN_H

#ifndef __cplusplus
#include <stdbool.h> /* so that `if (mon_tour() == false)` compiles */
#endif

/* Error codes. */
#define SUCCES 0 /* The action succeeded. */
#define PAS_DE_MAISON -2 /* There is no house on the cell. */
#define PAS_DE_MONUMENT -3 /* There is no monument on the cell, no such monument id, or none drawn yet. */
#define FINANCES_DEPASSEES -4 /* You would spend more money than you have. */
#define BLOCAGE -5 /* The building would cut every road off from outside the map (rule 21). */
#define JOUEUR_INCORRECT -7 /* The player id is not 0, 1 or 2. */
#define NON_CONNEXE -8 /* No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20). */
#define CASE_OCCUPEE -9 /* The cell is not buildable by you (rule 19). */
#define ACTION_INTERDITE -10 /* Not your turn, not this phase, or the action is forbidden. */
#define HORS_TERRAIN -12 /* The coordinates are off the map. */
#define TROP_LOIN 50 /* distance: further than MAX_DISTANCE, or no path. */
#define INFINI 30000 /* cout_achat_maison: no more house in this callback. */

/* Ownership. */
#define MAIRIE 3 /* The town hall: owner of everything no player owns. */

/* Cell kinds. */
#define VIDE 0 /* An empty cell. */
#define MAISON 1 /* A house. */
#define RESERVATION 2 /* A reserved cell. */
#define MONUMENT 3 /* A monument. */
#define ROUTE 4 /* A road. */

/* Bounds, sizes. */
#define MAX_MONUMENTS 14 /* Monuments auctioned in a game. */
#define TAILLE_CARTE 100 /* Width and height of the map. */
#define MAX_DISTANCE 12 /* The longest distance `distance` computes. */
#define ARGENT_INITIAL 10 /* Each player's money at the start. */

#ifdef __cplusplus
extern "C" {
#endif

/* Information functions (answered from a cached state where possible). */

/* The kind of the cell: VIDE, MAISON, RESERVATION, MONUMENT or ROUTE.
 * 2009: Renvoie le type de la case, VIDE, MAISON, ROUTE, MONUMENT ou RESERVATION. */
int type_case(int x, int y);

/* The value of the cell: the sum of the prestiges of the monuments whose range covers
 * it; may be negative.
 * 2009: Renvoie la valeur de la case, c'est-à-dire la somme des prestiges des monuments
 * qui ont cette case dans leur portée. Cette valeur peut être négative. */
int valeur_case(int x, int y);

/* The owner (0, 1 or 2) of the house or reservation on the cell, MAIRIE for any other
 * cell.
 * 2009: Renvoie l'entité possédant la case, 0, 1 ou 2 si la case est une maison, et
 * MAIRIE sinon. */
int appartenance(int x, int y);

/* The id of the monument built on the cell, or PAS_DE_MONUMENT.
 * 2009: Renvoie le numéro d'un monument sur une case donnée, ou PAS_DE_MONUMENT. */
int type_monument(int x, int y);

/* The range of a monument (1 to 3).
 * 2009: Renvoie la portée d'un monument. */
int portee_monument(int num_monument);

/* The prestige of a monument (-2 to +5).
 * 2009: Renvoie le prestige d'un monument */
int prestige_monument(int num_monument);

/* The turn number, 1 to 15.
 * 2009: Renvoie le numéro du tour */
int numero_tour(void);

/* The player who opens Phase I; during Phases II and III, the one who will open the next
 * turn's Phase I.
 * 2009: Numéro du joueur qui commence lors de la phase 1. Si cette fonction est appelée
 * pendant une phase 2 ou 3, renvoie le numéro du joueur qui commencera lors de la
 * phase 1 du tour suivant. */
int commence(void);

/* A player's bid in the last resolved auction; 0 before the first one.
 * 2009: Donne le montant de la dernière enchère effectuée par un joueur. Renvoie 0 au
 * premier tour. */
int montant_encheres(int num_joueur);

/* The winner of the last resolved auction; 0 before the first one.
 * 2009: Donne le numéro du joueur ayant gagné la dernière enchère. Renvoie 0 au premier
 * tour. */
int vainqueur_encheres(void);

/* A player's houses' worth, money excluded (rule 9): the final score is finances +
 * score.
 * 2009: Donne le score d'un joueur. */
int score(int num_joueur);

/* A player's money.
 * 2009: Donne l'argent possédé par un joueur */
int finances(int num_joueur);

/* The monument most recently put up for auction; PAS_DE_MONUMENT in the first Phase I.
 * 2009: Donne le numéro du monument le plus récemment mis aux enchères. Renvoie
 * PAS_DE_MONUMENT lors de la phase 1 du premier tour. */
int monument_en_cours(void);

/* The shortest walk from (x1, y1) to (x2, y2) in 4-steps over empty cells, roads and
 * your reservations; TROP_LOIN beyond MAX_DISTANCE or without a path.
 * 2009: Renvoie la distance minimale pour aller de (x1,y1) à (x2,y2) (sachant qu'un
 * déplacement en bas, à gauche, en haut ou à droite coûte pour 1, et que les
 * déplacements en diagonal ne sont pas autorisés). Lors du calcul de cette
 * distance, seules les cases vides, les cases contenant une route, et les cases
 * étant réservée par votre champion sont considérées comme franchissables. Si le
 * résultat est supérieur strictement à MAX_DISTANCE, la fonction renvoie
 * TROP_LOIN. Cette fonction ne fait aucun calcul, elle renvoie immédiatement. */
int distance(int x1, int y1, int x2, int y2);

/* SUCCES if you may build a road on (x, y), else HORS_TERRAIN, CASE_OCCUPEE or
 * NON_CONNEXE.
 * 2009: Indique si vous pouvez construire une route en (x,y). Si non, renvoie
 * HORS_TERRAIN, CASE_OCCUPEE ou NON_CONNEXE. */
int route_possible(int x, int y);

/* SUCCES if you may build a house or a monument on (x, y), else HORS_TERRAIN,
 * CASE_OCCUPEE, BLOCAGE or NON_CONNEXE.
 * 2009: Indique si vous pouvez construire une maison ou un monument en (x,y). Si non,
 * renvoie HORS_TERRAIN, CASE_OCCUPEE, BLOCAGE ou NON_CONNEXE. */
int construction_possible(int x, int y);

/* The price of your next house in this callback, or INFINI when you may build no more.
 * 2009: Renvoie le coût d'achat d'une maison (ou INFINI si vous ne pouvez plus en
 * construire pour ce tour), en fonction de ce que vous avez déjà construit (et
 * dépensé) lors de votre phase de jeu. */
int cout_achat_maison(void);

/* The price of your next road in this callback.
 * 2009: Renvoie le coût d'achat d'une route, en fonction de ce que vous avez déjà
 * construit (et dépensé) lors de votre phase de jeu. */
int cout_achat_route(void);

/* Whether you may act now; if not, every action answers ACTION_INTERDITE. Start jouer,
 * enchere and placement with `if (mon_tour() == false) return;`.
 * 2009: Indique si votre champion doit jouer ou non. Si cette fonction renvoie false,
 * votre champion ne pourra effectuer aucune action. Vous devriez toujours
 * commencer vos fonctions jouer, enchere et placement par \texttt{if (mon_tour()
 * == false) return;}. */
int mon_tour(void); /* 1 or 0 */

/* Actions. */

/* Builds a road on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
 * NON_CONNEXE or FINANCES_DEPASSEES.
 * 2009: Construit si possible une route en (x,y). Si impossible, renvoie
 * ACTION_INTERDITE, FINANCES_DEPASSEES, NON_CONNEXE ou CASE_OCCUPEE. */
int construire_route(int x, int y);

/* Builds a house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
 * NON_CONNEXE, BLOCAGE or FINANCES_DEPASSEES.
 * 2009: Construit si possible une maison en (x,y). Si impossible, renvoie
 * ACTION_INTERDITE, FINANCES_DEPASSEES, NON_CONNEXE, BLOCAGE ou CASE_OCCUPEE. */
int construire_maison(int x, int y);

/* Reserves the cell (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, CASE_OCCUPEE,
 * NON_CONNEXE, BLOCAGE or FINANCES_DEPASSEES.
 * 2009: Réserve la case (x,y). Si impossible, renvoie ACTION_INTERDITE,
 * FINANCES_DEPASSEES, NON_CONNEXE, BLOCAGE ou CASE_OCCUPEE. */
int reserver_case(int x, int y);

/* Destroys the house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE, PAS_DE_MAISON or
 * FINANCES_DEPASSEES.
 * 2009: Détruit la maison en (x,y). Si impossible, renvoie ACTION_INTERDITE,
 * FINANCES_DEPASSEES ou PAS_DE_MAISON. */
int detruire_maison(int x, int y);

/* Sells your house on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE or PAS_DE_MAISON.
 * 2009: Vend la maison en (x,y). Si impossible, renvoie ACTION_INTERDITE ou
 * PAS_DE_MAISON. */
int vendre_maison(int x, int y);

/* Places your bid in this auction. Else ACTION_INTERDITE or FINANCES_DEPASSEES.
 * 2009: Place une enchère. Renvoie ACTION_INTERDITE ou FINANCES_DEPASSEES si impossible. */
int encherir(int montant);

/* Builds the monument you won on (x, y). Else HORS_TERRAIN, ACTION_INTERDITE,
 * CASE_OCCUPEE, NON_CONNEXE or BLOCAGE.
 * 2009: Construit un monument en (x,y). Si impossible, renvoie ACTION_INTERDITE,
 * NON_CONNEXE, BLOCAGE ou CASE_OCCUPEE. */
int construire_monument(int x, int y);

/* Callbacks: yours to write. */
void init_game(void); /* Once, before turn 1. Actions answer ACTION_INTERDITE. */
void jouer(void); /* Your Phase I slot of each turn: roads, houses, reservations, destructions, sales. */
void enchere(void); /* Every Phase II: your bid (encherir) and sales. */
void placement(void); /* Phase III, the auction's winner only: the monument (construire_monument), roads. */
void end_game(void); /* Once, after the last Phase I. Actions answer ACTION_INTERDITE. */

#ifdef __cplusplus
}
#endif

#endif /* PROLOGIN_H */
