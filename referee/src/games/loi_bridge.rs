//! Temporary: a 2009 record of today ([`GameRecord`], checked) written as the record of
//! before (`record::MatchRecord`), for the 2009 views that still read that one (the replay
//! page, `show`'s board), until they read today's record themselves. Each callback's turn
//! and phase come from the rules played again; its refused actions are counted by function
//! and code, its other requests counted as questions (today's record does not name them);
//! its request digest is not known (no view reads it).

use crate::arena::GameRecord;
use crate::record::{CallbackRecord, FaultRecord, MatchRecord, RECORD_SCHEMA};
use engine::model::{Loi, LoiState};
use engine::{Callback, Setup};
use game::{Game as _, Step};
use std::collections::BTreeMap;

/// The key a question is counted under in [`CallbackRecord::info`] (today's record counts
/// questions without naming them).
pub const QUESTIONS: &str = "questions";

/// `record` (a checked 2009 record of today) as the record of before.
pub fn match_record(record: &GameRecord) -> Result<MatchRecord, String> {
    let mut state = Loi.start(record.seats.len(), &record.options)?;
    for step in &record.start {
        super::loi_play::apply(&mut state, step)?;
    }
    let setup = |state: &LoiState| {
        state.game().map(|g| {
            let s = g.state();
            (s.turn, g.stage().phase())
        })
    };
    let mut callbacks = Vec::new();
    for c in &record.callbacks {
        let (turn, phase) = setup(&state).ok_or("a callback before the setup is drawn")?;
        let mut actions = Vec::new();
        let mut refused: BTreeMap<String, u64> = BTreeMap::new();
        let mut acts = 0;
        for step in &c.steps {
            if let Step::Act { action, answer, .. } = step {
                acts += 1;
                match answer {
                    _ if action == "fin" => {}
                    Ok(code) => actions.push((action.clone(), code.parse().unwrap_or(0))),
                    Err(code) => {
                        let name = action.split_whitespace().next().unwrap_or("");
                        *refused.entry(format!("{name} {}", code.0)).or_default() += 1;
                    }
                }
            }
            super::loi_play::apply(&mut state, step)?;
        }
        let fin = u64::from(c.fault.is_none());
        let questions = c.requests.saturating_sub(acts);
        let mut info = BTreeMap::new();
        if questions > 0 {
            info.insert(QUESTIONS.to_string(), questions);
        }
        callbacks.push(CallbackRecord {
            turn,
            phase,
            seat: c.seat,
            callback: Callback::from_name(&c.callback).ok_or("a callback of another game")?,
            // `fin` was no request then.
            requests: c.requests.saturating_sub(fin),
            actions,
            info,
            refused,
            digest: String::new(),
            fault: c.fault.clone(),
        });
    }
    let game = state.game().ok_or("a match without its setup drawn")?;
    let end_turn = game.state().turn;
    let faults = record
        .faults
        .iter()
        .map(|f| {
            let (turn, phase, callback, message) = match f.callback {
                Some(i) => {
                    let c = &callbacks[i];
                    let message = f.message.strip_prefix(&format!("{}: ", c.callback.name()));
                    (
                        c.turn,
                        c.phase,
                        Some(c.callback),
                        message.unwrap_or(&f.message),
                    )
                }
                // A seat that could not start, or output after its last callback.
                None if record.start.contains(&Step::Retire(usize::from(f.seat))) => {
                    (1, 0, None, f.message.as_str())
                }
                None => (end_turn, 0, Some(Callback::EndGame), f.message.as_str()),
            };
            FaultRecord {
                seat: f.seat,
                turn,
                phase,
                callback,
                kind: f.kind,
                message: message.to_string(),
            }
        })
        .collect();
    let drawn = Setup::from_seed(record.seed);
    let first_player = match record.options.get("first-player") {
        "drawn" => drawn.first_player.0,
        seat => seat.parse().map_err(|_| "option `first-player`")?,
    };
    let monument_order = match record.options.get("monuments") {
        "drawn" => drawn.monument_order.to_vec(),
        ids => ids.split('-').filter_map(|id| id.parse().ok()).collect(),
    };
    Ok(MatchRecord {
        schema: RECORD_SCHEMA,
        seed: record.seed,
        monument_order,
        first_player,
        seats: record.seats.clone(),
        sandbox: record.sandbox.clone(),
        budgets: Some(record.budgets),
        callbacks,
        faults,
        result: crate::game::result_of(game),
        timings: record.timings.clone(),
        full_log: None,
        full_log_cap: None,
        full_log_cut: None,
    })
}
