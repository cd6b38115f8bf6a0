//! Little Town on the arena, below the referee: its wire protocol (`protocol-little-town.md`,
//! [`wire`]), its built-in champions over that protocol ([`bot`]), a person's seat
//! ([`human`]), its parts for the runner ([`play`]: points, `show`'s text, the states of a
//! record) and its records of version 1, checked as then and made again ([`v1`]). Its
//! replay page ([`page`]) is drawn on the frame every game shares (`replay_view`). The
//! referee registers it.

pub mod bot;
pub mod human;
pub mod page;
pub mod play;
pub mod v1;
pub mod wire;
