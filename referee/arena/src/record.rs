//! The one record of a match of any game on the model: what it was played with (game,
//! version, options, seed, seats, limits, sandbox), its history (chance's draws and each
//! callback's actions with their answers), each callback's requests and digest, the
//! faults, and the ranking. What each callback measured lives apart in `timings`, so that
//! two runs of the same match give the same record once `timings` is set aside.

use super::parts::{BudgetsRecord, SeatRecord, TimingRecord};
use game::{Options, Ranking, Step};
use jail::fault::{Fault, FaultKind};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The schema of [`GameRecord`]; after the 2009 records' 3 and 4 (the Amazons' own record
/// was 1), so that one number tells every record apart.
pub const GAME_RECORD_SCHEMA: u32 = 5;

/// One match of a game on the model, as played. A field this referee does not know is
/// refused (as in each callback and fault): nothing is carried that `replay` did not check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub schema: u32,
    /// The game's `--game` name, and the version of its rules.
    pub game: String,
    pub version: u32,
    pub options: Options,
    pub seed: u64,
    pub seats: Vec<SeatRecord>,
    /// The sandbox line of the run (which layers were on).
    pub sandbox: String,
    /// The callbacks' time allowances, as scaled.
    pub budgets: BudgetsRecord,
    /// What happened before the first callback: chance's draws, seats that could not start.
    pub start: Vec<Step>,
    /// Every callback played, in order.
    pub callbacks: Vec<CallbackEntry>,
    pub faults: Vec<GameFault>,
    pub ranking: Ranking,
    /// What the game says of the match (its adapter's summary: derived from the rest).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub summary: serde_json::Value,
    /// Every request of the match, kept in a file beside the record (`--full-log`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_log: Option<FullLogRecord>,
    /// What each callback measured, one per element of `callbacks`.
    pub timings: Vec<TimingRecord>,
}

/// The full log of a match ([`crate::full_log`]): every request of every callback, with its
/// answer's code (the answer as a number, 0 when it is none), in a gzip file beside the
/// record, cut at a cap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullLogRecord {
    /// Its file's name, beside the record.
    pub file: String,
    /// Its cap, MiB of compressed log.
    pub cap_mib: u64,
    /// Where it stops, when it reached its cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<crate::full_log::Cut>,
}

/// One callback of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallbackEntry {
    pub seat: u8,
    pub callback: String,
    /// Its actions with their answers, chance's draws after them, and the seat's leaving
    /// if the callback ended in a fault: the history it made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Requests answered (questions and actions).
    pub requests: u64,
    /// The game's digest after it, hex.
    pub digest: String,
    /// The fault that ended it, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
}

/// A fault, and the callback it ended (its index in `callbacks`; `None` for a seat that
/// could not start, or for output after its last callback).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFault {
    pub seat: u8,
    pub callback: Option<usize>,
    pub kind: FaultKind,
    pub message: String,
}

/// The hex form of a digest in records.
pub(crate) fn hex(digest: u64) -> String {
    format!("{digest:016x}")
}

impl GameRecord {
    /// The message of `fault`, one of this record's, as its callback keeps it (the list of
    /// faults adds the callback's name before it, which the views say apart).
    pub fn fault_message<'r>(&'r self, fault: &'r GameFault) -> &'r str {
        fault
            .callback
            .and_then(|i| self.callbacks.get(i)?.fault.as_ref())
            .map_or(fault.message.as_str(), |f| f.message.as_str())
    }

    /// The record as JSON bytes, one field and one list element per line.
    pub fn to_json(&self) -> Vec<u8> {
        super::parts::json_lines(self)
    }

    /// Reads the record `path` (of schema [`GAME_RECORD_SCHEMA`]).
    pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
        use anyhow::Context;
        let text = super::parts::read_bounded(path)?;
        let record: GameRecord = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a match record", path.display()))?;
        anyhow::ensure!(
            record.schema == GAME_RECORD_SCHEMA,
            "{} has record schema {}, not {GAME_RECORD_SCHEMA}",
            path.display(),
            record.schema
        );
        Ok(record)
    }

    /// The faults of `seat`, in order.
    pub fn faults_of(&self, seat: u8) -> impl Iterator<Item = &GameFault> {
        self.faults.iter().filter(move |f| f.seat == seat)
    }
}
