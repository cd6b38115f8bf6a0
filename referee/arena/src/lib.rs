//! Every game on the model ([`game::Game`]) played, recorded and checked by one piece of
//! code: a game brings its rules and an [`Adapter`] (its wire lines), and gets a match
//! loop's seam ([`Machine`], a [`crate::rules::Rules`]), one record ([`GameRecord`]) and
//! one check of a record ([`check`]) that plays the recorded actions again.
//!
//! Around it, the runner that knows no game: the match loop and its endpoints, the full log,
//! seeds, a run's files, the store, schedule, standings, confidence and the results' files
//! (ARCHITECTURE.md, "The crates and their layers"). It depends on no game's crate, so a
//! module that names one does not compile; it names no flag (the command line tells its
//! errors in flags).

mod adapter;
pub mod auth;
pub mod bot_client;
mod check;
pub mod command_line;
pub mod confidence;
pub mod endpoint;
pub mod events;
pub mod export;
pub mod fault_times;
pub mod full_log;
pub mod gauntlet;
pub mod human;
mod log_check;
mod machine;
pub mod manifest;
pub mod match_loop;
pub mod model;
mod no_step;
pub mod parts;
pub mod pre_run;
pub mod process_endpoint;
mod record;
pub mod reproduce_log;
pub mod roster;
mod row;
pub mod rules;
pub mod run_bounds;
pub mod run_files;
pub mod schedule;
pub mod scratch;
pub mod seam;
pub mod seating;
pub mod seeds;
pub mod snapshot;
pub mod standings;
pub mod store;
pub mod tournament;
pub mod watch;
pub mod wire_examples;
pub mod words;

pub use adapter::{Action, Adapter, History, Line, State};
pub use check::{check, compare, is_late_output, rebuild};
pub use log_check::check_log;
pub use machine::Machine;
pub use no_step::NoStep;
pub use record::{
    refusal_key, refusals_kept, CallbackEntry, FullLogRecord, GameFault, GameRecord,
    GAME_RECORD_SCHEMA, OLDEST_GAME_RECORD_SCHEMA, REFUSALS_KEPT,
};
