//! The `random` bot the original program asks for: every choice uniformly among the legal
//! ones.

use crate::{Action, TownState};

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
