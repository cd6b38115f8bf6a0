//! The Game of the Amazons on the arena, below the referee: its wire protocol
//! (`protocol-amazons.md`, [`wire`]), its built-in champions over that protocol ([`bot`])
//! and a person's seat ([`human`]). The referee adds its parts for the runner (points,
//! replay page, records of before) and registers it.

pub mod bot;
pub mod human;
pub mod wire;
