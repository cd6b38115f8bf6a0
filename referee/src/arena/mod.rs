//! Every game on the model ([`game::Game`]) played, recorded and checked by one piece of
//! code: a game brings its rules and an [`Adapter`] (its wire lines), and gets a match
//! loop's seam ([`Machine`], a [`crate::rules::Rules`]), one record ([`GameRecord`]) and
//! one check of a record ([`check`]) that plays the recorded actions again.
//!
//! (The arena crate to come: it names no game.)

mod adapter;
mod check;
mod log_check;
mod machine;
mod no_step;
pub mod parts;
mod record;
mod row;
pub mod watch;

pub use adapter::{Action, Adapter, History, Line, State};
pub use check::{check, rebuild};
pub use log_check::check_log;
pub use machine::Machine;
pub use no_step::NoStep;
pub use record::{CallbackEntry, FullLogRecord, GameFault, GameRecord, GAME_RECORD_SCHEMA};
