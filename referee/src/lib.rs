//! The referee of "La loi du plus riche": champions as sandboxed processes speaking
//! protocol.md, matches played through the engine and recorded, tournaments in parallel.

pub mod arena;
pub mod auth;
pub mod check;
pub mod cli;
pub mod commands;
pub mod confidence;
pub mod endpoint;
pub mod events;
pub mod export;
pub mod full_log;
pub mod game;
pub mod games;
pub mod gauntlet;
pub mod human;
pub mod kits;
pub mod manifest;
pub mod match_loop;
pub mod process_endpoint;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod replay_checks;
pub mod reproduce_log;
pub mod roster;
pub mod rules;
pub mod run_files;
pub mod run_match;
pub mod schedule;
pub mod seating;
pub mod seeds;
pub mod snapshot;
pub mod standings;
pub mod store;
pub mod tournament;
pub mod view;
