-- | Constants.hs -- the API surface of the Haskell kit: the constants of the 2009 API
-- (docs/rules.md section 6), in lower case as Haskell values must be (`succes`,
-- `hors_terrain`), and the monument table; Api.hs re-exports it.
-- Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
-- template champions/api/templates/haskell/Constants.hs: edit those, not this file.
module Constants where

-- Error codes and special answers.

-- | The action succeeded.
succes :: Int
succes = 0

-- | There is no house on the cell.
pas_de_maison :: Int
pas_de_maison = -2

-- | There is no monument on the cell, no such monument id, or none drawn yet.
pas_de_monument :: Int
pas_de_monument = -3

-- | You would spend more money than you have.
finances_depassees :: Int
finances_depassees = -4

-- | The building would cut every road off from outside the map (rule 21).
blocage :: Int
blocage = -5

-- | The player id is not 0, 1 or 2.
joueur_incorrect :: Int
joueur_incorrect = -7

-- | No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
non_connexe :: Int
non_connexe = -8

-- | The cell is not buildable by you (rule 19).
case_occupee :: Int
case_occupee = -9

-- | Not your turn, not this phase, or the action is forbidden.
action_interdite :: Int
action_interdite = -10

-- | The coordinates are off the map.
hors_terrain :: Int
hors_terrain = -12

-- | distance: further than MAX_DISTANCE, or no path.
trop_loin :: Int
trop_loin = 50

-- | cout_achat_maison: no more house in this callback.
infini :: Int
infini = 30000

-- Ownership.

-- | The town hall: owner of everything no player owns.
mairie :: Int
mairie = 3

-- Cell kinds.

-- | An empty cell.
vide :: Int
vide = 0

-- | A house.
maison :: Int
maison = 1

-- | A reserved cell.
reservation :: Int
reservation = 2

-- | A monument.
monument :: Int
monument = 3

-- | A road.
route :: Int
route = 4

-- Bounds, sizes.

-- | Monuments auctioned in a game.
max_monuments :: Int
max_monuments = 14

-- | Width and height of the map.
taille_carte :: Int
taille_carte = 100

-- | The longest distance `distance` computes.
max_distance :: Int
max_distance = 12

-- | Each player's money at the start.
argent_initial :: Int
argent_initial = 10

-- | Monuments by id (0..13): prestige and range (rule 5).
prestige_table, portee_table :: [Int]
prestige_table = [5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2]
portee_table = [1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1]
