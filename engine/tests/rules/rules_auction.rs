//! Rules 12 and 23-26: Phase II simultaneity, the auction and its tie-break, secret bids,
//! lost monuments, and the final points.

use crate::common::*;
use engine::constants::*;
use engine::outcome::points;
use engine::{Api, Board, Game, Kind, Seat, Stage};

/// Run the auction of the current Phase II with `bids` (absolute seats; `None` = no call).
fn auction(game: &mut Game, bids: [Option<i32>; 3]) -> Seat {
    assert_eq!(game.stage(), Stage::Auction);
    for seat in Seat::ALL {
        if let Some(bid) = bids[seat.index()] {
            assert_eq!(run(game, seat, &format!("encherir {bid}")), SUCCES);
        }
    }
    game.advance();
    match game.stage() {
        Stage::Placement { winner } => winner,
        other => panic!("not Phase III: {other:?}"),
    }
}

#[test]
fn rule_23_the_highest_bid_wins_and_pays_only_its_bid() {
    let mut game = game_on(Board::default(), Seat(0));
    to_auction(&mut game);
    let winner = auction(&mut game, [Some(3), Some(5), Some(1)]);
    assert_eq!(winner, Seat(1));
    assert_eq!(game.state().money, [10, 5, 10]);
    for viewer in Seat::ALL {
        let mut api = game.player(viewer);
        assert_eq!(api.vainqueur_encheres(), Seat(1).relative_to(viewer));
        for seat in Seat::ALL {
            let j = seat.relative_to(viewer);
            assert_eq!(api.montant_encheres(j), [3, 5, 1][seat.index()]);
            assert_eq!(api.finances(j), [10, 5, 10][seat.index()]);
        }
    }
    assert_eq!(game.player(Seat(1)).mon_tour(), 1);
    assert_eq!(game.player(Seat(0)).mon_tour(), 0);
}

#[test]
fn rule_23_ties_go_to_the_player_playing_last_in_the_next_phase_1() {
    // Bids given by position in the NEXT turn's Phase I order; the expected winner too.
    let cases: [(&str, [Option<i32>; 3], usize); 9] = [
        ("nobody bids", [None, None, None], 2),
        ("all bid 0", [Some(0), Some(0), Some(0)], 2),
        ("all bid 4", [Some(4), Some(4), Some(4)], 2),
        ("first and second tie", [Some(4), Some(4), Some(1)], 1),
        ("first and last tie", [Some(4), Some(1), Some(4)], 2),
        ("second and last tie", [Some(1), Some(4), Some(4)], 2),
        ("the last alone", [Some(1), Some(1), Some(2)], 2),
        ("the first alone", [Some(2), Some(1), None], 0),
        ("the second alone", [None, Some(1), None], 1),
    ];
    for first in Seat::ALL {
        for (name, by_position, winner_position) in cases {
            let mut game = game_on(Board::default(), first);
            // Check over the first three turns, so that every rotation is seen from every
            // first player.
            for turn in 0..3u8 {
                to_auction(&mut game);
                let opener = first.after(turn);
                let next_order = [opener.after(1), opener.after(2), opener];
                let mut bids = [None; 3];
                for (position, seat) in next_order.into_iter().enumerate() {
                    bids[seat.index()] = by_position[position];
                }
                let money_before = game.state().money;
                let winner = auction(&mut game, bids);
                let expected = next_order[winner_position];
                assert_eq!(winner, expected, "{name}, turn {}, first {first}", turn + 1);
                let mut money = money_before;
                money[winner.index()] -= bids[winner.index()].unwrap_or(0);
                assert_eq!(game.state().money, money, "only the winner pays: {name}");
                assert_eq!(game.state().last_bids, bids.map(|b| b.unwrap_or(0)));
                game.advance();
            }
        }
    }
}

#[test]
fn rule_24_bids_are_secret_until_the_auction_is_resolved() {
    let mut game = game_on(Board::default(), Seat(2));
    to_auction(&mut game);
    let before = |game: &mut Game, viewer: Seat| {
        let mut api = game.player(viewer);
        (
            (0..3).map(|j| api.montant_encheres(j)).collect::<Vec<_>>(),
            api.vainqueur_encheres(),
        )
    };
    run_ok(&mut game, Seat(0), &["encherir 5"]);
    for viewer in Seat::ALL {
        assert_eq!(
            before(&mut game, viewer),
            (vec![0, 0, 0], 0),
            "seat {viewer}, auction 1"
        );
    }
    run_ok(&mut game, Seat(1), &["encherir 2"]);
    assert_eq!(auction(&mut game, [None, None, Some(3)]), Seat(0));
    // Resolved: everybody sees the bids, relative to itself.
    assert_eq!(before(&mut game, Seat(0)), (vec![5, 2, 3], 0));
    assert_eq!(before(&mut game, Seat(1)), (vec![2, 3, 5], 2));
    assert_eq!(before(&mut game, Seat(2)), (vec![3, 5, 2], 1));
    // The next Phase II shows the last resolved auction until it is resolved itself.
    to_auction(&mut game);
    run_ok(&mut game, Seat(1), &["encherir 4"]);
    assert_eq!(before(&mut game, Seat(1)), (vec![2, 3, 5], 2));
    assert_eq!(before(&mut game, Seat(0)), (vec![5, 2, 3], 0));
    assert_eq!(auction(&mut game, [None, None, None]), Seat(1));
    assert_eq!(before(&mut game, Seat(0)), (vec![0, 4, 0], 1));
    // And in the following Phase I.
    game.advance();
    assert_eq!(before(&mut game, Seat(2)), (vec![0, 0, 4], 2));
}

/// Three houses per seat around a road: seat 0 at x = 47..49 (y = 49), seat 1 at
/// x = 51..53 (y = 49), seat 2 at x = 48..50 (y = 52). A Château fort (+5, 1) makes the
/// house at (47, 49) worth 6, an Aquarium (+4, 1) the one at (53, 49) worth 5; the others
/// are worth 1.
fn houses_board() -> Board {
    let mut board = board_at(
        47,
        48,
        &[".......", "AAARBBB", "...R...", "...R...", ".CCC..."],
    );
    board.build_monument(engine::Pos { x: 46, y: 50 }, 0);
    board.build_monument(engine::Pos { x: 54, y: 50 }, 2);
    board
}

#[test]
fn rule_12_phase_2_is_simultaneous() {
    let mut game = Game::new(setup(houses_board(), ORDER, Seat(0), [0, 10, 10]));
    to_auction(&mut game);
    let real = game.state().clone();
    // Seat 0 sells its house worth 6: its own view counts the sale ...
    run_ok(&mut game, Seat(0), &["vendre_maison 47 49"]);
    let mut api = game.player(Seat(0));
    assert_eq!(api.finances(0), 6);
    assert_eq!(api.appartenance(47, 49), MAIRIE);
    assert_eq!(api.score(0), 6 + 1 + 1 - 6);
    // ... and lets it bid money that comes from the sale.
    assert_eq!(api.encherir(7), FINANCES_DEPASSEES);
    assert_eq!(api.vendre_maison(48, 49), SUCCES);
    assert_eq!(api.encherir(7), SUCCES, "6 + 1 roubles from two sales");
    // The others see the state as Phase II began.
    for viewer in [Seat(1), Seat(2)] {
        let mut api = game.player(viewer);
        let j = Seat(0).relative_to(viewer);
        assert_eq!(api.finances(j), 0, "seat {viewer}");
        assert_eq!(api.appartenance(47, 49), j, "seat {viewer}");
        assert_eq!(api.score(j), 8, "seat {viewer}");
    }
    assert_eq!(game.state(), &real, "nothing applied yet");
    // Seat 1 sells its house worth 5 and bids 7 too; seat 2 sells one worth 1, bids 0.
    run_ok(&mut game, Seat(1), &["vendre_maison 53 49", "encherir 7"]);
    assert_eq!(game.player(Seat(1)).finances(0), 15);
    assert_eq!(
        game.player(Seat(0)).finances(1),
        10,
        "seat 1 seen from seat 0"
    );
    run_ok(&mut game, Seat(2), &["vendre_maison 49 52"]);
    // Resolution: all sales, then the winner pays. Next order is 1, 2, 0: seat 0 wins the tie.
    game.advance();
    assert_eq!(game.stage(), Stage::Placement { winner: Seat(0) });
    assert_eq!(game.state().money, [6 + 1 - 7, 10 + 5, 10 + 1]);
    let mut api = game.player(Seat(1));
    for (x, y) in [(47, 49), (48, 49), (53, 49), (49, 52)] {
        assert_eq!(api.appartenance(x, y), MAIRIE, "sold ({x}, {y})");
        assert_eq!(api.type_case(x, y), MAISON);
    }
    assert_eq!(api.score(2), 1, "seat 0 keeps (49, 49)");
    assert_eq!(api.score(0), 2);
    assert_eq!(api.score(1), 2);
}

#[test]
fn rule_12_no_sale_is_lost_when_all_three_sell_at_once() {
    for first in Seat::ALL {
        let mut game = Game::new(setup(houses_board(), ORDER, first, [10; 3]));
        to_auction(&mut game);
        // Every seat sells all its houses, in the Phase II order.
        let houses = [
            vec![(47, 49), (48, 49), (49, 49)],
            vec![(51, 49), (52, 49), (53, 49)],
            vec![(48, 52), (49, 52), (50, 52)],
        ];
        for seat in game.seats_to_play() {
            for &(x, y) in &houses[seat.index()] {
                assert_eq!(
                    run(&mut game, seat, &format!("vendre_maison {x} {y}")),
                    SUCCES
                );
            }
        }
        let winner = auction(&mut game, [None; 3]);
        assert_eq!(winner, first);
        assert_eq!(game.state().money, [18, 17, 13], "first {first}");
        for seat in Seat::ALL {
            assert_eq!(game.state().score(seat), 0);
        }
        let houses_left = game
            .state()
            .board
            .cells()
            .iter()
            .filter(|c| c.kind == Kind::Maison)
            .count();
        assert_eq!(houses_left, 9, "sold houses stay on the board");
    }
}

#[test]
fn rule_12_phase_2_actions_other_than_sales_and_bids_are_refused() {
    let mut game = game_on(houses_board(), Seat(0));
    to_auction(&mut game);
    let refused = [
        "construire_route 50 47",
        "construire_maison 46 46",
        "reserver_case 46 46",
        "detruire_maison 51 49",
        "construire_monument 46 46",
        "vendre_maison 51 49",
    ];
    for call in refused {
        assert_eq!(run(&mut game, Seat(0), call), ACTION_INTERDITE, "{call}");
    }
    assert_eq!(game.player(Seat(0)).mon_tour(), 1);
}

#[test]
fn rule_25_a_monument_not_placed_is_lost() {
    let order: [u8; 14] = [4, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    let mut game = Game::new(setup(Board::default(), order, Seat(0), [10; 3]));
    to_auction(&mut game);
    assert_eq!(game.player(Seat(1)).monument_en_cours(), 4);
    let winner = auction(&mut game, [None, Some(2), None]);
    assert_eq!(winner, Seat(1));
    assert_eq!(game.player(Seat(1)).monument_en_cours(), 4);
    // Seat 1 does not place it. Next turn, the next monument is drawn; 4 is gone for good.
    game.advance();
    assert_eq!(
        game.player(Seat(0)).monument_en_cours(),
        4,
        "until the next draw"
    );
    to_auction(&mut game);
    assert_eq!(game.player(Seat(0)).monument_en_cours(), 0);
    assert_eq!(auction(&mut game, [Some(1), None, None]), Seat(0));
    assert_eq!(run(&mut game, Seat(0), "construire_monument 51 51"), SUCCES);
    assert_eq!(
        run(&mut game, Seat(0), "construire_monument 49 49"),
        ACTION_INTERDITE,
        "one monument per Phase III"
    );
    assert_eq!(game.player(Seat(0)).monument_en_cours(), 0);
    advance_until(&mut game, |s| s == Stage::End);
    let mut api = game.player(Seat(2));
    assert_eq!(api.monument_en_cours(), 13);
    let monuments: Vec<i32> = (0..100)
        .flat_map(|y| (0..100).map(move |x| (x, y)))
        .filter_map(|(x, y)| Some(api.type_monument(x, y)).filter(|&m| m >= 0))
        .collect();
    assert_eq!(monuments, [0], "only the placed monument is on the board");
    assert_eq!(game.state().money, [9, 8, 10]);
}

#[test]
fn rule_26_points_from_final_scores() {
    let cases: [(&str, [i32; 3], [u32; 3]); 8] = [
        ("plain", [30, 20, 10], [3, 1, 0]),
        ("plain, another order", [5, 9, 7], [0, 3, 1]),
        ("two tied first", [20, 20, 10], [1, 1, 0]),
        ("two tied first, another order", [4, 9, 9], [0, 1, 1]),
        ("two tied last", [30, 10, 10], [3, 0, 0]),
        ("two tied last, another order", [1, 8, 1], [0, 3, 0]),
        ("all three tied", [10, 10, 10], [0, 0, 0]),
        (
            "negative scores cannot happen, but tie alike",
            [0, 0, 0],
            [0, 0, 0],
        ),
    ];
    for (name, scores, expected) in cases {
        assert_eq!(points(scores), expected, "{name}");
        assert_eq!(
            engine::Outcome::from_scores(scores).points,
            expected,
            "{name}"
        );
    }
}

#[test]
fn rule_26_points_recomputed_from_a_played_game() {
    // Seat 0 builds two houses (one free, one for 1 rouble), seat 1 one house, seat 2 none.
    let mut game = game_on(Board::default(), Seat(0));
    run_ok(
        &mut game,
        Seat(0),
        &["construire_maison 49 49", "construire_maison 49 51"],
    );
    game.advance();
    run_ok(&mut game, Seat(1), &["construire_maison 51 51"]);
    advance_until(&mut game, |s| s == Stage::End);
    let finals: Vec<i32> = Seat::ALL
        .iter()
        .map(|&s| {
            let mut api = game.player(s);
            api.finances(0) + api.score(0)
        })
        .collect();
    assert_eq!(finals, [11, 11, 10]);
    game.advance();
    assert_eq!(game.stage(), Stage::Over);
    let outcome = game.outcome();
    assert_eq!(outcome.final_scores, [11, 11, 10]);
    assert_eq!(outcome.points, [1, 1, 0]);
}
