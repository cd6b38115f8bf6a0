//! Aligned text tables for the terminal: a tournament's leaderboard and its points by
//! seat. Names and fault messages come from champions: they are shown
//! [`jail::untrusted::printable`].

use crate::confidence::Confidence;
use crate::standings::Standings;
use jail::fault::FaultKind;
use jail::untrusted::printable;

/// Width of a left-aligned text column: its widest cell, and at least its header.
pub fn width<'a>(header: &str, cells: impl IntoIterator<Item = &'a str>) -> usize {
    cells
        .into_iter()
        .map(str::len)
        .fold(header.len(), usize::max)
}

/// The table, one line per champion, best first: the official points, then how sure they
/// are (`confidence`: points per match with its 95% interval, the probability of being
/// ahead of the next line, the Weng-Lin rating), then the rest.
pub fn leaderboard(standings: &Standings, confidence: &Confidence) -> String {
    let ranked = standings.ranked();
    let names: Vec<String> = ranked
        .iter()
        .map(|(_, n, _)| printable(n).into_owned())
        .collect();
    let width = width("champion", names.iter().map(String::as_str));
    // One column per place, at least three: 1st, 2nd, 3rd, 4th...
    let places = standings.seats.max(3);
    let place_cells = |cell: &dyn Fn(usize) -> String| {
        (0..places)
            .map(|p| format!("{:>5}", cell(p)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let ordinal = |p: usize| match p {
        0 => "1st".to_string(),
        1 => "2nd".to_string(),
        2 => "3rd".to_string(),
        _ => format!("{}th", p + 1),
    };
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6}  {:>7}  {:<20}  {:>8}  {:<12}  {}  {:>4}  {:>8}  {:<20}  {:>9}\n",
        "rank",
        "champion",
        "points",
        "matches",
        "points/match [95%]",
        "P(>next)",
        "rating",
        place_cells(&ordinal),
        "ties",
        "score",
        "faults",
        "cpu/call"
    );
    for ((rank, raw, line), name) in ranked.into_iter().zip(names) {
        let faults: Vec<String> = FaultKind::ALL
            .iter()
            .zip(line.faults)
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let faults = list_or_dash(&faults, ", ");
        let sure = confidence.of(raw);
        let interval = sure.mean_points.map_or_else(
            || "-".to_string(),
            |i| format!("{:.2} [{:.2}, {:.2}]", i.mean, i.low, i.high),
        );
        let ahead = sure
            .ahead_of_next
            .map_or_else(|| "-".to_string(), |p| format!("{p:.2}"));
        let rating = format!("{:.1} ± {:.1}", sure.rating.mu, sure.rating.sigma);
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>7}  {:<20}  {:>8}  {:<12}  {}  {:>4}  {:>8.2}  {:<20}  {:>7.0}us\n",
            rank,
            name,
            line.points,
            line.matches,
            interval,
            ahead,
            rating,
            place_cells(&|p| line.places.get(p).copied().unwrap_or(0).to_string()),
            line.ties,
            line.mean_score(),
            faults,
            line.mean_call_us()
        ));
    }
    out
}

/// Points by seat (seat fairness), one line: each seat's mean points per match with its
/// 95% interval.
pub fn seats(confidence: &Confidence) -> String {
    let seats: Vec<String> = confidence
        .seats
        .iter()
        .enumerate()
        .filter_map(|(s, i)| {
            i.map(|i| format!("seat {s} {:.2} [{:.2}, {:.2}]", i.mean, i.low, i.high))
        })
        .collect();
    format!("points by seat: {}\n", list_or_dash(&seats, ", "))
}

/// `items` joined by `separator`, or `-` when there are none.
pub fn list_or_dash(items: &[String], separator: &str) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(separator)
    }
}
