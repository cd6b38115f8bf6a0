//! The final table of a 2009 match (what `referee match` prints), one row per seat, from
//! either record. Names and fault messages come from champions: they are shown
//! [`jail::untrusted::printable`].

use crate::export::table::{list_or_dash, width};
use crate::record::MatchRecord;
use jail::untrusted::printable;

/// The final table of a match: one row per seat.
pub fn match_result(record: &MatchRecord) -> String {
    let result = &record.result;
    // Each fault's message in today's words (`view::fault_words`), as today's table says it.
    let faults: Vec<Vec<(&str, String)>> = record
        .seats
        .iter()
        .map(|s| {
            record
                .faults_of(s.seat)
                .map(|f| {
                    let words = crate::view::fault_words::in_words(&f.message);
                    (f.kind.name(), words.into_owned())
                })
                .collect()
        })
        .collect();
    let faults: Vec<Vec<(&str, &str)>> = faults
        .iter()
        .map(|f| f.iter().map(|(k, m)| (*k, m.as_str())).collect())
        .collect();
    let rows: Vec<SeatResult> = record
        .seats
        .iter()
        .zip(&faults)
        .map(|(seat, faults)| {
            let s = usize::from(seat.seat);
            SeatResult {
                seat: s,
                name: &seat.name,
                score: result.final_scores[s],
                money: result.money[s],
                houses: result.houses[s],
                points: result.points[s],
                faults,
            }
        })
        .collect();
    seat_table(&rows)
}

/// A seat of a 2009 match's final table.
pub struct SeatResult<'a> {
    pub seat: usize,
    /// Its champion's name (shown [`printable`]).
    pub name: &'a str,
    /// Final score (money plus houses' worth), money, houses, tournament points.
    pub score: i32,
    pub money: i32,
    pub houses: u32,
    pub points: u32,
    /// Its faults, in order: kind and message (shown [`printable`]).
    pub faults: &'a [(&'a str, &'a str)],
}

/// The final table of a 2009 match, one row per seat (what `referee match` prints), from
/// either record.
pub fn seat_table(rows: &[SeatResult]) -> String {
    let names: Vec<String> = rows
        .iter()
        .map(|r| printable(r.name).into_owned())
        .collect();
    let width = width("champion", names.iter().map(String::as_str));
    // The rule book's words (docs/rules.md): the final score is money plus houses' worth.
    let mut out = format!(
        "{:<4}  {:<width$}  {:>11}  {:>5}  {:>12}  {:>6}  faults\n",
        "seat", "champion", "final score", "money", "houses built", "points"
    );
    for (row, name) in rows.iter().zip(&names) {
        let faults: Vec<String> = row
            .faults
            .iter()
            .map(|(kind, message)| format!("{kind}: {}", printable(message)))
            .collect();
        out.push_str(&format!(
            "{:<4}  {:<width$}  {:>11}  {:>5}  {:>12}  {:>6}  {}\n",
            row.seat,
            name,
            row.score,
            row.money,
            row.houses,
            row.points,
            list_or_dash(&faults, "; ")
        ));
    }
    out
}
