//! A person playing a seat from the terminal (`human` as a champion name): an in-process
//! [`Endpoint`](crate::endpoint::Endpoint) that speaks the protocol for them, game-free in
//! the arena (`arena::human`, here `human::endpoint`), with one driver per game (`loi.rs` for
//! the 2009 game, `amazons.rs` for the Amazons, `ticket.rs` for Ticket to Ride, `town.rs`
//! for Little Town) that turns what they type into requests and the answers into text.

pub mod loi;
pub mod ticket;
pub mod town;

// The seat's endpoint knows no game: the arena's, under its old path; the Amazons' driver
// is its crate's.
pub use amazons_arena::human as amazons;
pub use arena::human as endpoint;
pub use arena::human::{Driver, HumanEndpoint, Turn};
