//! `seats.csv`: points by seat (docs/results.md, "Seat fairness"), one row per seat, with
//! the 95% bootstrap interval of `confidence.rs`. A row is `Row`, whose fields are the
//! columns in order.

use super::{csv_header, csv_record};
use crate::confidence::Confidence;
use serde::Serialize;

/// One line of the file.
#[derive(Debug, Default, Serialize)]
struct Row {
    /// 0, 1, ..., k - 1: the seat in `matches.csv`'s columns.
    seat: usize,
    matches: u64,
    /// Three decimals.
    mean_points: String,
    mean_points_low: String,
    mean_points_high: String,
}

/// The whole file, for `matches` matches.
pub fn render(confidence: &Confidence, matches: u64) -> Vec<u8> {
    let mut out = csv_header::<Row>();
    for (seat, interval) in confidence.seats.iter().enumerate() {
        let Some(i) = interval else { continue };
        out.extend(csv_record(&Row {
            seat,
            matches,
            mean_points: format!("{:.3}", i.mean),
            mean_points_low: format!("{:.3}", i.low),
            mean_points_high: format!("{:.3}", i.high),
        }));
    }
    out
}
