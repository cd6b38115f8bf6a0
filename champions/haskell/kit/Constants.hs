-- | Constants.hs -- the API surface of the Haskell kit: the constants of the 2009 API
-- (docs/rules.md section 6), in lower case as Haskell values must be (`succes`,
-- `hors_terrain`), and the monument table. Kept apart from the runtime (Api.hs, which
-- re-exports it) so that it can be generated from the one description of the API.
module Constants where

-- Error codes and special answers.
succes, pas_de_maison, pas_de_monument, finances_depassees, blocage, joueur_incorrect,
  non_connexe, case_occupee, action_interdite, hors_terrain, trop_loin, infini :: Int
succes = 0
pas_de_maison = -2
pas_de_monument = -3
finances_depassees = -4
blocage = -5
joueur_incorrect = -7
non_connexe = -8
case_occupee = -9
action_interdite = -10
hors_terrain = -12
trop_loin = 50
infini = 30000

-- Ownership.
mairie :: Int
mairie = 3

-- Cell kinds.
vide, maison, reservation, monument, route :: Int
vide = 0
maison = 1
reservation = 2
monument = 3
route = 4

-- Bounds, sizes.
max_monuments, taille_carte, max_distance, argent_initial :: Int
max_monuments = 14
taille_carte = 100
max_distance = 12
argent_initial = 10

-- | Monuments by id (0..13): prestige and range (rule 5).
prestige_table, portee_table :: [Int]
prestige_table = [5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2]
portee_table = [1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1]
