//! `leaderboard.csv`: one row per champion, best first (docs/results.md). A row is `Row`,
//! whose fields are the columns in order (serde names them).

use super::{csv_header, csv_record};
use crate::confidence::Confidence;
use crate::standings::Standings;
use serde::Serialize;

/// One line of the file.
#[derive(Debug, Default, Serialize)]
struct Row<'a> {
    rank: usize,
    champion: &'a str,
    points: u64,
    matches: u64,
    firsts: u64,
    seconds: u64,
    thirds: u64,
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

/// Three decimals, or empty.
fn decimals(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v:.3}"))
}

/// The whole file, with `confidence` computed from the same standings.
pub fn render(standings: &Standings, confidence: &Confidence) -> Vec<u8> {
    let mut out = csv_header::<Row>();
    for (rank, champion, line) in standings.ranked() {
        let [firsts, seconds, thirds] = line.places;
        let [faults_timeout, faults_crash, faults_memory, faults_protocol, faults_spawn] =
            line.faults;
        let sure = confidence.of(champion);
        let interval = sure.mean_points;
        out.extend(csv_record(&Row {
            rank,
            champion,
            points: line.points,
            matches: line.matches,
            firsts,
            seconds,
            thirds,
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
        let header = String::from_utf8(csv_header::<Row>()).unwrap();
        let faults: Vec<&str> = header
            .trim_end()
            .split(',')
            .filter_map(|c| c.strip_prefix("faults_"))
            .collect();
        assert_eq!(faults, FaultKind::ALL.map(FaultKind::name));
        assert!(header.starts_with("rank,champion,points,matches,firsts,seconds,thirds,ties,"));
        assert!(header.ends_with(",mean_call_cpu_us,max_call_cpu_us\n"));
    }
}
