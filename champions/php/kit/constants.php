<?php
// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, PHP
// kit; api.php includes this file.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/php/constants.php: edit those, not this file.

// Error codes.
define('SUCCES', 0); // The action succeeded.
define('PAS_DE_MAISON', -2); // There is no house on the cell.
define('PAS_DE_MONUMENT', -3); // There is no monument on the cell, no such monument id, or none drawn yet.
define('FINANCES_DEPASSEES', -4); // You would spend more money than you have.
define('BLOCAGE', -5); // The building would cut every road off from outside the map (rule 21).
define('JOUEUR_INCORRECT', -7); // The player id is not 0, 1 or 2.
define('NON_CONNEXE', -8); // No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
define('CASE_OCCUPEE', -9); // The cell is not buildable by you (rule 19).
define('ACTION_INTERDITE', -10); // Not your turn, not this phase, or the action is forbidden.
define('HORS_TERRAIN', -12); // The coordinates are off the map.
define('TROP_LOIN', 50); // distance: further than MAX_DISTANCE, or no path.
define('INFINI', 30000); // cout_achat_maison: no more house in this callback.

// Ownership.
define('MAIRIE', 3); // The town hall: owner of everything no player owns.

// Cell kinds.
define('VIDE', 0); // An empty cell.
define('MAISON', 1); // A house.
define('RESERVATION', 2); // A reserved cell.
define('MONUMENT', 3); // A monument.
define('ROUTE', 4); // A road.

// Bounds, sizes.
define('MAX_MONUMENTS', 14); // Monuments auctioned in a game.
define('TAILLE_CARTE', 100); // Width and height of the map.
define('MAX_DISTANCE', 12); // The longest distance `distance` computes.
define('ARGENT_INITIAL', 10); // Each player's money at the start.

// Monument id -> prestige and range (rule 5), for the kit.
const PROLOGIN_KIT_PRESTIGE = [5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2];
const PROLOGIN_KIT_PORTEE = [1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1];
