//! Aligned text tables for the terminal: a tournament's leaderboard and a match's final
//! table. Names and fault messages come from champions: they are shown
//! [`crate::untrusted::printable`].

use crate::fault::FaultKind;
use crate::record::MatchRecord;
use crate::standings::Standings;
use crate::untrusted::printable;

/// Width of a left-aligned text column: its widest cell, and at least its header.
pub fn width<'a>(header: &str, cells: impl IntoIterator<Item = &'a str>) -> usize {
    cells
        .into_iter()
        .map(str::len)
        .fold(header.len(), usize::max)
}

/// The table, one line per champion, best first.
pub fn leaderboard(standings: &Standings) -> String {
    let ranked = standings.ranked();
    let names: Vec<String> = ranked
        .iter()
        .map(|(_, n, _)| printable(n).into_owned())
        .collect();
    let width = width("champion", names.iter().map(String::as_str));
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
    for ((rank, _, line), name) in ranked.into_iter().zip(names) {
        let faults: Vec<String> = FaultKind::ALL
            .iter()
            .zip(line.faults)
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let faults = list_or_dash(&faults, ", ");
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

/// The final table of a match: one row per seat.
pub fn match_result(record: &MatchRecord) -> String {
    let result = &record.result;
    let names: Vec<String> = record
        .seats
        .iter()
        .map(|s| printable(&s.name).into_owned())
        .collect();
    let width = width("champion", names.iter().map(String::as_str));
    let mut out = format!(
        "{:<4}  {:<width$}  {:>5}  {:>5}  {:>6}  {:>6}  faults\n",
        "seat", "champion", "score", "money", "houses", "points"
    );
    for (seat, name) in record.seats.iter().zip(&names) {
        let s = usize::from(seat.seat);
        let faults: Vec<String> = record
            .faults_of(seat.seat)
            .map(|f| format!("{}: {}", f.kind.name(), printable(&f.message)))
            .collect();
        out.push_str(&format!(
            "{:<4}  {:<width$}  {:>5}  {:>5}  {:>6}  {:>6}  {}\n",
            s,
            name,
            result.final_scores[s],
            result.money[s],
            result.houses[s],
            result.points[s],
            list_or_dash(&faults, "; ")
        ));
    }
    out
}

/// `items` joined by `separator`, or `-` when there are none.
fn list_or_dash(items: &[String], separator: &str) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(separator)
    }
}
