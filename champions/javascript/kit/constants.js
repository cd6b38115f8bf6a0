// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables,
// JavaScript kit. api.js exports the constants with the functions.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/javascript/constants.js: edit those, not this file.
"use strict";

exports.constants = {
  // Error codes.
  SUCCES: 0, // The action succeeded.
  PAS_DE_MAISON: -2, // There is no house on the cell.
  PAS_DE_MONUMENT: -3, // There is no monument on the cell, no such monument id, or none drawn yet.
  FINANCES_DEPASSEES: -4, // You would spend more money than you have.
  BLOCAGE: -5, // The building would cut every road off from outside the map (rule 21).
  JOUEUR_INCORRECT: -7, // The player id is not 0, 1 or 2.
  NON_CONNEXE: -8, // No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
  CASE_OCCUPEE: -9, // The cell is not buildable by you (rule 19).
  ACTION_INTERDITE: -10, // Not your turn, not this phase, or the action is forbidden.
  HORS_TERRAIN: -12, // The coordinates are off the map.
  TROP_LOIN: 50, // distance: further than MAX_DISTANCE, or no path.
  INFINI: 30000, // cout_achat_maison: no more house in this callback.
  // Ownership.
  MAIRIE: 3, // The town hall: owner of everything no player owns.
  // Cell kinds.
  VIDE: 0, // An empty cell.
  MAISON: 1, // A house.
  RESERVATION: 2, // A reserved cell.
  MONUMENT: 3, // A monument.
  ROUTE: 4, // A road.
  // Bounds, sizes.
  MAX_MONUMENTS: 14, // Monuments auctioned in a game.
  TAILLE_CARTE: 100, // Width and height of the map.
  MAX_DISTANCE: 12, // The longest distance `distance` computes.
  ARGENT_INITIAL: 10, // Each player's money at the start.
};

// Monument id -> prestige and range (rule 5).
exports.prestige = [5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2];
exports.portee = [1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1];
