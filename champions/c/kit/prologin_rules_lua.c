/* prologin_rules_lua.c -- the board's rules of prologin_rules_lib.c for the Lua kit, as
 * a Lua C module over the one C implementation of `construction_possible`,
 * `route_possible` and `distance`. Built with it as prologin_rules_lua.so (rules_lib.mk,
 * where Lua's headers are found), which the Lua kit loads with package.loadlib from
 * $PROLOGIN_KITS/c (/kits/c in the jail).
 *
 * Owns: the module's four functions board(kinds, owners) (the two strings of 10,000
 * characters of the cached `etat`), route_possible(x, y), construction_possible(x, y) and
 * distance(x1, y1, x2, y2); the board and the rules are prologin_rules_lib.c's.
 */
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "prologin_rules_lib.c"

/* Argument `i` as the wire's signed 32-bit integer: clamped, as the kit's round trip
 * clamped it (a coordinate stays off the map). */
static int int_arg(lua_State *L, int i) {
  lua_Integer v = luaL_checkinteger(L, i);
  return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int)v;
}

static int lua_board(lua_State *L) {
  size_t lk, lo;
  const char *k = luaL_checklstring(L, 1, &lk), *o = luaL_checklstring(L, 2, &lo);
  if (lk != CELLS || lo != CELLS) return luaL_error(L, "prologin rules: board(kinds, owners) takes two strings of 10000 characters");
  prologin_rules_board(k, o);
  return 0;
}

static int lua_route_possible(lua_State *L) {
  lua_pushinteger(L, rule_route_possible(int_arg(L, 1), int_arg(L, 2)));
  return 1;
}

static int lua_construction_possible(lua_State *L) {
  lua_pushinteger(L, rule_construction_possible(int_arg(L, 1), int_arg(L, 2)));
  return 1;
}

static int lua_distance(lua_State *L) {
  lua_pushinteger(L, rule_distance(int_arg(L, 1), int_arg(L, 2), int_arg(L, 3), int_arg(L, 4)));
  return 1;
}

int luaopen_prologin_rules(lua_State *L) {
  static const luaL_Reg functions[] = {
      {"board", lua_board},
      {"route_possible", lua_route_possible},
      {"construction_possible", lua_construction_possible},
      {"distance", lua_distance},
      {NULL, NULL},
  };
  luaL_newlib(L, functions);
  return 1;
}
