//! The referee of "La loi du plus riche": champions as sandboxed processes speaking
//! protocol.md, matches played through the engine and recorded, tournaments in parallel.

pub mod auth;
pub mod check;
pub mod cli;
pub mod commands;
pub mod games;
pub mod gauntlet;
pub mod human;
#[cfg(test)]
mod kit_hashes;
pub mod kits;
mod layers;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod replay_checks;
pub mod reproduce_log;
pub mod seating;
pub mod serve;
pub mod tournament;
pub mod view;

// The runner that knows no game is the crate `arena`; its modules most of this crate reaches
// keep their paths here, so that `crate::store`, `crate::endpoint`... still name them.
pub use arena::{
    endpoint, export, full_log, roster, run_bounds, run_files, schedule, snapshot, standings, store,
};
