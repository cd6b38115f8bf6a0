//! The check of a record of a game on the model: the same [`Machine`] that plays a match
//! is driven with the record's inputs (its seats, options and seed, each callback's
//! actions, requests, faults and timings), and must write the same record. Chance is drawn
//! again from the seed, answers and digests computed again, the callbacks' order, the
//! faults' places and the ranking derived again: an edit of any of them is refused, with
//! the callback where the record and the rules part.

use super::adapter::{Action, Adapter};
use super::machine::Machine;
use super::record::{CallbackEntry, GameRecord, GAME_RECORD_SCHEMA, OLDEST_GAME_RECORD_SCHEMA};
use crate::endpoint::{CallTiming, TimeLimits};
use crate::rules::Rules;
use game::{Game, Step};
use jail::fault::{Fault, FaultKind};
use std::time::Duration;

/// Checks that `record` is what a match of `adapter`'s game with its inputs writes; what
/// is wrong otherwise.
pub fn check<A: Adapter>(adapter: &A, record: &GameRecord) -> Result<(), String> {
    compare(&rebuild(adapter, record)?, record)
}

/// Checks that `record` is `got`, the record its inputs make ([`rebuild`], or a record of
/// an older version of the rules made as that version wrote it); what differs first
/// otherwise: the draws before the first callback, a callback, the ranking, the faults,
/// the summary.
pub fn compare(got: &GameRecord, record: &GameRecord) -> Result<(), String> {
    if got.start != record.start {
        return Err(format!(
            "before the first callback the seed draws {:?} and seats leave, the record says {:?}",
            got.start, record.start
        ));
    }
    if let Some((i, (got, want))) = got
        .callbacks
        .iter()
        .zip(&record.callbacks)
        .enumerate()
        .find(|(_, (got, want))| got != want)
    {
        return Err(format!(
            "callback {} (`{}` of seat {}): {}",
            i + 1,
            want.callback,
            want.seat,
            difference(got, want)
        ));
    }
    if got.ranking != record.ranking {
        return Err(format!(
            "the match ends ranked {:?} by the rules, {:?} in the record",
            got.ranking, record.ranking
        ));
    }
    if got.faults != record.faults {
        return Err(format!(
            "the faults are {:?} by the callbacks, {:?} in the record",
            got.faults, record.faults
        ));
    }
    if got.summary != record.summary {
        return Err(format!(
            "its summary is {} by the rules, {} in the record",
            got.summary, record.summary
        ));
    }
    if got != record {
        return Err("it differs from the record its inputs make".to_string());
    }
    Ok(())
}

/// The record a match of `adapter`'s game writes with the inputs of `record`: its seats,
/// options, seed, sandbox and budgets; the seats that could not start (the `Retire` steps
/// of its `start`) and their faults; each callback's actions (the `Act` steps), requests,
/// fault and timing (its refused actions counted, once checked to be as the machine counts
/// them); the faults after the last callback. What is wrong if the inputs do not
/// fit the game (a callback the referee does not send, an action out of a turn).
pub fn rebuild<A: Adapter>(adapter: &A, record: &GameRecord) -> Result<GameRecord, String> {
    let game = adapter.game();
    let schemas = OLDEST_GAME_RECORD_SCHEMA..=GAME_RECORD_SCHEMA;
    if !schemas.contains(&record.schema) || record.game != game.name() {
        return Err(format!(
            "it is a record of game `{}`, schema {}; this is {} (`{}`), schema \
             {OLDEST_GAME_RECORD_SCHEMA} to {GAME_RECORD_SCHEMA}",
            record.game,
            record.schema,
            game.title(),
            game.name()
        ));
    }
    if record.version != game.version() {
        return Err(format!(
            "it records version {} of the rules of {}; this referee plays version {}",
            record.version,
            game.title(),
            game.version()
        ));
    }
    if let Some((i, s)) = record
        .seats
        .iter()
        .enumerate()
        .find(|(i, s)| usize::from(s.seat) != *i)
    {
        return Err(format!("its seat {i} is numbered {}", s.seat));
    }
    if record.timings.len() != record.callbacks.len() {
        return Err(format!(
            "{} timings for {} callbacks",
            record.timings.len(),
            record.callbacks.len()
        ));
    }
    let mut machine = Machine::new(
        adapter,
        &record.options,
        record.seed,
        record.seats.clone(),
        TimeLimits::default(),
        record.sandbox.clone(),
    )?;
    machine.as_schema(record.schema);
    // Seats that could not start, with their faults, in the record's order.
    let mut used = vec![false; record.faults.len()];
    for step in &record.start {
        let Step::Retire(seat) = *step else { continue };
        let found = record
            .faults
            .iter()
            .enumerate()
            .find(|(i, f)| !used[*i] && f.callback.is_none() && usize::from(f.seat) == seat);
        let Some((i, fault)) = found else {
            return Err(format!(
                "seat {seat} leaves before the first callback but holds no fault that kept it \
                 from starting"
            ));
        };
        if seat >= record.seats.len() || machine.is_out(seat) {
            return Err(format!(
                "seat {seat} cannot leave before the first callback"
            ));
        }
        used[i] = true;
        machine.spawn_fault(seat, &Fault::new(fault.kind, fault.message.clone()));
    }
    let mut entries = record.callbacks.iter().enumerate();
    // Each seat's CPU in its callbacks so far.
    let mut seat_cpu = vec![0u64; record.seats.len()];
    // The match's first callback has the start-up allowance, as the machine gives it
    // (whether the adapter opens with a callback of its own or with a turn).
    let mut first = true;
    while let Some(step) = machine.next_step() {
        for &seat in &step.seats {
            if machine.is_out(seat) {
                continue;
            }
            let Some((i, entry)) = entries.next() else {
                return Err(format!(
                    "the callbacks end where the referee sends `{}` to seat {seat}, and no \
                     fault stopped it",
                    step.name
                ));
            };
            if usize::from(entry.seat) != seat || entry.callback != step.name {
                return Err(format!(
                    "callback {} is `{}` of seat {}, where the referee sends `{}` to seat \
                     {seat}: seat {seat} has no `{}` there, and no fault stopped it",
                    i + 1,
                    entry.callback,
                    entry.seat,
                    step.name,
                    step.name
                ));
            }
            play_entry(adapter, &mut machine, i, entry, seat)?;
            let timing = &record.timings[i];
            let init = first;
            seat_cpu[seat] = seat_cpu[seat].saturating_add(timing.cpu_us);
            if let Some(fault) = &entry.fault {
                let budget = if init {
                    &record.budgets.init
                } else {
                    &record.budgets.call
                };
                crate::fault_times::timeout_agrees(
                    fault,
                    timing,
                    budget,
                    entry.requests,
                    seat_cpu[seat],
                )
                .map_err(|e| {
                    format!(
                        "callback {} (`{}` of seat {seat}): {e}",
                        i + 1,
                        entry.callback
                    )
                })?;
            }
            machine.end(
                seat,
                entry.fault.as_ref(),
                CallTiming {
                    cpu: Duration::from_micros(timing.cpu_us),
                    wall: Duration::from_micros(timing.wall_us),
                    stderr: timing.stderr,
                },
            );
        }
        machine.advance();
        first = false;
    }
    if let Some((i, entry)) = entries.next() {
        return Err(format!(
            "callback {} (`{}` of seat {}) follows the end of the match",
            i + 1,
            entry.callback,
            entry.seat
        ));
    }
    // After the last callback, per seat that played to the end without a fault, in seats'
    // order: at most one protocol fault for its output (it changes nothing), then at most
    // one fault of the check before the result (work done after it, or memory held: the
    // seat is then out, as after a fault in its last callback), each written as the
    // referee writes it.
    let last = record.callbacks.last().map_or("", |c| c.callback.as_str());
    let mut last_place = None;
    for (i, fault) in record.faults.iter().enumerate() {
        if !used[i] && fault.callback.is_none() {
            let seat = usize::from(fault.seat);
            let output = fault.kind == FaultKind::Protocol && is_late_output(&fault.message, last);
            let work = jail::fault::is_after_last(fault.kind, &fault.message);
            let place = (seat, work);
            if !(output || work)
                || seat >= record.seats.len()
                || machine.is_out(seat)
                || last_place >= Some(place)
            {
                return Err(format!(
                    "a `{}` fault of seat {} outside every callback (\"{}\"): after the last \
                     callback the referee records only, of a seat still in the match, once per \
                     seat in seats' order, its output (`unexpected output `...` after {last}: \
                     {}`), then the fault of the check of its work since \
                     (`{}...`)",
                    fault.kind.name(),
                    fault.seat,
                    jail::untrusted::printable(&fault.message),
                    jail::fault::LOGS_ON_STDERR,
                    jail::fault::WORKED_AFTER_LAST
                ));
            }
            last_place = Some(place);
            if work {
                machine.late_fault(seat, &Fault::new(fault.kind, fault.message.clone()));
            } else {
                machine.fault_outside(seat, fault.kind, fault.message.clone());
            }
        }
    }
    let mut got = machine.finish();
    got.budgets = record.budgets;
    // Checked against the log itself, when it is read (`check_log`).
    got.full_log = record.full_log.clone();
    Ok(got)
}

/// Whether `message` is the one the machine writes for output after the callback `last`
/// (`Machine::late_output`), as the referees of before wrote it too.
pub fn is_late_output(message: &str, last: &str) -> bool {
    message.starts_with("unexpected output `")
        && jail::fault::ends_logs_on_stderr(message, &format!("` after {last}: "))
}

/// Takes the actions of callback `i` (`entry`) of `seat` again.
fn play_entry<A: Adapter>(
    adapter: &A,
    machine: &mut Machine<'_, A>,
    i: usize,
    entry: &CallbackEntry,
    seat: usize,
) -> Result<(), String> {
    let at = |what: String| {
        format!(
            "callback {} (`{}` of seat {seat}): {what}",
            i + 1,
            entry.callback
        )
    };
    machine.begin(seat);
    let actions: Vec<&String> = entry
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Act { action, .. } => Some(action),
            _ => None,
        })
        .collect();
    // Whether an action that ends the callback was taken (nothing may follow it).
    let mut ended = false;
    for (n, text) in actions.iter().enumerate() {
        if ended {
            return Err(at(format!("`{text}` follows the end of the callback")));
        }
        if !machine.waits_for(seat) {
            return Err(at(format!("`{text}` is taken out of the seat's turn")));
        }
        let action: Action<A> = text
            .parse()
            .map_err(|_| at(format!("`{text}` is no action of this game")))?;
        let last = adapter.is_last(&action);
        let answer = machine.take(seat, action);
        ended = last && answer.is_ok();
        if adapter.answer(&answer).is_none() {
            // The referee stops a seat at an action its protocol makes a fault.
            let reason = answer.err().map(|e| e.0).unwrap_or_default();
            let stopped = entry
                .fault
                .as_ref()
                .is_some_and(|f| f.kind == FaultKind::Protocol && f.message == reason);
            if n + 1 != actions.len() || !stopped {
                return Err(at(format!(
                    "`{text}` is refused ({reason}): the referee stops the seat there"
                )));
            }
        }
    }
    machine.set_requests(entry.requests);
    machine.set_refused(&entry.refused).map_err(at)?;
    if entry.fault.is_none() && !ended && machine.waits_for(seat) {
        return Err(at(
            "the turn ends without the action the rules wait for".into()
        ));
    }
    Ok(())
}

/// What differs between a callback `got` by the rules and the record's `want`.
fn difference(got: &CallbackEntry, want: &CallbackEntry) -> String {
    if let Some(n) =
        (0..got.steps.len().max(want.steps.len())).find(|&n| got.steps.get(n) != want.steps.get(n))
    {
        return format!(
            "its step {} is {:?} by the rules, {:?} in the record",
            n + 1,
            got.steps.get(n),
            want.steps.get(n)
        );
    }
    if got.digest != want.digest {
        return format!(
            "the game's digest after it is {} by the rules, {} in the record",
            got.digest, want.digest
        );
    }
    format!("it is {got:?} by the rules, {want:?} in the record")
}
