//! The referee of "La loi du plus riche": champions as sandboxed processes speaking
//! protocol.md, matches played through the engine and recorded, tournaments in parallel.

pub mod cli;
pub mod commands;
pub mod games;
pub mod human;
#[cfg(test)]
mod kit_hashes;
pub mod kits;
mod layers;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod replay_checks;
pub mod serve;
pub mod view;

// The runner that knows no game is the crate `arena`; its modules most of this crate reaches
// keep their paths here, so that `crate::store`, `crate::endpoint`... still name them.
pub use arena::{
    auth, endpoint, export, full_log, gauntlet, reproduce_log, roster, run_bounds, run_files,
    schedule, seating, snapshot, standings, store, tournament,
};
