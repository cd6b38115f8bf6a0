//! `matches.csv`: one row per match (docs/results.md). Rows are written one at a time so
//! the file can be appended and flushed match by match, and read back for resume and merge.

use super::csv_line;
use crate::fault::FaultKind;
use crate::standings::MatchRow;

/// The columns, in order.
pub const COLUMNS: [&str; 28] = [
    "id",
    "seed",
    "first_player",
    "champion0",
    "champion1",
    "champion2",
    "score0",
    "score1",
    "score2",
    "points0",
    "points1",
    "points2",
    "fault0",
    "fault1",
    "fault2",
    "calls0",
    "calls1",
    "calls2",
    "cpu_us0",
    "cpu_us1",
    "cpu_us2",
    "max_cpu_us0",
    "max_cpu_us1",
    "max_cpu_us2",
    "duration_ms",
    "digest",
    "reproduce",
    "schema",
];

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
    csv_line(COLUMNS)
}

/// One row (with its `\n`). `first_player` is the seat that opened turn 1.
pub fn row(row: &MatchRow, first_player: u8) -> Vec<u8> {
    let mut fields: Vec<String> = vec![
        row.id.to_string(),
        row.seed.to_string(),
        first_player.to_string(),
    ];
    fields.extend(row.champions.iter().cloned());
    fields.extend(row.scores.iter().map(i32::to_string));
    fields.extend(row.points.iter().map(u32::to_string));
    fields.extend(
        row.faults
            .iter()
            .map(|f| f.map(FaultKind::name).unwrap_or("").to_string()),
    );
    for column in [&row.calls, &row.cpu_us, &row.max_cpu_us] {
        fields.extend(column.iter().map(u64::to_string));
    }
    fields.push(row.duration_ms.to_string());
    fields.push(row.digest.clone());
    fields.push(row.reproduce.clone());
    fields.push(super::RESULTS_SCHEMA.to_string());
    csv_line(fields)
}

/// A parsed row and its `first_player`.
pub type ParsedRow = (MatchRow, u8);

/// Parse one line (without or with its `\n`), or say what is wrong with it.
pub fn parse_line(line: &[u8]) -> Result<ParsedRow, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line);
    let record = reader
        .records()
        .next()
        .ok_or("empty line")?
        .map_err(|e| e.to_string())?;
    if record.len() != COLUMNS.len() {
        return Err(format!(
            "{} fields, expected {}",
            record.len(),
            COLUMNS.len()
        ));
    }
    let f = |i: usize| &record[i];
    fn num<T: std::str::FromStr>(text: &str, column: &str) -> Result<T, String> {
        text.parse()
            .map_err(|_| format!("column {column}: `{text}` is not a number"))
    }
    let three = |start: usize| -> [String; 3] { std::array::from_fn(|k| f(start + k).to_string()) };
    let nums = |start: usize| -> Result<[u64; 3], String> {
        let v = three(start);
        Ok([
            num(&v[0], COLUMNS[start])?,
            num(&v[1], COLUMNS[start + 1])?,
            num(&v[2], COLUMNS[start + 2])?,
        ])
    };
    let schema: u32 = num(f(27), "schema")?;
    if schema != super::RESULTS_SCHEMA {
        return Err(format!(
            "results schema {schema}; this referee reads schema {}",
            super::RESULTS_SCHEMA
        ));
    }
    let scores = three(6);
    let points = nums(9)?;
    let mut faults = [None; 3];
    for (k, fault) in faults.iter_mut().enumerate() {
        let text = f(12 + k);
        if !text.is_empty() {
            *fault = Some(
                FaultKind::ALL
                    .into_iter()
                    .find(|kind| kind.name() == text)
                    .ok_or_else(|| format!("column fault{k}: unknown fault `{text}`"))?,
            );
        }
    }
    let row = MatchRow {
        id: num(f(0), "id")?,
        seed: num(f(1), "seed")?,
        champions: three(3),
        scores: [
            num(&scores[0], "score0")?,
            num(&scores[1], "score1")?,
            num(&scores[2], "score2")?,
        ],
        points: points.map(|p| p as u32),
        faults,
        calls: nums(15)?,
        cpu_us: nums(18)?,
        max_cpu_us: nums(21)?,
        duration_ms: num(f(24), "duration_ms")?,
        digest: f(25).to_string(),
        reproduce: f(26).to_string(),
    };
    Ok((row, num(f(2), "first_player")?))
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
        assert_eq!(parse_line(&line).unwrap(), (row, 2));
        assert!(parse_line(b"1,2,3").is_err());
    }
}
