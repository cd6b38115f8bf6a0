/* prologin.h -- the API of the Game of the Amazons (protocol-amazons.md), C kit.
 *
 * Same names and values as section 3 of the page; `case` is a C keyword, so the request
 * `case x y` is the function case_(x, y). Write the three callbacks below in your
 * prologin.c; a callback you do not write does nothing (but a `jouer` that does not move
 * loses the game). The kit (prologin_kit.c) provides main() and speaks the protocol with
 * the referee. Your stdout goes to stderr (the log): printf freely.
 */
#ifndef PROLOGIN_AMAZONS_H
#define PROLOGIN_AMAZONS_H

#ifndef __cplusplus
#include <stdbool.h> /* so that `if (mon_tour() == false)` compiles */
#endif

/* Error codes (deplacer). */
#define SUCCES 0
#define ACTION_INTERDITE -1
#define HORS_PLATEAU -2
#define PAS_TON_AMAZONE -3
#define DEPLACEMENT_IMPOSSIBLE -4
#define TIR_IMPOSSIBLE -5

/* Contents of a square (case_). */
#define VIDE 0
#define MOI 1
#define ADVERSAIRE 2
#define FLECHE 3

/* The board is TAILLE x TAILLE: x the column, y the row, both 0..TAILLE-1. */
#define TAILLE 10

#ifdef __cplusplus
extern "C" {
#endif

/* Information functions (answered from a cached `etat`; couleur asked once). */
int case_(int x, int y);  /* VIDE, MOI, ADVERSAIRE, FLECHE; HORS_PLATEAU off the board */
int couleur(void);        /* 0 white (you move first), 1 black */
int numero_coup(void);    /* moves played so far, 0..92 */
int mon_tour(void);       /* 1 during your jouer before your move, else 0 */

/* Action: the amazon on (x1, y1) goes to (x2, y2) and shoots to (x3, y3). SUCCES or an
 * error code; a refused move changes nothing. */
int deplacer(int x1, int y1, int x2, int y2, int x3, int y3);

/* Callbacks: yours to write. */
void init_game(void);
void jouer(void);
void end_game(void);

#ifdef __cplusplus
}
#endif

#endif /* PROLOGIN_AMAZONS_H */
