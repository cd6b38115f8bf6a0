//! Referee library.
pub mod champion;
pub mod fault;
