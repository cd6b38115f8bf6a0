//! Rules 1-9 (board, players, money, monuments, values, houses' worth) through the API,
//! with figure 2 of the subject (docs/rules.md example 10.4) and relative ids seen from each
//! of the three seats.

use crate::common::*;
use engine::constants::*;
use engine::{Api, Board, Game, Pos, Seat, Setup, Stage};

#[test]
fn rule_01_the_map_starts_empty_but_for_one_road_at_the_centre() {
    let mut game = Game::new(Setup::from_seed(1));
    let mut api = game.player(Seat(0));
    for y in 0..TAILLE_CARTE {
        for x in 0..TAILLE_CARTE {
            let expected = if (x, y) == (50, 50) { ROUTE } else { VIDE };
            assert_eq!(api.type_case(x, y), expected, "({x}, {y})");
        }
    }
    for (x, y) in [
        (-1, 0),
        (0, -1),
        (100, 0),
        (0, 100),
        (-5, 120),
        (i32::MIN, i32::MAX),
    ] {
        assert_eq!(api.type_case(x, y), HORS_TERRAIN, "({x}, {y})");
        assert_eq!(api.valeur_case(x, y), HORS_TERRAIN, "({x}, {y})");
        assert_eq!(api.appartenance(x, y), HORS_TERRAIN, "({x}, {y})");
        assert_eq!(api.type_monument(x, y), HORS_TERRAIN, "({x}, {y})");
    }
    for (x, y) in [(0, 0), (99, 0), (0, 99), (99, 99)] {
        assert_eq!(api.type_case(x, y), VIDE, "corner ({x}, {y})");
    }
}

#[test]
fn rule_02_cell_kinds_and_the_constants_of_the_subject() {
    let table = [
        ("VIDE", VIDE, 0),
        ("MAISON", MAISON, 1),
        ("RESERVATION", RESERVATION, 2),
        ("MONUMENT", MONUMENT, 3),
        ("ROUTE", ROUTE, 4),
        ("MAIRIE", MAIRIE, 3),
        ("SUCCES", SUCCES, 0),
        ("PAS_DE_MAISON", PAS_DE_MAISON, -2),
        ("PAS_DE_MONUMENT", PAS_DE_MONUMENT, -3),
        ("FINANCES_DEPASSEES", FINANCES_DEPASSEES, -4),
        ("BLOCAGE", BLOCAGE, -5),
        ("JOUEUR_INCORRECT", JOUEUR_INCORRECT, -7),
        ("NON_CONNEXE", NON_CONNEXE, -8),
        ("CASE_OCCUPEE", CASE_OCCUPEE, -9),
        ("ACTION_INTERDITE", ACTION_INTERDITE, -10),
        ("HORS_TERRAIN", HORS_TERRAIN, -12),
        ("TROP_LOIN", TROP_LOIN, 50),
        ("INFINI", INFINI, 30000),
        ("MAX_MONUMENTS", MAX_MONUMENTS, 14),
        ("TAILLE_CARTE", TAILLE_CARTE, 100),
        ("MAX_DISTANCE", MAX_DISTANCE, 12),
        ("ARGENT_INITIAL", ARGENT_INITIAL, 10),
    ];
    for (name, value, expected) in table {
        assert_eq!(value, expected, "{name}");
    }
    // Each kind, as type_case reports it.
    let mut game = game_from_rows(&["R.Aa3"], Seat(0));
    let mut api = game.player(Seat(0));
    let kinds: Vec<i32> = (0..5).map(|x| api.type_case(x, 0)).collect();
    assert_eq!(kinds, [ROUTE, VIDE, MAISON, RESERVATION, MONUMENT]);
}

#[test]
fn rule_03_ids_are_relative_to_the_viewer() {
    // Houses of seats 0, 1, 2 at x = 1, 2, 3; reservations at x = 4, 5, 6; a town-hall house.
    let board = board_at(45, 45, &["RABCabcH"]);
    let money = [7, 8, 9];
    let mut game = Game::new(setup(board, ORDER, Seat(1), money));
    // Play turn 1 to a resolved auction with distinct bids: seat 2 wins with 3.
    advance_until(&mut game, |s| s == Stage::Auction);
    let bids = [1, 2, 3];
    for seat in Seat::ALL {
        run_ok(
            &mut game,
            seat,
            &[&format!("encherir {}", bids[seat.index()])],
        );
    }
    game.advance();
    assert_eq!(game.stage(), Stage::Placement { winner: Seat(2) });
    for viewer in Seat::ALL {
        let mut api = game.player(viewer);
        let rel = |s: u8| i32::from((s + 3 - viewer.0) % 3);
        for owner in 0..3u8 {
            let x = 46 + i32::from(owner);
            assert_eq!(api.appartenance(x, 45), rel(owner), "house of {owner}");
            assert_eq!(
                api.appartenance(x + 3, 45),
                rel(owner),
                "reservation of {owner}"
            );
            // Absolute seat `owner` is relative `rel(owner)`; money and bids follow.
            let j = rel(owner);
            let paid = if owner == 2 { 3 } else { 0 };
            assert_eq!(api.finances(j), money[usize::from(owner)] - paid);
            assert_eq!(api.montant_encheres(j), bids[usize::from(owner)]);
            assert_eq!(api.score(j), 1, "one house worth 1");
        }
        assert_eq!(api.appartenance(52, 45), MAIRIE, "town-hall house");
        assert_eq!(api.appartenance(45, 45), MAIRIE, "road");
        assert_eq!(api.appartenance(0, 0), MAIRIE, "empty cell");
        assert_eq!(api.vainqueur_encheres(), rel(2));
        // Phase III: commence is the first player of turn 2, seat 2.
        assert_eq!(api.commence(), rel(2));
        for bad in [-1, 3, 4, i32::MIN, i32::MAX] {
            assert_eq!(api.score(bad), JOUEUR_INCORRECT);
            assert_eq!(api.finances(bad), JOUEUR_INCORRECT);
            assert_eq!(api.montant_encheres(bad), JOUEUR_INCORRECT);
        }
    }
    // And commence in Phase I of turn 1 from each seat: the first player is seat 1.
    let mut game = Game::new(setup(Board::default(), ORDER, Seat(1), money));
    for viewer in Seat::ALL {
        assert_eq!(
            game.player(viewer).commence(),
            Seat(1).relative_to(viewer),
            "init"
        );
    }
    game.advance();
    for viewer in Seat::ALL {
        let expected = Seat(1).relative_to(viewer);
        assert_eq!(game.player(viewer).commence(), expected);
        assert_eq!(
            game.player(viewer).vainqueur_encheres(),
            0,
            "before the first auction"
        );
        for j in 0..3 {
            assert_eq!(game.player(viewer).montant_encheres(j), 0);
        }
    }
}

#[test]
fn rule_04_everyone_starts_with_ten_roubles_and_money_never_goes_negative() {
    let mut game = game_on(Board::default(), Seat(0));
    for viewer in Seat::ALL {
        for j in 0..3 {
            assert_eq!(game.player(viewer).finances(j), ARGENT_INITIAL);
        }
    }
    // Spending down to 0 (reservations cost at least 1, the second road 1); then refused.
    let mut game = game_on(Board::default(), Seat(0));
    run_ok(&mut game, Seat(0), &["construire_route 51 50"]);
    for x in 49..=52 {
        for y in [49, 51] {
            assert_eq!(
                run(&mut game, Seat(0), &format!("reserver_case {x} {y}")),
                SUCCES
            );
        }
    }
    run_ok(
        &mut game,
        Seat(0),
        &["construire_route 52 50", "reserver_case 53 49"],
    );
    assert_eq!(game.player(Seat(0)).finances(0), 0);
    assert_eq!(
        run(&mut game, Seat(0), "reserver_case 53 51"),
        FINANCES_DEPASSEES
    );
    assert_eq!(
        run(&mut game, Seat(0), "construire_route 53 50"),
        SUCCES,
        "a free road"
    );
    assert_eq!(
        run(&mut game, Seat(0), "construire_route 54 50"),
        FINANCES_DEPASSEES
    );
    assert_eq!(game.player(Seat(0)).finances(0), 0);
}

#[test]
fn rule_05_the_fourteen_monuments() {
    let table: [(i32, i32); 14] = [
        (5, 1),
        (4, 1),
        (4, 1),
        (3, 1),
        (3, 2),
        (2, 2),
        (2, 2),
        (2, 2),
        (2, 1),
        (1, 3),
        (1, 3),
        (1, 2),
        (-1, 2),
        (-2, 1),
    ];
    let mut game = game_on(Board::default(), Seat(0));
    let mut api = game.player(Seat(2));
    for (id, (prestige, range)) in table.into_iter().enumerate() {
        assert_eq!(
            api.prestige_monument(id as i32),
            prestige,
            "prestige of {id}"
        );
        assert_eq!(api.portee_monument(id as i32), range, "range of {id}");
    }
    for bad in [-1, 14, 15, i32::MIN, i32::MAX] {
        assert_eq!(api.prestige_monument(bad), PAS_DE_MONUMENT);
        assert_eq!(api.portee_monument(bad), PAS_DE_MONUMENT);
    }
    assert_eq!(api.type_monument(50, 50), PAS_DE_MONUMENT, "a road");
    assert_eq!(api.type_monument(0, 0), PAS_DE_MONUMENT, "an empty cell");
}

#[test]
fn rule_06_07_a_monument_affects_its_square_clipped_to_the_map() {
    for id in 0..14u8 {
        let info = engine::monument::MONUMENTS[usize::from(id)];
        for (mx, my) in [(20, 20), (0, 0), (99, 50), (1, 98)] {
            let mut board = board_at(mx.min(97), my.min(97), &["R"]);
            board.build_monument(Pos::new(mx, my).unwrap(), id);
            let mut game = game_on(board, Seat(0));
            let mut api = game.player(Seat(0));
            assert_eq!(api.type_monument(mx, my), i32::from(id));
            assert_eq!(api.type_case(mx, my), MONUMENT);
            for y in my - 4..=my + 4 {
                for x in mx - 4..=mx + 4 {
                    let expected = if Pos::new(x, y).is_none() {
                        HORS_TERRAIN
                    } else if (x - mx).abs().max((y - my).abs()) <= info.range {
                        info.prestige
                    } else {
                        0
                    };
                    assert_eq!(
                        api.valeur_case(x, y),
                        expected,
                        "monument {id} at ({mx}, {my}), cell ({x}, {y})"
                    );
                }
            }
        }
    }
}

#[test]
fn rule_07_values_add_up_over_every_cell_kind_and_may_be_negative() {
    // Château fort (+5, 1) at (1, 1), Déchetterie (-2, 1) at (3, 1), Aéroport (-1, 2) at (6, 1).
    let mut board = Board::from_rows(&[".R.A.....", ".0.a.....", "........."]);
    board.build_monument(Pos { x: 3, y: 1 }, 13);
    board.build_monument(Pos { x: 6, y: 1 }, 12);
    let mut game = game_on(board, Seat(0));
    let mut api = game.player(Seat(0));
    let cases = [
        ("road under the castle", (1, 0), 5),
        ("castle and dump overlap", (2, 1), 3),
        ("the dump itself, a monument cell", (3, 1), -2),
        ("a house under the dump", (3, 0), -2),
        ("dump and airport", (4, 2), -3),
        ("airport only", (8, 3), -1),
        ("far away", (30, 30), 0),
    ];
    for (name, (x, y), value) in cases {
        assert_eq!(api.valeur_case(x, y), value, "{name}");
    }
}

#[test]
fn rule_08_09_figure_2_of_the_subject() {
    // Cinéma (5) at B3, Restaurant (3) at E5; houses of seat 0 at B4, C2, D2, E4, D4.
    //            ABCDE
    let rows = [
        ".....", // 1
        "..AA.", // 2
        ".5...", // 3
        ".A.AA", // 4
        "....3", // 5
        "R....", // 6
    ];
    let mut game = game_from_rows(&rows, Seat(0));
    let cells = [
        ("B4", (1, 3), 3),
        ("C2", (2, 1), 3),
        ("D2", (3, 1), 3),
        ("E4", (4, 3), 4),
        ("D4", (3, 3), 6),
    ];
    let mut api = game.player(Seat(0));
    for (name, (x, y), worth) in cells {
        assert_eq!(api.valeur_case(x, y), worth - 1, "valeur_case {name}");
        assert_eq!(api.appartenance(x, y), 0, "{name}");
    }
    assert_eq!(api.score(0), 3 + 3 + 3 + 4 + 6);
    assert_eq!(game.player(Seat(1)).score(2), 19, "seat 0 seen from seat 1");
    assert_eq!(game.player(Seat(2)).score(1), 19, "seat 0 seen from seat 2");
    // Selling each house earns its worth; the house stays, owned by the town hall.
    let mut score = 19;
    let mut money = ARGENT_INITIAL;
    for (name, (x, y), worth) in cells {
        assert_eq!(
            run(&mut game, Seat(0), &format!("vendre_maison {x} {y}")),
            SUCCES
        );
        money += worth;
        score -= worth;
        let mut api = game.player(Seat(0));
        assert_eq!(api.finances(0), money, "after selling {name}");
        assert_eq!(api.score(0), score, "after selling {name}");
        assert_eq!(api.type_case(x, y), MAISON);
        assert_eq!(api.appartenance(x, y), MAIRIE);
    }
    assert_eq!(money, 10 + 19);
}

#[test]
fn rule_08_worth_is_never_negative_and_follows_new_monuments() {
    // Houses of seat 0 under the dump (-2) and the airport (-1) are worth 0.
    let mut board = Board::from_rows(&["A.....", ".....R", "..A..."]);
    board.build_monument(Pos { x: 0, y: 1 }, 13);
    board.build_monument(Pos { x: 3, y: 3 }, 12);
    let mut game = game_on(board, Seat(0));
    assert_eq!(game.player(Seat(0)).score(0), 0);
    assert_eq!(run(&mut game, Seat(0), "vendre_maison 0 0"), SUCCES);
    assert_eq!(
        game.player(Seat(0)).finances(0),
        10,
        "a house worth 0 sells for 0"
    );

    // In a game: seat 0 builds a house, wins the auction of the Château fort (+5, 1) and
    // places it next to the house; the house is then worth 6.
    let mut game = game_on(Board::default(), Seat(0));
    run_ok(&mut game, Seat(0), &["construire_maison 51 51"]);
    assert_eq!(game.player(Seat(0)).score(0), 1);
    to_auction(&mut game);
    assert_eq!(game.player(Seat(0)).monument_en_cours(), 0);
    run_ok(&mut game, Seat(0), &["encherir 1"]);
    assert_eq!(to_placement(&mut game), Seat(0));
    run_ok(&mut game, Seat(0), &["construire_monument 51 50"]);
    for seat in Seat::ALL {
        let j = Seat(0).relative_to(seat);
        assert_eq!(game.player(seat).score(j), 6);
        assert_eq!(game.player(seat).valeur_case(51, 51), 5);
    }
    advance_until(&mut game, |s| s == Stage::Over);
    // Rule 9: the final score is money + score.
    assert_eq!(game.outcome().final_scores, [9 + 6, 10, 10]);
    assert_eq!(game.outcome().points, [3, 0, 0]);
}
