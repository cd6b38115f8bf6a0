//! The Game of the Amazons on the arena, below the referee: its wire protocol
//! (`protocol-amazons.md`, [`wire`]), its built-in champions over that protocol ([`bot`])
//! a person's seat ([`human`]), its parts for the runner ([`play`]: points, what its rows
//! say, `match`'s and `show`'s words) and its records of schema 1, checked as then and made
//! again ([`v1`]). Its replay page ([`page`]) is drawn on the frame every game shares
//! (`replay_view`). The referee registers it.

pub mod bot;
pub mod human;
pub mod page;
pub mod page_frame;
pub mod play;
pub mod v1;
pub mod v1_faults;
pub mod wire;
