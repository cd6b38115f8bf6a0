//! What the index reads: the tournament's CSV files (columns found by their header names,
//! as `docs/results.md` describes them, for any number of seats), each match of
//! `matches.csv` with its directory found among the tournament's own and its shards', and
//! paths made into relative, percent-encoded links.

use anyhow::Context;
use std::path::{Component, Path, PathBuf};

/// A CSV file: its header and rows.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The file at `path`, `None` when it does not exist.
    pub fn read(path: &Path) -> anyhow::Result<Option<Table>> {
        if !path.exists() {
            return Ok(None);
        }
        // Never through a link, never waiting on a FIFO, never more than a bound.
        let bytes = crate::store::read_bytes(path, crate::run_bounds::TABLE)?;
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(bytes.as_slice());
        let header = reader
            .headers()
            .with_context(|| format!("{} has no header row", path.display()))?
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader
            .records()
            .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
            .collect::<Result<_, _>>()
            .with_context(|| format!("{} is not valid CSV", path.display()))?;
        Ok(Some(Table { header, rows }))
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The cell of `row` in column `name` (empty when either is missing).
    pub fn cell<'a>(&self, row: &'a [String], name: &str) -> &'a str {
        self.column(name)
            .and_then(|c| row.get(c))
            .map_or("", String::as_str)
    }
}

/// One seat of a match, as `matches.csv` gives it.
pub struct SeatCells {
    pub champion: String,
    pub score: String,
    pub points: String,
    pub fault: String,
}

/// One match of `matches.csv`.
pub struct Match {
    pub id: u64,
    pub seed: String,
    pub seats: Vec<SeatCells>,
    pub duration_ms: String,
    pub reproduce: String,
    /// Its directory (`record.json` is there), when found.
    pub dir: Option<PathBuf>,
}

impl Match {
    /// Whether a seat of it faulted.
    pub fn has_fault(&self) -> bool {
        self.seats.iter().any(|s| !s.fault.is_empty())
    }

    /// Which seats won: those at the first place, unless every seat is (a draw: none).
    pub fn winners(&self) -> Vec<bool> {
        let firsts: Vec<bool> = (0..self.seats.len())
            .map(|s| self.place(s) == Some(1))
            .collect();
        if firsts.iter().all(|&f| f) {
            vec![false; firsts.len()]
        } else {
            firsts
        }
    }

    /// The place of `seat`: 1 + the seats with a strictly higher score (as the leaderboard
    /// counts firsts and seconds), `None` when a score is not a number.
    pub fn place(&self, seat: usize) -> Option<usize> {
        let score = |s: &SeatCells| s.score.parse::<i64>().ok();
        let mine = score(self.seats.get(seat)?)?;
        let scores: Option<Vec<i64>> = self.seats.iter().map(score).collect();
        Some(1 + scores?.iter().filter(|&&s| s > mine).count())
    }
}

/// The matches of `table` (a `matches.csv`) in its order, each with its directory: the
/// first of `roots` holding `matches/<id>/record.json`. Rows without a numeric `id` are
/// left out (they are not the referee's).
pub fn matches(table: &Table, roots: &[PathBuf]) -> Vec<Match> {
    let seats = (0..)
        .take_while(|s| table.column(&format!("champion{s}")).is_some())
        .count();
    table
        .rows
        .iter()
        .filter_map(|row| {
            let id: u64 = table.cell(row, "id").parse().ok()?;
            let seat = |s: usize| SeatCells {
                champion: table.cell(row, &format!("champion{s}")).to_string(),
                score: table.cell(row, &format!("score{s}")).to_string(),
                points: table.cell(row, &format!("points{s}")).to_string(),
                fault: table.cell(row, &format!("fault{s}")).to_string(),
            };
            let dir = roots
                .iter()
                .map(|root| root.join("matches").join(id.to_string()))
                .find(|dir| dir.join("record.json").is_file());
            Some(Match {
                id,
                seed: table.cell(row, "seed").to_string(),
                seats: (0..seats).map(seat).collect(),
                duration_ms: table.cell(row, "duration_ms").to_string(),
                reproduce: table.cell(row, "reproduce").to_string(),
                dir,
            })
        })
        .collect()
}

/// The link from the directory `from` to `to` (both absolute and canonical): `..` up to
/// their common ancestor, then down, each part percent-encoded, `/` between them.
pub fn link(from: &Path, to: &Path) -> String {
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (from, to) = (parts(from), parts(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".to_string(); from.len() - common];
    out.extend(to[common..].iter().map(|p| encode(p)));
    out.join("/")
}

/// `part` of a path as a URL path segment: unreserved bytes kept, every other byte `%XX`.
pub fn encode(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    for b in part.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `path` made absolute and canonical (as far as it exists).
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_go_up_to_the_common_ancestor_and_encode_each_part() {
        let l = |a: &str, b: &str| link(Path::new(a), Path::new(b));
        assert_eq!(l("/r/t", "/r/t/matches/5"), "matches/5");
        assert_eq!(l("/r/t/matches/5", "/r/t"), "../..");
        assert_eq!(l("/r/t/matches/5", "/r/t/matches/6"), "../6");
        assert_eq!(
            l("/r/t", "/r/s hard#1/matches/0"),
            "../s%20hard%231/matches/0"
        );
        assert_eq!(encode("a<b>\"é"), "a%3Cb%3E%22%C3%A9");
    }

    #[test]
    fn a_place_counts_the_seats_strictly_ahead() {
        let seat = |score: &str| SeatCells {
            champion: String::new(),
            score: score.into(),
            points: String::new(),
            fault: String::new(),
        };
        let m = Match {
            id: 0,
            seed: String::new(),
            seats: vec![seat("5"), seat("9"), seat("5")],
            duration_ms: String::new(),
            reproduce: String::new(),
            dir: None,
        };
        assert_eq!(
            [m.place(0), m.place(1), m.place(2), m.place(3)],
            [Some(2), Some(1), Some(2), None]
        );
        assert!(!m.has_fault());
        assert_eq!(m.winners(), [false, true, false]);
        let draw = Match {
            seats: vec![seat("5"), seat("5")],
            ..m
        };
        assert_eq!(draw.winners(), [false, false]);
    }
}
