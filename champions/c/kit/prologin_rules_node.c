/* prologin_rules_node.c -- the board's rules of prologin_rules_lib.c for the JavaScript
 * kit, as a Node-API addon over the one C implementation of `construction_possible`,
 * `route_possible` and `distance`. Built with it as prologin_rules.node (rules_lib.mk,
 * where Node's headers are found), which the JavaScript kit loads with process.dlopen
 * from $PROLOGIN_KITS/c (/kits/c in the jail).
 *
 * Owns: the addon's three functions: board(kinds, owners) (the two strings of 10,000
 * characters of the cached `etat`), tables(construction, route) (two Int8Arrays of
 * 10,000 filled with every cell's answers) and distance(x1, y1, x2, y2); the board and the
 * rules are prologin_rules_lib.c's.
 */
#include <node_api.h>

#include "prologin_rules_lib.c"

/* Throws `message` in JavaScript; returns NULL for the caller to return. */
static napi_value thrown(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value js_board(napi_env env, napi_callback_info info) {
  size_t argc = 2, lk = 0, lo = 0;
  napi_value argv[2];
  static char k[CELLS + 1], o[CELLS + 1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 2 ||
      napi_get_value_string_latin1(env, argv[0], k, sizeof k, &lk) != napi_ok ||
      napi_get_value_string_latin1(env, argv[1], o, sizeof o, &lo) != napi_ok || lk != CELLS ||
      lo != CELLS)
    return thrown(env, "prologin rules: board(kinds, owners) takes two strings of 10000 characters");
  prologin_rules_board(k, o);
  return NULL;
}

static napi_value js_tables(napi_env env, napi_callback_info info) {
  size_t argc = 2, n[2];
  napi_value argv[2];
  void *data[2];
  napi_typedarray_type type[2];
  int i;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 2)
    return thrown(env, "prologin rules: tables(construction, route) takes two Int8Arrays");
  for (i = 0; i < 2; i++)
    if (napi_get_typedarray_info(env, argv[i], &type[i], &n[i], &data[i], NULL, NULL) != napi_ok ||
        type[i] != napi_int8_array || n[i] != CELLS)
      return thrown(env, "prologin rules: tables(construction, route) takes two Int8Arrays of 10000");
  prologin_rules_tables(data[0], data[1]);
  return NULL;
}

static napi_value js_distance(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], result;
  int32_t a[4];
  int i;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 4)
    return thrown(env, "prologin rules: distance(x1, y1, x2, y2) takes four integers");
  for (i = 0; i < 4; i++)
    if (napi_get_value_int32(env, argv[i], &a[i]) != napi_ok)
      return thrown(env, "prologin rules: distance(x1, y1, x2, y2) takes four integers");
  napi_create_int32(env, prologin_rules_distance(a[0], a[1], a[2], a[3]), &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor functions[] = {
      {"board", NULL, js_board, NULL, NULL, NULL, napi_default, NULL},
      {"tables", NULL, js_tables, NULL, NULL, NULL, napi_default, NULL},
      {"distance", NULL, js_distance, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 3, functions);
  return exports;
}
