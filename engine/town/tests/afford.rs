//! The affordable-buildings tool (the third extension's question) against the
//! building-by-building search it replaces: on states of random matches, every set of at
//! most two distinct free positions collected with every choice of activations, the kinds
//! whose value the stock then covers, with a worker and a position left to build.

use game::{Acting, Game, State};
use town::{afford, bots, Cell, Kind, Stock, Town, TownState};

/// What collecting at `at` with the activations of `mask` gives `seat` holding `held`, if
/// it can pay.
fn collect(
    state: &TownState,
    seat: usize,
    at: (u16, u16),
    mask: u32,
    held: Stock,
) -> Option<Stock> {
    let grid = &state.rules().grid;
    let pos = grid.at(at.0, at.1)?;
    let mut holds = held;
    let mut buildings = Vec::new();
    for &n in grid.neighbours(pos) {
        match state.cell(grid.xy(n)) {
            Some(Cell::Mine(r)) => holds = holds + Stock::of(r, 1),
            Some(Cell::Building { kind, owner }) => buildings.push((kind, owner)),
            _ => {}
        }
    }
    if mask >> buildings.len() != 0 {
        return None;
    }
    let (mut cost, mut gain) = (Stock::EMPTY, Stock::EMPTY);
    for (i, (kind, owner)) in buildings.into_iter().enumerate() {
        if mask & (1 << i) != 0 {
            gain = gain + kind.supplies();
            if owner != seat {
                cost = cost + kind.costs();
            }
        }
    }
    holds.covers(&cost).then(|| holds - cost + gain)
}

fn brute_force(state: &TownState, seat: usize) -> Vec<Kind> {
    let grid = &state.rules().grid;
    let free: Vec<(u16, u16)> = grid
        .positions()
        .into_iter()
        .map(|p| grid.xy(p))
        .filter(|&at| state.cell(at) == Some(Cell::Free) && state.worker(at).is_none())
        .collect();
    let player = &state.players()[seat];
    let collects = usize::from(player.free_workers)
        .saturating_sub(1)
        .min(free.len() - 1);
    let mut stocks = vec![player.stock];
    let mut level = vec![(player.stock, None::<usize>)];
    for _ in 0..collects {
        let mut next = Vec::new();
        for &(held, last) in &level {
            for (i, &at) in free.iter().enumerate().skip(last.map_or(0, |l| l + 1)) {
                for mask in 0..256 {
                    if let Some(s) = collect(state, seat, at, mask, held) {
                        next.push((s, Some(i)));
                    }
                }
            }
        }
        stocks.extend(next.iter().map(|(s, _)| *s));
        level = next;
    }
    if player.buildings >= state.rules().max_buildings {
        return Vec::new();
    }
    Kind::ALL
        .into_iter()
        .filter(|&k| state.left(k) > 0)
        .filter(|k| stocks.iter().any(|s| s.covers(&k.value())))
        .collect()
}

#[test]
fn the_affordable_kinds_are_those_the_building_by_building_search_finds() {
    let mut compared = 0;
    let mut some_needs_collects = false;
    for seed in 0..40u64 {
        // The powers' kinds in play in every other match (they cost stone).
        let powers = ["powers=off", "powers=on"][seed as usize % 2];
        let options = game::Options::parse(Town.options(), &["max_workers=3", powers]).unwrap();
        let mut state = Town.start(4, &options).unwrap();
        let mut stream = draw::Stream::new(seed);
        while !state.is_over() {
            match state.acting() {
                Acting::Chance(c) => state.chance(&c.draw(seed, &mut stream)).unwrap(),
                Acting::Seats(seats) => {
                    let seat = seats[0];
                    let got = afford::affordable(&state, seat);
                    assert_eq!(got, brute_force(&state, seat), "seed {seed}");
                    let now: Vec<Kind> = Kind::ALL
                        .into_iter()
                        .filter(|k| {
                            state
                                .legal(seat)
                                .iter()
                                .any(|a| matches!(a, town::Action::Build { kind, .. } if kind == k))
                        })
                        .collect();
                    // What it can build now, it can afford within the round.
                    assert!(now.iter().all(|k| got.contains(k)), "seed {seed}");
                    some_needs_collects |= got.len() > now.len();
                    compared += 1;
                    let action = bots::random(&state, seat, &mut stream).unwrap();
                    state.act(seat, &action).unwrap();
                }
                Acting::Over => break,
            }
        }
    }
    assert!(compared > 500, "{compared}");
    assert!(
        some_needs_collects,
        "some building is affordable only after collecting"
    );
}

#[test]
fn the_reachable_stocks_are_an_antichain_for_each_number_of_workers() {
    let mut state = Town.start(2, &Town.defaults()).unwrap();
    let mut stream = draw::Stream::new(4);
    while let Acting::Chance(c) = state.acting() {
        state.chance(&c.draw(4, &mut stream)).unwrap();
    }
    let seat = state.to_play().unwrap();
    let frontier = afford::reachable(&state, seat);
    assert_eq!(
        frontier.len(),
        usize::from(state.players()[seat].free_workers) + 1
    );
    assert_eq!(frontier[0], [state.players()[seat].stock]);
    for level in &frontier[1..] {
        assert!(!level.is_empty());
        for (i, a) in level.iter().enumerate() {
            for (j, b) in level.iter().enumerate() {
                assert!(i == j || !a.covers(b), "{a:?} covers {b:?}");
            }
        }
    }
}
