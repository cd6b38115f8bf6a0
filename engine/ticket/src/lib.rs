//! Ticket to Ride, pure: the rules of `docs/rules-ticket-to-ride.md` (2 to 5 players, the
//! USA and training boards or any board file), as a [`game::Game`] ([`TicketToRide`]), and
//! its bots ([`bots`]). No I/O but reading a board file named by the `board` option; every
//! shuffle is chance, drawn by the runner.
//!
//! ```
//! use game::{Acting, Game, State};
//! use ticket::{Action, TicketToRide};
//! let game = TicketToRide;
//! let mut state = game.start(2, &game.defaults()).unwrap();
//! while let Acting::Chance(chance) = state.acting() {
//!     state.chance(&chance.draw(1, &mut draw::Stream::new(1))).unwrap();
//! }
//! assert_eq!(state.acting(), Acting::Seats(vec![0]));
//! assert_eq!(state.legal(0), [Action::Tickets]);
//! ```

#![forbid(unsafe_code)]

mod action;
mod board;
pub mod bots;
pub mod card;
mod legal;
mod model;
mod play;
mod score;
mod state;
mod view;

pub use action::{Action, FORMS};
pub use board::{route_points, Board, City, Route, Ticket, BUILT_IN};
pub use card::Colour;
pub use model::{TicketToRide, OPTIONS};
pub use play::LAST_ROUND_WAGONS;
pub use score::{connects, longest_path, Count, LONGEST_BONUS};
pub use state::{End, Phase, TicketState, DRAWN_TICKETS, HAND, ROW, ROW_LOCOMOTIVES, ROW_RELAYS};
pub use view::{Seat, View};
