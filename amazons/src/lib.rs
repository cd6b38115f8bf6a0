//! The Game of the Amazons on a 10x10 board (the 2009 subject, `amazons.txt`), pure: no I/O,
//! no randomness. Two players, White and Black, four amazons each; White moves first. A move
//! is an amazon's queen move to an empty square, then an arrow shot, by a queen move, from
//! where it landed (it may fly back over the square the amazon left); the arrow's square is
//! blocked for the rest of the game. The player who cannot move loses.
//!
//! Squares are written as on the subject's board: a column `a`..`j` then a row `1`..`10`
//! (`d1`). A move is written `d1-d7/g7`: from, to, arrow.

#![forbid(unsafe_code)]

mod board;
pub mod bots;
mod model;
mod square;

pub use board::{Board, Cell, Color, IllegalMove, Move};
pub use model::{Amazons, AmazonsState, AmazonsView};
pub use square::{ParseSquareError, Square};
