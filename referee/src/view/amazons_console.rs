//! The Amazons replay page's console: the page-side [`ConsoleView`] of `console_page.rs`
//! built from an Amazons match's record and the `seat<N>.stderr` files beside it, so that the
//! page draws it with the same `assets/console.js` as the 2009 page: per step, each
//! callback's stderr (the byte ranges of the record's `timings`), its CPU and wall time
//! against its budget, and the chart of every callback's CPU.
//!
//! Step `n` of the page is the board after move `n`: `init_game` shows on step 0, the
//! `jouer` that played move `n` on step `n` (one that faulted before moving, on the board
//! it faced), `end_game` on the last step.

use super::console::Console;
use super::console_page::ConsoleView;
use crate::arena::GameRecord;
use std::path::Path;

/// The console of `record`, its stderr read from the files in `dir` (the record's
/// directory; `None`: not available, only the times are shown). The record is checked.
pub fn view(record: &GameRecord, dir: Option<&Path>) -> ConsoleView {
    let console = Console::of_game(record, dir, |_| (0, 0));
    let steps = record.callback_steps();
    let last = record.actions().count();
    let ranges = (0..=last)
        .map(|n| {
            let first = steps.partition_point(|&s| s < n);
            [first, first + steps[first..].partition_point(|&s| s == n)]
        })
        .collect();
    let names = record.seats.iter().map(|s| s.name.clone()).collect();
    let marks = ["White", "Black"].map(String::from).to_vec();
    ConsoleView::new(&console, names, marks, &steps, ranges)
}
