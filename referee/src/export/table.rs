//! The leaderboard as an aligned text table for the terminal.

use crate::fault::FaultKind;
use crate::standings::Standings;

/// The table, one line per champion, best first.
pub fn leaderboard(standings: &Standings) -> String {
    let ranked = standings.ranked();
    let width = ranked
        .iter()
        .map(|(_, n, _)| n.len())
        .max()
        .unwrap_or(0)
        .max("champion".len());
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6}  {:>7}  {:>5} {:>5} {:>5}  {:>4}  {:>8}  {:<20}  {:>9}\n",
        "rank",
        "champion",
        "points",
        "matches",
        "1st",
        "2nd",
        "3rd",
        "ties",
        "score",
        "faults",
        "cpu/call"
    );
    for (rank, name, line) in ranked {
        let faults: Vec<String> = FaultKind::ALL
            .iter()
            .zip(line.faults)
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let faults = if faults.is_empty() {
            "-".to_string()
        } else {
            faults.join(", ")
        };
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>7}  {:>5} {:>5} {:>5}  {:>4}  {:>8.2}  {:<20}  {:>7.0}us\n",
            rank,
            name,
            line.points,
            line.matches,
            line.places[0],
            line.places[1],
            line.places[2],
            line.ties,
            line.mean_score(),
            faults,
            line.mean_call_us()
        ));
    }
    out
}
