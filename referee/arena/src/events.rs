//! The one interface between running a tournament and reporting it: the runner emits
//! [`TournamentEvent`]s in completion order; reporters (CSV appender, progress bar) consume
//! them and never drive the run.

use crate::standings::MatchRow;

/// Something that happened during a tournament.
#[derive(Clone, Debug)]
pub enum TournamentEvent {
    /// A match was played (faults of champions included: they are results).
    Played {
        row: Box<MatchRow>,
        /// The seat that opened turn 1.
        first_player: u8,
    },
    /// Match `id` was cut short because the referee was told to stop: no result, `--resume`
    /// plays it again.
    Abandoned { id: u64 },
    /// The referee itself could not play match `id` (e.g. its directory is not writable);
    /// the run stops scheduling new matches.
    Failed { id: u64, error: String },
}
