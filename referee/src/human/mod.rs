//! A person playing a seat from the terminal (`human` as a champion name): an in-process
//! [`Endpoint`](crate::endpoint::Endpoint) that speaks the protocol for them, game-free in
//! the arena (`arena::human`, here `human::endpoint`), with one driver per game (`loi.rs` for
//! the 2009 game, `town.rs` for Little Town; the Amazons' and Ticket to Ride's are their
//! crates', `amazons_arena::human` and `ticket_arena::human`) that turns what they type into
//! requests and the answers into text.

pub mod loi;
pub mod town;

// The seat's endpoint knows no game: the arena's, under its old path; the Amazons' and
// Ticket to Ride's drivers are their crates'.
pub use amazons_arena::human as amazons;
pub use arena::human as endpoint;
pub use arena::human::{Driver, HumanEndpoint, Turn};
pub use ticket_arena::human as ticket;
