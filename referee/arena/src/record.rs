//! The one record of a match of any game on the model: what it was played with (game,
//! version, options, seed, seats, limits, sandbox), its history (chance's draws and each
//! callback's actions with their answers), each callback's requests and digest, the
//! faults, and the ranking. What each callback measured lives apart in `timings`, so that
//! two runs of the same match give the same record once `timings` is set aside.
//!
//! A record's size is bounded by what the game can change, not by what a champion sends:
//! of a callback's refused actions (they change nothing), the first [`REFUSALS_KEPT`] are
//! kept with their arguments, the others only counted by function and answer
//! (`CallbackEntry::refused`).

use super::parts::{BudgetsRecord, SeatRecord, TimingRecord};
use game::{Options, Ranking, Step};
use jail::fault::{Fault, FaultKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The schema of [`GameRecord`]; after the 2009 records' 3 and 4 (the Amazons' own record
/// was 1), so that one number tells every record apart. Schema 5 kept every refused
/// action; 6 counts those past [`REFUSALS_KEPT`] in a callback (`CallbackEntry::refused`).
pub const GAME_RECORD_SCHEMA: u32 = 6;

/// The oldest schema of [`GameRecord`] the referee reads (and checks as it was written).
pub const OLDEST_GAME_RECORD_SCHEMA: u32 = 5;

/// Most refused actions a callback keeps with their arguments (the others are counted):
/// far above what a champion that plays refuses in a callback, far below what a record's
/// bound holds (a refused action is about 40 bytes of record).
pub const REFUSALS_KEPT: usize = 100;

/// Most refused actions a callback of a record of `schema` keeps with their arguments.
pub fn refusals_kept(schema: u32) -> usize {
    if schema <= OLDEST_GAME_RECORD_SCHEMA {
        usize::MAX
    } else {
        REFUSALS_KEPT
    }
}

/// The key a refused action past [`REFUSALS_KEPT`] is counted under: its function (the
/// action's first word) and the answer the champion got (`construire_maison -9`). Its
/// arguments are left out: the keys of a callback are at most its functions times the
/// protocol's answers to a refusal.
pub fn refusal_key(action: &str, answer: &str) -> String {
    let function = action.split_ascii_whitespace().next().unwrap_or("");
    format!("{function} {}", answer.trim())
}

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
    /// Its refused actions past the first [`REFUSALS_KEPT`] (kept in `steps`), counted by
    /// [`refusal_key`]: a refused action changes nothing, so the digest after the callback
    /// still checks the history.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, u64>,
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

    /// The record as JSON bytes, if they are within the bound the referee reads a record
    /// with ([`crate::run_bounds::RECORD`]): a record the referee writes is one it reads
    /// back. `path`: where it goes, for the error.
    pub fn to_json_within_bound(&self, path: &Path) -> anyhow::Result<Vec<u8>> {
        let bytes = self.to_json();
        crate::run_bounds::RECORD.check_written(path, bytes.len() as u64)?;
        Ok(bytes)
    }

    /// Reads the record `path` (of schema [`GAME_RECORD_SCHEMA`]).
    pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
        use anyhow::Context;
        let text = super::parts::read_bounded(path)?;
        let record: GameRecord = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a match record", path.display()))?;
        anyhow::ensure!(
            (OLDEST_GAME_RECORD_SCHEMA..=GAME_RECORD_SCHEMA).contains(&record.schema),
            "{} has record schema {}, not {OLDEST_GAME_RECORD_SCHEMA} to {GAME_RECORD_SCHEMA}",
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
