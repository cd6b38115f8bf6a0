//! The champions' console of the 2009 game: the console every game shares
//! ([`replay_view::console`]) read from the 2009 game's own record (its callbacks, turns and
//! phases, budgets and byte ranges) and laid along its [`Timeline`] (a callback step shows
//! its own callback; the end of a phase the callbacks since the previous end), for the
//! terminal (`console_text.rs`) and the replay page.

use super::console_page::ConsoleView;
use super::timeline::{StepKind, Timeline};
use crate::record::{MatchRecord, TimingRecord};
pub use replay_view::console::*;
use std::ops::Range;

impl Callbacks for MatchRecord {
    fn seat_numbers(&self) -> Vec<u8> {
        self.seats.iter().map(|s| s.seat).collect()
    }

    fn calls(&self) -> Vec<Call> {
        self.callbacks
            .iter()
            .zip(
                self.timings
                    .iter()
                    .copied()
                    .chain(std::iter::repeat(TimingRecord::default())),
            )
            .map(|(c, t)| Call {
                seat: c.seat,
                callback: c.callback.to_string(),
                turn: c.turn,
                phase: c.phase,
                cpu_us: t.cpu_us,
                wall_us: t.wall_us,
                budget: self
                    .budgets
                    .map(|b| crate::record::budget_of(&b, c.callback)),
                range: t.stderr,
            })
            .collect()
    }

    fn unrecorded(&self) -> &'static str {
        match self.schema {
            3 => "stderr by callback was not recorded (a record of schema 3)",
            _ => "stderr by callback was not recorded",
        }
    }
}

/// The callbacks (indices in the record) that step `index` of `timeline` shows: a
/// callback step its own; the end of a phase the callbacks since the previous end.
pub fn calls_of_step(timeline: &Timeline, index: usize) -> Range<usize> {
    let mut first = 0;
    let mut next = 0;
    for (i, step) in timeline.steps.iter().enumerate().take(index + 1) {
        match step.kind {
            StepKind::Callback if i == index => return next..next + 1,
            StepKind::Callback => next += 1,
            StepKind::StageEnd if i == index => return first..next,
            StepKind::StageEnd => first = next,
        }
    }
    next..next
}

/// The page's view of `console`, along the steps of `timeline`.
pub fn page_view(console: &Console, timeline: &Timeline) -> ConsoleView {
    let steps: Vec<[usize; 2]> = (0..timeline.steps.len())
        .map(|i| {
            let r = calls_of_step(timeline, i);
            [r.start, r.end]
        })
        .collect();
    let call_steps: Vec<usize> = timeline
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == StepKind::Callback)
        .map(|(i, _)| i)
        .collect();
    let names = timeline.seats.iter().map(|s| s.name.clone()).collect();
    let marks = ["A", "B", "C"].map(String::from).to_vec();
    ConsoleView::new(console, names, marks, &call_steps, steps)
}
