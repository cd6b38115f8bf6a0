//! `leaderboard.csv`: one row per champion, best first (docs/results.md). A row is a `Head`,
//! then one column per place (`firsts`, `seconds`, `thirds`, and `fourths` up to the k-th
//! in a game of k > 3 seats: at least three, so that the files of two- and three-seat
//! games keep their columns), then a `Tail`: serde names the columns.

use super::{column_names, csv_line, fields_of};
use crate::confidence::Confidence;
use crate::standings::Standings;
use serde::Serialize;

/// The first columns.
#[derive(Debug, Default, Serialize)]
struct Head<'a> {
    rank: usize,
    champion: &'a str,
    points: u64,
    matches: u64,
}

/// The columns after the places.
#[derive(Debug, Default, Serialize)]
struct Tail {
    ties: u64,
    /// Three decimals.
    mean_score: String,
    /// Points per match and its 95% bootstrap interval (`confidence.rs`); three decimals,
    /// empty before the first match.
    mean_points: String,
    mean_points_low: String,
    mean_points_high: String,
    /// The bootstrap share of resamples in which this champion has more mean points than
    /// the next one (empty on the last row).
    p_ahead_of_next: String,
    /// Weng-Lin rating (mu) and its uncertainty (sigma), three decimals.
    rating: String,
    rating_sigma: String,
    // Matches stopped by each kind of fault, in `FaultKind::ALL` order.
    faults_timeout: u64,
    faults_crash: u64,
    faults_memory: u64,
    faults_protocol: u64,
    faults_spawn: u64,
    /// One decimal.
    mean_call_cpu_us: String,
    max_call_cpu_us: u64,
}

/// Columns that measure time.
pub const TIMING_COLUMNS: [&str; 2] = ["mean_call_cpu_us", "max_call_cpu_us"];

/// The names of the place columns, first to eighth.
const PLACES: [&str; 8] = [
    "firsts", "seconds", "thirds", "fourths", "fifths", "sixths", "sevenths", "eighths",
];

/// Place columns of a game of `seats` seats: one per seat, and at least three.
fn place_count(seats: usize) -> usize {
    seats.max(3)
}

/// The name of the column of place `p` (0 for the first).
fn place_column(p: usize) -> String {
    PLACES
        .get(p)
        .map_or_else(|| format!("place{}s", p + 1), |name| name.to_string())
}

/// The column names of a game of `seats` seats, in order.
pub fn columns(seats: usize) -> Vec<String> {
    let mut names = column_names::<Head>();
    names.extend((0..place_count(seats)).map(place_column));
    names.extend(column_names::<Tail>());
    names
}

/// Three decimals, or empty.
fn decimals(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.3}"))
}

/// The whole file, with `confidence` computed from the same standings.
pub fn render(standings: &Standings, confidence: &Confidence) -> Vec<u8> {
    let places = place_count(standings.seats);
    let mut out = csv_line(columns(standings.seats));
    for (rank, champion, line) in standings.ranked() {
        let [faults_timeout, faults_crash, faults_memory, faults_protocol, faults_spawn] =
            line.faults;
        let sure = confidence.of(champion);
        let interval = sure.mean_points;
        let mut fields = fields_of(&Head {
            rank,
            champion,
            points: line.points,
            matches: line.matches,
        });
        fields.extend((0..places).map(|p| line.places.get(p).copied().unwrap_or(0).to_string()));
        fields.extend(fields_of(&Tail {
            ties: line.ties,
            mean_score: format!("{:.3}", line.mean_score()),
            mean_points: decimals(interval.map(|i| i.mean)),
            mean_points_low: decimals(interval.map(|i| i.low)),
            mean_points_high: decimals(interval.map(|i| i.high)),
            p_ahead_of_next: decimals(sure.ahead_of_next),
            rating: format!("{:.3}", sure.rating.mu),
            rating_sigma: format!("{:.3}", sure.rating.sigma),
            faults_timeout,
            faults_crash,
            faults_memory,
            faults_protocol,
            faults_spawn,
            mean_call_cpu_us: format!("{:.1}", line.mean_call_us()),
            max_call_cpu_us: line.max_cpu_us,
        }));
        out.extend(csv_line(fields));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jail::fault::FaultKind;

    /// The fault columns follow `FaultKind::ALL`, the order of `Line::faults`.
    #[test]
    fn fault_columns_follow_the_kinds() {
        let header = String::from_utf8(csv_line(columns(3))).unwrap();
        let faults: Vec<&str> = header
            .trim_end()
            .split(',')
            .filter_map(|c| c.strip_prefix("faults_"))
            .collect();
        assert_eq!(faults, FaultKind::ALL.map(FaultKind::name));
        assert!(header.starts_with("rank,champion,points,matches,firsts,seconds,thirds,ties,"));
        assert!(header.ends_with(",mean_call_cpu_us,max_call_cpu_us\n"));
    }

    /// One place column per seat, never fewer than three, named in words to the eighth.
    #[test]
    fn place_columns_follow_the_seats() {
        let places = |seats| {
            columns(seats)
                .into_iter()
                .skip_while(|c| c != "firsts")
                .take_while(|c| c != "ties")
                .collect::<Vec<_>>()
                .join(",")
        };
        assert_eq!(places(2), "firsts,seconds,thirds");
        assert_eq!(places(3), "firsts,seconds,thirds");
        assert_eq!(places(5), "firsts,seconds,thirds,fourths,fifths");
        assert_eq!(places(8).split(',').next_back(), Some("eighths"));
        assert_eq!(place_column(8), "place9s");
    }
}
