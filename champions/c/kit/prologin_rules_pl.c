/* prologin_rules_pl.c -- the board's rules of prologin_rules_lib.c for the Prolog kit,
 * as SWI-Prolog foreign predicates over the one C implementation of
 * `construction_possible`, `route_possible` and `distance`. Built with it as
 * libprologin_rules_pl.so (rules_lib.mk, where SWI-Prolog's headers are found), which the
 * Prolog kit loads with load_foreign_library/1 from $PROLOGIN_KITS/c (/kits/c in the jail).
 *
 * Owns: the four predicates prologin_rules_board/2, prologin_rules_route_possible/3,
 * prologin_rules_construction_possible/3 and prologin_rules_distance/5; the board and the
 * rules are prologin_rules_lib.c's.
 */
#include <stdint.h>

#include <SWI-Prolog.h>

#include "prologin_rules_lib.c"

/* An argument as the wire's signed 32-bit integer: clamped, as the kit's round trip
 * clamped it (a coordinate stays off the map). */
static int int_arg(term_t t, int *out) {
  int64_t v;
  if (!PL_get_int64_ex(t, &v)) return 0;
  *out = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int)v;
  return 1;
}

/* prologin_rules_board(+Kinds, +Owners): the board just cached, two strings of 10,000
 * characters (the second and third strings of `etat`). */
static foreign_t pl_board(term_t kind_chars, term_t owner_chars) {
  char *k, *o;
  size_t lk, lo;
  if (!PL_get_nchars(kind_chars, &lk, &k, CVT_STRING | CVT_ATOM | CVT_EXCEPTION) ||
      !PL_get_nchars(owner_chars, &lo, &o, CVT_STRING | CVT_ATOM | CVT_EXCEPTION))
    return FALSE;
  if (lk != CELLS || lo != CELLS) return PL_domain_error("board_of_10000_cells", kind_chars);
  prologin_rules_board(k, o);
  return TRUE;
}

static foreign_t pl_route_possible(term_t x, term_t y, term_t r) {
  int ix, iy;
  if (!int_arg(x, &ix) || !int_arg(y, &iy)) return FALSE;
  return PL_unify_integer(r, rule_route_possible(ix, iy));
}

static foreign_t pl_construction_possible(term_t x, term_t y, term_t r) {
  int ix, iy;
  if (!int_arg(x, &ix) || !int_arg(y, &iy)) return FALSE;
  return PL_unify_integer(r, rule_construction_possible(ix, iy));
}

static foreign_t pl_distance(term_t x1, term_t y1, term_t x2, term_t y2, term_t r) {
  int a, b, c, d;
  if (!int_arg(x1, &a) || !int_arg(y1, &b) || !int_arg(x2, &c) || !int_arg(y2, &d)) return FALSE;
  return PL_unify_integer(r, rule_distance(a, b, c, d));
}

install_t install_prologin_rules_pl(void) {
  PL_register_foreign("prologin_rules_board", 2, pl_board, 0);
  PL_register_foreign("prologin_rules_route_possible", 3, pl_route_possible, 0);
  PL_register_foreign("prologin_rules_construction_possible", 3, pl_construction_possible, 0);
  PL_register_foreign("prologin_rules_distance", 5, pl_distance, 0);
}
