/* prologin.h -- the API of "La loi du plus riche" (Prologin 2009 final), C kit.
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
#define SUCCES 0
#define PAS_DE_MAISON -2
#define PAS_DE_MONUMENT -3
#define FINANCES_DEPASSEES -4
#define BLOCAGE -5
#define JOUEUR_INCORRECT -7
#define NON_CONNEXE -8
#define CASE_OCCUPEE -9
#define ACTION_INTERDITE -10
#define HORS_TERRAIN -12
#define TROP_LOIN 50
#define INFINI 30000

/* Ownership. */
#define MAIRIE 3

/* Cell kinds. */
#define VIDE 0
#define MAISON 1
#define RESERVATION 2
#define MONUMENT 3
#define ROUTE 4

/* Bounds, sizes. */
#define MAX_MONUMENTS 14
#define TAILLE_CARTE 100
#define MAX_DISTANCE 12
#define ARGENT_INITIAL 10

#ifdef __cplusplus
extern "C" {
#endif

/* Information functions (answered locally from a cached state where possible). */
int type_case(int x, int y);
int valeur_case(int x, int y);
int appartenance(int x, int y);
int type_monument(int x, int y);
int portee_monument(int num_monument);
int prestige_monument(int num_monument);
int numero_tour(void);
int commence(void);
int montant_encheres(int num_joueur);
int vainqueur_encheres(void);
int score(int num_joueur); /* houses' worth, money excluded (rule 9) */
int finances(int num_joueur);
int monument_en_cours(void);
int distance(int x1, int y1, int x2, int y2);
int route_possible(int x, int y);
int construction_possible(int x, int y);
int cout_achat_maison(void);
int cout_achat_route(void);
int mon_tour(void); /* 1 or 0 */

/* Actions. */
int construire_route(int x, int y);
int construire_maison(int x, int y);
int reserver_case(int x, int y);
int detruire_maison(int x, int y);
int vendre_maison(int x, int y);
int encherir(int montant);
int construire_monument(int x, int y);

/* Callbacks: yours to write. */
void init_game(void);
void jouer(void);
void enchere(void);
void placement(void);
void end_game(void);

#ifdef __cplusplus
}
#endif

#endif /* PROLOGIN_H */
