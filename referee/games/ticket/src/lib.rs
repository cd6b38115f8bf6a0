//! Ticket to Ride on the arena, below the referee: its wire protocol
//! (`protocol-ticket-to-ride.md`, [`wire`], its answers' text in [`lines`]), its built-in
//! champions over that protocol ([`bot`]), a person's seat ([`human`]) and its parts for the
//! runner ([`play`]: points, what its rows say, `match`'s and `show`'s words, the states of
//! a record). Its replay page ([`page`]) is drawn on the frame every game shares
//! (`replay_view`). The referee registers it.

pub mod bot;
pub mod human;
pub mod lines;
pub mod page;
pub mod play;
pub mod wire;
