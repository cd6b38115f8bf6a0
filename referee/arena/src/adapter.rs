//! A game's wire protocol on the model: which callbacks its champions get, what each of
//! their lines means (a question answered, an action taken, the end of the callback), and
//! how an action's answer is written.

use game::{Illegal, Step};

/// The state of the game an adapter plays.
pub type State<A> = <<A as Adapter>::Game as game::Game>::State;
/// The action of the game an adapter plays.
pub type Action<A> = <State<A> as game::State>::Action;

/// What a champion's line means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<T> {
    /// A question, answered with this line; nothing changes.
    Answer(String),
    /// An action for the rules; its answer is written by [`Adapter::answer`].
    Act(T),
    /// The end of the callback (`fin`).
    End,
}

/// A game's protocol: what the arena needs besides the rules to play it with champions.
pub trait Adapter: Sync + 'static {
    type Game: game::Game;
    /// The rules.
    fn game(&self) -> &Self::Game;
    /// The callbacks every seat still in plays before the first turn, and those after the
    /// end. The match's first callback, opening or turn, has the start-up allowance. By
    /// default the kits' usual callbacks (protocol.md): `init_game` first, `end_game` last.
    fn opening(&self) -> &'static [&'static str] {
        &["init_game"]
    }
    fn closing(&self) -> &'static [&'static str] {
        &["end_game"]
    }
    /// The callback of a seat the rules name as acting now: `jouer` by default.
    fn turn(&self, _state: &State<Self>, _seat: usize) -> &'static str {
        "jouer"
    }
    /// What `line` of `seat` means during `callback`; a protocol fault's message if it
    /// means nothing (the seat is then out of the match).
    fn read(
        &self,
        state: &State<Self>,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action<Self>>, String>;
    /// What `line` means, for a game whose answers tell the others' moves (Ticket to Ride's
    /// `moves`): `history` is the match so far. Every other game reads without it.
    fn read_with(
        &self,
        state: &State<Self>,
        _history: History<'_>,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action<Self>>, String> {
        self.read(state, seat, callback, line)
    }
    /// Whether `action`, once the rules took it, ends the seat's callback (nothing is sent
    /// back): the 2009 game's `fin`, the end of a seat's turn in its rules. Refused, it is
    /// answered as any action.
    fn is_last(&self, _action: &Action<Self>) -> bool {
        false
    }
    /// The line that answers an action the rules took or refused; `None` if a refused
    /// action is a fault (the seat is then out of the match, with the rule as the message).
    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String>;
    /// Whether `key` (a [`super::record::refusal_key`]: function and answer) names a
    /// refusal the game answers without a fault: one of its action functions, refused with
    /// a code its rules give. A record counting another is forged. None, by default: a
    /// game whose refused actions are faults counts no refusal.
    fn refusal_known(&self, _key: &str) -> bool {
        false
    }
    /// What the game says of a finished match for people and tools reading its record (the
    /// Amazons: the moves, the winner), derived from the record (so checked with it).
    fn summary(&self, _record: &super::GameRecord) -> serde_json::Value {
        serde_json::Value::Null
    }
}

/// The history of a match being played: chance's draws, the actions with their answers and
/// the seats that left, in order (the record's `start`, then each callback's steps, the
/// current one's so far). What a seat may learn of it is the adapter's to decide.
#[derive(Clone, Copy)]
pub struct History<'a> {
    pub(crate) start: &'a [Step],
    pub(crate) callbacks: &'a [super::CallbackEntry],
    pub(crate) current: Option<&'a super::CallbackEntry>,
}

impl<'a> History<'a> {
    /// No history: a match before anything happened.
    pub fn empty() -> History<'static> {
        History {
            start: &[],
            callbacks: &[],
            current: None,
        }
    }

    /// Every step so far, in order.
    pub fn steps(&self) -> impl Iterator<Item = &'a Step> {
        self.start.iter().chain(
            self.callbacks
                .iter()
                .chain(self.current)
                .flat_map(|c| c.steps.iter()),
        )
    }
}
