//! Little Town, the rules of its base version and of its boards, pure: a board of valid
//! positions and their neighbours (five kinds), mines and buildings placed by chance,
//! workers placed in turn to collect or build, upkeep at each round's end, players
//! eliminated or excluded, and the ranking by gold. The rule book is
//! `docs/rules-little-town.md`; its rule numbers are cited here as "rule N".
//!
//! A match is a [`game::State`]: every random placement and every round's first player is
//! asked of chance, so a record's chance outcomes and actions replay it.
//!
//! ```
//! use game::{Acting, Game, State};
//! let mut state = town::Town.start(4, &town::Town.defaults()).unwrap();
//! let mut stream = draw::Stream::new(1);
//! while let Acting::Chance(chance) = state.acting() {
//!     state.chance(&chance.draw(1, &mut stream)).unwrap();
//! }
//! assert_eq!(state.round(), 1);
//! assert!(matches!(state.acting(), Acting::Seats(seats) if seats.len() == 1));
//! ```

#![forbid(unsafe_code)]

pub mod action;
pub mod afford;
pub mod board;
pub mod bots;
pub mod buildings;
pub mod extension;
mod model;
pub mod resources;
mod state;

pub use action::Action;
pub use buildings::Kind;
pub use model::{Town, TownView, COLOURS, DEFAULT_SEATS, MIN_POSITIONS};
pub use resources::{Resource, Stock};
pub use state::{upkeep, Cell, Player, Rules, TownState, Why};
