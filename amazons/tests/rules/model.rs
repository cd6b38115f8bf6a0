//! The Game of the Amazons through the game model: it passes what every game must, and its
//! matches end as its rules say (no move: the other wins; an illegal move or a seat that
//! leaves: the other wins).

use amazons::{Amazons, Move};
use game::{Acting, Game, State};

#[test]
fn it_conforms() {
    game::testing::conformance(&Amazons, 6, 200).unwrap();
}

#[test]
fn an_illegal_move_is_illegal_and_a_seat_that_leaves_loses() {
    let mut state = Amazons.start(2, &Amazons.defaults()).unwrap();
    assert_eq!(state.acting(), Acting::Seats(vec![0]));
    let m: Move = "d1-d7/g7".parse().unwrap();
    assert!(state.act(1, &m).unwrap_err().0.contains("out of its turn"));
    let bad: Move = "d1-d1/d2".parse().unwrap();
    assert!(state.act(0, &bad).unwrap_err().0.contains("illegal move"));
    assert_eq!(state.act(0, &m).unwrap(), "ok");
    assert_eq!(state.acting(), Acting::Seats(vec![1]));
    let view = state.observe(1);
    assert!(view.to_move);
    assert_eq!(view.cells.chars().filter(|&c| c == '3').count(), 1);
    assert_eq!(view.cells.chars().filter(|&c| c == '1').count(), 4);
    state.retire(1);
    assert_eq!(state.acting(), Acting::Over);
    assert_eq!(state.ranking().unwrap().places, [1, 2]);
    assert!(state.legal(0).is_empty());
}

#[test]
fn a_seat_that_cannot_move_loses() {
    // Random matches to their end: the seat left without a move is second.
    let played =
        game::testing::random_match(&Amazons, 2, &Amazons.defaults(), 3, None, 200).unwrap();
    let moves = played.steps.len();
    let last_mover = (moves - 1) % 2;
    assert_eq!(played.ranking.places[last_mover], 1, "{played:?}");
    assert_eq!(played.ranking.places[1 - last_mover], 2);
}
