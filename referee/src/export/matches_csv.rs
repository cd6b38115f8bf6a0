//! `matches.csv`: one row per match (docs/results.md). Rows are written one at a time so
//! the file can be appended and flushed match by match, and read back for resume and merge.
//! A row is `Line`, whose fields are the columns in order (serde names them).

use super::{csv_header, csv_record, parse_record};
use crate::fault::FaultKind;
use crate::standings::MatchRow;
use serde::{Deserialize, Serialize};

/// One line of the file: the columns, in order, as serde names them.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct Line {
    id: u64,
    seed: u64,
    first_player: u8,
    champion0: String,
    champion1: String,
    champion2: String,
    score0: i32,
    score1: i32,
    score2: i32,
    points0: u32,
    points1: u32,
    points2: u32,
    /// A fault's name ([`FaultKind::name`]), or empty.
    fault0: String,
    fault1: String,
    fault2: String,
    calls0: u64,
    calls1: u64,
    calls2: u64,
    cpu_us0: u64,
    cpu_us1: u64,
    cpu_us2: u64,
    max_cpu_us0: u64,
    max_cpu_us1: u64,
    max_cpu_us2: u64,
    duration_ms: u64,
    digest: String,
    reproduce: String,
    schema: u32,
}

/// Columns that measure time and so differ between two runs of the same matches.
pub const TIMING_COLUMNS: [&str; 7] = [
    "cpu_us0",
    "cpu_us1",
    "cpu_us2",
    "max_cpu_us0",
    "max_cpu_us1",
    "max_cpu_us2",
    "duration_ms",
];

/// The header line.
pub fn header() -> Vec<u8> {
    csv_header::<Line>()
}

/// One row (with its `\n`). `first_player` is the seat that opened turn 1.
pub fn row(row: &MatchRow, first_player: u8) -> Vec<u8> {
    let [champion0, champion1, champion2] = row.champions.clone();
    let [score0, score1, score2] = row.scores;
    let [points0, points1, points2] = row.points;
    let [fault0, fault1, fault2] = row
        .faults
        .map(|f| f.map(FaultKind::name).unwrap_or("").to_string());
    let [calls0, calls1, calls2] = row.calls;
    let [cpu_us0, cpu_us1, cpu_us2] = row.cpu_us;
    let [max_cpu_us0, max_cpu_us1, max_cpu_us2] = row.max_cpu_us;
    csv_record(&Line {
        id: row.id,
        seed: row.seed,
        first_player,
        champion0,
        champion1,
        champion2,
        score0,
        score1,
        score2,
        points0,
        points1,
        points2,
        fault0,
        fault1,
        fault2,
        calls0,
        calls1,
        calls2,
        cpu_us0,
        cpu_us1,
        cpu_us2,
        max_cpu_us0,
        max_cpu_us1,
        max_cpu_us2,
        duration_ms: row.duration_ms,
        digest: row.digest.clone(),
        reproduce: row.reproduce.clone(),
        schema: super::RESULTS_SCHEMA,
    })
}

/// A parsed row and its `first_player`.
pub type ParsedRow = (MatchRow, u8);

/// Parse one line (without or with its `\n`), or say what is wrong with it.
pub fn parse_line(line: &[u8]) -> Result<ParsedRow, String> {
    let l: Line = parse_record(line)?;
    if l.schema != super::RESULTS_SCHEMA {
        return Err(format!(
            "results schema {}; this referee reads schema {}",
            l.schema,
            super::RESULTS_SCHEMA
        ));
    }
    let fault = |k: usize, text: &str| -> Result<Option<FaultKind>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        FaultKind::ALL
            .into_iter()
            .find(|kind| kind.name() == text)
            .map(Some)
            .ok_or_else(|| format!("column fault{k}: unknown fault `{text}`"))
    };
    let faults = [
        fault(0, &l.fault0)?,
        fault(1, &l.fault1)?,
        fault(2, &l.fault2)?,
    ];
    let row = MatchRow {
        id: l.id,
        seed: l.seed,
        champions: [l.champion0, l.champion1, l.champion2],
        scores: [l.score0, l.score1, l.score2],
        points: [l.points0, l.points1, l.points2],
        faults,
        calls: [l.calls0, l.calls1, l.calls2],
        cpu_us: [l.cpu_us0, l.cpu_us1, l.cpu_us2],
        max_cpu_us: [l.max_cpu_us0, l.max_cpu_us1, l.max_cpu_us2],
        duration_ms: l.duration_ms,
        digest: l.digest,
        reproduce: l.reproduce,
    };
    Ok((row, l.first_player))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let row = MatchRow {
            id: 7,
            seed: u64::MAX,
            champions: ["a,b".into(), "c\"d".into(), "e".into()],
            scores: [-1, 2, 3],
            points: [0, 1, 3],
            faults: [Some(FaultKind::Timeout), None, Some(FaultKind::Spawn)],
            calls: [1, 2, 3],
            cpu_us: [4, 5, 6],
            max_cpu_us: [7, 8, 9],
            duration_ms: 10,
            digest: "00ff".into(),
            reproduce: "referee match 'a b' c --seed 1".into(),
        };
        let line = super::row(&row, 2);
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(parse_line(&line).unwrap(), (row.clone(), 2));
        assert_eq!(parse_line(b"1,2,3").unwrap_err(), "3 fields, expected 28");
        // A bad cell is named by its column.
        let text = String::from_utf8(line)
            .unwrap()
            .replace(",-1,2,3,", ",-1,x,3,");
        let err = parse_line(text.as_bytes()).unwrap_err();
        assert!(
            err.starts_with("column score1: `x` is not valid there"),
            "{err}"
        );
        let text = String::from_utf8(super::row(&row, 2))
            .unwrap()
            .replace("timeout", "tired");
        let err = parse_line(text.as_bytes()).unwrap_err();
        assert_eq!(err, "column fault0: unknown fault `tired`");
    }

    /// The columns of docs/results.md, in order: the file's format does not change with
    /// the code that writes it.
    #[test]
    fn header_is_the_documented_one() {
        assert_eq!(
            String::from_utf8(header()).unwrap(),
            "id,seed,first_player,champion0,champion1,champion2,score0,score1,score2,\
             points0,points1,points2,fault0,fault1,fault2,calls0,calls1,calls2,cpu_us0,\
             cpu_us1,cpu_us2,max_cpu_us0,max_cpu_us1,max_cpu_us2,duration_ms,digest,\
             reproduce,schema\n"
        );
        let header = String::from_utf8(header()).unwrap();
        for column in TIMING_COLUMNS {
            assert!(header.split([',', '\n']).any(|c| c == column), "{column}");
        }
    }
}
