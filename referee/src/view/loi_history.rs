//! The 2009 game's [`Timeline`] from the one record of every game on the model
//! ([`GameRecord`]): its history applied again through the rules on the model
//! ([`engine::model::Loi`], with [`game::Replay`], which checks every answer), each
//! callback's digest checked, the engine watched at the end of each callback and of each
//! stage as the viewers show them. Nothing is read of the 2009 game's own record.
//!
//! The record keeps every action with its answer (of the refused ones, each callback's first
//! ones, the others counted by function and answer), so the timeline lists refused actions
//! with their arguments, as it does from a full log, and counts the others; a callback's
//! information requests are its requests less its actions (`fin` is one of its actions on
//! the model, and no request of the protocol's counts).

use super::timeline::{Builder, FaultView, Played, ResultView, Timeline};
use arena::GameRecord;
use engine::model::{Action, Loi, LoiState};
use engine::Game;
use game::{Replay, Step};
use jail::untrusted::printable;

/// The timeline of `record`, a record of a 2009 match; fails where the record parts ways
/// with the rules (an answer, a digest, the order of the callbacks, the ranking).
pub fn timeline(record: &GameRecord) -> anyhow::Result<Timeline> {
    Walk::run(record, Until::End).map_err(|e| anyhow::anyhow!("the record does not replay: {e}"))
}

/// The timeline of `record`, the record so far of a 2009 match still being played (the
/// game server's site): its callbacks applied as [`timeline`] does, the match not over
/// yet, so without a result.
pub fn timeline_so_far(record: &GameRecord) -> anyhow::Result<Timeline> {
    Walk::run(record, Until::SoFar)
        .map_err(|e| anyhow::anyhow!("the record so far does not replay: {e}"))
}

/// Where a record's history stops.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Until {
    /// At the match's end, ranked as the record says.
    End,
    /// Anywhere after the setup: the match still being played.
    SoFar,
}

/// A record being applied again.
struct Walk<'a> {
    record: &'a GameRecord,
    replay: Replay<LoiState>,
    builder: Option<Builder>,
    /// The game before `init_game`.
    initial: Option<Game>,
    /// The step of each callback of the record.
    call_steps: Vec<usize>,
    /// The seats out of the match before it started.
    never_started: Vec<u8>,
}

impl<'a> Walk<'a> {
    fn run(record: &'a GameRecord, until: Until) -> Result<Timeline, String> {
        if record.game != game::Game::name(&Loi) {
            return Err(format!(
                "a record of `{}`, not of La loi du plus riche",
                record.game
            ));
        }
        if record.timings.len() != record.callbacks.len() {
            return Err(format!(
                "the record has {} timings for {} callbacks",
                record.timings.len(),
                record.callbacks.len()
            ));
        }
        let replay = Replay::start(&Loi, record.seats.len(), &record.options).map_err(|e| e.0)?;
        let mut walk = Walk {
            record,
            replay,
            builder: None,
            initial: None,
            call_steps: Vec::new(),
            never_started: Vec::new(),
        };
        for step in &record.start {
            if let Step::Retire(seat) = step {
                walk.never_started.push(*seat as u8);
            }
            walk.apply(step)?;
        }
        let mut requests = 0;
        for (index, entry) in record.callbacks.iter().enumerate() {
            requests += walk.callback(index)?;
            let got = format!("{:016x}", game::State::digest(walk.replay.state()));
            if got != entry.digest {
                return Err(format!(
                    "callback #{index}: the game's digest is {got} by the rules, {} in the \
                     record",
                    entry.digest
                ));
            }
        }
        let result = match until {
            Until::End => {
                let state = walk.replay.finish(&record.ranking).map_err(|e| e.0)?;
                Some(result_of(state.game().ok_or("the record draws no setup")?))
            }
            Until::SoFar => None,
        };
        let (builder, initial) = match (walk.builder, walk.initial) {
            (Some(b), Some(i)) => (b, i),
            _ => return Err("the record draws no setup".into()),
        };
        let faults = faults(record, &walk.call_steps, &walk.never_started, &builder);
        let seats = record
            .seats
            .iter()
            .map(|s| (s.seat, s.name.clone(), s.path.clone()))
            .collect();
        let mut timeline = builder.finish(&initial, seats, faults, requests);
        timeline.seed = record.seed.to_string();
        timeline.result = result;
        Ok(timeline)
    }

    /// Applies `step`, one before the first callback (the setup drawn, a seat that never
    /// started), the stages it ends shown with the game after each.
    fn apply(&mut self, step: &Step) -> Result<(), String> {
        let before = self.replay.state().game().cloned();
        self.replay.step(step).map_err(|e| e.0)?;
        let Some(now) = self.replay.state().game() else {
            return Ok(());
        };
        match (before, &mut self.builder) {
            (Some(before), Some(builder)) => advance(builder, before, now),
            (None, _) => {
                // The setup is drawn: the game before `init_game`.
                self.builder = Some(Builder::new(true, now));
                self.initial = Some(now.clone());
                Ok(())
            }
            (Some(_), None) => Err("a step before the setup is drawn".into()),
        }
    }

    /// Applies callback `index` of the record; its requests as the protocol counts them
    /// (every line answered, `fin` not).
    fn callback(&mut self, index: usize) -> Result<usize, String> {
        let record = self.record;
        let entry = &record.callbacks[index];
        let game = self
            .replay
            .state()
            .game()
            .ok_or("a callback before the setup")?;
        let callback = game.callback().ok_or_else(|| {
            format!(
                "callback #{index} ({}) comes after the match's end",
                entry.callback
            )
        })?;
        if entry.callback != callback.name() {
            return Err(format!(
                "callback #{index} is a {}, the rules play {} now",
                entry.callback,
                callback.name()
            ));
        }
        let acting = game::State::acting(self.replay.state());
        if !matches!(&acting, game::Acting::Seats(seats) if seats.contains(&usize::from(entry.seat)))
        {
            return Err(format!(
                "callback #{index} ({} of seat {}) where the rules wait for {acting:?}",
                entry.callback, entry.seat
            ));
        }
        let (turn, phase) = (game.state().turn, game.stage().phase());
        let mut acts = 0u64;
        let mut fins = 0u64;
        // The game right after the callback, before the stages it ends.
        let mut after: Option<Game> = None;
        let mut ends = false;
        for step in &entry.steps {
            match step {
                Step::Act {
                    seat,
                    action,
                    answer,
                } if usize::from(entry.seat) == *seat => {
                    acts += 1;
                    match action.parse::<Action>() {
                        Ok(Action::Call(call)) => {
                            self.replay
                                .step(step)
                                .map_err(|e| format!("callback #{index}: {}", e.0))?;
                            let code = match answer {
                                Ok(code) => code.parse(),
                                Err(game::Illegal(code)) => code.parse(),
                            }
                            .map_err(|_| {
                                format!("callback #{index}: `{action}` answered {answer:?}")
                            })?;
                            self.builder_mut()?.action(&call, code);
                        }
                        _ => {
                            fins += 1;
                            after.get_or_insert_with(|| self.game_now());
                            ends = true;
                            self.replay
                                .step(step)
                                .map_err(|e| format!("callback #{index}: {}", e.0))?;
                        }
                    }
                }
                Step::Retire(seat) if usize::from(entry.seat) == *seat => {
                    after.get_or_insert_with(|| self.game_now());
                    ends = true;
                    self.replay
                        .step(step)
                        .map_err(|e| format!("callback #{index}: {}", e.0))?;
                }
                other => {
                    return Err(format!(
                        "callback #{index} of seat {} holds {other:?}",
                        entry.seat
                    ))
                }
            }
        }
        let counted = super::step_actions::refused_counts(&entry.refused);
        let refusals = counted.iter().fold(0u64, |sum, r| sum.saturating_add(r.2));
        self.builder_mut()?.counted(&counted);
        let acts = acts.saturating_add(refusals);
        let questions = entry.requests.checked_sub(acts).ok_or_else(|| {
            format!(
                "callback #{index}: {} requests recorded, fewer than its {acts} actions",
                entry.requests
            )
        })?;
        let after = after.unwrap_or_else(|| self.game_now());
        let played = Played {
            turn,
            phase,
            seat: entry.seat,
            callback,
            info: questions,
            refused: None,
        };
        let at = self.builder_mut()?.steps.len();
        self.call_steps.push(at);
        self.builder_mut()?.callback(played, &after);
        if ends {
            let now = self.game_now();
            let builder = self.builder.as_mut().ok_or("no setup")?;
            advance(builder, after, &now)?;
        }
        Ok((entry.requests - fins) as usize)
    }

    fn builder_mut(&mut self) -> Result<&mut Builder, String> {
        self.builder
            .as_mut()
            .ok_or_else(|| "a callback before the setup".to_string())
    }

    fn game_now(&self) -> Game {
        self.replay
            .state()
            .game()
            .cloned()
            .expect("the setup is drawn")
    }
}

/// Shows on `builder` the end of every stage from `before` to `now` (the stages the rules
/// ended at once), each with the game right after it.
fn advance(builder: &mut Builder, mut before: Game, now: &Game) -> Result<(), String> {
    let at = |g: &Game| (g.stage(), g.state().turn);
    let mut ended = 0;
    while at(&before) != at(now) {
        let (stage, turn) = at(&before);
        before.advance();
        builder.stage(stage, turn, &before);
        ended += 1;
        if ended > 100 {
            return Err("the rules' stages do not meet the record's".into());
        }
    }
    Ok(())
}

/// Each fault of `record` with the step it shows on: its callback's; for a seat that never
/// started, the first; for output after a seat's last callback, that callback's. The
/// message is the fault's own (the record's list adds the callback's name before it, which
/// the step shows).
fn faults(
    record: &GameRecord,
    call_steps: &[usize],
    never_started: &[u8],
    builder: &Builder,
) -> Vec<(usize, FaultView)> {
    let last = builder.steps.len().saturating_sub(1);
    record
        .faults
        .iter()
        .map(|fault| {
            let step = match fault.callback {
                Some(i) => call_steps.get(i).copied().unwrap_or(last),
                None if never_started.contains(&fault.seat) => 0,
                None => record
                    .callbacks
                    .iter()
                    .rposition(|c| c.seat == fault.seat)
                    .and_then(|i| call_steps.get(i).copied())
                    .unwrap_or(last),
            };
            let view = FaultView {
                seat: fault.seat,
                kind: fault.kind.name().to_string(),
                message: printable(record.fault_message(fault)).into_owned(),
            };
            (step, view)
        })
        .collect()
}

/// The end of the match as the rules give it (rules 9 and 26).
fn result_of(game: &Game) -> ResultView {
    let state = game.state();
    let outcome = game.outcome();
    ResultView {
        final_scores: outcome.final_scores,
        money: state.money,
        houses: crate::replay::houses_built(game),
        points: outcome.points,
    }
}
