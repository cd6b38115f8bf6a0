//! Rules 19-22 (what is buildable, road contact, blocking, reservations consumed) and
//! `distance`, through the API, with a brute-force oracle for rule 21.

use crate::common::*;
use engine::constants::*;
use engine::{Api, Board, Cell, Kind, Pos, Seat, Stage};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// A road at the end of a corridor that opens on the border at (5, 0).
const CORRIDOR: [&str; 5] = [
    "............",
    "....H.H.....",
    "....H.H.....",
    "....HRH.....",
    "....HHH.....",
];

/// A rule 21 case: a board, and exactly the empty cells where an obstacle gets `BLOCAGE`.
struct BlockCase {
    name: &'static str,
    board: Board,
    blocking: Vec<(u8, u8)>,
}

fn block_cases() -> Vec<BlockCase> {
    vec![
        BlockCase {
            name: "rule_21 a road walled in but for one border cell",
            board: Board::from_rows(&[
                "....................",
                "......HHHRHH........",
                "......HHHHHH........",
            ]),
            blocking: vec![(9, 0)],
        },
        BlockCase {
            name: "rule_21 the same road reachable from below too",
            board: Board::from_rows(&[
                "....................",
                "......HHHRHH........",
                "......HHH.HH........",
            ]),
            blocking: vec![],
        },
        BlockCase {
            name: "rule_21 a corridor from the border",
            board: Board::from_rows(&CORRIDOR),
            blocking: vec![(5, 0), (5, 1), (5, 2)],
        },
        BlockCase {
            name: "rule_21 a ring of reservations with one gap (theirs and yours alike)",
            board: board_at(49, 49, &["aab", "cR.", "aca"]),
            blocking: vec![(51, 50), (52, 50)],
        },
        BlockCase {
            name: "rule_21 a border road never blocks",
            board: Board::from_rows(&["H....", "RH...", "H....", "....."]),
            blocking: vec![],
        },
        BlockCase {
            name: "rule_21 a road enclosed but for a single gap",
            board: board_at(48, 48, &["HHHHH", "H...H", "H.R..", "H...H", "HHHHH"]),
            blocking: vec![(51, 50), (52, 50), (53, 50)],
        },
        BlockCase {
            name: "rule_21 two roads: the other one is still reachable",
            board: Board::from_rows(&[
                "....................",
                "......HHHRHH........",
                "......HHHHHH........",
                "....................",
                "..............R.....",
            ]),
            blocking: vec![],
        },
        BlockCase {
            name: "rule_21 already closed: nothing blocks more",
            board: board_at(48, 48, &["HHH", "HRH", "HHH"]),
            blocking: vec![],
        },
        BlockCase {
            name: "rule_21 already closed: a diagonal gap is no gap",
            board: board_at(48, 48, &["HHH.", "HRH.", "HH..", "...."]),
            blocking: vec![],
        },
        BlockCase {
            name: "rule_21 the default board",
            board: Board::default(),
            blocking: vec![],
        },
    ]
}

#[test]
fn rule_21_blocking_cells_of_hand_made_boards() {
    for case in block_cases() {
        let name = case.name;
        assert_eq!(
            xy(&blocking_oracle(&case.board)),
            case.blocking,
            "oracle: {name}"
        );
        assert_eq!(
            xy(&blocking_engine(&case.board)),
            case.blocking,
            "engine: {name}"
        );
        let open = !name.contains("already closed");
        assert_eq!(case.board.is_open(), open, "{name}");
        assert_eq!(open_witness(&case.board, None).is_some(), open, "{name}");
        let mut game = game_on(case.board.clone(), Seat(0));
        for seat in Seat::ALL {
            let seen = xy(&blocking_api(&mut game, seat));
            assert_eq!(
                seen, case.blocking,
                "construction_possible for seat {seat}: {name}"
            );
        }
        // Every kind of obstacle is refused there, by the player in its Phase I slot.
        for &(x, y) in &case.blocking {
            let (x, y) = (i32::from(x), i32::from(y));
            let mut api = game.player(Seat(0));
            assert_eq!(api.construire_maison(x, y), BLOCAGE, "{name}");
            assert_eq!(api.reserver_case(x, y), BLOCAGE, "{name}");
            assert_eq!(api.construire_monument(x, y), ACTION_INTERDITE, "Phase I");
        }
        // And a monument in Phase III.
        let mut placement = game.clone();
        let winner = to_placement(&mut placement);
        for &(x, y) in &case.blocking {
            let call = format!("construire_monument {x} {y}");
            assert_eq!(run(&mut placement, winner, &call), BLOCAGE, "{name}");
        }
    }
}

#[test]
fn rule_21_blocage_comes_before_non_connexe() {
    let case = &block_cases()[2];
    let mut game = game_on(case.board.clone(), Seat(0));
    let mut api = game.player(Seat(0));
    // (5, 1) is two cells from the road: it would block and touches no road.
    assert_eq!(api.construction_possible(5, 1), BLOCAGE);
    assert_eq!(api.construction_possible(5, 0), BLOCAGE);
    assert_eq!(api.construction_possible(5, 2), BLOCAGE);
    assert_eq!(api.construction_possible(4, 0), NON_CONNEXE);
}

#[test]
fn rule_21_roads_never_block_and_open_the_way() {
    // Down the corridor, roads may be built where houses may not; each road shortens the
    // set of blocking cells, and a road on the border ends it.
    let mut game = game_from_rows(&CORRIDOR, Seat(0));
    let steps = [
        ("construire_route 5 2", vec![(5, 0), (5, 1)]),
        ("construire_route 5 1", vec![(5, 0)]),
        ("construire_route 5 0", vec![]),
    ];
    for (call, blocking) in steps {
        assert_eq!(run(&mut game, Seat(0), call), SUCCES, "{call}");
        let board = game.state().board.clone();
        assert_eq!(xy(&blocking_engine(&board)), blocking, "after {call}");
        assert_eq!(xy(&blocking_oracle(&board)), blocking, "after {call}");
        assert_eq!(
            xy(&blocking_api(&mut game, Seat(1))),
            blocking,
            "after {call}"
        );
    }
    assert_eq!(run(&mut game, Seat(0), "construire_maison 4 0"), SUCCES);
}

/// A random board: obstacles of every kind at a random density, and a few roads (a random
/// walk, so that they are mostly one network), sometimes in one corner only.
fn random_board(rng: &mut Pcg64) -> Board {
    let mut board = Board::empty();
    let density = rng.gen_range(0.25..0.62);
    let side = if rng.gen_bool(0.5) {
        100
    } else {
        rng.gen_range(12..40)
    };
    let obstacles = [
        Cell {
            kind: Kind::Maison,
            owner: None,
            monument: None,
        },
        Cell {
            kind: Kind::Maison,
            owner: Some(Seat(1)),
            monument: None,
        },
        Cell {
            kind: Kind::Reservation,
            owner: Some(Seat(0)),
            monument: None,
        },
        Cell {
            kind: Kind::Reservation,
            owner: Some(Seat(2)),
            monument: None,
        },
    ];
    for y in 0..side {
        for x in 0..side {
            if rng.gen_bool(density) {
                let cell = obstacles[rng.gen_range(0..obstacles.len())];
                board.set(Pos::new(x, y).unwrap(), cell);
            }
        }
    }
    let (mut x, mut y) = (rng.gen_range(1..side - 1), rng.gen_range(1..side - 1));
    for _ in 0..rng.gen_range(1..30) {
        board.set(Pos::new(x, y).unwrap(), Cell::ROAD);
        match rng.gen_range(0..4) {
            0 => x = (x + 1).min(side - 2),
            1 => x = (x - 1).max(1),
            2 => y = (y + 1).min(side - 2),
            _ => y = (y - 1).max(1),
        }
    }
    if rng.gen_bool(0.1) {
        board.set(Pos::new(0, rng.gen_range(0..side)).unwrap(), Cell::ROAD);
    }
    board
}

#[test]
fn rule_21_property_engine_equals_brute_force_on_random_boards() {
    let mut rng = Pcg64::seed_from_u64(2009);
    let (mut open, mut with_blocking) = (0, 0);
    for i in 0..60 {
        let board = random_board(&mut rng);
        let oracle = blocking_oracle(&board);
        assert_eq!(blocking_engine(&board), oracle, "random board {i}");
        assert_eq!(
            board.is_open(),
            open_witness(&board, None).is_some(),
            "board {i}"
        );
        open += usize::from(board.is_open());
        with_blocking += usize::from(!oracle.is_empty());
    }
    // The generator must exercise both answers.
    assert!(open > 10 && open < 60, "{open} open boards");
    assert!(
        with_blocking > 5,
        "{with_blocking} boards with blocking cells"
    );
}

#[test]
fn rule_21_property_engine_equals_brute_force_after_random_play() {
    for seed in 0..2 {
        let mut checked = 0;
        play_random(engine::Setup::from_seed(seed), seed, false, |game| {
            if matches!(game.stage(), Stage::Placement { .. }) {
                let board = &game.state().board;
                assert_eq!(
                    blocking_engine(board),
                    blocking_oracle(board),
                    "seed {seed}"
                );
                checked += 1;
            }
        });
        assert_eq!(checked, 14);
    }
}

#[test]
fn rule_19_20_22_buildable_cells_and_road_contact() {
    //                    x: 0123456
    let rows = [
        ".......", //
        ".aRbA.3", "..H....", ".......",
    ];
    // (cell, route_possible, construction_possible), for seat 0.
    let cases = [
        (
            "rule_19 own reservation, next to a road",
            (1, 1),
            SUCCES,
            SUCCES,
        ),
        (
            "rule_19 someone else's reservation",
            (3, 1),
            CASE_OCCUPEE,
            CASE_OCCUPEE,
        ),
        ("rule_19 a house", (4, 1), CASE_OCCUPEE, CASE_OCCUPEE),
        (
            "rule_19 a town-hall house",
            (2, 2),
            CASE_OCCUPEE,
            CASE_OCCUPEE,
        ),
        ("rule_19 a road", (2, 1), CASE_OCCUPEE, CASE_OCCUPEE),
        ("rule_19 a monument", (6, 1), CASE_OCCUPEE, CASE_OCCUPEE),
        ("rule_20 diagonal to a road", (1, 2), NON_CONNEXE, SUCCES),
        (
            "rule_20 diagonal to a road, on the border",
            (3, 0),
            NON_CONNEXE,
            SUCCES,
        ),
        ("rule_20 far from roads", (5, 3), NON_CONNEXE, NON_CONNEXE),
        ("rule_21 the only way in", (2, 0), SUCCES, BLOCAGE),
        ("off the map", (7, -1), HORS_TERRAIN, HORS_TERRAIN),
    ];
    let mut game = game_from_rows(&rows, Seat(0));
    for (name, (x, y), road, building) in cases {
        let mut api = game.player(Seat(0));
        assert_eq!(api.route_possible(x, y), road, "route_possible: {name}");
        assert_eq!(
            api.construction_possible(x, y),
            building,
            "construction_possible: {name}"
        );
    }
    // Seen from seat 1, its reservation is buildable and seat 0's is not.
    let mut api = game.player(Seat(1));
    assert_eq!(api.construction_possible(3, 1), SUCCES);
    assert_eq!(api.route_possible(3, 1), SUCCES);
    assert_eq!(api.construction_possible(1, 1), CASE_OCCUPEE);
    assert_eq!(
        api.construire_route(1, 1),
        ACTION_INTERDITE,
        "not seat 1's turn"
    );

    // Rule 22: a road on one's reservation consumes it.
    let mut api = game.player(Seat(0));
    assert_eq!(api.construire_route(1, 1), SUCCES);
    assert_eq!(api.type_case(1, 1), ROUTE);
    assert_eq!(api.appartenance(1, 1), MAIRIE);
    // A reservation then a house on it (in a later callback), then destroying it.
    assert_eq!(api.reserver_case(1, 2), SUCCES);
    assert_eq!(api.type_case(1, 2), RESERVATION);
    assert_eq!(api.appartenance(1, 2), 0);
    assert_eq!(game.player(Seat(1)).appartenance(1, 2), 2);
    assert_eq!(api_house(&mut game, (1, 2)), SUCCES);
    let mut api = game.player(Seat(0));
    assert_eq!(api.type_case(1, 2), MAISON);
    assert_eq!(api.appartenance(1, 2), 0);
    assert_eq!(api.reserver_case(1, 2), CASE_OCCUPEE, "a house now");
    assert_eq!(api.detruire_maison(1, 2), SUCCES);
    assert_eq!(api.type_case(1, 2), VIDE);
    assert_eq!(api.appartenance(1, 2), MAIRIE);
    assert_eq!(api.detruire_maison(1, 2), PAS_DE_MAISON);
    // A monument on one's reservation, in Phase III.
    assert_eq!(api.reserver_case(0, 3), NON_CONNEXE);
    assert_eq!(api.reserver_case(1, 0), SUCCES);
    assert_eq!(
        api.reserver_case(1, 0),
        CASE_OCCUPEE,
        "already reserved by you"
    );
    to_auction(&mut game);
    run_ok(&mut game, Seat(0), &["encherir 1"]);
    assert_eq!(to_placement(&mut game), Seat(0));
    assert_eq!(run(&mut game, Seat(0), "construire_monument 1 0"), SUCCES);
    let mut api = game.player(Seat(2));
    assert_eq!(api.type_case(1, 0), MONUMENT);
    assert_eq!(api.type_monument(1, 0), 0);
    assert_eq!(api.appartenance(1, 0), MAIRIE);
}

/// A house for seat 0 in the same callback.
fn api_house(game: &mut engine::Game, (x, y): (i32, i32)) -> i32 {
    game.player(Seat(0)).construire_maison(x, y)
}

#[test]
fn rule_20_reservations_and_monuments_need_a_road_among_8_neighbours() {
    let mut game = game_on(Board::default(), Seat(0));
    let table = [
        ("reserver_case 51 51", SUCCES),
        ("reserver_case 52 52", NON_CONNEXE),
        ("reserver_case 50 52", NON_CONNEXE),
        ("construire_maison 52 50", NON_CONNEXE),
        ("construire_route 51 51", NON_CONNEXE),
        ("construire_route 50 50", CASE_OCCUPEE),
        ("construire_route 52 52", NON_CONNEXE),
        ("construire_route 49 49", NON_CONNEXE),
    ];
    for (call, expected) in table {
        assert_eq!(run(&mut game, Seat(0), call), expected, "{call}");
    }
    let winner = to_placement(&mut game);
    assert_eq!(
        run(&mut game, winner, "construire_monument 52 52"),
        NON_CONNEXE
    );
    assert_eq!(run(&mut game, winner, "construire_monument 49 51"), SUCCES);
}

#[test]
fn distance_section_6() {
    // A wall from the left border with a gap reserved by seat 0 at (5, 1), seat 1's
    // reservation at (12, 1); a house, a monument and an enclosed cell.
    let rows = [
        ".....................",
        "HHHHHaHHHHHHbHHHHH...",
        "................R....",
        "...........H.........",
        "...........2.........",
        ".....HHH.............",
        ".....H.H.............",
        ".....HHH.............",
    ];
    let mut game = game_from_rows(&rows, Seat(0));
    /// (name, seat, from, to, expected)
    type Case<'a> = (&'a str, u8, (i32, i32), (i32, i32), i32);
    let cases: [Case; 21] = [
        ("through own reservation", 0, (5, 0), (5, 2), 2),
        ("onto own reservation", 0, (5, 0), (5, 1), 1),
        ("from own reservation", 0, (5, 1), (5, 2), 1),
        (
            "not through others' reservation",
            1,
            (5, 0),
            (5, 2),
            TROP_LOIN,
        ),
        (
            "others' reservation as an end",
            1,
            (5, 0),
            (5, 1),
            TROP_LOIN,
        ),
        (
            "others' reservation as an end, its owner",
            0,
            (12, 0),
            (12, 1),
            TROP_LOIN,
        ),
        ("seat 1's own reservation", 1, (12, 0), (12, 2), 2),
        ("around the end of the wall", 0, (17, 0), (17, 2), 4),
        ("around the end of the wall, longer", 0, (15, 0), (15, 2), 8),
        ("through a road", 0, (15, 2), (17, 2), 2),
        ("onto a road", 0, (15, 2), (16, 2), 1),
        ("a house as an end", 0, (10, 3), (11, 3), TROP_LOIN),
        ("a monument as an end", 0, (11, 5), (11, 4), TROP_LOIN),
        ("around a house and a monument", 0, (11, 2), (11, 5), 5),
        ("an enclosed cell", 0, (6, 4), (6, 6), TROP_LOIN),
        ("the same cell", 0, (20, 20), (20, 20), 0),
        ("the same cell, a house", 0, (0, 1), (0, 1), TROP_LOIN),
        ("Manhattan 12", 0, (30, 30), (36, 36), 12),
        ("Manhattan 13", 0, (30, 30), (43, 30), TROP_LOIN),
        (
            "a detour over 12 with Manhattan under 12",
            1,
            (4, 0),
            (4, 2),
            TROP_LOIN,
        ),
        ("a detour of exactly 12", 0, (13, 0), (13, 2), 12),
    ];
    for (name, seat, (x1, y1), (x2, y2), expected) in cases {
        let mut api = game.player(Seat(seat));
        assert_eq!(api.distance(x1, y1, x2, y2), expected, "{name}");
        assert_eq!(api.distance(x2, y2, x1, y1), expected, "{name}, backwards");
    }
    // HORS_TERRAIN on either end, before anything else (even a Manhattan distance > 12).
    let mut api = game.player(Seat(0));
    let off = [
        (-1, 0, 0, 0),
        (0, 0, -1, 0),
        (0, 0, 100, 0),
        (0, 100, 0, 99),
        (-50, 0, 99, 99),
        (0, 1, 0, -1),
        (150, 150, 0, 1),
    ];
    for (x1, y1, x2, y2) in off {
        assert_eq!(
            api.distance(x1, y1, x2, y2),
            HORS_TERRAIN,
            "({x1}, {y1}) ({x2}, {y2})"
        );
    }
}
