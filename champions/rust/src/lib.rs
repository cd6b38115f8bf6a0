//! The Rust champion kit: write the five callbacks of a [`Champion`] against the [`Api`]
//! (docs/rules.md: the rules, and the API in its section 6), call [`run`] from `main`, and
//! the kit speaks protocol.md v1 with the referee.
//!
//! ```no_run
//! use prologin::{Api, Champion};
//!
//! struct Mine;
//! impl Champion for Mine {
//!     fn jouer(&mut self, api: &mut dyn Api) {
//!         api.construire_route(50, 51);
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     prologin::run(&mut Mine)
//! }
//! ```
//!
//! The protocol's champion end is the `loi_protocol` crate, which the referee shares (it encodes
//! `etat` with [`etat`]); this kit re-exports it.

pub use loi_protocol::*;
