//! What a game is, for a contest runner, described the way OpenSpiel describes one: a
//! [`Game`] (its name, the seats it accepts, its options) starts a [`State`]; the state says
//! who acts now ([`Acting`]: some seats, or chance), takes an action of a seat and gives its
//! answer, takes what chance drew, shows each seat what it may see (its observation), and
//! at the end ranks the seats. A match is then the seed, the chance outcomes and the
//! actions: applying them again ([`Replay`]) gives the same answers, the same digests and
//! the same ranking, whatever else was recorded.
//!
//! This crate knows no process, protocol or file: the rules crates implement it, the runner
//! drives it. A game's wire protocol (which lines mean which action) is its adapter's, in
//! the runner.
//!
//! ```
//! use game::{Acting, Game, State};
//! # use game::testing::Nim;
//! let game = Nim { heap: 5 };
//! let mut state = game.start(2, &game.defaults()).unwrap();
//! assert_eq!(state.acting(), Acting::Seats(vec![0]));
//! state.act(0, &2).unwrap();
//! assert_eq!(state.acting(), Acting::Seats(vec![1]));
//! ```

#![forbid(unsafe_code)]

mod chance;
pub mod options;
mod ranking;
mod replay;
pub mod testing;

pub use chance::{Chance, Drawn};
pub use options::{OptionSpec, Options};
pub use ranking::Ranking;
pub use replay::{Divergence, Replay, Step};

use std::fmt::{Debug, Display};
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A game: what a runner needs to start one of its matches.
pub trait Game: Sync {
    /// The state of one of its matches.
    type State: State;
    /// Its name on the command line and in records (`amazons`).
    fn name(&self) -> &'static str;
    /// Its title for people.
    fn title(&self) -> &'static str;
    /// The version of its rules: a record of another version is not replayed by these.
    fn version(&self) -> u32;
    /// How many seats a match may have.
    fn seats(&self) -> RangeInclusive<usize>;
    /// The options it takes, each with its default.
    fn options(&self) -> &'static [OptionSpec];
    /// The options all at their defaults.
    fn defaults(&self) -> Options {
        Options::defaults(self.options())
    }
    /// A match of `seats` seats with `options` (checked by [`Options::parse`]), before
    /// anything is drawn: its first [`Acting`] may be chance.
    fn start(&self, seats: usize, options: &Options) -> Result<Self::State, String>;
}

/// Who acts now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acting {
    /// These seats, in this order; each plays its turn apart from the others (several
    /// seats act at once, such as sealed bids: no seat sees another's actions of the turn).
    Seats(Vec<usize>),
    /// Chance: the runner draws this from its stream and gives it to [`State::chance`].
    Chance(Chance),
    /// The match is over: [`State::ranking`] says how it ended.
    Over,
}

/// Why an action was refused: the rule it breaks. The state is unchanged; whether the seat
/// may try again or is out of the match is its protocol's choice (the runner then records
/// a fault and calls [`State::retire`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Illegal(pub String);

impl Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One match of a game, from its start to its end.
pub trait State: Clone + Send {
    /// What a seat may do, with a text form (`Display` and `FromStr` agree) kept in records.
    type Action: Clone + Debug + PartialEq + Display + FromStr;
    /// What a seat may see of the match (its hand, not the others').
    type Observation: Debug + serde::Serialize;
    /// Who acts now.
    fn acting(&self) -> Acting;
    /// What chance drew for the current [`Acting::Chance`]; an error if it does not fit the
    /// request (a record edited by hand).
    fn chance(&mut self, drawn: &Drawn) -> Result<(), String>;
    /// The actions `seat` may take now, in a fixed order (bots and tests draw from them).
    fn legal(&self, seat: usize) -> Vec<Self::Action>;
    /// `seat` takes `action`: its answer (what the seat is told, in text), or the rule it
    /// breaks (and nothing changes). Only a seat that [`State::acting`] names acts.
    fn act(&mut self, seat: usize, action: &Self::Action) -> Result<String, Illegal>;
    /// `seat` is out of the match (it broke a rule, crashed, ran out of time): the game
    /// goes on without it or ends, as its rules say.
    fn retire(&mut self, seat: usize);
    /// What `seat` sees now.
    fn observe(&self, seat: usize) -> Self::Observation;
    /// How the match ended, once [`Acting::Over`].
    fn ranking(&self) -> Option<Ranking>;
    /// A digest of the whole state, stable across versions of this program and its
    /// dependencies (records keep it to show that a replay reached the same state).
    fn digest(&self) -> u64;
}

/// FNV-1a (64 bits) of `bytes`: a digest every game can build its own from, fixed here.
///
/// ```
/// assert_eq!(game::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
