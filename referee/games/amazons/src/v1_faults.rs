//! The faults list of an Amazons record checked against its callbacks
//! ([`crate::v1::verify`] calls it once the callbacks' order is checked): each fault
//! where, and as, the match wrote it.

use crate::v1::{AmazonsRecord, FaultRecord};
use jail::fault::FaultKind;
use jail::untrusted::printable;

/// A fault as an error message shows it.
fn describe(fault: &FaultRecord) -> String {
    format!(
        "seat {}, after move {}, kind {}, message \"{}\"",
        fault.seat,
        fault.turn,
        fault.kind.name(),
        printable(&fault.message)
    )
}

/// The faults list of `record` (whose callbacks follow the referee's order) is what the
/// match wrote: first the fault of each seat that could not start (no callback; after
/// move 0), in seats' order; then each callback's fault, in the callbacks' order, after
/// the moves played by then and with the callback's name before its message; then at most
/// one `protocol` fault per seat for output after its `end_game` (played without a
/// fault), in seats' order.
pub fn check(record: &AmazonsRecord) -> Result<(), String> {
    let outside = |seat: u8, turn: usize| FaultRecord {
        seat,
        turn: turn as u8,
        phase: 0,
        callback: None,
        kind: FaultKind::Protocol,
        message: String::new(),
    };
    let mut list = record.faults.iter().enumerate();
    for seat in 0..2u8 {
        if record.callbacks.iter().any(|c| c.seat == seat) {
            continue;
        }
        match list.next() {
            Some((_, f))
                if f.seat == seat && (f.turn, f.phase) == (0, 0) && f.callback.is_none() => {}
            other => {
                return Err(format!(
                    "seat {seat} played no callback: its fault at start (after move 0) comes \
                     first in the faults list, which has {}",
                    other.map_or("no more".to_string(), |(k, f)| format!(
                        "faults[{k}] {}",
                        describe(f)
                    ))
                ))
            }
        }
    }
    let mut made = 0;
    for (i, callback) in record.callbacks.iter().enumerate() {
        if callback.callback == "jouer" {
            made = (made + 1).min(record.moves.len());
        }
        let Some(fault) = &callback.fault else {
            continue;
        };
        if callback.callback == "end_game" {
            made = record.moves.len();
        }
        let want = FaultRecord {
            kind: fault.kind,
            message: format!("{}: {}", callback.callback, fault.message),
            ..outside(callback.seat, made)
        };
        match list.next() {
            Some((_, listed)) if *listed == want => {}
            Some((k, listed)) => {
                return Err(format!(
                    "faults[{k}] is {}, where the fault of callback {} is {}",
                    describe(listed),
                    i + 1,
                    describe(&want)
                ))
            }
            None => {
                return Err(format!(
                    "the fault of callback {} ({}) is not in the faults list",
                    i + 1,
                    describe(&want)
                ))
            }
        }
    }
    let mut last_seat = None;
    for (k, fault) in list {
        let ended_clean = record
            .callbacks
            .iter()
            .rev()
            .find(|c| c.seat == fault.seat)
            .is_some_and(|c| c.callback == "end_game" && c.fault.is_none());
        let late = (fault.turn, fault.phase) == (record.moves.len() as u8, 0)
            && fault.callback.is_none()
            && fault.kind == FaultKind::Protocol
            && arena::is_late_output(&fault.message, "end_game")
            && ended_clean
            && last_seat < Some(fault.seat);
        if !late {
            return Err(format!(
                "faults[{k}] ({}) matches no callback's fault, no seat's start and no output \
                 after end_game",
                describe(fault)
            ));
        }
        last_seat = Some(fault.seat);
    }
    Ok(())
}
