//! The Amazons replay page's console: the page-side [`ConsoleView`] of `console_page.rs`
//! built from an Amazons match's record (or any record of the arena whose page steps are
//! its actions: Little Town's too) and the `seat<N>.stderr` files beside it, so that the
//! page draws it with the same `assets/console.js` as the 2009 page: per step, each
//! callback's stderr (the byte ranges of the record's `timings`), its CPU and wall time
//! against its budget, and the chart of every callback's CPU.
//!
//! Step `n` of the page is the board after move `n`: `init_game` shows on step 0, the
//! `jouer` that played move `n` on step `n` (one that faulted before moving, on the board
//! it faced), `end_game` on the last step.

use super::console::SeatFile;
use super::console_page::{text, CallView, ConsoleView};
use crate::arena::GameRecord;
use std::path::Path;

/// The console of `record`, its stderr read from the files in `dir` (the record's
/// directory; `None`: not available, only the times are shown). The record is checked.
pub fn view(record: &GameRecord, dir: Option<&Path>) -> ConsoleView {
    let files: Vec<SeatFile> = record
        .seats
        .iter()
        .map(|s| SeatFile::read(dir, s.seat))
        .collect();
    let steps = callback_steps(record);
    let budgets = record.budgets;
    let file = |seat: u8| files.get(usize::from(seat));
    let calls: Vec<CallView> = record
        .callbacks
        .iter()
        .zip(&steps)
        .enumerate()
        .map(|(i, (callback, &step))| {
            let timing = record.timings.get(i).copied().unwrap_or_default();
            // Schema-1 records made again without budgets have zero ones: none shown.
            let budget = Some(match callback.callback.as_str() {
                "init_game" => budgets.init,
                _ => budgets.call,
            })
            .filter(|b| b.cpu_us > 0);
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
    let last = record.actions().count();
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
        marks: ["White", "Black"].map(String::from).to_vec(),
        calls,
        steps: ranges,
        after,
    }
}

/// The page's step of each callback of `record`, in order (never decreasing): the moves
/// played by its end (`init_game` 0; a `jouer` its move's, one that faulted before moving
/// the board it faced; `end_game` the last).
fn callback_steps(record: &GameRecord) -> Vec<usize> {
    record.callback_steps()
}
