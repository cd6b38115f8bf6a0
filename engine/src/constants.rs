//! The API's constants: error codes, cell kinds, owners and bounds, with their 2009 values
//! (docs/rules.md section 6.1; `referee/tests/rules_doc.rs` checks its tables against this
//! file).

/// The action succeeded.
pub const SUCCES: i32 = 0;
/// There is no house on the cell.
pub const PAS_DE_MAISON: i32 = -2;
/// There is no monument on the cell, or the monument id is not in `0..14`.
pub const PAS_DE_MONUMENT: i32 = -3;
/// The action costs more than the player has.
pub const FINANCES_DEPASSEES: i32 = -4;
/// The building would cut every road off from the outside of the map (rule 21).
pub const BLOCAGE: i32 = -5;
/// The player id is not in `0..3`.
pub const JOUEUR_INCORRECT: i32 = -7;
/// The cell has no road next to it.
pub const NON_CONNEXE: i32 = -8;
/// The cell is not buildable.
pub const CASE_OCCUPEE: i32 = -9;
/// Not your turn, or the action is forbidden.
pub const ACTION_INTERDITE: i32 = -10;
/// The coordinates are off the map.
pub const HORS_TERRAIN: i32 = -12;
/// The distance is over `MAX_DISTANCE`, or there is no such path.
pub const TROP_LOIN: i32 = 50;
/// The price of a house that cannot be built in this callback.
pub const INFINI: i32 = 30000;

/// An empty cell.
pub const VIDE: i32 = 0;
/// A house.
pub const MAISON: i32 = 1;
/// A reservation.
pub const RESERVATION: i32 = 2;
/// A monument.
pub const MONUMENT: i32 = 3;
/// A road.
pub const ROUTE: i32 = 4;

/// The owner of everything no player owns.
pub const MAIRIE: i32 = 3;

/// Number of monuments auctioned in a game.
pub const MAX_MONUMENTS: i32 = 14;
/// Width and height of the map.
pub const TAILLE_CARTE: i32 = 100;
/// Longest distance `distance` computes.
pub const MAX_DISTANCE: i32 = 12;
/// Money of each player at the start.
pub const ARGENT_INITIAL: i32 = 10;

/// Number of turns: 14 full turns and a last Phase I.
pub const LAST_TURN: u8 = 15;
