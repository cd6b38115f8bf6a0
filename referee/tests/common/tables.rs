//! The result files of a run read back for assertions: CSV tables as rows of
//! `column -> value` (with or without the columns that measure time), and the count of
//! matches played in a results directory.

use std::collections::BTreeMap;
use std::path::Path;

/// A row of a CSV file: `column -> value`.
pub type Row = BTreeMap<String, String>;

/// Every row of the CSV file at `path`, every column.
pub fn table(path: &Path) -> Vec<Row> {
    read(path, |_| true)
}

/// Every row of the CSV file at `path`, without the columns that measure time (they
/// differ between two runs of the same tournament).
pub fn untimed(path: &Path) -> Vec<Row> {
    use referee::export::{leaderboard_csv, matches_csv};
    read(path, |h| {
        !matches_csv::is_timing(h) && !leaderboard_csv::TIMING_COLUMNS.contains(&h)
    })
}

/// `matches.csv`, `leaderboard.csv` and `pairwise.csv` of a results directory, untimed:
/// what two runs of one tournament must agree on.
pub fn untimed_tables(dir: &Path) -> Vec<Vec<Row>> {
    ["matches.csv", "leaderboard.csv", "pairwise.csv"]
        .map(|f| untimed(&dir.join(f)))
        .to_vec()
}

/// How many matches `dir/matches.csv` holds (0 when there is none yet).
pub fn played(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("matches.csv"))
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

fn read(path: &Path, keep: impl Fn(&str) -> bool) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .zip(r.unwrap().iter())
                .filter(|(h, _)| keep(h))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
