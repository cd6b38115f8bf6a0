/* rules_stubs.c -- the OCaml kit's bindings of the C kit's board rules
 * (champions/c/kit/prologin_rules_lib.c): `distance`, `route_possible` and
 * `construction_possible` answered from the cached board by one implementation for every
 * kit, at the cost of a C call (`[@@noalloc]` externals of api.ml: no allocation, no
 * runtime lock). ocaml.mk compiles this file and prologin_rules_lib.c into the champion.
 */
#include <caml/mlvalues.h>

void prologin_rules_board(const char *kind_chars, const char *owner_chars);
int prologin_rules_route_possible(int x, int y);
int prologin_rules_construction_possible(int x, int y);
int prologin_rules_distance(int x1, int y1, int x2, int y2);

/* The strings are those of `etat` (api.ml checks their length: 10,000 each). */
value prologin_ml_rules_board(value kinds, value owners) {
  prologin_rules_board(String_val(kinds), String_val(owners));
  return Val_unit;
}

/* The arguments are OCaml ints already clamped to C's int (api.ml's `arg`). */
value prologin_ml_route_possible(value x, value y) {
  return Val_int(prologin_rules_route_possible(Int_val(x), Int_val(y)));
}

value prologin_ml_construction_possible(value x, value y) {
  return Val_int(prologin_rules_construction_possible(Int_val(x), Int_val(y)));
}

value prologin_ml_distance(value x1, value y1, value x2, value y2) {
  return Val_int(prologin_rules_distance(Int_val(x1), Int_val(y1), Int_val(x2), Int_val(y2)));
}
