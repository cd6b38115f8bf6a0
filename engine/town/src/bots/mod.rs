//! The built-in players: `random`, the one the original program asks for (every choice
//! uniformly among the legal ones), and `strong` (`strong.rs`), which weighs what each
//! legal action leaves its seat, with the powers' gold (`powers.rs`) and the objectives.

mod powers;
mod strong;

pub use strong::{strong, Plan};

use crate::Action;
use crate::TownState;

/// The built-in players' names, as the referee's `bot` command takes them.
pub const NAMES: [&str; 2] = ["random", "strong"];

/// The action of `seat` in `state`, drawn uniformly among its legal actions from
/// `stream`; `None` when the seat has nothing to do now.
///
/// ```
/// use game::{Acting, Game, State};
/// let mut state = town::Town.start(2, &town::Town.defaults()).unwrap();
/// let mut stream = draw::Stream::new(5);
/// while let Acting::Chance(chance) = state.acting() {
///     state.chance(&chance.draw(5, &mut stream)).unwrap();
/// }
/// let seat = state.to_play().unwrap();
/// let action = town::bots::random(&state, seat, &mut stream).unwrap();
/// assert!(state.act(seat, &action).is_ok());
/// ```
pub fn random(state: &TownState, seat: usize, stream: &mut draw::Stream) -> Option<Action> {
    stream.choose(&game::State::legal(state, seat)).cloned()
}
