//! The check of a record against its full log (`--full-log`), for any game on the model:
//! every logged request is read again by the game's adapter on the state the record's
//! history gives at that point, and must be what the record says: a question answered with
//! the logged code, an action the record's next action of that callback, answered so; each
//! callback's requests as many as the record counts (up to the cut, when the log reached its
//! cap); its refused actions past the kept ones as many as the record counts; no request of
//! a callback the record does not have.

use super::adapter::{Action, Adapter, Line};
use super::machine::answer_code;
use super::record::{refusal_key, refusals_kept, GameRecord};
use crate::full_log::Reader;
use game::{Game, State as _, Step};
use std::collections::BTreeMap;

/// Applies `step` of a checked record to `state`.
fn apply<A: Adapter>(state: &mut super::State<A>, step: &Step) -> Result<(), String> {
    match step {
        Step::Chance(drawn) => state.chance(drawn),
        Step::Retire(seat) => {
            state.retire(*seat);
            Ok(())
        }
        Step::Act { seat, action, .. } => {
            let action: Action<A> = action
                .parse()
                .map_err(|_| format!("`{action}` is no action of this game"))?;
            // A checked record's answers are the rules': nothing to compare here.
            let _ = state.act(*seat, &action);
            Ok(())
        }
    }
}

/// Checks `record` (already checked against the rules) against its full log `log`.
pub fn check_log<A: Adapter>(
    adapter: &A,
    record: &GameRecord,
    log: &mut Reader,
) -> Result<(), String> {
    let cut = record.full_log.as_ref().and_then(|f| f.cut);
    let mut state = adapter.game().start(record.seats.len(), &record.options)?;
    for step in &record.start {
        apply::<A>(&mut state, step)?;
    }
    for (i, entry) in record.callbacks.iter().enumerate() {
        let at = |what: String| {
            format!(
                "callback {} (`{}` of seat {}): {what}",
                i + 1,
                entry.callback,
                entry.seat
            )
        };
        if let Some(earlier) = log.pending()?.filter(|&c| c < i) {
            return Err(format!(
                "the full log has requests of callback {} after those of a later one",
                earlier + 1
            ));
        }
        let seat = usize::from(entry.seat);
        // How many of its requests the log holds: all, but where it reached its cap.
        let kept = match cut {
            Some(c) if c.callback < i => 0,
            Some(c) if c.callback == i => c.requests.min(entry.requests),
            _ => entry.requests,
        };
        let mut steps = entry.steps.iter().peekable();
        let mut logged = 0u64;
        // The refused actions the record keeps so far, and those it counts.
        let mut refusals = 0usize;
        let mut counted: BTreeMap<String, u64> = BTreeMap::new();
        while let Some((line, code)) = log.next_of(i)? {
            if logged == kept {
                return Err(at(format!(
                    "the full log holds more than its {kept} requests"
                )));
            }
            logged += 1;
            let want = match adapter.read(&state, seat, &entry.callback, &line) {
                Err(e) => {
                    return Err(at(format!(
                        "the full log's request `{line}` is a fault: {e}"
                    )))
                }
                Ok(Line::End) => {
                    return Err(at(format!("the full log holds `{line}`, which ends it")))
                }
                Ok(Line::Answer(answer)) => answer_code(&answer),
                Ok(Line::Act(action)) => {
                    let last = adapter.is_last(&action);
                    let answer = state.act(seat, &action);
                    let line_answer = adapter.answer(&answer);
                    let refused = answer.is_err() && line_answer.is_some();
                    if refused && refusals >= refusals_kept(record.schema) {
                        let key =
                            refusal_key(&action.to_string(), line_answer.as_deref().unwrap_or(""));
                        *counted.entry(key).or_default() += 1;
                    } else {
                        refusals += usize::from(refused);
                        let Some(Step::Act {
                            action: recorded, ..
                        }) = steps.next()
                        else {
                            return Err(at(format!(
                                "the full log's action `{line}` is not in the record"
                            )));
                        };
                        if action.to_string() != *recorded {
                            return Err(at(format!(
                                "the full log's action `{line}` is `{recorded}` in the record"
                            )));
                        }
                        // Chance's draws after the action.
                        while let Some(step @ Step::Chance(_)) = steps.peek() {
                            apply::<A>(&mut state, step)?;
                            steps.next();
                        }
                    }
                    match line_answer {
                        _ if last && answer.is_ok() => 0,
                        Some(text) => answer_code(&text),
                        None => 0,
                    }
                }
            };
            if code != want {
                return Err(at(format!(
                    "the full log's request `{line}` is answered {code} in the log, {want} by the \
                     rules"
                )));
            }
        }
        if logged != kept {
            return Err(at(format!(
                "the full log holds {logged} of its {kept} requests"
            )));
        }
        let whole = cut.is_none_or(|c| c.callback > i);
        if (whole && counted != entry.refused)
            || counted
                .iter()
                .any(|(k, &n)| n > entry.refused.get(k).copied().unwrap_or(0))
        {
            return Err(at(format!(
                "the full log's refused actions past the kept ones are {counted:?}, {:?} in the \
                 record",
                entry.refused
            )));
        }
        for step in steps {
            if matches!(step, Step::Act { .. }) && whole {
                return Err(at(format!("its action {step:?} is not in the full log")));
            }
            apply::<A>(&mut state, step)?;
        }
    }
    if let Some(c) = log.pending()? {
        return Err(format!(
            "the full log has requests of callback {}, which the record does not have there",
            c + 1
        ));
    }
    Ok(())
}
