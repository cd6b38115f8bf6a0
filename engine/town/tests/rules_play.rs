//! Rules 10 to 18 of `docs/rules-little-town.md`: rounds and turns, collecting, building,
//! upkeep, players out, the end and the ranking.

mod common;

use common::*;
use game::{Acting, Chance, Drawn, State};
use town::{upkeep, Cell, Kind, Resource, Stock, TownState, Why};

/// Plays each seat's first legal collect without activation until `done`.
fn collect_until(state: &mut TownState, mut done: impl FnMut(&TownState) -> bool) {
    while !done(state) {
        let seat = turn(state);
        let action = state
            .legal(seat)
            .into_iter()
            .find(|a| matches!(a, town::Action::Collect { activate, .. } if activate.is_empty()))
            .unwrap();
        state.act(seat, &action).unwrap();
    }
}

/// Plays the round to its end (as [`collect_until`]): the seats that played, in turn.
fn rest_of_round(state: &mut TownState) -> Vec<usize> {
    let mut order = Vec::new();
    while let Acting::Seats(seats) = state.acting() {
        order.push(seats[0]);
        let played = order.len();
        let mut n = 0;
        collect_until(state, |_| {
            n += 1;
            n > 1
        });
        assert_eq!(played, order.len());
    }
    order
}

#[test]
fn rule_10_rounds_first_players_and_turns() {
    let mut state = setup_with(3, &["upkeep=0"], &MINES, &[], 1);
    assert_eq!((state.round(), state.first()), (1, Some(1)));
    assert_eq!(
        rest_of_round(&mut state),
        [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    );
    assert_eq!(state.acting(), Acting::Chance(Chance::Below(3)));
    assert_eq!(state.round(), 2);
    state.chance(&Drawn::Number(2)).unwrap();
    assert_eq!(turn(&state), 2);
    ok(&mut state, 2, "collect 2,1");
    state.retire(1);
    assert_eq!(rest_of_round(&mut state), [0, 2, 0, 2, 0, 2, 0]);
    assert_eq!(state.acting(), Acting::Chance(Chance::Below(2)));
}

#[test]
fn rule_11_a_worker_goes_on_a_free_valid_position() {
    let mut state = setup(2);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 0, "build 1,1 farm");
    let digest = state.digest();
    for (text, why) in [
        ("collect 0,0", "corn mine"),
        ("collect 1,1", "holds a farm"),
        ("collect 2,1", "worker already"),
        ("build 2,3 farm", "worker already"),
        ("collect 9,9", "not a valid position"),
        ("collect 6,0", "not a valid position"),
    ] {
        let err = play(&mut state, 1, text).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
        assert_eq!(state.digest(), digest);
    }
    let err = play(&mut state, 0, "collect 4,4").unwrap_err();
    assert!(err.contains("not seat 0's turn"), "{err}");
    let mines = [(0, 0), (2, 0), (4, 0), (0, 2), (2, 2), (4, 2)];
    let mut hell = setup_with(2, &["board=infernal"], &mines, &[], 0);
    let err = play(&mut hell, 0, "collect 1,1").unwrap_err();
    assert!(err.contains("not a valid position"), "{err}");
}

#[test]
fn rule_12_collect_from_mines_then_activate_buildings() {
    let mut state = setup(2);
    assert_eq!(ok(&mut state, 0, "collect 2,1"), "wood 2");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 0, "build 1,1 farm");
    assert_eq!(ok(&mut state, 1, "build 4,4 sawmill"), "gold 4");
    // Mines wood 3,2, fish 5,2, stone 5,4; seat 1's sawmill for gold 1, paid to seat 1.
    assert_eq!(
        ok(&mut state, 0, "collect 4,3 activate 4,4"),
        "fish 1, wood 5, stone 1, gold 2"
    );
    assert_eq!(state.players()[1].stock, Stock::of(Resource::Gold, 5));
    // The corn mine 0,0 and seat 0's farm, for gold 1, paid to seat 0.
    assert_eq!(
        ok(&mut state, 1, "collect 0,1 activate 1,1"),
        "corn 2, gold 4"
    );
    assert_eq!(state.players()[0].stock.get(Resource::Gold), 3);
    // Its own farm, for nothing; mines wood 2,2 and corn 0,3.
    assert_eq!(
        ok(&mut state, 0, "collect 1,2 activate 1,1"),
        "corn 2, fish 1, wood 6, stone 1, gold 3"
    );
    for (text, why) in [
        ("collect 3,3 activate 1,1", "not a neighbour"),
        ("collect 3,3 activate 3,2", "no building"),
        ("collect 0,2 activate 1,1 1,1", "activated twice"),
    ] {
        let err = play(&mut state, 1, text).unwrap_err();
        assert!(err.contains(why), "{text}: {err}");
    }
}

#[test]
fn rule_12_costs_are_paid_at_once_from_the_stock() {
    let mut state = setup(2);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 0, "build 1,1 farm");
    // The corn mined does not pay the farm's gold.
    let err = play(&mut state, 1, "collect 0,1 activate 1,1").unwrap_err();
    assert!(
        err.contains("activating costs gold 1, and after mining you hold corn 1, wood 2"),
        "{err}"
    );
    ok(&mut state, 1, "build 4,4 farm");
    ok(&mut state, 0, "build 1,3 farm");
    // Seat 1 holds gold 3: two of seat 0's farms cost gold 2 at once.
    assert_eq!(
        ok(&mut state, 1, "collect 0,2 activate 1,1 1,3"),
        "corn 3, wood 1, gold 1"
    );
    assert_eq!(state.players()[0].stock, Stock::of(Resource::Gold, 8));
    ok(&mut state, 0, "collect 4,0");
    let err = play(&mut state, 1, "collect 1,2 activate 1,1 1,3").unwrap_err();
    assert!(
        err.contains("activating costs gold 2") && err.contains("gold 1"),
        "{err}"
    );
    assert_eq!(
        ok(&mut state, 1, "collect 1,2 activate 1,3"),
        "corn 5, wood 2"
    );
}

#[test]
fn rule_13_build_pays_the_value_then_earns() {
    let kinds = [
        Kind::Farm,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
        Kind::Quarry,
    ];
    let mut state = setup_with(2, &["upkeep=0"], &MINES, &kinds, 0);
    let err = play(&mut state, 0, "build 1,1 farm").unwrap_err();
    assert!(
        err.contains("a farm costs wood 1, and you hold nothing"),
        "{err}"
    );
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    assert_eq!(ok(&mut state, 0, "build 1,1 farm"), "wood 1, gold 3");
    let err = play(&mut state, 1, "build 4,4 farm").unwrap_err();
    assert!(err.contains("no farm is left"), "{err}");
    let err = play(&mut state, 1, "build 4,4 quarry").unwrap_err();
    assert!(
        err.contains("a quarry costs wood 3, and you hold wood 2"),
        "{err}"
    );
    assert_eq!(state.supply(), [0, 0, 0, 11]);
    collect_until(&mut state, |s| s.round() == 2);
    assert_eq!(
        state.cell((1, 1)),
        Some(Cell::Building {
            kind: Kind::Farm,
            owner: 0
        })
    );
    assert_eq!(state.players()[0].buildings, 1);
}

#[test]
fn rule_14_upkeep_in_food_then_gold_or_elimination() {
    let stock =
        Stock::of(Resource::Corn, 2) + Stock::of(Resource::Fish, 3) + Stock::of(Resource::Gold, 5);
    let corn = |n| Stock::of(Resource::Corn, n);
    let fish = |n| Stock::of(Resource::Fish, n);
    let gold = |n| Stock::of(Resource::Gold, n);
    assert_eq!(upkeep(&stock, 0, 1), Some(Stock::EMPTY));
    assert_eq!(upkeep(&stock, 4, 1), Some(corn(2) + fish(2)));
    assert_eq!(upkeep(&stock, 6, 1), Some(corn(2) + fish(3) + gold(1)));
    assert_eq!(upkeep(&stock, 7, 2), Some(corn(2) + fish(3) + gold(4)));
    assert_eq!(upkeep(&stock, 8, 2), None);
    assert_eq!(upkeep(&stock, 11, 1), None);
    // One worker each: seat 0 gathers corn, seat 1 none and no gold: eliminated.
    let mut state = setup_with(2, &["max_workers=1"], &MINES, &[], 0);
    assert_eq!(ok(&mut state, 0, "collect 0,1"), "corn 1");
    ok(&mut state, 1, "collect 2,1");
    assert!(state.is_over());
    assert_eq!(state.players()[0].stock, Stock::EMPTY);
    assert_eq!(state.players()[0].out, None);
    assert_eq!(state.players()[1].out, Some((0, Why::Eliminated)));
}

#[test]
fn rule_15_an_illegal_action_excludes_its_player_without_its_gold() {
    let mut state = setup(3);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 2, "collect 4,0");
    ok(&mut state, 0, "build 1,1 farm");
    let before = state.digest();
    assert!(play(&mut state, 1, "build 4,4 pontoon").is_err());
    assert_eq!(state.digest(), before, "an illegal action changes nothing");
    state.retire(1);
    assert_eq!(state.players()[1].out, Some((0, Why::Excluded)));
    assert_eq!(turn(&state), 2, "the turn passes");
    state.retire(0);
    assert_eq!(
        state.players()[0].stock,
        Stock::of(Resource::Wood, 1),
        "gold lost"
    );
    assert!(state.is_over());
}

#[test]
fn rule_16_a_player_out_keeps_its_buildings_and_earns_nothing() {
    let mut state = setup(3);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 2, "collect 4,0");
    ok(&mut state, 0, "build 1,1 farm");
    ok(&mut state, 1, "build 4,4 sawmill");
    ok(&mut state, 2, "collect 3,0");
    state.retire(0);
    let out = state.players()[0].clone();
    assert_eq!(turn(&state), 1);
    assert_eq!(
        ok(&mut state, 1, "collect 0,1 activate 1,1"),
        "corn 2, gold 3"
    );
    assert_eq!(state.players()[0], out);
    assert_eq!(state.worker((2, 1)), Some(0));
    // Seat 0's turns are skipped; seat 1 has one worker left, seat 2 two.
    assert_eq!(rest_of_round(&mut state), [2, 1, 2]);
    assert!(state.players()[0].out.is_some());
    assert_eq!(
        state.cell((1, 1)),
        Some(Cell::Building {
            kind: Kind::Farm,
            owner: 0
        })
    );
}

#[test]
fn rule_17_the_end_after_the_rounds_or_with_one_player_left() {
    let mut state = setup_with(2, &["upkeep=0", "rounds=1"], &MINES, &[], 0);
    collect_until(&mut state, |s| s.is_over());
    assert_eq!(state.round(), 1);
    assert!(state.ranking().is_some());
    let mut state = setup(2);
    ok(&mut state, 0, "collect 0,1");
    state.retire(1);
    assert!(state.is_over());
    assert_eq!(
        state.players()[0].stock,
        Stock::of(Resource::Corn, 1),
        "no upkeep paid"
    );
    assert_eq!(state.acting(), Acting::Over);
}

#[test]
fn rule_18_ranking_by_gold_then_the_later_out_above_the_earlier() {
    let mut state = setup_with(4, &["upkeep=0", "rounds=1"], &MINES, &[], 0);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 2, "collect 3,3");
    ok(&mut state, 3, "collect 4,3");
    ok(&mut state, 0, "build 1,1 farm");
    ok(&mut state, 1, "build 1,4 farm");
    state.retire(2);
    state.retire(3);
    collect_until(&mut state, |s| s.is_over());
    let ranking = state.ranking().unwrap();
    assert_eq!(ranking.places, [1, 1, 4, 3], "seat 3 went out after seat 2");
    // Every seat scores its gold: those out were excluded (rule 15), and so hold none.
    assert_eq!(ranking.scores, [3, 3, 0, 0]);
    assert!(state.players()[2..]
        .iter()
        .all(|p| p.stock.get(Resource::Gold) == 0));
    // Eliminated by one upkeep: tied.
    let mut state = setup_with(3, &["max_workers=1"], &MINES, &[], 0);
    ok(&mut state, 0, "collect 0,1");
    ok(&mut state, 1, "collect 2,1");
    ok(&mut state, 2, "collect 2,3");
    let ranking = state.ranking().unwrap();
    assert_eq!(ranking.places, [1, 2, 2]);
    // They score the gold they were left with, below the seat still in whatever it holds.
    let gold = |s: usize| i64::from(state.players()[s].stock.get(Resource::Gold));
    assert_eq!(ranking.scores, [gold(0), gold(1), gold(2)], "{ranking:?}");
}
