//! What the rule tests share: a match set up with chosen draws, and actions played by text.
#![allow(dead_code)]

use game::{Acting, Drawn, Game, Options, State};
use town::{Action, Kind, Town, TownState};

/// The options `given`, the others at their defaults.
pub fn options(given: &[&str]) -> Options {
    Options::parse(Town.options(), given).unwrap()
}

/// The chance order that puts the mines at `mines` (kinds corn, fish, wood, stone in turn).
pub fn mine_order(state: &TownState, mines: &[(u16, u16)]) -> Drawn {
    let grid = &state.rules().grid;
    let positions = grid.positions();
    let index = |&(x, y): &(u16, u16)| {
        let p = grid.at(x, y).unwrap();
        positions.iter().position(|&q| q == p).unwrap() as u32
    };
    let mut order: Vec<u32> = mines.iter().map(index).collect();
    let rest: Vec<u32> = (0..positions.len() as u32)
        .filter(|i| !order.contains(i))
        .collect();
    order.extend(rest);
    Drawn::Order(order)
}

/// The board every scenario plays on (6 x 6), its 9 mines:
/// corn 0,0 · fish 5,0 · wood 2,2 · stone 5,5 · corn 0,5 · fish 5,2 · wood 3,2 · stone 5,4 ·
/// corn 0,3.
pub const MINES: [(u16, u16); 9] = [
    (0, 0),
    (5, 0),
    (2, 2),
    (5, 5),
    (0, 5),
    (5, 2),
    (3, 2),
    (5, 4),
    (0, 3),
];

/// A match of `seats` with `given` options, mines at `mines`, buildings of `kinds` (the
/// rest farms), the first round's first player the `first`-th still in.
pub fn setup_with(
    seats: usize,
    given: &[&str],
    mines: &[(u16, u16)],
    kinds: &[Kind],
    first: u64,
) -> TownState {
    let mut state = Town.start(seats, &options(given)).unwrap();
    let order = mine_order(&state, mines);
    while matches!(state.acting(), Acting::Chance(game::Chance::Order(_))) {
        state.chance(&order).unwrap();
    }
    let n = state.rules().positions() / 3;
    for i in 0..n {
        let kind = kinds.get(i).copied().unwrap_or(Kind::Farm);
        state.chance(&Drawn::Number(kind as u64)).unwrap();
    }
    state.chance(&Drawn::Number(first)).unwrap();
    state
}

/// The scenario board, `seats` seats, seat 0 first.
pub fn setup(seats: usize) -> TownState {
    setup_with(
        seats,
        &[],
        &MINES,
        &[Kind::Farm, Kind::Sawmill, Kind::Pontoon, Kind::Quarry],
        0,
    )
}

/// `seat` plays `text`: its answer, or the rule broken.
pub fn play(state: &mut TownState, seat: usize, text: &str) -> Result<String, String> {
    let action: Action = text.parse().map_err(|e: town::action::BadAction| e.0)?;
    state.act(seat, &action).map_err(|e| e.0)
}

/// `seat` plays `text`, which must be legal.
pub fn ok(state: &mut TownState, seat: usize, text: &str) -> String {
    play(state, seat, text).unwrap_or_else(|e| panic!("seat {seat} `{text}`: {e}"))
}

/// The seat to play.
pub fn turn(state: &TownState) -> usize {
    match state.acting() {
        Acting::Seats(seats) => seats[0],
        other => panic!("no seat plays: {other:?}"),
    }
}
