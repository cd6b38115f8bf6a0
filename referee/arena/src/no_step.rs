//! Why `show` cannot stop where it was asked, for the command line to word.

/// Why `show` cannot stop where it was asked; the command line words it with its flags
/// (`--step`, `--turn`, `--phase`), which no layer below it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoStep {
    /// Steps are `1..=last`; `moves`: a game whose steps are its moves.
    Step { last: usize, got: u64, moves: bool },
    /// A game whose steps are its moves has no turns nor phases.
    NoTurns { title: &'static str },
    /// Turn 0 is the start: it has no phase.
    StartPhase,
    /// The last turn has one phase.
    LastTurnPhase { turn: u8, got: u8 },
    /// Anything else, worded (a turn the record does not reach, a record that cannot be
    /// shown).
    Other(String),
}

impl From<String> for NoStep {
    fn from(message: String) -> Self {
        NoStep::Other(message)
    }
}
