//! Ticket to Ride on the arena, below the referee: its wire protocol
//! (`protocol-ticket-to-ride.md`, [`wire`], its answers' text in [`lines`]), its built-in
//! champions over that protocol ([`bot`]), a person's seat ([`human`]) and its parts for the
//! runner ([`play`]: points, what its rows say, `match`'s and `show`'s words, the states of
//! a record). The referee registers it with its replay page.

pub mod bot;
pub mod human;
pub mod lines;
pub mod play;
pub mod wire;
