/* prologin_rules_lib.c -- the board's rules of prologin_rules.c for the kits of other
 * languages, through their foreign-function interface: one implementation of
 * `construction_possible`, `route_possible` and `distance` (rules 19 to 21, section 6)
 * for every kit that can call C, so that these calls cost a function call there too.
 *
 * Owns: the copy of the board the rules read (the kinds and owners strings of the kit's
 * cached `etat`, as the referee sent them: one character a cell, '0' + the kind, '0' +
 * the owner as seen by the champion) and the four functions below. A kit gives the board
 * with `prologin_rules_board` each time it fills its cache from `etat` (a copy of 20,000
 * bytes; rule 21 is computed again only when a `construction_possible` follows), then
 * asks the rules; the coordinates are checked here (HORS_TERRAIN), as in the C kit.
 */
#include "prologin.h"

#include <stdlib.h>
#include <string.h>

#define CELLS (TAILLE_CARTE * TAILLE_CARTE)
#define ON_MAP(x, y) ((x) >= 0 && (x) < TAILLE_CARTE && (y) >= 0 && (y) < TAILLE_CARTE)
#define CELL(x, y) ((y) * TAILLE_CARTE + (x))

/* What prologin_rules.c reads: the board, and the generation that says it changed. The
 * board is always current here (the kit gives it), so `refresh` has nothing to do. */
static char kinds[CELLS], owners[CELLS];
static const int dirty = 0;
static unsigned long board_generation;
static void refresh(void) {}

#include "prologin_rules.c"

/* The board the rules answer from: `kind_chars` and `owner_chars`, CELLS characters
 * each, the second and third strings of `etat`. */
void prologin_rules_board(const char *kind_chars, const char *owner_chars) {
  memcpy(kinds, kind_chars, CELLS);
  memcpy(owners, owner_chars, CELLS);
  board_generation++;
}

int prologin_rules_route_possible(int x, int y) { return rule_route_possible(x, y); }

int prologin_rules_construction_possible(int x, int y) {
  return rule_construction_possible(x, y);
}

int prologin_rules_distance(int x1, int y1, int x2, int y2) {
  return rule_distance(x1, y1, x2, y2);
}
