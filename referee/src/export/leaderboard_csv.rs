//! `leaderboard.csv`: one row per champion, best first (docs/results.md). A row is `Row`,
//! whose fields are the columns in order (serde names them).

use super::{csv_header, csv_record};
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

/// The whole file.
pub fn render(standings: &Standings) -> Vec<u8> {
    let mut out = csv_header::<Row>();
    for (rank, champion, line) in standings.ranked() {
        let [firsts, seconds, thirds] = line.places;
        let [faults_timeout, faults_crash, faults_memory, faults_protocol, faults_spawn] =
            line.faults;
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
    use crate::fault::FaultKind;

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
