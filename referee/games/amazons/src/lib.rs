//! The Game of the Amazons on the arena, below the referee: its wire protocol
//! (`protocol-amazons.md`, [`wire`]), its built-in champions over that protocol ([`bot`])
//! a person's seat ([`human`]) and its records of schema 1, checked as then and made again
//! ([`v1`]). The referee adds its parts for the runner (points, replay page) and registers
//! it.

pub mod bot;
pub mod human;
pub mod v1;
pub mod v1_faults;
pub mod wire;
