-- constants.lua -- the API surface of the Lua kit: the constants of the 2009 API
-- (docs/rules.md section 6) and the monument table, as globals.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/lua/constants.lua: edit those, not this file.

-- Error codes and special answers.
SUCCES = 0
PAS_DE_MAISON = -2
PAS_DE_MONUMENT = -3
FINANCES_DEPASSEES = -4
BLOCAGE = -5
JOUEUR_INCORRECT = -7
NON_CONNEXE = -8
CASE_OCCUPEE = -9
ACTION_INTERDITE = -10
HORS_TERRAIN = -12
TROP_LOIN = 50
INFINI = 30000
-- Ownership.
MAIRIE = 3
-- Cell kinds.
VIDE = 0
MAISON = 1
RESERVATION = 2
MONUMENT = 3
ROUTE = 4
-- Bounds, sizes.
MAX_MONUMENTS = 14
TAILLE_CARTE = 100
MAX_DISTANCE = 12
ARGENT_INITIAL = 10

-- Monuments by id (0..13): prestige and range (rule 5).
local M = {}
M.PRESTIGE = { 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2 }
M.PORTEE = { 1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1 }
return M
