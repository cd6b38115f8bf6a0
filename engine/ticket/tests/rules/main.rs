//! Ticket to Ride's rules crate, through its public API: a test per rule of the rule book,
//! the built-in bots, the game model and properties over seeded games. One module per former
//! test file (each was its own binary).

mod bots;
mod model;
mod properties;
mod rules;
