//! The console of a replay page whose steps are its actions (the Amazons', Ticket to
//! Ride's, Little Town's): the console every game on the model has ([`Console::of_game`]:
//! each callback's stderr by the byte ranges of the record's `timings`, read from the
//! `seat<N>.stderr` files beside it, its CPU and wall time against its budget) laid along
//! the page's steps, drawn by the same `assets/console.js` as the 2009 page, with the chart
//! of every callback's CPU.
//!
//! Step `n` of the page is the board after move `n`: `init_game` shows on step 0, the
//! `jouer` that played move `n` on step `n` (one that faulted before moving, on the board
//! it faced), `end_game` on the last step.

use crate::console::Console;
use crate::console_page::ConsoleView;
use arena::GameRecord;
use std::path::Path;

/// The console of `record`, its stderr read from the files in `dir` (the record's
/// directory; `None`: not available, only the times are shown), each seat marked by
/// `marks` (the Amazons' `White`, `Black`; the others' colours). The record is checked.
pub fn view(record: &GameRecord, dir: Option<&Path>, marks: &[&str]) -> ConsoleView {
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
    let marks = marks.iter().map(|m| m.to_string()).collect();
    ConsoleView::new(&console, names, marks, &steps, ranges)
}
