//! The 2009 game's views of a match from the one record of every game on the model
//! ([`GameRecord`]), the views a user sees today from the 2009 game's own record: the
//! replay page ([`page`]: the board, the auction, the timeline, the consoles, the scores
//! and faults, on the frame every game shares), the table `referee match` prints
//! ([`summary`]), and a step on the terminal with its console ([`show`]). Each is built
//! from the record's history applied again through the rules (`loi_history.rs`),
//! then drawn by the same code as from the old record.

use super::console::Console;
use super::timeline::{StepKind, Timeline};
use crate::games::model::FaultPlace;
use crate::view::seat_table::{seat_table, SeatResult};
use arena::{GameFault, GameRecord, NoStep};
use std::path::Path;

pub use super::loi_history::timeline;

/// The replay page of `record` (a 2009 match), its console showing the champions' stderr
/// read from the `seat<N>.stderr` files in `dir` (the record's directory; `None`: only
/// each callback's time). Fails when the record does not replay.
pub fn page(record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
    let timeline = timeline(record)?;
    let console = super::console::page_view(&console(record, dir, &timeline), &timeline);
    super::html::timeline_page(&timeline, &console)
}

/// A game still being played (`record`: its record so far) as the site's `view` asks:
/// the replay page's board and panels ([`super::frame::live`]) without what no seat may
/// know before the end: the seed, the monuments not drawn yet, and the bids and sales of
/// a Phase II whose auction is not resolved (rule 12: secret until then; a seat that read
/// them would outbid the others).
pub fn live(record: &GameRecord, view: super::frame::LiveView) -> anyhow::Result<String> {
    let mut timeline = super::loi_history::timeline_so_far(record)?;
    if timeline.steps.is_empty() {
        return Err(super::frame::NothingYet.into());
    }
    timeline.seed = String::new();
    let drawn: std::collections::BTreeSet<u8> =
        timeline.steps.iter().filter_map(|s| s.monument).collect();
    timeline.monument_order.truncate(drawn.len());
    let resolved = timeline
        .steps
        .iter()
        .rposition(|s| s.kind == StepKind::StageEnd && s.phase == 2)
        .map_or(0, |at| at + 1);
    for step in &mut timeline.steps[resolved..] {
        if step.phase == 2 && step.kind == StepKind::Callback {
            step.pending = None;
            step.actions.clear();
            step.refused.clear();
            step.targets.clear();
            step.targets_more = 0;
        }
    }
    let console = super::console::page_view(&console(record, None, &timeline), &timeline);
    super::html::timeline_made(&timeline, &console, |page| super::frame::live(page, view))
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
    // A whole record's timeline has its result (one so far has none).
    let Some(result) = &timeline.result else {
        return "the match has not ended: no result yet\n".into();
    };
    let console = console(record, None, &timeline);
    let faults: Vec<Vec<(&str, String)>> = record
        .seats
        .iter()
        .map(|s| {
            record
                .faults_of(s.seat)
                .map(|f| {
                    let message = super::fault_words::in_words(record.fault_message(f));
                    let line = match fault_place_in(&timeline, &console, record, f) {
                        Some(place) => format!("in {}: {message}", place.when),
                        None => message.into_owned(),
                    };
                    (f.kind.name(), line)
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

/// Refusals of one function in one callback from which on a timeout is a loop, not a slow
/// machine: a champion that meant it would have stopped asking long before.
const LOOP_REFUSALS: u64 = 1000;

/// Where `fault` (of `record`, a 2009 match) happened, `jouer of turn 3 phase I`, and what
/// its seat was doing: the refused calls of that callback, counted by function (the same
/// call refused a thousand times is a loop), else its actions and information requests.
pub fn fault_place(record: &GameRecord, fault: &GameFault) -> Option<FaultPlace> {
    let timeline = timeline(record).ok()?;
    let console = console(record, None, &timeline);
    fault_place_in(&timeline, &console, record, fault)
}

/// [`fault_place`] from the match's timeline and console.
fn fault_place_in(
    timeline: &Timeline,
    console: &Console,
    record: &GameRecord,
    fault: &GameFault,
) -> Option<FaultPlace> {
    let i = fault.callback?;
    let when = super::console_text::when(console.calls.get(i)?);
    let step = timeline
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Callback)
        .nth(i)?;
    let mut refused: Vec<(String, u64)> = Vec::new();
    let listed = step.actions.iter().filter(|a| a.code < 0).map(|a| {
        let function = a.call.split_whitespace().next().unwrap_or("").to_string();
        (function, u64::from(a.count))
    });
    let counted = step.refused.iter().map(|(f, _, n)| (f.clone(), *n));
    for (function, n) in listed.chain(counted) {
        match refused.iter_mut().find(|(f, _)| *f == function) {
            Some((_, total)) => *total += n,
            None => refused.push((function, n)),
        }
    }
    refused.sort_by_key(|r| std::cmp::Reverse(r.1));
    let count = |n: u64| indicatif::HumanCount(n).to_string();
    let done = step.actions.iter().filter(|a| a.code >= 0).count();
    let requests = record.callbacks.get(i).map_or(0, |c| c.requests);
    let (doing, is_loop) = match refused.first() {
        Some((function, n)) => (
            Some(format!(
                "{} refused {} in that callback",
                count(*n),
                jail::untrusted::printable(function)
            )),
            *n >= LOOP_REFUSALS,
        ),
        None if done > 0 || step.info > 0 => (
            Some(format!(
                "{} action(s) and {} information request(s) in that callback",
                count(done as u64),
                count(u64::from(step.info))
            )),
            false,
        ),
        None if requests > 0 => (
            Some(format!("{} request(s) in that callback", count(requests))),
            false,
        ),
        None => (None, false),
    };
    Some(FaultPlace {
        when,
        doing,
        is_loop,
    })
}
