//! The match record: everything needed to understand, replay and compare a match, as a
//! versioned JSON document. What each callback measured (its CPU and wall time, the bytes
//! of stderr it wrote) lives in its own field, `timings`, so that two runs of the same match
//! give byte-identical records once `timings` is set aside.

use engine::{Call, Callback};
use jail::fault::{Fault, FaultKind};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

pub(crate) use arena::parts::hex;
pub use arena::parts::{
    json_lines, read_bounded, BudgetRecord, BudgetsRecord, SeatRecord, TimingRecord,
};

/// Version of the record schema; bumped on any change of its shape (2: requests kept as
/// actions in full and the rest counted, with a digest of them all; 3: the full log moved
/// out of the record, into a gzip file beside it; 4: the callbacks' time budgets
/// (`budgets`), and each callback's bytes of stderr (`timings[i].stderr`)).
pub const RECORD_SCHEMA: u32 = 4;

/// The oldest schema this referee reads: a schema-3 record is a schema-4 one without
/// `budgets` and without stderr ranges, which the viewers then say were not recorded.
pub const OLDEST_SCHEMA: u32 = 3;

/// The error of [`MatchRecord::load`] on a record of another game (the Amazons'): the
/// command line says how to read it.
#[derive(Debug)]
pub struct OtherGame(pub String);

impl std::fmt::Display for OtherGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is a record of the Game of the Amazons", self.0)
    }
}

impl std::error::Error for OtherGame {}

/// One match, as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub schema: u32,
    /// The match seed: per-seat seeds and, unless overridden, the setup derive from it.
    pub seed: u64,
    pub monument_order: Vec<u8>,
    /// The seat that opens turn 1.
    pub first_player: u8,
    pub seats: Vec<SeatRecord>,
    /// The sandbox line of the run (which layers were on).
    pub sandbox: String,
    /// The time allowances of the callbacks (schema 4 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budgets: Option<BudgetsRecord>,
    /// Every callback played, in order.
    pub callbacks: Vec<CallbackRecord>,
    /// Every fault, in order (also attached to the callback where it happened).
    pub faults: Vec<FaultRecord>,
    pub result: ResultRecord,
    /// What each callback measured (time used, bytes of stderr written), one entry per
    /// element of `callbacks`, in the same order: what may differ between two runs.
    pub timings: Vec<TimingRecord>,
    /// The file beside the record holding every request (`--full-log`,
    /// [`crate::full_log`]), if it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_log: Option<String>,
    /// The full log's cap in MiB of compressed log, when not the default
    /// ([`crate::full_log::DEFAULT_CAP_MIB`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_log_cap: Option<u64>,
    /// Where the full log stops, when it reached its cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_log_cut: Option<crate::full_log::Cut>,
}

/// One callback of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallbackRecord {
    pub turn: u8,
    /// 0 outside turns (init_game, end_game), else 1, 2 or 3.
    pub phase: u8,
    pub seat: u8,
    pub callback: Callback,
    /// Requests made, of every kind.
    pub requests: u64,
    /// The actions that succeeded (the only requests that change the game), with their
    /// answer, in order: what a replay makes again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<(String, i32)>,
    /// Information requests (and `etat`), counted by function.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub info: BTreeMap<String, u64>,
    /// Refused actions (they change nothing), counted by function and answer
    /// (`construire_maison -9`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, u64>,
    /// SHA-256 (hex) of every request and its answer, in order, one `<request>\t<answer>\n`
    /// each (`etat` answered 0): what a full log is checked against.
    pub digest: String,
    /// The fault that ended this callback, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
}

/// A fault, where it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    pub seat: u8,
    pub turn: u8,
    pub phase: u8,
    /// The callback it happened in, if any (a spawn fault has none).
    pub callback: Option<Callback>,
    pub kind: FaultKind,
    pub message: String,
}

impl FaultRecord {
    /// A fault of `seat` outside a callback's requests: at its start (`spawn`), or after
    /// its last callback.
    pub fn outside(seat: usize, turn: u8, callback: Option<Callback>, fault: &Fault) -> Self {
        FaultRecord {
            seat: seat as u8,
            turn,
            phase: 0,
            callback,
            kind: fault.kind,
            message: fault.message.clone(),
        }
    }

    /// Output of `seat` after its last callback (`end_game`): a protocol fault that changes
    /// no result.
    pub fn late_output(seat: usize, turn: u8, callback: Option<Callback>, line: &str) -> Self {
        let message = format!(
            "unexpected output `{}` after end_game: {}",
            jail::fault::quote(line.as_bytes()),
            jail::fault::LOGS_ON_STDERR
        );
        FaultRecord::outside(
            seat,
            turn,
            callback,
            &Fault::new(FaultKind::Protocol, message),
        )
    }
}

/// The end of the match (all zero and no digest until it ends).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// Money + worth of houses, per seat (rule 9).
    pub final_scores: [i32; 3],
    pub money: [i32; 3],
    /// Number of houses owned at the end.
    pub houses: [u32; 3],
    /// Tournament points (rule 26).
    pub points: [u32; 3],
    /// `Game::digest` of the final state, hex.
    pub digest: String,
}

/// The allowance of `callback` among a 2009 match's `budgets`.
pub fn budget_of(budgets: &BudgetsRecord, callback: Callback) -> BudgetRecord {
    if callback == Callback::InitGame {
        budgets.init
    } else {
        budgets.call
    }
}

impl MatchRecord {
    /// Read a record, checking its schema version.
    pub fn load(path: &Path) -> anyhow::Result<MatchRecord> {
        use anyhow::Context;
        /// What is read of a record before the rest: its game and schema (the other
        /// fields are skipped, not held).
        #[derive(Deserialize)]
        struct Head {
            game: Option<String>,
            schema: Option<u64>,
        }
        let text = read_bounded(path)?;
        let head: Head = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        if head.game.as_deref() == Some("amazons") {
            return Err(OtherGame(path.display().to_string()).into());
        }
        match head.schema {
            Some(schema)
                if (u64::from(OLDEST_SCHEMA)..=u64::from(RECORD_SCHEMA)).contains(&schema) => {}
            Some(schema) => anyhow::bail!(
                "{} has record schema {schema}; this referee reads schemas {OLDEST_SCHEMA} to \
                 {RECORD_SCHEMA} (play the match again to record it anew)",
                path.display()
            ),
            None => anyhow::bail!(
                "{} is not a match record: it has no schema number",
                path.display()
            ),
        }
        // Straight into the record's types: a record padded with other values costs no
        // more memory than its own fields.
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a match record", path.display()))
    }

    /// The record as JSON bytes ([`json_lines`]).
    pub fn to_json(&self) -> Vec<u8> {
        json_lines(self)
    }

    /// Faults of a seat, in order.
    pub fn faults_of(&self, seat: u8) -> impl Iterator<Item = &FaultRecord> {
        self.faults.iter().filter(move |f| f.seat == seat)
    }
}

/// The requests of one callback as they are made, kept the way the record keeps them: a
/// champion asking a million questions costs a few counters, not a million lines.
pub struct RequestLog {
    actions: Vec<(String, i32)>,
    info: BTreeMap<String, u64>,
    refused: BTreeMap<String, u64>,
    count: u64,
    hasher: Sha256,
    /// The text of the last request logged (one buffer for all).
    line: String,
}

impl Default for RequestLog {
    fn default() -> RequestLog {
        RequestLog::new()
    }
}

impl RequestLog {
    /// An empty log.
    pub fn new() -> RequestLog {
        RequestLog {
            actions: Vec::new(),
            info: BTreeMap::new(),
            refused: BTreeMap::new(),
            count: 0,
            hasher: Sha256::new(),
            line: String::new(),
        }
    }

    /// The text of the last request logged (`etat`, or a call as the engine prints it):
    /// what a full log keeps ([`crate::full_log`]).
    pub fn last_request(&self) -> &str {
        &self.line
    }

    /// Requests logged so far.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether nothing was logged.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// An `etat` request.
    pub fn etat(&mut self) {
        self.line.clear();
        self.line.push_str("etat");
        bump(&mut self.info, "etat");
        self.finish(0);
    }

    /// An API call and its answer.
    pub fn call(&mut self, call: &Call, answer: i32) {
        self.line.clear();
        let _ = write!(self.line, "{call}");
        let name = call.function.name();
        if !call.function.is_action() {
            bump(&mut self.info, name);
        } else if answer == engine::constants::SUCCES {
            self.actions.push((self.line.clone(), answer));
        } else {
            self.refused
                .entry(format!("{name} {answer}"))
                .and_modify(|n| *n += 1)
                .or_insert(1);
        }
        self.finish(answer);
    }

    fn finish(&mut self, answer: i32) {
        self.count += 1;
        self.hasher.update(self.line.as_bytes());
        self.hasher.update(format!("\t{answer}\n").as_bytes());
    }

    /// Fills the request fields of `record`.
    pub fn into_record(self, record: &mut CallbackRecord) {
        record.requests = self.count;
        record.actions = self.actions;
        record.info = self.info;
        record.refused = self.refused;
        record.digest = hex(&self.hasher.finalize());
    }
}

fn bump(counts: &mut BTreeMap<String, u64>, name: &str) {
    match counts.get_mut(name) {
        Some(n) => *n += 1,
        None => {
            counts.insert(name.to_string(), 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest of a full log, as [`RequestLog`] computes it.
    fn log_digest<'a>(log: impl IntoIterator<Item = (&'a str, i32)>) -> String {
        let mut hasher = Sha256::new();
        for (line, answer) in log {
            hasher.update(format!("{line}\t{answer}\n").as_bytes());
        }
        hex(&hasher.finalize())
    }

    fn blank() -> CallbackRecord {
        CallbackRecord {
            turn: 1,
            phase: 1,
            seat: 0,
            callback: Callback::Jouer,
            requests: 0,
            actions: Vec::new(),
            info: BTreeMap::new(),
            refused: BTreeMap::new(),
            digest: String::new(),
            fault: None,
        }
    }

    #[test]
    fn init_game_has_its_own_allowance_and_every_other_callback_the_call_one() {
        let budgets = BudgetsRecord {
            init: BudgetRecord {
                cpu_us: 10_000_000,
                wall_us: 31_000_000,
            },
            call: BudgetRecord {
                cpu_us: 1_000_000,
                wall_us: 4_000_000,
            },
        };
        assert_eq!(budget_of(&budgets, Callback::InitGame), budgets.init);
        for callback in [
            Callback::Jouer,
            Callback::Enchere,
            Callback::Placement,
            Callback::EndGame,
        ] {
            assert_eq!(budget_of(&budgets, callback), budgets.call, "{callback:?}");
        }
    }

    /// Records of a schema this referee does not read (older than [`OLDEST_SCHEMA`], newer
    /// than [`RECORD_SCHEMA`]) are refused by their schema, before their fields are read.
    #[test]
    fn a_record_of_another_schema_is_refused_by_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        for schema in [OLDEST_SCHEMA - 1, RECORD_SCHEMA + 1] {
            std::fs::write(&path, format!("{{\"schema\": {schema}}}")).unwrap();
            let err = format!("{:#}", MatchRecord::load(&path).unwrap_err());
            assert!(
                err.contains(&format!(
                    "has record schema {schema}; this referee reads schemas {OLDEST_SCHEMA} to {RECORD_SCHEMA}"
                )),
                "{err}"
            );
        }
    }

    #[test]
    fn a_log_keeps_the_actions_in_full_counts_the_rest_and_digests_everything() {
        let mut full: Vec<(String, i32)> = Vec::new();
        let mut log = RequestLog::new();
        assert!(log.is_empty());
        log.etat();
        full.push((log.last_request().to_string(), 0));
        for (call, answer) in [
            ("mon_tour", 0),
            ("construire_route 1 2", 0),
            ("construire_route 1 2", -9),
        ] {
            log.call(&call.parse().unwrap(), answer);
            full.push((log.last_request().to_string(), answer));
        }
        assert_eq!(log.len(), 4);
        assert!(!log.is_empty());
        let mut record = blank();
        log.into_record(&mut record);
        assert_eq!(record.requests, 4);
        assert_eq!(record.actions, [("construire_route 1 2".to_string(), 0)]);
        assert_eq!(
            record.info,
            BTreeMap::from([("etat".to_string(), 1), ("mon_tour".to_string(), 1)])
        );
        assert_eq!(
            record.refused,
            BTreeMap::from([("construire_route -9".to_string(), 1)])
        );
        // SHA-256 of "etat\t0\nmon_tour\t0\nconstruire_route 1 2\t0\nconstruire_route 1 2\t-9\n"
        // (computed with Python's hashlib).
        let known = "a65c36006a2b347bd6173671116badfe823cd73a6264c25026c18974c8d75311";
        assert_eq!(record.digest, known);
        // Each request's text, as a full log keeps it, gives the same digest.
        assert_eq!(full[0], ("etat".to_string(), 0));
        assert_eq!(full[3], ("construire_route 1 2".to_string(), -9));
        assert_eq!(
            log_digest(full.iter().map(|(l, a)| (l.as_str(), *a))),
            known
        );
        // Logged again: the same counts and digest.
        let mut short = RequestLog::new();
        short.etat();
        short.call(&"mon_tour".parse().unwrap(), 0);
        short.call(&"construire_route 1 2".parse().unwrap(), 0);
        short.call(&"construire_route 1 2".parse().unwrap(), -9);
        let mut compact = blank();
        short.into_record(&mut compact);
        assert_eq!(compact.digest, known);
        assert_eq!(compact, record);
    }

    #[test]
    fn faults_of_gives_one_seat_s_faults_in_order() {
        let fault = |seat, message: &str| FaultRecord {
            seat,
            turn: 1,
            phase: 1,
            callback: Some(Callback::Jouer),
            kind: FaultKind::Protocol,
            message: message.into(),
        };
        let record = MatchRecord {
            schema: RECORD_SCHEMA,
            seed: 0,
            monument_order: (0..14).collect(),
            first_player: 0,
            seats: Vec::new(),
            sandbox: String::new(),
            budgets: None,
            callbacks: vec![blank()],
            faults: vec![fault(1, "a"), fault(0, "b"), fault(1, "c")],
            result: ResultRecord::default(),
            timings: vec![TimingRecord::default()],
            full_log: None,
            full_log_cap: None,
            full_log_cut: None,
        };
        let of =
            |seat| -> Vec<&str> { record.faults_of(seat).map(|f| f.message.as_str()).collect() };
        assert_eq!(of(1), ["a", "c"]);
        assert_eq!(of(0), ["b"]);
        assert!(of(2).is_empty());
        // Lists of objects one per line; lists of numbers on their own line, whole.
        let text = String::from_utf8(record.to_json()).unwrap();
        assert!(
            text.contains("\n  \"monument_order\": [0,1,2,3,4,5,6,7,8,9,10,11,12,13],\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  \"faults\": [\n    {\"seat\":1,"),
            "{text}"
        );
    }
}
