-- api.lua -- the runtime of the Lua kit: the 26 functions of the 2009 API as globals,
-- the protocol of protocol.md and the cached `etat` behind them.
--
-- Owns: the protocol streams (given by run.lua), the state cache (one `etat` per callback
-- and after each successful action; a cell read is one string.byte), the local argument
-- checks (HORS_TERRAIN, JOUEUR_INCORRECT, PAS_DE_MONUMENT) and the callback loop.
local tables = require("constants")
local PRESTIGE, PORTEE = tables.PRESTIGE, tables.PORTEE

local byte, find, sub, format = string.byte, string.find, string.sub, string.format
local tointeger, floor = math.tointeger, math.floor

local K = {}
local proto_in, proto_out
local current = "(none)"

local dirty = true
local figures = {}
local kinds, owners, monuments, values = "", "", "", ""
-- The rules module (load_rules below), or nil: the rules are then asked.
local rules

-- The conversation with the referee broke down: report it and exit at once (os.exit,
-- not error(), so that a champion's pcall cannot swallow it).
local function fail(message)
  io.stdout:flush()
  io.stderr:write(format("prologin kit (Lua): error in %s: %s\n", current, message))
  io.stderr:flush()
  os.exit(2, false)
end

local function send(data)
  local ok, err = proto_out:write(data)
  if not ok then fail("writing to the referee: " .. tostring(err)) end
  ok, err = proto_out:flush()
  if not ok then fail("writing to the referee: " .. tostring(err)) end
end

local function read_line(what)
  local line = proto_in:read("l")
  if line == nil then
    fail(format("the referee closed the connection while we waited for `%s`", what))
  end
  if byte(line, -1) == 13 then line = sub(line, 1, -2) end
  return line
end

-- An argument as the API's `int`, as C would convert it: a float is truncated toward
-- zero, and a value beyond the wire's signed 32 bits is clamped (it answers the same:
-- off the map, unaffordable). Used by every function, cached or not.
local function arg(v)
  if type(v) ~= "number" then
    error(format("an API argument must be a number, not %s", type(v)), 3)
  end
  if v ~= v then v = 0 end
  if v < -2147483648 then return -2147483648 end
  if v > 2147483647 then return 2147483647 end
  local i = tointeger(v)
  if i then return i end
  return v < 0 and -floor(-v) or floor(v)
end

local function answer(name)
  local line = read_line(name)
  local v = find(line, "^[-+]?%d+$") and tointeger(tonumber(line))
  if not v then
    fail(format("unparsable answer `%s` to `%s`: expected an integer", sub(line, 1, 60), name))
  end
  return v
end

local function ask(name, ...)
  local n = select("#", ...)
  local parts = { name }
  for i = 1, n do parts[i + 1] = format("%d", arg((select(i, ...)))) end
  send(table.concat(parts, " ") .. "\n")
  return answer(name)
end

local function act(name, ...)
  local r = ask(name, ...)
  if r == SUCCES then dirty = true end
  return r
end

local function refresh()
  send("etat\n")
  local line = read_line("etat")
  local fields, pos = {}, 1
  while true do
    local s, e = find(line, "%S+", pos)
    if not s then break end
    fields[#fields + 1] = sub(line, s, e)
    pos = e + 1
  end
  local ok = #fields == 20
  for i = 17, 20 do ok = ok and #(fields[i] or "") == 10000 end
  if not ok then
    fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters")
  end
  for i = 1, 16 do
    local v = find(fields[i], "^[-+]?%d+$") and tointeger(tonumber(fields[i]))
    if not v then fail("unparsable answer to `etat`: a figure is not an integer") end
    figures[i] = v
  end
  kinds, owners, monuments, values = fields[17], fields[18], fields[19], fields[20]
  dirty = false
  if rules then rules.board(kinds, owners) end
end

-- The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
-- (c/kit/prologin_rules_lib.c), as the Lua C module prologin_rules_lua.so
-- (c/kit/prologin_rules_lua.c), which scripts/build-champions.sh builds in the C kit:
-- $PROLOGIN_KITS/c (/kits/c in the jail), or the file PROLOGIN_RULES_LIB names. The
-- board is given to it at each fill of the cache. Without the module, each of the three
-- calls is a round trip, said once on stderr.
local function load_rules()
  local path = os.getenv("PROLOGIN_RULES_LIB")
  local kits = os.getenv("PROLOGIN_KITS")
  if not path or path == "" then
    if kits and kits ~= "" then
      path = kits .. "/c/prologin_rules_lua.so"
    else
      local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
      path = here .. "/../../c/kit/prologin_rules_lua.so"
    end
  end
  local open, err = package.loadlib(path, "luaopen_prologin_rules")
  if open then
    rules = open()
  else
    io.stderr:write(format("prologin kit (Lua): no rules library (%s): construction_possible, "
      .. "route_possible and distance ask the referee, a round trip each (build it: "
      .. "scripts/build-champions.sh)\n", tostring(err)))
  end
end

local function figure(i)
  if dirty then refresh() end
  return figures[i + 1]
end

local function on_map(x, y)
  return x >= 0 and x < 100 and y >= 0 and y < 100
end

-- Information functions.

function type_case(x, y)
  x, y = arg(x), arg(y)
  if not on_map(x, y) then return HORS_TERRAIN end
  if dirty then refresh() end
  return byte(kinds, y * 100 + x + 1) - 48
end

function valeur_case(x, y)
  x, y = arg(x), arg(y)
  if not on_map(x, y) then return HORS_TERRAIN end
  if dirty then refresh() end
  return byte(values, y * 100 + x + 1) - 64
end

function appartenance(x, y)
  x, y = arg(x), arg(y)
  if not on_map(x, y) then return HORS_TERRAIN end
  if dirty then refresh() end
  return byte(owners, y * 100 + x + 1) - 48
end

function type_monument(x, y)
  x, y = arg(x), arg(y)
  if not on_map(x, y) then return HORS_TERRAIN end
  if dirty then refresh() end
  local c = byte(monuments, y * 100 + x + 1)
  if c == 46 then return PAS_DE_MONUMENT end -- '.'
  return c - 97 -- 'a' + id
end

local function monument_id(n)
  return n >= 0 and n < MAX_MONUMENTS
end

function portee_monument(num_monument)
  num_monument = arg(num_monument)
  if not monument_id(num_monument) then return PAS_DE_MONUMENT end
  return PORTEE[num_monument + 1]
end

function prestige_monument(num_monument)
  num_monument = arg(num_monument)
  if not monument_id(num_monument) then return PAS_DE_MONUMENT end
  return PRESTIGE[num_monument + 1]
end

function numero_tour() return figure(0) end
function commence() return figure(2) end

local function player(n)
  return n == 0 or n == 1 or n == 2
end

function montant_encheres(num_joueur)
  num_joueur = arg(num_joueur)
  if not player(num_joueur) then return JOUEUR_INCORRECT end
  return figure(13 + num_joueur)
end

function vainqueur_encheres() return figure(4) end

-- The player's houses' worth, money excluded: not the final score (rule 9).
function score(num_joueur)
  num_joueur = arg(num_joueur)
  if not player(num_joueur) then return JOUEUR_INCORRECT end
  return figure(10 + num_joueur)
end

function finances(num_joueur)
  num_joueur = arg(num_joueur)
  if not player(num_joueur) then return JOUEUR_INCORRECT end
  return figure(7 + num_joueur)
end

function monument_en_cours() return figure(3) end

function distance(x1, y1, x2, y2)
  if not rules then return ask("distance", x1, y1, x2, y2) end
  if dirty then refresh() end
  return rules.distance(arg(x1), arg(y1), arg(x2), arg(y2))
end
function route_possible(x, y)
  if not rules then return ask("route_possible", x, y) end
  if dirty then refresh() end
  return rules.route_possible(arg(x), arg(y))
end
function construction_possible(x, y)
  if not rules then return ask("construction_possible", x, y) end
  if dirty then refresh() end
  return rules.construction_possible(arg(x), arg(y))
end

function cout_achat_maison() return figure(5) end
function cout_achat_route() return figure(6) end

-- True in your own turn (the API's bool; rule 16).
function mon_tour() return figure(1) ~= 0 end

-- Actions.

function construire_route(x, y) return act("construire_route", x, y) end
function construire_maison(x, y) return act("construire_maison", x, y) end
function reserver_case(x, y) return act("reserver_case", x, y) end
function detruire_maison(x, y) return act("detruire_maison", x, y) end
function vendre_maison(x, y) return act("vendre_maison", x, y) end
function encherir(montant) return act("encherir", montant) end
function construire_monument(x, y) return act("construire_monument", x, y) end

-- Runs `f`; an error in it (a runtime error of the champion's code) ends the champion at
-- once with exit status 1, its traceback and then its message as the last line of the
-- log (what the referee's crash report quotes). Exiting without closing the Lua state
-- matters: closing it would wait for the `cat` relay that reads the referee, which only
-- ends when the referee gives up on us (a timeout, not a crash).
function K.protected(what, f)
  local ok, err = xpcall(f, function(e) return { message = tostring(e), trace = debug.traceback(nil, 2) } end)
  if ok then return end
  io.stdout:flush()
  io.stderr:write(err.trace, "\n")
  io.stderr:write(format("prologin kit (Lua): error in %s: %s\n", what, err.message))
  io.stderr:flush()
  os.exit(1, false)
end

local CALLBACKS = { init_game = true, jouer = true, enchere = true, placement = true,
  end_game = true }

-- Runs the protocol loop on the streams `input` and `output`, calling the global
-- callbacks the champion defined. Returns the exit status.
function K.serve(input, output)
  proto_in, proto_out = input, output
  load_rules()
  local ended = false
  while true do
    local line = proto_in:read("l")
    if line == nil then break end
    if byte(line, -1) == 13 then line = sub(line, 1, -2) end
    if not CALLBACKS[line] then
      fail(format("unknown callback `%s` from the referee", sub(line, 1, 60)))
    end
    current = line
    ended = line == "end_game"
    dirty = true
    local callback = rawget(_G, line)
    if type(callback) == "function" then K.protected(line, callback) end
    io.stdout:flush()
    send("fin\n")
  end
  if not ended then
    io.stderr:write("prologin kit (Lua): the referee closed the connection before end_game\n")
    return 1
  end
  return 0
end

return K
