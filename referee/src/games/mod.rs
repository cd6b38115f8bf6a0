//! The games the referee plays, each behind two seams of the arena: [`arena::rules::Rules`]
//! for one match (what the runner's loop asks while champions play) and [`arena::seam::Game`]
//! for everything around a match (the tournament runner, its pre-run check, results and
//! viewers). Here: each game's adapter, parts, bots and records of before, and the registry
//! that names them (`--game`, `tournament.json`'s `game`).

pub mod loi_play;
pub mod loi_v4;
pub mod loi_wire;
pub mod model;

// Below this crate, under their old paths: the Amazons' adapter, built-in champions and
// records of schema 1 (its crate `amazons_arena`), Ticket to Ride's adapter, answers and
// built-in champions (`ticket_arena`), Little Town's adapter, built-in champions and
// records of version 1 (`town_arena`), the built-ins' client (the arena's).
pub use amazons_arena::{
    bot as amazons_bot, v1 as amazons_v1, v1_faults as amazons_v1_faults, wire as amazons_wire,
};
pub use arena::bot_client;
pub use arena::seam::{Expected, FaultStep, Game, Played, Seats};
pub use ticket_arena::{bot as ticket_bot, lines as ticket_lines, wire as ticket_wire};
pub use town_arena::{bot as town_bot, v1 as town_v1, wire as town_wire};

/// The Game of the Amazons (its parts are `amazons_arena`'s), for the runner, drawn by its
/// replay page.
pub static AMAZONS: model::ModelGame<amazons_wire::AmazonsWire> = model::ModelGame::new(
    &amazons_wire::AmazonsWire,
    amazons_arena::page::PAGES,
    &crate::cli::words::REFEREE,
);

/// The Amazons under their old path: the game, and the boards of a match.
pub mod amazons_play {
    pub use super::AMAZONS;
    pub use amazons_arena::wire::boards;
}

/// Ticket to Ride (its parts are `ticket_arena`'s), for the runner, drawn by its replay
/// page.
pub static TICKET: model::ModelGame<ticket_wire::TicketWire> = model::ModelGame::new(
    &ticket_wire::TicketWire,
    ticket_arena::page::PAGES,
    &crate::cli::words::REFEREE,
);

/// Ticket to Ride under its old path: the game, and the states of a record.
pub mod ticket_play {
    pub use super::TICKET;
    pub use ticket_arena::play::*;
}

/// Little Town (its parts are `town_arena`'s), for the runner, drawn by its replay page.
pub static TOWN: model::ModelGame<town_wire::TownWire> = model::ModelGame::new(
    &town_wire::TownWire,
    town_arena::page::PAGES,
    &crate::cli::words::REFEREE,
);

/// Little Town under its old path: the game, the states of a record and their text.
pub mod town_play {
    pub use super::TOWN;
    pub use town_arena::play::*;
}

use crate::endpoint::TimeLimits;
use jail::champion::Limits;

/// The time and process limits a run's stored limits (`tournament.json`'s,
/// `gauntlet.json`'s) give its matches: read once for the checks of all their records.
pub fn stored_limits(
    stored: &crate::tournament::LimitsSpec,
) -> Result<(TimeLimits, Limits), String> {
    let mut args =
        crate::commands::tournament::setup::limit_args(&crate::cli::LimitArgs::default(), stored);
    // Whether this machine has the layers says nothing of the matches played elsewhere.
    args.require_sandbox = false;
    Ok((args.time()?, args.process()?))
}

/// Every game the referee plays: the registry (`--game`, `tournament.json`'s `game`).
pub static ALL: [&dyn Game; 4] = [&loi_play::LOI, &AMAZONS, &TICKET, &TOWN];

/// The games on the game model, whose commands are `commands/model.rs`'s (and whose kits
/// `kits.rs` names to the jail).
pub static ON_MODEL: [&dyn model::Commands; 4] = [&loi_play::LOI, &AMAZONS, &TICKET, &TOWN];

/// The games the game server plays (`referee serve`'s `game=`), in the order its pages and
/// messages list them.
pub static SERVED: [&dyn model::Commands; 4] = [&TICKET, &AMAZONS, &TOWN, &loi_play::LOI];

/// The game of `--game` when none is given.
pub const DEFAULT: &str = "loi";

/// The game of a `--game` name (`tournament.json` keeps it).
pub fn by_name(name: &str) -> Option<&'static dyn Game> {
    ALL.into_iter().find(|g| g.name() == name)
}

/// The game on the model of a `--game` name, for its commands.
pub fn on_model(name: &str) -> Option<&'static dyn model::Commands> {
    ON_MODEL.into_iter().find(|g| g.runner().name() == name)
}
