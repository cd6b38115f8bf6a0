//! Referee library.
