//! What every match record has, whatever its game: the seats (who played, their code's
//! hash, their seeds), the callbacks' time allowances and what each callback measured; and
//! how a record is written (one field and one list element per line) and read (bounded).

use serde::{Deserialize, Serialize};
use std::path::Path;

/// A champion in a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: u8,
    pub name: String,
    /// What was run: a path, or `builtin:<name>`.
    pub path: String,
    /// SHA-256 of the executable's content (hex).
    pub sha256: String,
    /// The `PROLOGIN_SEED` it was given.
    pub seed: u64,
}

impl SeatRecord {
    /// `champion` in seat `seat` of the match of seed `match_seed` (its `PROLOGIN_SEED`
    /// derives from both, `seeds::seat_seed`).
    pub fn of(seat: usize, champion: &crate::roster::ChampionSpec, match_seed: u64) -> Self {
        SeatRecord {
            seat: seat as u8,
            name: champion.name.clone(),
            path: champion.path.clone(),
            sha256: champion.sha256.clone(),
            seed: crate::seeds::seat_seed(match_seed, seat as u8),
        }
    }
}

/// What one callback measured: its time, microseconds, and its bytes of stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimingRecord {
    pub cpu_us: u64,
    pub wall_us: u64,
    /// The bytes `[start, end)` of the seat's stderr stream written from the end of its
    /// previous callback to the end of this one ([`crate::endpoint::CallTiming::stderr`]):
    /// offsets in `seat<N>.stderr` while below its cap. Absent in schema 3, and for a seat
    /// without a process (a person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<[u64; 2]>,
}

impl From<crate::endpoint::CallTiming> for TimingRecord {
    fn from(timing: crate::endpoint::CallTiming) -> TimingRecord {
        TimingRecord {
            cpu_us: timing.cpu.as_micros() as u64,
            wall_us: timing.wall.as_micros() as u64,
            stderr: timing.stderr,
        }
    }
}

/// The time allowances of a match's callbacks (protocol.md section 5), as scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetsRecord {
    /// `init_game`'s (start-up included).
    pub init: BudgetRecord,
    /// Every other callback's.
    pub call: BudgetRecord,
}

/// One callback's allowance, microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetRecord {
    pub cpu_us: u64,
    pub wall_us: u64,
}

impl BudgetsRecord {
    /// The allowances `limits` gives.
    pub fn of(limits: &crate::endpoint::TimeLimits) -> BudgetsRecord {
        let budget = |init| {
            let l = limits.allowance(init);
            BudgetRecord {
                cpu_us: l.cpu.as_micros() as u64,
                wall_us: l.wall.as_micros() as u64,
            }
        };
        BudgetsRecord {
            init: budget(true),
            call: budget(false),
        }
    }
}

/// The text of the record file `path`: a regular file (a FIFO is refused, not waited on)
/// of at most [`crate::run_bounds::RECORD`] (a huge file is not a record, and is not read).
pub fn read_bounded(path: &Path) -> anyhow::Result<String> {
    use anyhow::Context;
    crate::store::read_text(path, crate::run_bounds::RECORD)
        .with_context(|| format!("cannot read record {}", path.display()))
}

/// A record as JSON bytes, one field per line and one element of each list per line:
/// compact (a request costs about 30 bytes) yet easy to skim, grep and diff; without raw
/// DEL or C1 characters for a terminal to obey when it is shown with `cat` or `less`.
pub fn json_lines<T: Serialize>(record: &T) -> Vec<u8> {
    let value = serde_json::to_value(record).expect("records serialise");
    let fields = value.as_object().expect("a record is an object");
    let compact = |v: &serde_json::Value| serde_json::to_string(v).expect("JSON values serialise");
    let mut out = String::from("{");
    for (i, (key, value)) in fields.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&format!("  {}: ", compact(&key.as_str().into())));
        match value.as_array() {
            Some(items)
                if !items.is_empty() && items.iter().all(|v| v.is_object() || v.is_array()) =>
            {
                let lines: Vec<String> = items
                    .iter()
                    .map(|v| format!("    {}", compact(v)))
                    .collect();
                out.push_str(&format!("[\n{}\n  ]", lines.join(",\n")));
            }
            _ => out.push_str(&compact(value)),
        }
    }
    out.push_str("\n}\n");
    jail::untrusted::escape_json(&out, false).into_bytes()
}

/// `bytes` as lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
