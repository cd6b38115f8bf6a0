//! Re-runs a match record through the engine without the champions: every recorded request
//! is made again and must get the recorded answer; then what the rules decide beyond the
//! requests (each callback's digest where it can be computed, the faults list, every field
//! of the result) is computed and compared (`replay_checks.rs`): nothing is taken from the
//! record.
//!
//! [`walk`] is the one loop over a record; [`replay`] checks with it, and the viewer's
//! timeline (`crate::view::timeline`) watches the game through it with a [`Visitor`].

use crate::full_log;
use crate::record::{CallbackRecord, MatchRecord, RequestLog, ResultRecord};
use engine::{Call, Game, Kind, Seat, Setup, Stage};

/// How a replay went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    pub callbacks: usize,
    pub requests: usize,
    /// The digest the replay reached (hex).
    pub digest: String,
}

/// Watches a record being walked through the engine. Every method has an empty default.
pub trait Visitor {
    /// An action of callback #`index` that succeeded (one that changes the game) was made
    /// again and got the recorded `answer`.
    fn request(&mut self, index: usize, played: &CallbackRecord, call: &Call, answer: i32) {
        let _ = (index, played, call, answer);
    }
    /// An action of callback #`index` that was refused (`answer` is its error code) was made
    /// again and refused the same way. Only a walk with the full log sees them: a record
    /// keeps refused actions as counts ([`CallbackRecord::refused`]).
    fn refused(&mut self, index: usize, played: &CallbackRecord, call: &Call, answer: i32) {
        let _ = (index, played, call, answer);
    }
    /// Callback #`index` has been replayed entirely; `game` is the state right after it.
    fn callback_end(&mut self, index: usize, played: &CallbackRecord, game: &Game) {
        let _ = (index, played, game);
    }
    /// Stage `ended` of turn `turn` is over and its effects are applied (auction resolved,
    /// monument drawn, turn advanced): `game` is in the next stage.
    fn stage_end(&mut self, ended: Stage, turn: u8, game: &Game) {
        let _ = (ended, turn, game);
    }
}

/// A visitor that watches nothing.
impl Visitor for () {}

/// Walk `record` through the engine, checking every answer, and return the finished game
/// and the number of requests; an error says where the engine and the record part ways.
/// The final result is not compared here (see [`replay`]).
pub fn walk(record: &MatchRecord, visitor: &mut impl Visitor) -> Result<(Game, usize), String> {
    walk_logged(record, None, visitor)
}

/// [`walk`]; with `log`, the match's full log ([`crate::full_log`]), every request is made
/// again and must give back each callback's actions, counts and digest (without it, the
/// actions alone: the rest changes nothing). A log cut at its cap (the record's
/// `full_log_cut`) is read up to the cut; from the callback where it stops, the actions
/// alone are replayed, and the log must hold exactly the requests the cut says.
pub fn walk_logged(
    record: &MatchRecord,
    mut log: Option<&mut full_log::Reader>,
    visitor: &mut impl Visitor,
) -> Result<(Game, usize), String> {
    let order = Setup::check_order(&record.monument_order)
        .map_err(|e| format!("bad monument order: {e}"))?;
    if record.first_player > 2 {
        return Err(format!("bad first player {}", record.first_player));
    }
    let seats: Vec<u8> = record.seats.iter().map(|s| s.seat).collect();
    if seats != [0, 1, 2] {
        return Err(format!(
            "the record's seats are {seats:?}, expected [0, 1, 2]"
        ));
    }
    if record.timings.len() != record.callbacks.len() {
        return Err(format!(
            "the record has {} timings for {} callbacks",
            record.timings.len(),
            record.callbacks.len()
        ));
    }
    // A seat stops playing only after a fault: at its spawn, or in a callback.
    let mut stopped = [false; 3];
    for fault in &record.faults {
        if fault.seat > 2 {
            return Err(format!(
                "a fault of seat {}, which does not exist",
                fault.seat
            ));
        }
        if fault.callback.is_none() {
            stopped[usize::from(fault.seat)] = true;
        }
    }
    let mut game = Game::new(Setup::with_order(order, Seat(record.first_player)));
    let mut callbacks = record.callbacks.iter().enumerate().peekable();
    let mut requests = 0;
    while let Some(callback) = game.callback() {
        for seat in game.seats_to_play() {
            let next = callbacks.next_if(|(_, c)| c.seat == seat.0 && c.callback == callback);
            let Some((index, played)) = next else {
                if stopped[seat.index()] {
                    continue; // a stopped seat plays no more
                }
                return Err(format!(
                    "seat {seat} has no {callback} at turn {}, and no fault stopped it",
                    game.state().turn
                ));
            };
            if stopped[seat.index()] {
                return Err(format!(
                    "callback #{index} ({callback} of seat {seat}) comes after the fault that \
                     stopped that seat"
                ));
            }
            stopped[seat.index()] = played.fault.is_some();
            let expected = (game.state().turn, game.stage().phase());
            if (played.turn, played.phase) != expected {
                return Err(format!(
                    "callback #{index} is recorded at turn {} phase {}, the engine is at turn {} phase {}",
                    played.turn, played.phase, expected.0, expected.1
                ));
            }
            let mut player = game.player(seat);
            let counted = played.actions.len() as u64
                + played.info.values().sum::<u64>()
                + played.refused.values().sum::<u64>();
            if counted != played.requests {
                return Err(format!(
                    "callback #{index}: {} requests recorded, but its actions and counts add up \
                     to {counted}",
                    played.requests
                ));
            }
            let cut = record
                .full_log_cut
                .filter(|cut| log.is_some() && cut.callback <= index);
            if let (Some(cut), Some(reader)) = (cut, log.as_deref_mut()) {
                if cut.callback == index {
                    // Read no further than one past what the record allows.
                    let most = cut.requests.min(played.requests);
                    let mut kept = 0u64;
                    while kept <= most && reader.next_of(index)?.is_some() {
                        kept += 1;
                    }
                    if kept != cut.requests || kept > played.requests {
                        return Err(format!(
                            "callback #{index}: the full log holds {kept} of its requests, the \
                             record says it was cut after {} of {}",
                            cut.requests, played.requests
                        ));
                    }
                }
            }
            let mut log = match cut {
                Some(_) => None,
                None => log.as_deref_mut(),
            };
            if let Some(reader) = log.as_deref_mut() {
                if let Some(earlier) = reader.pending()?.filter(|&i| i < index) {
                    return Err(format!(
                        "the full log has requests of callback #{earlier} after those of a \
                         later callback"
                    ));
                }
            }
            let mut again = log.is_some().then(RequestLog::new);
            let mut actions = played.actions.iter();
            let mut logged = 0u64;
            loop {
                let (line, answer) = match log.as_deref_mut() {
                    Some(reader) => match reader.next_of(index)? {
                        // One past the record's count is refused at once: a log is never
                        // read further than its record allows (a gzip bomb of requests).
                        Some(_) if logged == played.requests => {
                            return Err(format!(
                                "callback #{index}: the full log holds more than its {} \
                                 recorded requests",
                                played.requests
                            ))
                        }
                        Some(entry) => {
                            logged += 1;
                            entry
                        }
                        None => break,
                    },
                    None => match actions.next() {
                        Some((line, answer)) => (line.clone(), *answer),
                        None => break,
                    },
                };
                if line == "etat" {
                    if let Some(again) = &mut again {
                        again.etat();
                    }
                    continue;
                }
                let call: Call = line
                    .parse()
                    .map_err(|e| format!("callback #{index}: request `{line}`: {e}"))?;
                let got = call.apply(&mut player);
                if got != answer {
                    return Err(format!(
                        "callback #{index} ({callback} of seat {seat}, turn {}): `{line}` answers {got}, the record says {answer}",
                        played.turn
                    ));
                }
                if let Some(again) = &mut again {
                    again.call(&call, got);
                }
                if call.function.is_action() {
                    if got == engine::constants::SUCCES {
                        visitor.request(index, played, &call, got);
                    } else {
                        visitor.refused(index, played, &call, got);
                    }
                }
            }
            if let Some(again) = again {
                let mut rebuilt = played.clone();
                again.into_record(&mut rebuilt);
                if rebuilt != *played {
                    return Err(format!(
                        "callback #{index}: its full log does not give its recorded actions, \
                         counts and digest: {}",
                        crate::replay_checks::log_difference(&rebuilt, played)
                    ));
                }
            }
            requests += played.requests as usize;
            visitor.callback_end(index, played, &game);
        }
        let (ended, turn) = (game.stage(), game.state().turn);
        game.advance();
        visitor.stage_end(ended, turn, &game);
    }
    if let Some((index, extra)) = callbacks.next() {
        return Err(format!(
            "callback #{index} ({} of seat {}) does not fit the game's order",
            extra.callback, extra.seat
        ));
    }
    if let Some(reader) = log {
        if let Some(index) = reader.pending()? {
            return Err(format!(
                "the full log has requests of callback #{index} that the record does not \
                 replay there"
            ));
        }
    }
    Ok((game, requests))
}

/// Replay `record`; an error says where the replay and the record part ways.
pub fn replay(record: &MatchRecord) -> Result<ReplayReport, String> {
    replay_logged(record, None)
}

/// [`replay`], with the match's full log when it has one (see [`walk_logged`]).
pub fn replay_logged(
    record: &MatchRecord,
    log: Option<&mut full_log::Reader>,
) -> Result<ReplayReport, String> {
    let (game, requests) = walk_logged(record, log, &mut ())?;
    // Nothing the rules decide is taken from the record (`replay_checks`).
    for (index, played) in record.callbacks.iter().enumerate() {
        crate::replay_checks::callback_digest(index, played)?;
    }
    crate::replay_checks::faults(record, game.state().turn)?;
    crate::replay_checks::timeouts(record)?;
    let result = result_of(&game);
    crate::replay_checks::result(&result, &record.result)?;
    Ok(ReplayReport {
        callbacks: record.callbacks.len(),
        requests,
        digest: result.digest,
    })
}

/// The houses each seat has built in `game` (its final result's third figure).
pub fn houses_built(game: &Game) -> [u32; 3] {
    Seat::ALL.map(|s| {
        game.state()
            .board
            .cells()
            .iter()
            .filter(|c| c.kind == Kind::Maison && c.owner == Some(s))
            .count() as u32
    })
}

/// The result of a finished game, as a record of before keeps it.
pub fn result_of(game: &Game) -> ResultRecord {
    let state = game.state();
    let outcome = game.outcome();
    debug_assert_eq!(game.stage(), Stage::Over);
    ResultRecord {
        final_scores: outcome.final_scores,
        money: state.money,
        houses: houses_built(game),
        points: outcome.points,
        digest: format!("{:016x}", game.digest()),
    }
}
