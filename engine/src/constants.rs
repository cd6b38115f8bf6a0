//! The API's constants: error codes, cell kinds, owners and bounds, with their 2009 values
//! (docs/rules.md section 6.1; `referee/tests/rules_doc.rs` checks its tables against this
//! file).
//!
//! Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
//! template champions/api/templates/rust/constants.rs: edit those, not this file.

/// The action succeeded.
pub const SUCCES: i32 = 0;
/// There is no house on the cell.
pub const PAS_DE_MAISON: i32 = -2;
/// There is no monument on the cell, no such monument id, or none drawn yet.
pub const PAS_DE_MONUMENT: i32 = -3;
/// You would spend more money than you have.
pub const FINANCES_DEPASSEES: i32 = -4;
/// The building would cut every road off from outside the map (rule 21).
pub const BLOCAGE: i32 = -5;
/// The player id is not 0, 1 or 2.
pub const JOUEUR_INCORRECT: i32 = -7;
/// No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
pub const NON_CONNEXE: i32 = -8;
/// The cell is not buildable by you (rule 19).
pub const CASE_OCCUPEE: i32 = -9;
/// Not your turn, not this phase, or the action is forbidden.
pub const ACTION_INTERDITE: i32 = -10;
/// The coordinates are off the map.
pub const HORS_TERRAIN: i32 = -12;
/// distance: further than MAX_DISTANCE, or no path.
pub const TROP_LOIN: i32 = 50;
/// cout_achat_maison: no more house in this callback.
pub const INFINI: i32 = 30000;

/// The town hall: owner of everything no player owns.
pub const MAIRIE: i32 = 3;

/// An empty cell.
pub const VIDE: i32 = 0;
/// A house.
pub const MAISON: i32 = 1;
/// A reserved cell.
pub const RESERVATION: i32 = 2;
/// A monument.
pub const MONUMENT: i32 = 3;
/// A road.
pub const ROUTE: i32 = 4;

/// Monuments auctioned in a game.
pub const MAX_MONUMENTS: i32 = 14;
/// Width and height of the map.
pub const TAILLE_CARTE: i32 = 100;
/// The longest distance `distance` computes.
pub const MAX_DISTANCE: i32 = 12;
/// Each player's money at the start.
pub const ARGENT_INITIAL: i32 = 10;

/// Number of turns: 14 full turns and a last Phase I. Not a 2009 constant (Rust only).
pub const LAST_TURN: u8 = 15;
