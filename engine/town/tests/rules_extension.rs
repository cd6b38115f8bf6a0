//! Rules 21 and 22 of `docs/rules-little-town.md`: the fourth extension's objectives and
//! powers, off by default.

mod common;

use common::*;
use game::{Drawn, State};
use town::extension::{objectives_met, power, Objective};
use town::{Kind, Resource};

fn gold(state: &town::TownState) -> Vec<u32> {
    state
        .players()
        .iter()
        .map(|p| p.stock.get(Resource::Gold))
        .collect()
}

/// Seat 0 builds three farms side by side; seat 1 collects one of each mined resource.
fn one_round(objectives: &str) -> town::TownState {
    let given = ["rounds=1", "upkeep=0", objectives];
    let mut state = setup_with(2, &given, &MINES, &[], 0);
    for (seat, text) in [
        (0, "collect 2,1"),
        (1, "collect 1,4"),
        (0, "build 1,1 farm"),
        (1, "collect 4,3"),
        (0, "build 1,2 farm"),
        (1, "collect 3,4"),
        (0, "collect 4,2"),
        (1, "collect 2,4"),
        (0, "build 0,2 farm"),
        (1, "collect 3,5"),
        (0, "collect 4,5"),
        (1, "collect 2,5"),
    ] {
        ok(&mut state, seat, text);
    }
    assert!(state.is_over());
    state
}

#[test]
fn rule_21_objectives_bring_gold_at_the_end_when_on() {
    let off = one_round("objectives=off");
    assert_eq!(
        gold(&off),
        [9, 0],
        "three farms earn 9; no objective counted"
    );
    let on = one_round("objectives=on");
    assert_eq!(
        objectives_met(&on, 0),
        [Objective::TwoCornBuildings, Objective::ThreeConnected]
    );
    assert_eq!(objectives_met(&on, 1), [Objective::EveryResource]);
    assert_eq!(gold(&on), [9 + 2 + 2, 2]);
    assert_eq!(on.ranking().unwrap().scores, [13, 2]);
    // Three buildings are not more than the six workers each player has.
    assert_eq!(on.rules().workers, 6);
    assert!(!Objective::MoreBuildingsThanWorkers.met(&on, 0));
}

#[test]
fn rule_22_powers_pay_their_owners_at_each_round_s_end() {
    let kinds = [
        Kind::Cathedral,
        Kind::Watchtower,
        Kind::Market,
        Kind::Castle,
    ];
    let given = ["rounds=2", "upkeep=0", "powers=on"];
    let mut state = setup_with(2, &given, &MINES, &kinds, 0);
    assert_eq!(state.supply(), [8, 0, 0, 0, 1, 1, 1, 1]);
    for (seat, text) in [
        (0, "collect 2,1"),
        (1, "collect 1,4"),
        (0, "collect 4,5"),
        (1, "collect 1,0"),
        (0, "collect 4,3"),
        (1, "collect 4,1"),
        (0, "build 1,2 cathedral"),
        (1, "collect 1,1"),
        (0, "collect 2,3"),
        (1, "collect 0,1"),
        (0, "collect 3,4"),
    ] {
        ok(&mut state, seat, text);
    }
    assert_eq!(gold(&state), [2, 0], "a cathedral earns 2 when built");
    // Four workers around the cathedral (2,1 and 2,3 its owner's, 1,1 and 0,1 the other's).
    let cathedral = state.rules().grid.at(1, 2).unwrap();
    assert_eq!(power(&state, cathedral), 4);
    ok(&mut state, 1, "collect 3,0");
    assert_eq!(state.round(), 2);
    assert_eq!(gold(&state), [2 + 4, 0], "1 gold per worker around it");
    state.chance(&Drawn::Number(0)).unwrap();
    for (seat, text) in [
        (0, "collect 4,5"),
        (1, "collect 4,3"),
        (0, "build 3,3 market"),
        (1, "build 4,4 watchtower"),
        (0, "collect 0,4"),
        (1, "collect 3,0"),
        (0, "collect 1,5"),
        (1, "collect 4,0"),
        (0, "collect 2,5"),
        (1, "collect 5,1"),
        (0, "collect 2,4"),
        (1, "collect 3,1"),
    ] {
        ok(&mut state, seat, text);
    }
    assert!(state.is_over());
    // The market: its 2 neighbouring wood mines; the cathedral: no worker around it this
    // round; the watchtower: 5 neighbours with neither building nor worker (two of them
    // stone mines).
    assert_eq!(gold(&state), [6 + 2 + 2, 2 + 5]);
    // Off by default: the kinds with a power are not drawn, and none is built.
    let mut base = setup(2);
    assert_eq!(base.supply().len(), 4);
    ok(&mut base, 0, "collect 2,1");
    let err = play(&mut base, 1, "build 0,2 castle").unwrap_err();
    assert!(err.contains("powers=on"), "{err}");
}

/// The castle counts every building of its connected group, whoever owns them.
#[test]
fn rule_22_a_castle_counts_its_group_of_buildings() {
    let kinds = [Kind::Castle];
    let given = ["rounds=3", "upkeep=0", "powers=on"];
    let mut state = setup_with(2, &given, &MINES, &kinds, 0);
    for (seat, text) in [
        (0, "collect 2,1"),
        (1, "collect 2,3"),
        (0, "collect 4,5"),
        (1, "build 1,1 farm"),
        (0, "collect 4,3"),
        (1, "collect 1,4"),
        (0, "build 1,2 castle"),
    ] {
        ok(&mut state, seat, text);
    }
    let castle = state.rules().grid.at(1, 2).unwrap();
    assert_eq!(power(&state, castle), 2, "itself and the farm beside it");
}
