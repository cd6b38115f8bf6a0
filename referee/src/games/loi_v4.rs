//! The 2009 game's records of before the arena (schemas 3 and 4, `record::MatchRecord`):
//! read, checked as they were (`replay::replay_logged`, with the full log beside them when
//! they kept one), and made again as the record of today ([`to_game_record`]), so that
//! every 2009 match already played still replays, shows and merges.
//!
//! What the old record kept and today's does not: each callback's information requests
//! counted by function and its SHA-256 of every request (checked here, against the full log
//! too, then left behind). Its refused actions are known by count only, not by place:
//! they stay in the callback's request count, as questions are.

use super::loi_wire::LoiWire;
use crate::record::{BudgetRecord, BudgetsRecord, MatchRecord, OLDEST_SCHEMA, RECORD_SCHEMA};
use arena::{CallbackEntry, FullLogRecord, GameFault, GameRecord, GAME_RECORD_SCHEMA};
use engine::model::OPTIONS;
use engine::Setup;
use game::{Options, Ranking, Step};
use std::path::Path;

/// The record `text` of schema `schema` read from `path`, if it is one of the 2009
/// game's records of before: checked as then and made again; `None` if it is not one.
pub fn legacy(schema: Option<u64>, text: &str, path: &Path) -> Option<Result<GameRecord, String>> {
    let schema = schema?;
    if !(u64::from(OLDEST_SCHEMA)..=u64::from(RECORD_SCHEMA)).contains(&schema) {
        return None;
    }
    Some(
        serde_json::from_str::<MatchRecord>(text)
            .map_err(|e| format!("not a 2009 record of schema {schema} ({e})"))
            .and_then(|old| {
                let mut log = match &old.full_log {
                    Some(name) => Some(crate::full_log::Reader::beside(path, name)?),
                    None => None,
                };
                to_game_record(&old, log.as_mut())
            }),
    )
}

/// The options of a match with `first_player` and `monument_order`: `drawn` where the
/// seed draws them, the value otherwise.
fn options_of(old: &MatchRecord) -> Result<Options, String> {
    let drawn = Setup::from_seed(old.seed);
    let mut given = Vec::new();
    if old.first_player != drawn.first_player.0 {
        given.push(format!("first-player={}", old.first_player));
    }
    if old.monument_order != drawn.monument_order {
        let ids: Vec<String> = old.monument_order.iter().map(u8::to_string).collect();
        given.push(format!("monuments={}", ids.join("-")));
    }
    Options::parse(OPTIONS, &given)
}

/// `old` (with its full log `log`, if it kept one) checked as it was, then made again as
/// the record of today: the same seats, setup, actions, faults, timings and budgets, the
/// same final scores and digest. What does not replay otherwise.
pub fn to_game_record(
    old: &MatchRecord,
    log: Option<&mut crate::full_log::Reader>,
) -> Result<GameRecord, String> {
    let report = crate::replay::replay_logged(old, log)?;
    let callbacks: Vec<CallbackEntry> = old
        .callbacks
        .iter()
        .map(|c| {
            let seat = usize::from(c.seat);
            let mut steps: Vec<Step> = c
                .actions
                .iter()
                .map(|(action, answer)| Step::Act {
                    seat,
                    action: action.clone(),
                    answer: Ok(answer.to_string()),
                })
                .collect();
            // A callback without a fault ended with `fin`, today an action (counted).
            let fin = c.fault.is_none();
            if fin {
                steps.push(Step::Act {
                    seat,
                    action: "fin".into(),
                    answer: Ok(String::new()),
                });
            }
            CallbackEntry {
                seat: c.seat,
                callback: c.callback.name().to_string(),
                steps,
                refused: Default::default(),
                requests: c.requests + u64::from(fin),
                digest: String::new(),
                fault: c.fault.clone(),
            }
        })
        .collect();
    // The faults outside callbacks: a seat that could not start (no callback named), or
    // output after `end_game`; a callback's own fault (the callbacks' faults in order) is
    // written again from the callback.
    let mut faulted = old
        .callbacks
        .iter()
        .filter_map(|c| Some((c.seat, c.fault.as_ref()?)));
    let mut next_faulted = faulted.next();
    let mut faults = Vec::new();
    for f in &old.faults {
        let of_callback = f.callback.is_some()
            && next_faulted.is_some_and(|(seat, fault)| {
                seat == f.seat && fault.kind == f.kind && fault.message == f.message
            });
        if of_callback {
            next_faulted = faulted.next();
        } else {
            faults.push(GameFault {
                seat: f.seat,
                callback: None,
                kind: f.kind,
                message: f.message.clone(),
            });
        }
    }
    let start = old
        .faults
        .iter()
        .filter(|f| f.callback.is_none())
        .map(|f| Step::Retire(usize::from(f.seat)))
        .collect();
    let zero = BudgetRecord {
        cpu_us: 0,
        wall_us: 0,
    };
    let inputs = GameRecord {
        schema: GAME_RECORD_SCHEMA,
        game: "loi".into(),
        version: 1,
        options: options_of(old)?,
        seed: old.seed,
        seats: old.seats.clone(),
        sandbox: old.sandbox.clone(),
        // Schema 3 kept none: its timeouts were not held to them, nor are they here.
        budgets: old.budgets.unwrap_or(BudgetsRecord {
            init: zero,
            call: zero,
        }),
        start,
        callbacks,
        faults,
        ranking: Ranking {
            places: vec![],
            scores: vec![],
        },
        summary: serde_json::Value::Null,
        // Checked above, in its own form (no `fin`, each callback's digest of its
        // requests): named, so that its reproduce command keeps `--full-log`, and not read
        // again (a record of before is not checked against a log of today's form).
        full_log: old.full_log.as_ref().map(|file| FullLogRecord {
            file: file.clone(),
            cap_mib: old.full_log_cap.unwrap_or(crate::full_log::DEFAULT_CAP_MIB),
            cut: old.full_log_cut,
        }),
        timings: old.timings.clone(),
    };
    let record = arena::rebuild(&LoiWire, &inputs)?;
    let scores: Vec<i64> = old.result.final_scores.map(i64::from).to_vec();
    let digest = record.callbacks.last().map(|c| c.digest.as_str());
    if record.ranking.scores != scores
        || record.faults.len() != old.faults.len()
        || digest.is_some_and(|d| d != report.digest)
    {
        return Err(format!(
            "its match made again ends with scores {:?}, {} faults and digest {:?}; the record \
             says scores {scores:?}, {} faults and digest {}",
            record.ranking.scores,
            record.faults.len(),
            digest,
            old.faults.len(),
            report.digest
        ));
    }
    Ok(record)
}
