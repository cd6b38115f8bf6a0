//! One match of a game on the model, behind the match loop's seam ([`Rules`]): the
//! callbacks in order (the adapter's opening ones to every seat, a turn to each seat the
//! rules name, chance drawn from the match's stream as soon as the rules ask, the closing
//! ones), each line read by the adapter and each action taken by the rules, and the
//! [`GameRecord`] written as it goes. The record's check ([`super::check`]) drives the same
//! machine with the recorded actions, so that both agree by construction. A callback keeps
//! its first refused actions and counts the others ([`super::record::REFUSALS_KEPT`]): what
//! a match holds in memory and on disk is bounded by what the game can change.

use super::adapter::{Action, Adapter, History, Line, State};
use super::parts::{BudgetsRecord, SeatRecord, TimingRecord};
use super::record::{
    hex, refusal_key, refusals_kept, CallbackEntry, GameFault, GameRecord, GAME_RECORD_SCHEMA,
};
use crate::endpoint::{CallTiming, TimeLimits};
use crate::rules::{Reply, Rules, Step};
use game::{Acting, Game, Illegal, Options, Ranking, State as _};
use jail::fault::{Fault, FaultKind};

/// A request as a full log keeps it, in every game: its words joined by single spaces. The
/// adapters read a line's words split on any ASCII whitespace, so this is the request they
/// read, and the log's own tab-separated fields hold no tab of a champion's line (`hand\t`,
/// `keep\t1\t1\t1` are logged `hand`, `keep 1 1 1`, as the 2009 game logs a call as its
/// engine prints it).
pub fn logged_form(line: &str) -> String {
    line.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

/// The code a full log keeps of an answer: the answer as a number, 0 when it is none (a
/// board, an `etat`).
pub fn answer_code(answer: &str) -> i32 {
    answer.trim().parse().unwrap_or(0)
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The adapter's opening callback `n` comes next.
    Opening(usize),
    Play,
    /// The adapter's closing callback `n` comes next.
    Closing(usize),
    Over,
}

/// A match being played (or checked).
pub struct Machine<'a, A: Adapter> {
    adapter: &'a A,
    state: State<A>,
    chance: draw::Stream,
    limits: TimeLimits,
    stage: Stage,
    /// Seats out of the match (a fault).
    out: Vec<bool>,
    /// The ranking once the rules ended the match: faults after it change nothing.
    decided: Option<Ranking>,
    callback: &'static str,
    /// Whether a callback was sent yet (the first has the start-up allowance).
    started: bool,
    current: Option<CallbackEntry>,
    /// Refused actions the current callback keeps in its steps so far.
    refusals: usize,
    record: GameRecord,
    /// Where every request answered goes (`--full-log`).
    log: Option<&'a mut dyn crate::full_log::Sink>,
}

impl<'a, A: Adapter> Machine<'a, A> {
    /// A match of `adapter`'s game with `options` (checked), seed `seed` and `seats`,
    /// about to start: chance has drawn what the rules ask before anyone acts.
    pub fn new(
        adapter: &'a A,
        options: &Options,
        seed: u64,
        seats: Vec<SeatRecord>,
        limits: TimeLimits,
        sandbox: String,
    ) -> Result<Machine<'a, A>, String> {
        let game = adapter.game();
        if !game.seats().contains(&seats.len()) {
            return Err(format!(
                "{} is played by {} to {} seats, not {}",
                game.title(),
                game.seats().start(),
                game.seats().end(),
                seats.len()
            ));
        }
        // Played with every option the game has; recorded as given (a record of before an
        // option was added is made again byte for byte).
        let state = game.start(seats.len(), &options.completed(game.options())?)?;
        let chance = draw::Stream::new(crate::seeds::derive(seed, crate::seeds::CHANCE_STREAM, 0));
        let n = seats.len();
        let mut machine = Machine {
            adapter,
            state,
            chance,
            limits,
            stage: Stage::Opening(0),
            out: vec![false; n],
            decided: None,
            callback: "",
            started: false,
            current: None,
            refusals: 0,
            log: None,
            record: GameRecord {
                schema: GAME_RECORD_SCHEMA,
                game: game.name().to_string(),
                version: game.version(),
                options: options.clone(),
                seed,
                seats,
                sandbox,
                budgets: BudgetsRecord::of(&limits),
                start: Vec::new(),
                callbacks: Vec::new(),
                faults: Vec::new(),
                ranking: Ranking {
                    places: vec![],
                    scores: vec![],
                },
                summary: serde_json::Value::Null,
                full_log: None,
                timings: Vec::new(),
            },
        };
        let mut start = Vec::new();
        machine.draw_chance(&mut start);
        machine.record.start = start;
        super::watch::tell(&machine.record);
        Ok(machine)
    }

    /// Plays the match as records of schema `schema` did (an older schema kept every
    /// refused action), for the check of such a record, and to compare a match with the
    /// 2009 game's own record (which keeps every refused action too); the record says it.
    pub fn as_schema(&mut self, schema: u32) {
        self.record.schema = schema;
    }

    /// Sends every request answered from now on (questions and actions, with their
    /// answer's code: `answer_code`) to `log`.
    pub fn log_to(&mut self, log: &'a mut dyn crate::full_log::Sink) {
        self.log = Some(log);
    }

    /// The match as played so far.
    pub fn state(&self) -> &State<A> {
        &self.state
    }

    /// Whether `seat` is out of the match.
    pub fn is_out(&self, seat: usize) -> bool {
        self.out[seat]
    }

    /// The record of the finished match.
    pub fn finish(mut self) -> GameRecord {
        let out = &self.out;
        self.record.ranking = self
            .decided
            .take()
            .or_else(|| self.state.ranking())
            // A match stopped before its end (every seat out where the rules did not end
            // it): the seats still in first.
            .unwrap_or_else(|| {
                Ranking::by_keys(out.iter().map(|o| !o).collect(), vec![0; out.len()])
            });
        self.record.summary = self.adapter.summary(&self.record);
        self.record
    }

    /// Draws what chance must draw now, each draw appended to `steps`.
    fn draw_chance(&mut self, steps: &mut Vec<game::Step>) {
        while let Acting::Chance(chance) = self.state.acting() {
            let drawn = chance.draw(self.record.seed, &mut self.chance);
            self.state
                .chance(&drawn)
                .expect("the rules take what they asked chance to draw");
            steps.push(game::Step::Chance(drawn));
        }
    }

    /// The record of a callback of `seat` about to start (the current one's name).
    fn entry(&self, seat: usize) -> CallbackEntry {
        CallbackEntry {
            seat: seat as u8,
            callback: self.callback.to_string(),
            steps: Vec::new(),
            refused: Default::default(),
            requests: 0,
            digest: String::new(),
            fault: None,
        }
    }

    /// Whether `seat` is one the rules wait for.
    fn is_acting(&self, seat: usize) -> bool {
        matches!(self.state.acting(), Acting::Seats(seats) if seats.contains(&seat))
    }

    /// `seat` takes `action` in the current callback: the rules' answer, recorded with the
    /// chance it made draw; a refusal the seat is answered (not a fault) past the callback's
    /// first kept ones is counted by its [`refusal_key`] instead.
    pub(crate) fn take(&mut self, seat: usize, action: Action<A>) -> Result<String, Illegal> {
        let answer = self.state.act(seat, &action);
        let kept = refusals_kept(self.record.schema);
        let entry = self.current.as_mut().expect("an action inside a callback");
        entry.requests += 1;
        if let (Err(_), Some(line)) = (&answer, self.adapter.answer(&answer)) {
            if self.refusals >= kept {
                *entry
                    .refused
                    .entry(refusal_key(&action.to_string(), &line))
                    .or_default() += 1;
                return answer;
            }
            self.refusals += 1;
        }
        let mut steps = vec![game::Step::Act {
            seat,
            action: action.to_string(),
            answer: answer.clone(),
        }];
        self.draw_chance(&mut steps);
        let entry = self.current.as_mut().expect("an action inside a callback");
        entry.steps.extend(steps);
        answer
    }

    /// The current callback's refused actions counted, as a record says (the check's
    /// input): what is wrong if the machine would not have counted them so (it counts only
    /// past the kept ones, and no more than the callback's requests).
    pub(crate) fn set_refused(
        &mut self,
        refused: &std::collections::BTreeMap<String, u64>,
    ) -> Result<(), String> {
        let Some(entry) = self.current.as_mut() else {
            return Ok(());
        };
        if refused.is_empty() {
            return Ok(());
        }
        let kept = refusals_kept(self.record.schema);
        if self.refusals < kept {
            return Err(format!(
                "it counts refused actions {refused:?} but keeps {} of the {kept} the referee \
                 keeps before it counts",
                self.refusals
            ));
        }
        if let Some((key, _)) = refused.iter().find(|(_, &n)| n == 0) {
            return Err(format!("it counts `{key}` refused 0 times"));
        }
        if let Some(key) = refused.keys().find(|k| !self.adapter.refusal_known(k)) {
            return Err(format!(
                "it counts refusals {key:?}: not an action of the game refused with a code \
                 its rules give"
            ));
        }
        let counted = refused
            .values()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
            .unwrap_or(u64::MAX);
        let actions = entry
            .steps
            .iter()
            .filter(|s| matches!(s, game::Step::Act { .. }))
            .count() as u64;
        if counted.saturating_add(actions) > entry.requests {
            return Err(format!(
                "it counts {counted} refused actions besides its {actions} actions, more than \
                 its {} requests",
                entry.requests
            ));
        }
        entry.refused = refused.clone();
        Ok(())
    }

    /// Counts a question answered in the current callback.
    pub(crate) fn count(&mut self) {
        if let Some(entry) = self.current.as_mut() {
            entry.requests += 1;
        }
    }

    /// The current callback's requests, as a record says (the check's input).
    pub(crate) fn set_requests(&mut self, requests: u64) {
        if let Some(entry) = self.current.as_mut() {
            entry.requests = requests;
        }
    }

    /// Whether the rules wait for an action of `seat` in its current callback (its turn).
    pub(crate) fn waits_for(&self, seat: usize) -> bool {
        self.stage == Stage::Play && self.is_acting(seat)
    }

    /// A fault recorded outside any callback.
    pub(crate) fn fault_outside(&mut self, seat: usize, kind: FaultKind, message: String) {
        self.record.faults.push(GameFault {
            seat: seat as u8,
            callback: None,
            kind,
            message,
        });
    }
    /// What `line` of `seat` gets in the current callback (a request counted, or not).
    fn reply(&mut self, seat: usize, line: &str) -> Result<Reply, String> {
        let callback = self.callback;
        let history = History {
            start: &self.record.start,
            callbacks: &self.record.callbacks,
            current: self.current.as_ref(),
        };
        match self
            .adapter
            .read_with(&self.state, history, seat, callback, line)?
        {
            Line::Answer(answer) => {
                self.count();
                Ok(Reply::Answer(answer))
            }
            Line::End if self.waits_for(seat) => Err(format!(
                "ended {callback} before its turn was over: the game waits for its action"
            )),
            Line::End => Ok(Reply::End),
            Line::Act(_) if !self.waits_for(seat) => Err(format!(
                "`{}` during {callback}: an action out of its turn",
                jail::fault::quote(line.as_bytes())
            )),
            Line::Act(action) => {
                let last = self.adapter.is_last(&action);
                let answer = self.take(seat, action);
                match self.adapter.answer(&answer) {
                    _ if last && answer.is_ok() => Ok(Reply::End),
                    Some(line) => Ok(Reply::Answer(line)),
                    None => Err(answer.err().map_or_else(String::new, |e| e.0)),
                }
            }
        }
    }
}

impl<A: Adapter> Rules for Machine<'_, A> {
    fn next_step(&mut self) -> Option<Step> {
        let live = |m: &Self| (0..m.out.len()).filter(|&s| !m.out[s]).collect::<Vec<_>>();
        loop {
            let (name, seats) = match self.stage {
                Stage::Opening(n) => match self.adapter.opening().get(n) {
                    Some(name) => {
                        self.stage = Stage::Opening(n + 1);
                        (*name, live(self))
                    }
                    None => {
                        self.stage = Stage::Play;
                        continue;
                    }
                },
                Stage::Play => match self.state.acting() {
                    Acting::Seats(acting) => {
                        let seats: Vec<usize> =
                            acting.into_iter().filter(|&s| !self.out[s]).collect();
                        match seats.first() {
                            Some(&first) => (self.adapter.turn(&self.state, first), seats),
                            // The rules wait for seats that are out: they cannot go on.
                            None => {
                                self.stage = Stage::Closing(0);
                                continue;
                            }
                        }
                    }
                    Acting::Chance(_) => {
                        let mut steps = Vec::new();
                        self.draw_chance(&mut steps);
                        match self.record.callbacks.last_mut() {
                            Some(entry) => entry.steps.extend(steps),
                            None => self.record.start.extend(steps),
                        }
                        continue;
                    }
                    Acting::Over => {
                        self.decided = self.state.ranking();
                        self.stage = Stage::Closing(0);
                        continue;
                    }
                },
                Stage::Closing(n) => match self.adapter.closing().get(n) {
                    Some(name) => {
                        self.stage = Stage::Closing(n + 1);
                        (*name, live(self))
                    }
                    None => {
                        self.stage = Stage::Over;
                        continue;
                    }
                },
                Stage::Over => return None,
            };
            if seats.is_empty() {
                continue;
            }
            self.callback = name;
            let init = !std::mem::replace(&mut self.started, true);
            return Some(Step {
                name,
                limits: self.limits.allowance(init),
                seats,
            });
        }
    }

    fn request(&mut self, seat: usize, line: &str) -> Result<Reply, String> {
        let counted = self.current.as_ref().map_or(0, |e| e.requests);
        let reply = self.reply(seat, line);
        let index = self.record.callbacks.len();
        let requests = self.current.as_ref().map_or(0, |e| e.requests);
        // A request counted (a question, an action, refused as a fault too), as the record
        // counts them: a line that ends the callback without an action is none.
        if let (Some(log), true) = (self.log.as_deref_mut(), requests != counted) {
            let code = match &reply {
                Ok(Reply::Answer(answer)) => answer_code(answer),
                _ => 0,
            };
            log.request(index, &logged_form(line), code);
        }
        reply
    }

    fn begin(&mut self, seat: usize) {
        self.current = Some(self.entry(seat));
        self.refusals = 0;
    }

    fn end(&mut self, seat: usize, fault: Option<&Fault>, timing: CallTiming) {
        let mut entry = match self.current.take() {
            Some(entry) => entry,
            None => self.entry(seat),
        };
        if let Some(fault) = fault {
            self.out[seat] = true;
            if self.decided.is_none() {
                self.state.retire(seat);
                entry.steps.push(game::Step::Retire(seat));
                self.draw_chance(&mut entry.steps);
            }
            self.record.faults.push(GameFault {
                seat: seat as u8,
                callback: Some(self.record.callbacks.len()),
                kind: fault.kind,
                message: format!("{}: {}", self.callback, fault.message),
            });
            entry.fault = Some(fault.clone());
        }
        entry.digest = hex(self.state.digest());
        self.record.callbacks.push(entry);
        self.record.timings.push(TimingRecord::from(timing));
        super::watch::tell(&self.record);
    }

    fn advance(&mut self) {}

    fn spawn_fault(&mut self, seat: usize, fault: &Fault) {
        self.out[seat] = true;
        self.state.retire(seat);
        let mut steps = vec![game::Step::Retire(seat)];
        self.draw_chance(&mut steps);
        self.record.start.extend(steps);
        self.fault_outside(seat, fault.kind, fault.message.clone());
    }

    /// As a fault in its last callback: the seat is out (the ranking stands once the rules
    /// decided the match, as after any fault of a closing callback).
    fn late_fault(&mut self, seat: usize, fault: &Fault) {
        self.out[seat] = true;
        self.fault_outside(seat, fault.kind, fault.message.clone());
    }

    fn late_output(&mut self, seat: usize, line: &str) {
        let message = format!(
            "unexpected output `{}` after {}: {}",
            jail::fault::quote(line.as_bytes()),
            self.callback,
            jail::fault::LOGS_ON_STDERR
        );
        self.fault_outside(seat, FaultKind::Protocol, message);
    }
}
