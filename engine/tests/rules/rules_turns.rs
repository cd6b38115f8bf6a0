//! Rules 10-16, 27 and 28: the stages of a whole game, who plays when, what `commence`,
//! `numero_tour`, `monument_en_cours` and `mon_tour` say in every callback, and the setup.

use crate::common::*;
use engine::constants::*;
use engine::{Api, Board, Callback, Game, Seat, Setup, Stage};

/// One expected stage: the stage, the seats to call, and the turn number.
fn expected_stages(first: Seat, winners: impl Fn(u8) -> Seat) -> Vec<(Stage, Vec<Seat>, u8)> {
    let mut stages = vec![(Stage::Init, Seat::ALL.to_vec(), 1)];
    for turn in 1..=15u8 {
        let opener = first.after((turn - 1) % 3);
        let order = vec![opener, opener.after(1), opener.after(2)];
        for slot in 0..3 {
            stages.push((Stage::Build { slot }, vec![order[usize::from(slot)]], turn));
        }
        if turn < 15 {
            stages.push((Stage::Auction, order.clone(), turn));
            let winner = winners(turn);
            stages.push((Stage::Placement { winner }, vec![winner], turn));
        }
    }
    stages.push((Stage::End, Seat::ALL.to_vec(), 15));
    stages.push((Stage::Over, vec![], 15));
    stages
}

#[test]
fn rule_10_11_13_27_the_stages_of_a_whole_game() {
    for first in Seat::ALL {
        // Nobody bids: the all-zero auction goes to the tied player playing last in the next
        // Phase I, which is the first player of the current turn (rule 23).
        let expected = expected_stages(first, |turn| first.after((turn - 1) % 3));
        let mut game = Game::new(Setup::with_order(ORDER, first));
        let mut seen = Vec::new();
        loop {
            seen.push((game.stage(), game.seats_to_play(), game.state().turn));
            if game.stage() == Stage::Over {
                break;
            }
            game.advance();
        }
        assert_eq!(seen, expected, "first player {first}");
        let phase_1 = seen
            .iter()
            .filter(|s| matches!(s.0, Stage::Build { .. }))
            .count();
        let phase_2 = seen.iter().filter(|s| s.0 == Stage::Auction).count();
        let phase_3 = seen
            .iter()
            .filter(|s| matches!(s.0, Stage::Placement { .. }))
            .count();
        assert_eq!((phase_1, phase_2, phase_3), (45, 14, 14));
        assert_eq!(game.callback(), None);
    }
}

#[test]
fn rule_27_callbacks_of_each_stage() {
    let table = [
        (Stage::Init, Callback::InitGame, "init_game"),
        (Stage::Build { slot: 1 }, Callback::Jouer, "jouer"),
        (Stage::Auction, Callback::Enchere, "enchere"),
        (
            Stage::Placement { winner: Seat(2) },
            Callback::Placement,
            "placement",
        ),
        (Stage::End, Callback::EndGame, "end_game"),
    ];
    for (stage, callback, name) in table {
        assert_eq!(stage.callback(), Some(callback));
        assert_eq!(callback.name(), name);
        assert_eq!(Callback::from_name(name), Some(callback));
    }
    assert_eq!(Stage::Over.callback(), None);
}

#[test]
fn rule_10_11_12_13_15_16_what_each_callback_sees() {
    // Seat 2 bids 1 every turn and so always wins; the monument order is reversed.
    let order: [u8; 14] = std::array::from_fn(|i| 13 - i as u8);
    for first in Seat::ALL {
        let mut game = Game::new(setup(Board::default(), order, first, [20, 20, 20]));
        let mut drawn = 0;
        while game.stage() != Stage::Over {
            let stage = game.stage();
            let turn = game.state().turn;
            let opener = first.after((turn - 1) % 3);
            let to_play = game.seats_to_play();
            for viewer in Seat::ALL {
                let mut api = game.player(viewer);
                // numero_tour, from 1.
                assert_eq!(api.numero_tour(), i32::from(turn));
                // commence (rule 15).
                let commence = match stage {
                    Stage::Auction | Stage::Placement { .. } => opener.after(1),
                    _ => opener,
                };
                assert_eq!(api.commence(), commence.relative_to(viewer), "{stage:?}");
                // monument_en_cours (rule 15).
                let current = if drawn == 0 {
                    PAS_DE_MONUMENT
                } else {
                    i32::from(order[drawn - 1])
                };
                assert_eq!(api.monument_en_cours(), current, "{stage:?} turn {turn}");
                // mon_tour (rule 16).
                let mine = match stage {
                    Stage::Build { slot } => opener.after(slot) == viewer,
                    Stage::Auction => true,
                    Stage::Placement { winner } => winner == viewer,
                    _ => false,
                };
                assert_eq!(api.mon_tour(), i32::from(mine), "{stage:?} seat {viewer}");
                assert_eq!(
                    to_play.contains(&viewer),
                    mine || !matches!(stage, Stage::Build { .. } | Stage::Placement { .. })
                );
                // Rule 16: an action when it is not your turn is refused (and so are actions
                // not allowed in the phase).
                if !mine {
                    assert_eq!(api.construire_route(50, 51), ACTION_INTERDITE);
                    assert_eq!(api.construire_maison(49, 49), ACTION_INTERDITE);
                    assert_eq!(api.reserver_case(49, 49), ACTION_INTERDITE);
                    assert_eq!(api.detruire_maison(49, 49), ACTION_INTERDITE);
                    assert_eq!(api.vendre_maison(49, 49), ACTION_INTERDITE);
                    assert_eq!(api.encherir(0), ACTION_INTERDITE);
                    assert_eq!(api.construire_monument(49, 49), ACTION_INTERDITE);
                }
            }
            if stage == Stage::Auction {
                run_ok(&mut game, Seat(2), &["encherir 1"]);
            }
            if let Stage::Placement { winner } = stage {
                assert_eq!(winner, Seat(2));
            }
            game.advance();
            if game.stage() == Stage::Auction {
                drawn += 1;
            }
        }
        assert_eq!(drawn, 14);
    }
}

#[test]
fn rule_27_actions_in_init_game_and_end_game_are_refused() {
    let mut game = game_on(Board::default(), Seat(0));
    run_ok(&mut game, Seat(0), &["construire_maison 51 51"]);
    let mut init = Game::new(Setup::with_order(ORDER, Seat(0)));
    let mut end = game.clone();
    advance_until(&mut end, |s| s == Stage::End);
    let actions = [
        "construire_route 50 51",
        "construire_maison 49 49",
        "reserver_case 49 49",
        "detruire_maison 51 51",
        "vendre_maison 51 51",
        "encherir 0",
        "construire_monument 49 49",
    ];
    for (name, game) in [("init_game", &mut init), ("end_game", &mut end)] {
        for seat in Seat::ALL {
            let before = game.digest();
            assert_eq!(game.player(seat).mon_tour(), 0);
            for action in actions {
                assert_eq!(
                    run(game, seat, action),
                    ACTION_INTERDITE,
                    "{action} in {name}"
                );
            }
            assert_eq!(game.digest(), before, "{name} changed nothing");
            // Information functions work.
            let mut api = game.player(seat);
            assert_eq!(api.type_case(50, 50), ROUTE);
            assert_eq!(api.finances(0), ARGENT_INITIAL);
            assert_eq!(api.construction_possible(49, 49), SUCCES);
            assert_eq!(api.route_possible(50, 51), SUCCES);
            assert_eq!(api.cout_achat_maison(), 0);
            assert_eq!(api.distance(50, 50, 55, 50), 5);
        }
    }
    assert_eq!(end.player(Seat(1)).score(2), 1, "seat 0 seen from seat 1");
    assert_eq!(end.player(Seat(0)).numero_tour(), 15);
    assert_eq!(init.player(Seat(0)).numero_tour(), 1);
}

#[test]
fn rule_14_the_monument_order_from_a_seed_is_a_reproducible_permutation() {
    let mut orders = std::collections::HashSet::new();
    let mut firsts = [0; 3];
    for seed in 0..200u64 {
        let setup = Setup::from_seed(seed);
        assert_eq!(setup, Setup::from_seed(seed), "seed {seed}");
        let mut sorted = setup.monument_order;
        sorted.sort();
        assert_eq!(sorted, ORDER, "seed {seed} gives a permutation");
        assert_eq!(
            Setup::check_order(&setup.monument_order),
            Ok(setup.monument_order)
        );
        assert_eq!(setup.board, Board::default());
        assert_eq!(setup.money, [ARGENT_INITIAL; 3]);
        orders.insert(setup.monument_order);
        firsts[setup.first_player.index()] += 1;
    }
    assert!(orders.len() > 190, "orders vary with the seed");
    assert!(
        firsts.iter().all(|&n| n > 40),
        "first players vary: {firsts:?}"
    );
    // The monuments are drawn in that order, one per turn.
    let setup = Setup::from_seed(42);
    let mut game = Game::new(setup.clone());
    for turn in 0..14 {
        to_auction(&mut game);
        let current = game.player(Seat(0)).monument_en_cours();
        assert_eq!(current, i32::from(setup.monument_order[turn]));
        game.advance();
    }
}

#[test]
fn rule_14_setup_with_order_and_checked_orders() {
    let setup = Setup::with_order(ORDER, Seat(2));
    assert_eq!(setup.monument_order, ORDER);
    assert_eq!(setup.first_player, Seat(2));
    assert_eq!(setup.board, Board::default());
    let mut game = Game::new(setup);
    game.advance();
    assert_eq!(game.seats_to_play(), vec![Seat(2)]);
    let cases: [(&str, &[u8], bool); 5] = [
        ("identity", &ORDER, true),
        ("13 ids", &ORDER[..13], false),
        (
            "an id twice",
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12],
            false,
        ),
        (
            "an id out of range",
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14],
            false,
        ),
        (
            "reversed",
            &[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
            true,
        ),
    ];
    for (name, order, ok) in cases {
        assert_eq!(Setup::check_order(order).is_ok(), ok, "{name}");
    }
}

#[test]
fn rule_28_a_stopped_seat_acts_no_more_and_keeps_its_houses_and_money() {
    // Seat 1 builds a house in turn 1 and is then stopped: it never plays again (it bids 0).
    // Seats 0 and 2 bid 0 too; seat 1 is ranked by its final score like the others.
    let mut game = game_on(Board::default(), Seat(1));
    run_ok(
        &mut game,
        Seat(1),
        &["construire_maison 51 51", "construire_route 51 50"],
    );
    game.advance();
    run_ok(&mut game, Seat(2), &["reserver_case 49 49"]);
    advance_until(&mut game, |s| s == Stage::Over);
    let outcome = game.outcome();
    assert_eq!(outcome.final_scores, [10, 11, 9]);
    assert_eq!(outcome.points, [1, 3, 0]);
    assert_eq!(
        game.state().board.cell(engine::Pos { x: 51, y: 51 }).owner,
        Some(Seat(1))
    );
}
