//! A match applied again from its history (the chance outcomes and the actions with their
//! answers, as a record keeps them): the rules must admit every step and give the same
//! answers, the same digests and the same ranking, or the history was not played by them.

use crate::{Acting, Drawn, Game, Illegal, Options, Ranking, State};
use std::fmt;

/// Where a history and the rules part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence(pub String);

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Divergence {}

/// One step of a match's history, as a record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Chance drew this.
    Chance(Drawn),
    /// A seat acted, and was answered (or broke a rule).
    Act {
        seat: usize,
        action: String,
        answer: Result<String, Illegal>,
    },
    /// A seat left the match (a fault).
    Retire(usize),
}

/// A match being applied again, step by step, by the runner reading a record.
pub struct Replay<S: State> {
    state: S,
    seats: usize,
}

impl<S: State> Replay<S> {
    /// The match `game` starts with `seats` seats and `options`.
    pub fn start<G: Game<State = S>>(
        game: &G,
        seats: usize,
        options: &Options,
    ) -> Result<Replay<S>, Divergence> {
        if !game.seats().contains(&seats) {
            return Err(Divergence(format!(
                "{} seats: {} is played by {} to {}",
                seats,
                game.name(),
                game.seats().start(),
                game.seats().end()
            )));
        }
        let options = options.completed(game.options()).map_err(Divergence)?;
        let state = game.start(seats, &options).map_err(Divergence)?;
        Ok(Replay { state, seats })
    }

    /// Chance drew `drawn`.
    pub fn chance(&mut self, drawn: &Drawn) -> Result<(), Divergence> {
        match self.state.acting() {
            Acting::Chance(chance) if chance.admits(drawn) => {
                self.state.chance(drawn).map_err(Divergence)
            }
            Acting::Chance(chance) => Err(Divergence(format!(
                "chance drew {drawn:?}, which {chance:?} cannot draw"
            ))),
            acting => Err(Divergence(format!(
                "chance drew {drawn:?} where the rules wait for {acting:?}"
            ))),
        }
    }

    /// `seat` took the action written `action`, which was answered `answer`.
    pub fn act(
        &mut self,
        seat: usize,
        action: &str,
        answer: &Result<String, Illegal>,
    ) -> Result<(), Divergence> {
        match self.state.acting() {
            Acting::Seats(seats) if seats.contains(&seat) => {}
            acting => {
                return Err(Divergence(format!(
                    "seat {seat} took `{action}` where the rules wait for {acting:?}"
                )))
            }
        }
        let parsed: S::Action = action
            .parse()
            .map_err(|_| Divergence(format!("seat {seat} took `{action}`, which is no action")))?;
        if parsed.to_string() != action {
            return Err(Divergence(format!(
                "seat {seat}'s action `{action}` is written `{parsed}`"
            )));
        }
        let got = self.state.act(seat, &parsed);
        if &got != answer {
            return Err(Divergence(format!(
                "seat {seat}'s `{action}` is answered {got:?} by the rules, {answer:?} in the \
                 record"
            )));
        }
        Ok(())
    }

    /// `seat` left the match (a fault).
    pub fn retire(&mut self, seat: usize) -> Result<(), Divergence> {
        if seat >= self.seats {
            return Err(Divergence(format!(
                "seat {seat} retires from a match of {} seats",
                self.seats
            )));
        }
        self.state.retire(seat);
        Ok(())
    }

    /// Applies `step`.
    pub fn step(&mut self, step: &Step) -> Result<(), Divergence> {
        match step {
            Step::Chance(drawn) => self.chance(drawn),
            Step::Act {
                seat,
                action,
                answer,
            } => self.act(*seat, action, answer),
            Step::Retire(seat) => self.retire(*seat),
        }
    }

    /// The state's digest must be `digest` here.
    pub fn digest_is(&self, digest: u64, at: &str) -> Result<(), Divergence> {
        let got = self.state.digest();
        if got != digest {
            return Err(Divergence(format!(
                "{at}: the state's digest is {got:016x} by the rules, {digest:016x} in the record"
            )));
        }
        Ok(())
    }

    /// The match as applied so far.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The history is over: the match must be over too, ranked `ranking`.
    pub fn finish(self, ranking: &Ranking) -> Result<S, Divergence> {
        match (self.state.acting(), self.state.ranking()) {
            (Acting::Over, Some(got)) if &got == ranking => Ok(self.state),
            (Acting::Over, got) => Err(Divergence(format!(
                "the match ends ranked {got:?} by the rules, {ranking:?} in the record"
            ))),
            (acting, _) => Err(Divergence(format!(
                "the history stops where the rules wait for {acting:?}"
            ))),
        }
    }
}
