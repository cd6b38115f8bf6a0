//! A person playing a seat from the terminal (`human` as a champion name): an in-process
//! [`Endpoint`](crate::endpoint::Endpoint) that speaks the protocol for them, game-free in
//! the arena (`arena::human`, here `human::endpoint`), with one driver per game (`loi.rs` for
//! the 2009 game; the Amazons', Ticket to Ride's and Little Town's are their crates',
//! `amazons_arena::human`, `ticket_arena::human` and `town_arena::human`) that turns what
//! they type into requests and the answers into text.

pub mod loi;

// The seat's endpoint knows no game: the arena's, under its old path; the Amazons',
// Ticket to Ride's and Little Town's drivers are their crates'.
pub use amazons_arena::human as amazons;
pub use arena::human as endpoint;
pub use arena::human::{Driver, HumanEndpoint, Turn};
pub use ticket_arena::human as ticket;
pub use town_arena::human as town;
