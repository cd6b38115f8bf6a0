//! The Amazons replay page's console: the page-side [`ConsoleView`] of `console_page.rs`
//! built from an [`AmazonsRecord`] and the `seat<N>.stderr` files beside it, so that the
//! page draws it with the same `assets/console.js` as the 2009 page: per step, each
//! callback's stderr (the byte ranges of the record's `timings`), its CPU and wall time
//! against its budget, and the chart of every callback's CPU.
//!
//! Step `n` of the page is the board after move `n`: `init_game` shows on step 0, the
//! `jouer` that played move `n` on step `n` (one that faulted before moving, on the board
//! it faced), `end_game` on the last step.

use super::console::SeatFile;
use super::console_page::{text, CallView, ConsoleView};
use crate::games::amazons::AmazonsRecord;
use std::path::Path;

/// The console of `record`, its stderr read from the files in `dir` (the record's
/// directory; `None`: not available, only the times are shown). The record has passed
/// [`crate::games::amazons::verify`].
pub fn view(record: &AmazonsRecord, dir: Option<&Path>) -> ConsoleView {
    let files: Vec<SeatFile> = record
        .seats
        .iter()
        .map(|s| SeatFile::read(dir, s.seat))
        .collect();
    let steps = callback_steps(record);
    let file = |seat: u8| files.get(usize::from(seat));
    let calls: Vec<CallView> = record
        .callbacks
        .iter()
        .zip(&steps)
        .enumerate()
        .map(|(i, (callback, &step))| {
            let timing = record.timings.get(i).copied().unwrap_or_default();
            let budget = record.budgets.map(|b| match callback.callback.as_str() {
                "init_game" => b.init,
                _ => b.call,
            });
            CallView {
                step,
                seat: callback.seat,
                callback: callback.callback.clone(),
                cpu_us: timing.cpu_us,
                wall_us: timing.wall_us,
                cpu_budget_us: budget.map(|b| b.cpu_us),
                wall_budget_us: budget.map(|b| b.wall_us),
                stderr: timing
                    .stderr
                    .zip(file(callback.seat))
                    .map(|(range, f)| text(&f.slice(range))),
            }
        })
        .collect();
    let last = record.moves.len();
    let ranges = (0..=last)
        .map(|n| {
            let first = steps.partition_point(|&s| s < n);
            [first, first + steps[first..].partition_point(|&s| s == n)]
        })
        .collect();
    let recorded = record.timings.iter().any(|t| t.stderr.is_some());
    let missing: Vec<&str> = files.iter().filter_map(|f| f.error.as_deref()).collect();
    let note = if !recorded && !record.callbacks.is_empty() {
        Some("stderr by callback was not recorded".to_string())
    } else if !missing.is_empty() {
        Some(format!("not shown: {}", missing.join("; ")))
    } else {
        None
    };
    let after = record
        .seats
        .iter()
        .map(|s| {
            let end = record
                .callbacks
                .iter()
                .zip(&record.timings)
                .rev()
                .find(|(c, _)| c.seat == s.seat)
                .and_then(|(_, t)| t.stderr)?[1];
            file(s.seat)?.after(end).map(|o| text(&o))
        })
        .collect();
    ConsoleView {
        note,
        names: record.seats.iter().map(|s| s.name.clone()).collect(),
        calls,
        steps: ranges,
        after,
    }
}

/// The page's step of each callback of `record`, in order (never decreasing).
fn callback_steps(record: &AmazonsRecord) -> Vec<usize> {
    let last = record.moves.len();
    let mut played = 0;
    record
        .callbacks
        .iter()
        .map(|c| match c.callback.as_str() {
            "init_game" => 0,
            "jouer" => {
                // A `jouer` without a fault played one move; one with a fault (the last
                // `jouer` of the match) played one if the record holds it.
                played = (played + 1).min(last);
                played
            }
            _ => last,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::amazons::AmazonsCallback;

    fn record(moves: usize, callbacks: &[(u8, &str)]) -> AmazonsRecord {
        AmazonsRecord {
            schema: 1,
            game: "amazons".into(),
            seed: 0,
            seats: Vec::new(),
            sandbox: String::new(),
            moves: vec!["d1-d7/g7".into(); moves],
            isolated_after: None,
            callbacks: callbacks
                .iter()
                .map(|&(seat, name)| AmazonsCallback {
                    seat,
                    callback: name.into(),
                    requests: 0,
                    fault: None,
                })
                .collect(),
            faults: Vec::new(),
            winner: None,
            timings: Vec::new(),
            budgets: None,
        }
    }

    #[test]
    fn each_callback_shows_on_the_board_it_left() {
        let whole = record(
            2,
            &[
                (0, "init_game"),
                (1, "init_game"),
                (0, "jouer"),
                (1, "jouer"),
                (0, "end_game"),
                (1, "end_game"),
            ],
        );
        assert_eq!(callback_steps(&whole), [0, 0, 1, 2, 2, 2]);
        // White's second jouer faulted before moving: it shows on the board it faced.
        let stopped = record(
            2,
            &[
                (0, "init_game"),
                (1, "init_game"),
                (0, "jouer"),
                (1, "jouer"),
                (0, "jouer"),
                (1, "end_game"),
            ],
        );
        assert_eq!(callback_steps(&stopped), [0, 0, 1, 2, 2, 2]);
    }
}
