//! The referee of "La loi du plus riche": champions as sandboxed processes speaking
//! protocol.md, matches played through the engine and recorded, tournaments in parallel.

pub mod champion;
pub mod cli;
pub mod commands;
pub mod endpoint;
pub mod fault;
pub mod game;
pub mod process_endpoint;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod roster;
pub mod run_match;
pub mod sandbox;
pub mod seeds;
pub mod view;
