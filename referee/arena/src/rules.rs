//! The seam between the match runner and a game: what the runner asks of a game's rules
//! while it drives the champions (`match_loop.rs`), so that the runner's loop, its faults,
//! budgets and request cap know no game. Every game is behind it in `arena/machine.rs`.

use crate::endpoint::{CallLimits, CallTiming};
use jail::fault::Fault;

/// What a game answers to one line of a champion during its callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The answer line to send.
    Answer(String),
    /// The line ended the callback (`fin`).
    End,
}

/// One callback of the match: its name (the line the champions receive), its time
/// allowance, and the seats that play it, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub name: &'static str,
    pub limits: CallLimits,
    pub seats: Vec<usize>,
}

/// A game's side of one match, driven by `match_loop::run`.
pub trait Rules {
    /// The callback to play now, or `None` when the match is over.
    fn next_step(&mut self) -> Option<Step>;
    /// `seat` starts the current callback.
    fn begin(&mut self, seat: usize);
    /// One line of `seat` during its callback: the reply, or a protocol fault's message.
    fn request(&mut self, seat: usize, line: &str) -> Result<Reply, String>;
    /// The callback of `seat` is over: `fault` if it stopped the seat, and what it cost.
    fn end(&mut self, seat: usize, fault: Option<&Fault>, timing: CallTiming);
    /// Every seat of the current step has played.
    fn advance(&mut self);
    /// `seat` stopped before the match started (its champion could not start).
    fn spawn_fault(&mut self, seat: usize, fault: &Fault);
    /// `seat` wrote `line` after its last callback (a protocol fault that changes no
    /// result).
    fn late_output(&mut self, seat: usize, line: &str);
    /// `seat` worked after its last callback (the check before the result is fixed):
    /// `fault` places it as a fault in its last callback would.
    fn late_fault(&mut self, seat: usize, fault: &Fault);
}
