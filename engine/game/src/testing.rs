//! What every game's tests share: a match played by random seats from a seed
//! ([`random_match`]), and the checks every game must pass ([`conformance`]): its history
//! replays to the same digests and ranking, its observations do not depend on what a seat
//! may not see. And two small games that show the model: [`Nim`] (turns) and [`HighCard`]
//! (chance, hidden cards, seats acting at once, any number of seats).

use crate::options::Kind;
use crate::{
    Acting, Chance, Drawn, Game, Illegal, OptionSpec, Options, Ranking, Replay, State, Step,
};
use std::fmt;
use std::str::FromStr;

/// A match played to its end: its history, the digest after each step, its ranking.
#[derive(Clone, Debug)]
pub struct Played {
    pub steps: Vec<Step>,
    pub digests: Vec<u64>,
    pub ranking: Ranking,
}

/// Plays a match of `game` with `seats` seats and `options`: chance from `seed`'s stream,
/// each acting seat a random legal action from another stream of it; with `retire`, that
/// seat leaves the match at its first action. Stops with an error after `max_steps`.
pub fn random_match<G: Game>(
    game: &G,
    seats: usize,
    options: &Options,
    seed: u64,
    retire: Option<usize>,
    max_steps: usize,
) -> Result<Played, String> {
    let mut state = game.start(seats, options)?;
    let mut chance = draw::Stream::new(seed);
    let mut players = draw::Stream::new(seed ^ 0x5eed);
    let mut played = Played {
        steps: Vec::new(),
        digests: Vec::new(),
        ranking: Ranking::by_scores(vec![]),
    };
    let mut retired = None;
    while played.steps.len() < max_steps {
        let step = match state.acting() {
            Acting::Over => {
                played.ranking = state.ranking().ok_or("over without a ranking")?;
                return Ok(played);
            }
            Acting::Chance(c) => {
                let drawn = c.draw(seed, &mut chance);
                state.chance(&drawn)?;
                Step::Chance(drawn)
            }
            Acting::Seats(acting) if acting.is_empty() => return Err("no seat acts".into()),
            Acting::Seats(acting) => {
                let seat = acting[players.index(acting.len())];
                if retire == Some(seat) && retired.is_none() {
                    retired = Some(seat);
                    state.retire(seat);
                    Step::Retire(seat)
                } else {
                    let legal = state.legal(seat);
                    let action = players
                        .choose(&legal)
                        .ok_or(format!("seat {seat} acts but has no legal action"))?
                        .clone();
                    let answer = state.act(seat, &action);
                    if answer.is_err() {
                        state.retire(seat);
                    }
                    Step::Act {
                        seat,
                        action: action.to_string(),
                        answer,
                    }
                }
            }
        };
        played.steps.push(step);
        played.digests.push(state.digest());
    }
    Err(format!("not over after {max_steps} steps"))
}

/// The checks every game passes, over `matches` random matches for each number of seats
/// it accepts (its default options): each replays step by step to the same digests and
/// ranking; each action's text reads back as itself; a legal action is never illegal; a
/// match with a retired seat ends, ranked; the same seed plays the same match. (What a
/// game hides from a seat is for its own tests to show.)
pub fn conformance<G: Game>(game: &G, matches: u64, max_steps: usize) -> Result<(), String> {
    let options = game.defaults();
    for seats in game.seats() {
        for seed in 0..matches {
            let retire = (seed % 3 == 0).then_some(seed as usize % seats);
            let played = random_match(game, seats, &options, seed, retire, max_steps)?;
            let again = random_match(game, seats, &options, seed, retire, max_steps)?;
            if again.steps != played.steps || again.digests != played.digests {
                return Err(format!(
                    "seed {seed}, {seats} seats: not the same match twice"
                ));
            }
            if played.ranking.places.len() != seats || played.ranking.scores.len() != seats {
                return Err(format!("{seats} seats ranked {:?}", played.ranking));
            }
            if retire.is_none()
                && played
                    .steps
                    .iter()
                    .any(|s| matches!(s, Step::Act { answer: Err(_), .. }))
            {
                return Err(format!(
                    "seed {seed}, {seats} seats: a legal action was illegal"
                ));
            }
            let mut replay = Replay::start(game, seats, &options).map_err(|d| d.0)?;
            for (n, (step, digest)) in played.steps.iter().zip(&played.digests).enumerate() {
                replay.step(step).map_err(|d| format!("step {n}: {d}"))?;
                replay
                    .digest_is(*digest, &format!("step {n}"))
                    .map_err(|d| d.0)?;
            }
            for seat in 0..seats {
                replay.state().observe(seat);
            }
            replay.finish(&played.ranking).map_err(|d| d.0)?;
        }
    }
    Ok(())
}

/// Nim: a heap of tokens, each seat in turn takes 1 to 3; who takes the last wins.
/// Any number of seats from 2 to 8; a retired seat's turns are skipped.
pub struct Nim {
    pub heap: u32,
}

/// A match of [`Nim`].
#[derive(Clone, Debug)]
pub struct NimState {
    heap: u32,
    turn: usize,
    out: Vec<bool>,
    winner: Option<usize>,
}

impl Game for Nim {
    type State = NimState;
    fn name(&self) -> &'static str {
        "nim"
    }
    fn title(&self) -> &'static str {
        "Nim"
    }
    fn version(&self) -> u32 {
        1
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=8
    }
    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }
    fn start(&self, seats: usize, _: &Options) -> Result<NimState, String> {
        Ok(NimState {
            heap: self.heap,
            turn: 0,
            out: vec![false; seats],
            winner: None,
        })
    }
}

impl NimState {
    fn pass_turn(&mut self) {
        let n = self.out.len();
        let Some(next) = (1..=n).map(|k| (self.turn + k) % n).find(|&s| !self.out[s]) else {
            return;
        };
        self.turn = next;
        if self.out.iter().filter(|o| !**o).count() == 1 {
            self.winner = Some(next);
        }
    }
}

impl State for NimState {
    type Action = u32;
    type Observation = u32;
    fn acting(&self) -> Acting {
        match self.winner {
            Some(_) => Acting::Over,
            None => Acting::Seats(vec![self.turn]),
        }
    }
    fn chance(&mut self, _: &Drawn) -> Result<(), String> {
        Err("Nim has no chance".into())
    }
    fn legal(&self, _: usize) -> Vec<u32> {
        (1..=self.heap.min(3)).collect()
    }
    fn act(&mut self, seat: usize, take: &u32) -> Result<String, Illegal> {
        if !(1..=self.heap.min(3)).contains(take) {
            return Err(Illegal(format!("cannot take {take} of {}", self.heap)));
        }
        self.heap -= take;
        if self.heap == 0 {
            self.winner = Some(seat);
        } else {
            self.pass_turn();
        }
        Ok(self.heap.to_string())
    }
    fn retire(&mut self, seat: usize) {
        self.out[seat] = true;
        if self.turn == seat && self.winner.is_none() {
            self.pass_turn();
        } else if self.out.iter().filter(|o| !**o).count() == 1 {
            self.winner = self.out.iter().position(|o| !o);
        }
    }
    fn observe(&self, _: usize) -> u32 {
        self.heap
    }
    fn ranking(&self) -> Option<Ranking> {
        let winner = self.winner?;
        let keys = (0..self.out.len())
            .map(|s| (s == winner, !self.out[s]))
            .collect();
        Some(Ranking::by_keys(keys, vec![0; self.out.len()]))
    }
    fn digest(&self) -> u64 {
        let mut bytes = vec![self.turn as u8];
        bytes.extend(self.heap.to_le_bytes());
        bytes.extend(self.out.iter().map(|&o| o as u8));
        crate::fnv1a(&bytes)
    }
}

/// High card: chance deals each seat one card of a deck of `deck` (an option), face down;
/// then every seat at once keeps or folds; the highest card kept wins, folders and retired
/// seats after the keepers. Each seat sees only its own card until the end.
pub struct HighCard;

/// A match of [`HighCard`].
#[derive(Clone, Debug)]
pub struct HighCardState {
    deck: u32,
    cards: Option<Vec<u32>>,
    choices: Vec<Option<Choice>>,
}

/// What a seat of [`HighCard`] does with its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Keep,
    Fold,
    /// Left the match.
    Out,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Choice::Keep => "keep",
            Choice::Fold => "fold",
            Choice::Out => "out",
        })
    }
}

impl FromStr for Choice {
    type Err = ();
    fn from_str(s: &str) -> Result<Choice, ()> {
        match s {
            "keep" => Ok(Choice::Keep),
            "fold" => Ok(Choice::Fold),
            _ => Err(()),
        }
    }
}

/// What a seat of [`HighCard`] sees: its card, and everyone's once all chose.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HighCardView {
    pub mine: Option<u32>,
    pub all: Option<Vec<u32>>,
}

impl Game for HighCard {
    type State = HighCardState;
    fn name(&self) -> &'static str {
        "highcard"
    }
    fn title(&self) -> &'static str {
        "High card"
    }
    fn version(&self) -> u32 {
        1
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=8
    }
    fn options(&self) -> &'static [OptionSpec] {
        &[OptionSpec {
            name: "deck",
            help: "cards in the deck",
            default: "13",
            kind: Kind::Integer(8, 52),
        }]
    }
    fn start(&self, seats: usize, options: &Options) -> Result<HighCardState, String> {
        Ok(HighCardState {
            deck: options.integer("deck") as u32,
            cards: None,
            choices: vec![None; seats],
        })
    }
}

impl State for HighCardState {
    type Action = Choice;
    type Observation = HighCardView;
    fn acting(&self) -> Acting {
        if self.cards.is_none() {
            return Acting::Chance(Chance::Order(self.deck));
        }
        let waiting: Vec<usize> = (0..self.choices.len())
            .filter(|&s| self.choices[s].is_none())
            .collect();
        match waiting.is_empty() {
            true => Acting::Over,
            false => Acting::Seats(waiting),
        }
    }
    fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        match drawn {
            Drawn::Order(order) if self.cards.is_none() => {
                self.cards = Some(order[..self.choices.len()].to_vec());
                Ok(())
            }
            _ => Err(format!("no deal here: {drawn:?}")),
        }
    }
    fn legal(&self, _: usize) -> Vec<Choice> {
        vec![Choice::Keep, Choice::Fold]
    }
    fn act(&mut self, seat: usize, choice: &Choice) -> Result<String, Illegal> {
        if *choice == Choice::Out {
            return Err(Illegal("`out` is not a choice".into()));
        }
        self.choices[seat] = Some(*choice);
        Ok("ok".into())
    }
    fn retire(&mut self, seat: usize) {
        self.choices[seat] = Some(Choice::Out);
    }
    fn observe(&self, seat: usize) -> HighCardView {
        let over = self.choices.iter().all(Option::is_some);
        HighCardView {
            mine: self.cards.as_ref().map(|c| c[seat]),
            all: self.cards.clone().filter(|_| over),
        }
    }
    fn ranking(&self) -> Option<Ranking> {
        let cards = self.cards.as_ref()?;
        let choices: Option<Vec<Choice>> = self.choices.iter().copied().collect();
        let keys = choices?
            .iter()
            .zip(cards)
            .map(|(c, &card)| match c {
                Choice::Keep => (2, card),
                Choice::Fold => (1, 0),
                Choice::Out => (0, 0),
            })
            .collect();
        let scores = cards.iter().map(|&c| i64::from(c)).collect();
        Some(Ranking::by_keys(keys, scores))
    }
    fn digest(&self) -> u64 {
        let mut bytes = self.deck.to_le_bytes().to_vec();
        for &c in self.cards.iter().flatten() {
            bytes.extend(c.to_le_bytes());
        }
        bytes.extend(self.choices.iter().map(|c| match c {
            None => 0,
            Some(Choice::Keep) => 1,
            Some(Choice::Fold) => 2,
            Some(Choice::Out) => 3,
        }));
        crate::fnv1a(&bytes)
    }
}
