//! The 2009 game's views of a match from the one record of every game on the model
//! ([`GameRecord`]), the views a user sees today from the 2009 game's own record: the
//! replay page ([`page`]: the board, the auction, the timeline, the consoles, the scores
//! and faults, on the frame every game shares), the table `referee match` prints
//! ([`summary`]), and a step on the terminal with its console ([`show`]). Each is built
//! from the record's history applied again through the rules (`loi_history.rs`),
//! then drawn by the same code as from the old record.

use super::console::Console;
use super::console_page::ConsoleView;
use super::timeline::{StepKind, Timeline};
use crate::arena::{GameRecord, NoStep};
use crate::export::table::{seat_table, SeatResult};
use std::path::Path;

pub use super::loi_history::timeline;

/// The replay page of `record` (a 2009 match), its console showing the champions' stderr
/// read from the `seat<N>.stderr` files in `dir` (the record's directory; `None`: only
/// each callback's time). Fails when the record does not replay.
pub fn page(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    let timeline = timeline(record)?;
    let console = ConsoleView::of(&console(record, dir, &timeline), &timeline);
    super::html::timeline_page(&timeline, &console)
}

/// The console of `record` along `timeline` (its timeline), stderr read from `dir`.
pub fn console(record: &GameRecord, dir: Option<&Path>, timeline: &Timeline) -> Console {
    let when: Vec<(u8, u8)> = timeline
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Callback)
        .map(|s| (s.turn, s.phase))
        .collect();
    Console::of_game(record, dir, |i| when.get(i).copied().unwrap_or((0, 0)))
}

/// Step `index` of `record` as text (`show`): the board, the seats, the step's actions and
/// the faults so far, then the step's console (stderr read from `dir`).
pub fn show(
    record: &GameRecord,
    dir: Option<&Path>,
    index: usize,
    colour: bool,
) -> anyhow::Result<String> {
    let timeline = timeline(record)?;
    let console = console(record, dir, &timeline);
    Ok(super::terminal::render(&timeline, index, colour)
        + &super::console_text::render(&console, &timeline, index))
}

/// The index of the step of `timeline` that `show`'s `--step N` (the timeline's step N,
/// from 1), `--turn T` and `--phase P` name; the end of the match without them.
///
/// "At turn T phase P" means right after phase P of turn T has ended: after the three
/// `jouer` of Phase I (the monument of Phase II is drawn), after the auction of Phase II is
/// resolved (sales applied, bids known, winner paid), after the placement of Phase III.
/// `--turn T` alone is the end of turn T (its Phase III, or Phase I on turn 15);
/// `--turn 0` is the start (after `init_game`).
pub fn select(
    timeline: &Timeline,
    step: Option<u64>,
    turn: Option<u8>,
    phase: Option<u8>,
) -> Result<usize, NoStep> {
    let last = timeline.steps.len() - 1;
    if let Some(step) = step {
        return match usize::try_from(step) {
            Ok(step) if (1..=last + 1).contains(&step) => Ok(step - 1),
            _ => Err(NoStep::Step {
                last: last + 1,
                got: step,
                moves: false,
            }),
        };
    }
    match (turn, phase) {
        (None, _) => Ok(last),
        (Some(0), None) => timeline
            .stage_end(1, 0)
            .ok_or_else(|| NoStep::Other("this match has no start step".into())),
        (Some(0), Some(_)) => Err(NoStep::StartPhase),
        (Some(15), Some(phase)) if phase != 1 => Err(NoStep::LastTurnPhase {
            turn: 15,
            got: phase,
        }),
        (Some(turn), phase) => {
            let phase = phase.unwrap_or(if turn == 15 { 1 } else { 3 });
            timeline.stage_end(turn, phase).ok_or_else(|| {
                NoStep::Other(format!(
                    "turn {turn} phase {phase} is not in this record (it stopped early?)"
                ))
            })
        }
    }
}

/// What `referee match` prints at the end of a 2009 match: one row per seat with its final
/// score, money, houses, points and faults. A record that does not replay says so instead.
pub fn summary(record: &GameRecord) -> String {
    let timeline = match timeline(record) {
        Ok(timeline) => timeline,
        Err(e) => return format!("{e:#}\n"),
    };
    let result = &timeline.result;
    let faults: Vec<Vec<(&str, &str)>> = record
        .seats
        .iter()
        .map(|s| {
            record
                .faults_of(s.seat)
                .map(|f| (f.kind.name(), super::loi_history::message(record, f)))
                .collect()
        })
        .collect();
    let rows: Vec<SeatResult> = record
        .seats
        .iter()
        .zip(&faults)
        .map(|(seat, faults)| {
            let s = usize::from(seat.seat).min(2);
            SeatResult {
                seat: usize::from(seat.seat),
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
