//! Rules 1 to 9, 19 and 20 of `docs/rules-little-town.md`: players, resources, boards,
//! the setup drawn by chance, options, what players see and say.

mod common;

use common::*;
use game::{Acting, Chance, Drawn, Game, Options, State};
use std::collections::BTreeSet;
use town::board::{Grid, Shape};
use town::{Cell, Kind, Resource, Stock, Town, COLOURS, DEFAULT_SEATS};

/// Plays the chance draws of `seed` until a seat acts.
fn drawn(seats: usize, given: &[&str], seed: u64) -> town::TownState {
    let mut state = Town.start(seats, &options(given)).unwrap();
    let mut stream = draw::Stream::new(seed);
    while let Acting::Chance(chance) = state.acting() {
        state.chance(&chance.draw(seed, &mut stream)).unwrap();
    }
    state
}

#[test]
fn rule_01_two_to_four_players_four_by_default() {
    assert_eq!(Town.seats(), 2..=4);
    assert_eq!(DEFAULT_SEATS, 4);
    for seats in [1, 5] {
        let err = Town::rules(seats, &Town.defaults()).unwrap_err();
        assert!(err.contains("2 to 4"), "{err}");
    }
    assert_eq!(COLOURS, ["white", "orange", "pink", "violet"]);
}

#[test]
fn rule_02_five_resources_and_empty_stocks() {
    assert_eq!(Resource::ALL.len(), 5);
    let state = drawn(4, &[], 3);
    assert!(state.players().iter().all(|p| p.stock == Stock::EMPTY));
    assert_eq!(Stock::EMPTY.to_string(), "nothing");
}

#[test]
fn rule_03_the_grid_and_its_size_options() {
    let state = Town.start(2, &options(&["width=7", "height=5"])).unwrap();
    assert_eq!(
        (state.rules().grid.width(), state.rules().grid.height()),
        (7, 5)
    );
    assert_eq!(state.rules().positions(), 35);
    let default = Town.start(2, &Town.defaults()).unwrap();
    assert_eq!(default.rules().positions(), 36);
    let err = Options::parse(Town.options(), &["width=17"]).unwrap_err();
    assert!(err.contains("`width`") && err.contains("4 to 16"), "{err}");
}

#[test]
fn rule_04_each_kind_of_board_and_its_neighbours() {
    let xy = |grid: &Grid, x, y| grid.at(x, y).unwrap();
    let around = |grid: &Grid, x, y| -> BTreeSet<(u16, u16)> {
        grid.neighbours(xy(grid, x, y))
            .iter()
            .map(|&p| grid.xy(p))
            .collect()
    };
    let set = |v: &[(u16, u16)]| v.iter().copied().collect::<BTreeSet<_>>();
    let rect = Grid::new(Shape::Rectangle, 6, 6);
    assert_eq!(around(&rect, 0, 0), set(&[(1, 0), (0, 1), (1, 1)]));
    assert_eq!(around(&rect, 2, 2).len(), 8);
    let card = Grid::new(Shape::Cardinal, 6, 6);
    assert_eq!(around(&card, 0, 0), set(&[(1, 0), (2, 0), (0, 1), (0, 2)]));
    assert_eq!(around(&card, 2, 2).len(), 8);
    let diag = Grid::new(Shape::Diagonal, 6, 6);
    assert_eq!(around(&diag, 0, 0), set(&[(1, 1), (2, 2)]));
    assert_eq!(
        around(&diag, 2, 2),
        set(&[
            (0, 0),
            (1, 1),
            (3, 3),
            (4, 4),
            (1, 3),
            (0, 4),
            (3, 1),
            (4, 0)
        ])
    );
    let torus = Grid::new(Shape::Torus, 6, 6);
    assert_eq!(
        around(&torus, 0, 0),
        set(&[
            (5, 5),
            (0, 5),
            (1, 5),
            (5, 0),
            (1, 0),
            (5, 1),
            (0, 1),
            (1, 1)
        ])
    );
    let hell = Grid::new(Shape::Infernal, 6, 6);
    assert!(!hell.is_valid(xy(&hell, 1, 1)) && hell.is_valid(xy(&hell, 1, 2)));
    assert_eq!(hell.positions().len(), 27);
    assert_eq!(around(&hell, 0, 0), set(&[(1, 0), (0, 1)]));
    for name in Shape::NAMES {
        for (w, h) in [(4, 4), (6, 6), (5, 9), (16, 16)] {
            let grid = Grid::new(Shape::named(name).unwrap(), w, h);
            for p in 0..grid.len() as u16 {
                let near = grid.neighbours(p);
                assert!(near.len() <= 8 && !near.contains(&p), "{name} {p}");
                for &n in near {
                    assert!(
                        grid.is_valid(n) && grid.neighbours(n).contains(&p),
                        "{name}"
                    );
                }
            }
        }
    }
}

#[test]
fn rule_05_at_least_16_valid_positions() {
    let err = Town
        .start(2, &options(&["board=infernal", "width=4", "height=4"]))
        .unwrap_err();
    assert!(
        err.contains("12 valid positions") && err.contains("at least 16"),
        "{err}"
    );
    assert!(Town.start(2, &options(&["width=4", "height=4"])).is_ok());
}

#[test]
fn rule_06_mines_quarter_of_the_board_each_kind_each_with_room() {
    for name in Shape::NAMES {
        for seed in 0..200 {
            let state = drawn(3, &[&format!("board={name}")], seed);
            let grid = &state.rules().grid;
            let n = state.rules().positions();
            assert_eq!(state.mines().len(), n / 4);
            let mut kinds = BTreeSet::new();
            for &m in state.mines() {
                let Some(Cell::Mine(r)) = state.cell(grid.xy(m)) else {
                    panic!("no mine")
                };
                kinds.insert(r);
                assert!(grid
                    .neighbours(m)
                    .iter()
                    .any(|n| !state.mines().contains(n)));
            }
            assert_eq!(kinds.len(), 4, "{name} seed {seed}");
        }
    }
    // A corner boxed in by mines: the placement is drawn again.
    let mut state = Town.start(2, &Town.defaults()).unwrap();
    let boxed = [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (4, 4),
        (3, 3),
        (5, 5),
        (2, 4),
        (4, 2),
    ];
    state.chance(&mine_order(&state, &boxed)).unwrap();
    assert!(matches!(state.acting(), Acting::Chance(Chance::Order(36))));
    assert!(state.mines().is_empty());
    state.chance(&mine_order(&state, &MINES)).unwrap();
    assert_eq!(state.cell((2, 2)), Some(Cell::Mine(Resource::Wood)));
    assert_eq!(state.cell((0, 3)), Some(Cell::Mine(Resource::Corn)));
}

#[test]
fn rule_07_spread_and_the_lowest_of_several_draws() {
    let grid = Grid::new(Shape::Rectangle, 6, 6);
    let at = |v: &[(u16, u16)]| {
        v.iter()
            .map(|&(x, y)| grid.at(x, y).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(grid.spread(&at(&MINES)), 1 + 1 + 4 + 4 + 1 + 1 + 1);
    assert_eq!(grid.spread(&at(&[(0, 0), (1, 1), (2, 2), (5, 5)])), 9 + 1);
    let clustered = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (0, 5),
        (2, 5),
        (4, 5),
        (3, 3),
    ];
    let apart = [
        (0, 0),
        (2, 0),
        (4, 0),
        (0, 2),
        (2, 2),
        (4, 2),
        (0, 4),
        (2, 4),
        (4, 4),
    ];
    let mut state = Town.start(2, &options(&["spread_draws=3"])).unwrap();
    for mines in [&clustered, &apart, &MINES] {
        assert!(state.mines().is_empty());
        state.chance(&mine_order(&state, mines)).unwrap();
    }
    assert_eq!(state.spread(), 9);
    assert_eq!(state.cell((4, 4)), Some(Cell::Mine(Resource::Corn)));
    assert_eq!(state.observe(0).spread, 9);
}

#[test]
fn rule_08_a_third_of_the_board_in_buildings_with_a_farm() {
    let mut state = Town.start(2, &Town.defaults()).unwrap();
    state.chance(&mine_order(&state, &MINES)).unwrap();
    for _ in 0..12 {
        state.chance(&Drawn::Number(Kind::Quarry as u64)).unwrap();
    }
    assert_eq!(state.supply(), [0; 4], "no farm: drawn again");
    assert!(matches!(state.acting(), Acting::Chance(Chance::Below(4))));
    for k in [1, 0, 2, 2, 3, 1, 1, 1, 1, 1, 1, 3] {
        state.chance(&Drawn::Number(k)).unwrap();
    }
    assert_eq!(state.supply(), [1, 7, 2, 2]);
    assert_eq!(Kind::Farm.value(), Stock::of(Resource::Wood, 1));
    assert_eq!(Kind::Quarry.costs(), Stock::of(Resource::Gold, 2));
    assert_eq!(Kind::Pontoon.supplies(), Stock::of(Resource::Fish, 2));
    assert_eq!(Kind::Sawmill.earns(), Stock::of(Resource::Gold, 4));
}

#[test]
fn rule_09_workers_and_buildings_per_player() {
    let workers =
        |seats, given: &[&str]| Town.start(seats, &options(given)).unwrap().rules().workers;
    assert_eq!(workers(2, &[]), 6);
    assert_eq!(workers(3, &[]), 4);
    assert_eq!(workers(4, &[]), 3);
    assert_eq!(workers(2, &["max_workers=2"]), 2);
    assert_eq!(workers(4, &["width=4", "height=4"]), 1);
    let mut state = setup_with(2, &["max_buildings=1"], &MINES, &[Kind::Farm; 12], 0);
    ok(&mut state, 0, "collect 2,1");
    ok(&mut state, 1, "collect 2,3");
    ok(&mut state, 0, "build 1,1 farm");
    ok(&mut state, 1, "collect 4,0");
    let err = play(&mut state, 0, "build 1,2 farm").unwrap_err();
    assert!(err.contains("the most a player may"), "{err}");
}

#[test]
fn rule_19_options_and_the_order_of_chance() {
    let names: Vec<&str> = Town.options().iter().map(|o| o.name).collect();
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/rules-little-town.md"
    ))
    .unwrap();
    for spec in Town.options() {
        let row = doc
            .lines()
            .find(|l| l.contains(&format!("| `{}`", spec.name)))
            .unwrap_or_else(|| panic!("option `{}` is not in the rule book", spec.name));
        assert!(row.contains(&format!("| {} ", spec.default)), "{row}");
    }
    assert_eq!(names.len(), 11);
    // The same seed and options, the same setup; another seed, another.
    let a = drawn(4, &["board=torus"], 11);
    assert_eq!(a.digest(), drawn(4, &["board=torus"], 11).digest());
    assert_ne!(a.digest(), drawn(4, &["board=torus"], 12).digest());
}

#[test]
fn rule_20_nothing_hidden_and_the_action_text() {
    let mut state = setup(2);
    assert_eq!(ok(&mut state, 0, "collect 2,1"), "wood 2");
    let view = state.observe(1);
    assert_eq!(view, {
        let mut v = state.observe(0);
        v.seat = 1;
        v
    });
    assert_eq!(view.workers[2 + 6], Some(0));
    assert_eq!(view.cells[2 + 2 * 6], Cell::Mine(Resource::Wood));
    assert_eq!(view.players[0].stock, Stock::of(Resource::Wood, 2));
    assert_eq!(view.to_play, Some(1));
    let json = serde_json::to_string(&view).unwrap();
    assert!(json.contains("\"mine\":\"wood\""), "{json}");
    for text in [
        "collect 1,2",
        "collect 1,2 activate 0,2 2,2",
        "build 3,4 quarry",
    ] {
        assert_eq!(text.parse::<town::Action>().unwrap().to_string(), text);
    }
    for bad in [
        "collect",
        "collect 1;2",
        "build 1,2",
        "collect 1,2 activate",
        "build 1,2 palace",
        "collect  1,2",
    ] {
        assert!(bad.parse::<town::Action>().is_err(), "{bad}");
    }
}
