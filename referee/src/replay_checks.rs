//! What `replay` checks of a 2009 record once its requests are made again (`replay.rs`),
//! so that nothing the rules decide is taken from the record: each callback's digest where
//! the record holds every request of it, the faults list against the callbacks' faults,
//! and the result field by field (each seat's seed against the match seed is the arena's,
//! `arena::seeds::check_seat_seeds`). Each error names the field, where, what the rules
//! give and what the record says.

use crate::record::{CallbackRecord, FaultRecord, MatchRecord, RequestLog, ResultRecord};
use engine::{Call, Callback};
use jail::fault::FaultKind;
use jail::untrusted::printable;

/// Callback #`index`'s digest is a SHA-256; when the record keeps every request of the
/// callback (actions only, or none: no information request or refused action, which it
/// only counts), the digest is computed from them and must be the recorded one. (With the
/// full log, `replay::walk_logged` computes every callback's digest from the log.)
pub fn callback_digest(index: usize, played: &CallbackRecord) -> Result<(), String> {
    let digest = &played.digest;
    if digest.len() != 64
        || !digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(format!(
            "callback #{index}: its digest `{}` is not 64 hexadecimal digits (a SHA-256)",
            printable(digest)
        ));
    }
    if !played.info.is_empty() || !played.refused.is_empty() {
        return Ok(());
    }
    let mut log = RequestLog::new();
    for (line, answer) in &played.actions {
        let call: Call = line
            .parse()
            .map_err(|e| format!("callback #{index}: request `{}`: {e}", printable(line)))?;
        log.call(&call, *answer);
    }
    let mut rebuilt = played.clone();
    log.into_record(&mut rebuilt);
    if rebuilt.digest != *digest {
        return Err(format!(
            "callback #{index}: digest: its requests give {}, the record says {digest}",
            rebuilt.digest
        ));
    }
    Ok(())
}

/// The first field in which callback #`index` as its full log gives it (`rebuilt`)
/// differs from the record (`played`): requests, actions, counts, digest.
pub fn log_difference(rebuilt: &CallbackRecord, played: &CallbackRecord) -> String {
    let fields = [
        (
            "requests",
            rebuilt.requests.to_string(),
            played.requests.to_string(),
        ),
        (
            "actions",
            format!("{:?}", rebuilt.actions),
            format!("{:?}", played.actions),
        ),
        (
            "info",
            format!("{:?}", rebuilt.info),
            format!("{:?}", played.info),
        ),
        (
            "refused",
            format!("{:?}", rebuilt.refused),
            format!("{:?}", played.refused),
        ),
        ("digest", rebuilt.digest.clone(), played.digest.clone()),
    ];
    fields
        .into_iter()
        .find(|(_, got, recorded)| got != recorded)
        .map_or_else(
            || "its fault".to_string(),
            |(field, got, recorded)| {
                format!(
                    "{field}: its full log gives {got}, the record says {}",
                    printable(&recorded)
                )
            },
        )
}

/// The result the replay reached (`replayed`) against the record's, every field that
/// differs named.
pub fn result(replayed: &ResultRecord, recorded: &ResultRecord) -> Result<(), String> {
    let fields = [
        (
            "digest",
            replayed.digest.clone(),
            printable(&recorded.digest).into_owned(),
        ),
        (
            "final_scores",
            format!("{:?}", replayed.final_scores),
            format!("{:?}", recorded.final_scores),
        ),
        (
            "money",
            format!("{:?}", replayed.money),
            format!("{:?}", recorded.money),
        ),
        (
            "houses",
            format!("{:?}", replayed.houses),
            format!("{:?}", recorded.houses),
        ),
        (
            "points",
            format!("{:?}", replayed.points),
            format!("{:?}", recorded.points),
        ),
    ];
    let differ: Vec<String> = fields
        .into_iter()
        .filter(|(_, got, said)| got != said)
        .map(|(field, got, said)| {
            format!("result.{field}: the replay gives {got}, the record says {said}")
        })
        .collect();
    if differ.is_empty() {
        Ok(())
    } else {
        Err(differ.join("; "))
    }
}

/// Each callback's `timeout` fault agrees with the time the record gives that callback and
/// with its budgets ([`arena::fault_times`]). A schema-3 record keeps no budgets: its
/// timeouts are not checked so.
pub fn timeouts(record: &MatchRecord) -> Result<(), String> {
    let Some(budgets) = &record.budgets else {
        return Ok(());
    };
    let mut seat_cpu = vec![0u64; record.seats.len()];
    for (i, (played, timing)) in record.callbacks.iter().zip(&record.timings).enumerate() {
        let seat = usize::from(played.seat);
        let used = seat_cpu.get_mut(seat).map_or(0, |cpu| {
            *cpu = cpu.saturating_add(timing.cpu_us);
            *cpu
        });
        if let Some(fault) = &played.fault {
            arena::fault_times::timeout_agrees(
                fault,
                timing,
                &crate::record::budget_of(budgets, played.callback),
                played.requests,
                used,
            )
            .map_err(|e| {
                format!(
                    "callback #{i} (`{}` of seat {seat}): {e}",
                    played.callback.name()
                )
            })?;
        }
    }
    Ok(())
}

/// A fault as an error message shows it.
fn describe(fault: &FaultRecord) -> String {
    format!(
        "seat {}, turn {} phase {}, {}, kind {}, message \"{}\"",
        fault.seat,
        fault.turn,
        fault.phase,
        fault.callback.map_or("at its start", Callback::name),
        fault.kind.name(),
        printable(&fault.message)
    )
}

/// Whether `message` is the one of a line written after `end_game`
/// ([`FaultRecord::late_output`]).
pub(crate) fn is_late_output(message: &str) -> bool {
    arena::is_late_output(message, "end_game")
}

/// The faults list of `record` (a game that ended at turn `end_turn`) is what the match
/// wrote: first the faults of seats that could not start (turn 1, before any callback),
/// then each callback's fault in the callbacks' order, as the callback records it, then
/// for each seat that played its `end_game` without a fault, in seats' order, at most one
/// `protocol` fault for output after it and then at most one fault of the check before the
/// result (work done after its last callback, or memory held: rule 28 ranks it by its
/// score all the same). The replay has checked that a seat stopped at its
/// start plays no callback and that every other seat plays until a fault stops it.
pub fn faults(record: &MatchRecord, end_turn: u8) -> Result<(), String> {
    let mut list = record.faults.iter().enumerate().peekable();
    let mut last_seat = None;
    while let Some((k, fault)) = list.next_if(|(_, f)| f.callback.is_none()) {
        if (fault.turn, fault.phase) != (1, 0) || last_seat >= Some(fault.seat) {
            return Err(format!(
                "faults[{k}] ({}): a fault at a seat's start is at turn 1 phase 0, one per \
                 seat in seats' order, before the callbacks' faults",
                describe(fault)
            ));
        }
        last_seat = Some(fault.seat);
    }
    for (i, played) in record.callbacks.iter().enumerate() {
        let Some(fault) = &played.fault else {
            continue;
        };
        let want = FaultRecord {
            seat: played.seat,
            turn: played.turn,
            phase: played.phase,
            callback: Some(played.callback),
            kind: fault.kind,
            message: fault.message.clone(),
        };
        match list.next() {
            Some((_, listed)) if *listed == want => {}
            Some((k, listed)) => {
                return Err(format!(
                    "faults[{k}] is {}, where the fault of callback #{i} is {}",
                    describe(listed),
                    describe(&want)
                ))
            }
            None => {
                return Err(format!(
                    "the fault of callback #{i} ({}) is not in the faults list",
                    describe(&want)
                ))
            }
        }
    }
    let mut last_place = None;
    for (k, fault) in list {
        let ended_clean = record
            .callbacks
            .iter()
            .rev()
            .find(|c| c.seat == fault.seat)
            .is_some_and(|c| c.callback == Callback::EndGame && c.fault.is_none());
        let output = fault.kind == FaultKind::Protocol && is_late_output(&fault.message);
        let work = jail::fault::is_after_last(fault.kind, &fault.message);
        let place = (fault.seat, work);
        let late = fault.callback == Some(Callback::EndGame)
            && (fault.turn, fault.phase) == (end_turn, 0)
            && (output || work)
            && ended_clean
            && last_place < Some(place);
        if !late {
            return Err(format!(
                "faults[{k}] ({}) matches no callback's fault, no seat's start, no output \
                 after end_game and no work found after it",
                describe(fault)
            ));
        }
        last_place = Some(place);
    }
    Ok(())
}
