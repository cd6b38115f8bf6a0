//! The rules of "La loi du plus riche", the game of the 2009 Prologin final: a pure,
//! deterministic library with no I/O. `docs/rules.md` is the reference; rule and section
//! numbers in comments point into it.
//!
//! A [`Game`] is created from a [`Setup`] (drawn from a seed, or given), then driven stage by
//! stage: [`Game::seats_to_play`] says whose callback is due, [`Game::player`] gives that seat
//! the API ([`Api`], docs/rules.md section 6), and [`Game::advance`] ends the stage.

#![forbid(unsafe_code)]

pub mod api;
mod blocking;
pub mod board;
pub mod bots;
pub mod call;
pub mod constants;
pub mod distance;
pub mod game;
pub mod model;
pub mod monument;
pub mod outcome;
pub mod player;
pub mod price;
pub mod setup;
pub mod snapshot;
pub mod state;
pub mod turn;

pub use api::{Api, ApiError, Player};
pub use board::{Board, Cell, Kind, Pos};
pub use call::{Call, Function};
pub use game::Game;
pub use outcome::Outcome;
pub use player::Seat;
pub use setup::Setup;
pub use state::State;
pub use turn::{Callback, Stage};
