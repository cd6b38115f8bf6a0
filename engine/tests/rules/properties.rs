//! Properties over many seeded games of three random players, and snapshots: invariants of
//! the rules hold after every stage, replays are exact, serde round trips are lossless and
//! the digest sees every change.

use crate::common::*;
use engine::constants::*;
use engine::{Api, Board, Game, Pos, Seat, Setup, Stage};

/// Invariants every state (real or a Phase II view) must satisfy.
fn check_invariants(game: &mut Game, context: &str) {
    let stage = game.stage();
    for seat in Seat::ALL {
        let mut api = game.player(seat);
        let board = api.view().board.clone();
        let money = api.view().money;
        assert!(
            roads_connected(&board),
            "roads 4-connected: {context}, {stage:?}"
        );
        assert!(board.is_open(), "rule 21 holds: {context}, {stage:?}");
        assert!(money.iter().all(|&m| m >= 0), "money {money:?}: {context}");
        for j in 0..3 {
            let owner = Seat::from_relative(seat, j).unwrap();
            assert_eq!(
                api.score(j),
                score_oracle(&board, owner),
                "score: {context}"
            );
            assert_eq!(api.finances(j), money[owner.index()]);
        }
    }
    // Values follow the monuments.
    let board = &game.state().board;
    let values = values_oracle(board);
    for (i, &value) in values.iter().enumerate() {
        assert_eq!(
            board.value(Pos::from_index(i)),
            value,
            "value of cell {i}: {context}"
        );
    }
}

#[test]
fn property_random_games_keep_the_invariants_and_replay_exactly() {
    for seed in 0..12u64 {
        let setup = Setup::from_seed(seed);
        let mut stages = 0;
        let (game, record) = play_random(setup.clone(), seed, true, |game| {
            check_invariants(game, &format!("seed {seed}"));
            stages += 1;
        });
        assert_eq!(stages, 1 + 45 + 28 + 1);
        assert_eq!(game.stage(), Stage::Over);
        // The outcome follows the final scores (rules 9, 26).
        let outcome = game.outcome();
        for seat in Seat::ALL {
            let expected =
                game.state().money[seat.index()] + score_oracle(&game.state().board, seat);
            assert_eq!(outcome.final_scores[seat.index()], expected);
        }
        assert_eq!(outcome.points, points_oracle(outcome.final_scores));
        // Replaying the same calls gives the same results and the same game.
        let replayed = replay(setup.clone(), &record);
        assert_eq!(replayed.digest(), game.digest(), "seed {seed}");
        assert_eq!(replayed, game);
        // Playing the same seed again gives the same calls.
        let (again, record_again) = play_random(setup, seed, true, |_| {});
        assert_eq!(again.digest(), game.digest());
        assert_eq!(record_again, record);
    }
}

#[test]
fn the_points_oracle_gives_the_hand_made_points_of_rule_26() {
    // (final scores, points): a strict order, the two kinds of two-way tie, a three-way tie.
    let cases = [
        ([30, 20, 10], [3, 1, 0]),
        ([10, 30, 20], [0, 3, 1]),
        ([20, 20, 10], [1, 1, 0]),
        ([20, 10, 10], [3, 0, 0]),
        ([5, 5, 5], [0, 0, 0]),
        ([-4, 7, -4], [0, 3, 0]),
    ];
    for (scores, expected) in cases {
        assert_eq!(points_oracle(scores), expected, "{scores:?}");
        let game_points = engine::outcome::points(scores);
        assert_eq!(game_points, expected, "the engine, {scores:?}");
    }
}

#[test]
fn property_random_games_do_something() {
    // The random player must build, sell, bid and place, or the properties prove little.
    let (mut houses, mut roads, mut monuments, mut sold) = (0, 0, 0, 0);
    for seed in 10..14u64 {
        let (game, _) = play_random(Setup::from_seed(seed), seed, false, |_| {});
        for cell in game.state().board.cells() {
            match cell.kind {
                engine::Kind::Maison if cell.owner.is_none() => sold += 1,
                engine::Kind::Maison => houses += 1,
                engine::Kind::Route => roads += 1,
                engine::Kind::Monument => monuments += 1,
                _ => {}
            }
        }
    }
    assert!(
        houses > 20 && roads > 40 && monuments > 20 && sold > 2,
        "{houses} {roads} {monuments} {sold}"
    );
}

/// A game stopped in the middle of turn 5's Phase II, after some sales and bids.
fn mid_auction_game() -> Game {
    let setup = Setup::from_seed(77);
    let mut game = Game::new(setup);
    let mut players: Vec<RandomPlayer> = (0..3).map(|i| RandomPlayer::new(900 + i)).collect();
    while !(game.stage() == Stage::Auction && game.state().turn == 5) {
        for seat in game.seats_to_play() {
            players[seat.index()].play(&mut game, seat);
        }
        game.advance();
    }
    // Seat order in Phase II: each seat with a house sells one; two of them bid.
    for seat in game.seats_to_play().into_iter().take(2) {
        players[seat.index()].play(&mut game, seat);
    }
    let seat = game.seats_to_play()[2];
    let house = game.state().board.houses_of(seat).next();
    if let Some(p) = house {
        assert_eq!(
            run(&mut game, seat, &format!("vendre_maison {} {}", p.x, p.y)),
            SUCCES
        );
    }
    game
}

#[test]
fn snapshot_round_trip_of_a_game_in_phase_2_and_phase_1() {
    let game = mid_auction_game();
    let mut phase_1 = game.clone();
    advance_until(&mut phase_1, |s| matches!(s, Stage::Build { slot: 1 }));
    for (name, game) in [("Phase II", game), ("Phase I", phase_1)] {
        let json = serde_json::to_string(&game).expect("serialises");
        let back: Game = serde_json::from_str(&json).expect("deserialises");
        assert_eq!(back, game, "{name}");
        assert_eq!(back.digest(), game.digest(), "{name}");
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            json,
            "{name}: stable text"
        );
        // Both copies play on identically (values, blocking caches and Phase II views all
        // came through).
        let (mut a, mut b) = (game.clone(), back);
        if name == "Phase II" {
            // The Phase II seats have played; resolve with what the views hold.
            a.advance();
            b.advance();
            assert_eq!(a.digest(), b.digest(), "{name}: resolution");
        }
        let mut players_a: Vec<RandomPlayer> = (0..3).map(|i| RandomPlayer::new(5 + i)).collect();
        let mut players_b: Vec<RandomPlayer> = (0..3).map(|i| RandomPlayer::new(5 + i)).collect();
        while a.stage() != Stage::Over {
            for seat in a.seats_to_play() {
                let log_a = players_a[seat.index()].play(&mut a, seat);
                let log_b = players_b[seat.index()].play(&mut b, seat);
                assert_eq!(log_a, log_b, "{name}");
            }
            a.advance();
            b.advance();
            assert_eq!(a.digest(), b.digest(), "{name}");
        }
        assert_eq!(a.outcome(), b.outcome());
    }
}

#[test]
fn snapshot_bad_boards_are_refused() {
    let game = Game::new(Setup::from_seed(3));
    let json = serde_json::to_string(&game).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let kinds = value["state"]["board"]["kinds"]
        .as_str()
        .unwrap()
        .to_string();
    value["state"]["board"]["kinds"] = serde_json::Value::String(kinds[1..].to_string());
    assert!(
        serde_json::from_value::<Game>(value.clone()).is_err(),
        "short board"
    );
    value["state"]["board"]["kinds"] = serde_json::Value::String(format!("9{}", &kinds[1..]));
    assert!(serde_json::from_value::<Game>(value).is_err(), "bad kind");
}

#[test]
fn digest_changes_when_anything_changes() {
    let base = || Game::new(setup(Board::default(), ORDER, Seat(0), [10; 3]));
    let digest = base().digest();
    assert_eq!(base().digest(), digest, "stable");
    let mut other_order = ORDER;
    other_order.swap(3, 4);
    let mut one_cell = Board::default();
    one_cell.set(Pos { x: 0, y: 99 }, engine::Cell::ROAD);
    let mut owner = Board::from_rows(&["A"]);
    let owner_0 = Game::new(setup(owner.clone(), ORDER, Seat(0), [10; 3])).digest();
    owner.set(
        Pos { x: 0, y: 0 },
        engine::Cell {
            kind: engine::Kind::Maison,
            owner: Some(Seat(1)),
            monument: None,
        },
    );
    let variants = [
        (
            "money",
            Game::new(setup(Board::default(), ORDER, Seat(0), [10, 11, 10])).digest(),
        ),
        (
            "first player",
            Game::new(setup(Board::default(), ORDER, Seat(1), [10; 3])).digest(),
        ),
        (
            "monument order",
            Game::new(setup(Board::default(), other_order, Seat(0), [10; 3])).digest(),
        ),
        (
            "one cell",
            Game::new(setup(one_cell, ORDER, Seat(0), [10; 3])).digest(),
        ),
    ];
    for (name, d) in variants {
        assert_ne!(d, digest, "{name}");
    }
    assert_ne!(
        Game::new(setup(owner, ORDER, Seat(0), [10; 3])).digest(),
        owner_0,
        "an owner"
    );
    // Through play: every stage, every action, every bid and sale.
    let mut game = base();
    let mut seen = std::collections::HashSet::new();
    assert!(seen.insert(game.digest()));
    game.advance();
    assert!(seen.insert(game.digest()), "stage");
    run_ok(&mut game, Seat(0), &["construire_route 50 51"]);
    assert!(seen.insert(game.digest()), "a road");
    run_ok(&mut game, Seat(0), &["construire_maison 49 49"]);
    assert!(seen.insert(game.digest()), "a house");
    run_ok(&mut game, Seat(0), &["reserver_case 51 51"]);
    assert!(seen.insert(game.digest()), "a reservation");
    game.advance();
    assert!(seen.insert(game.digest()), "slot");
    run_ok(&mut game, Seat(1), &["detruire_maison 49 49"]);
    assert!(seen.insert(game.digest()), "a destruction");
    run_ok(&mut game, Seat(1), &["construire_maison 49 49"]);
    assert!(seen.insert(game.digest()), "a house again, of another seat");
    to_auction(&mut game);
    assert!(seen.insert(game.digest()), "Phase II");
    run_ok(&mut game, Seat(2), &["encherir 0"]);
    assert!(seen.insert(game.digest()), "a bid of 0");
    run_ok(&mut game, Seat(1), &["vendre_maison 49 49"]);
    assert!(seen.insert(game.digest()), "a sale in Phase II");
    run_ok(&mut game, Seat(1), &["encherir 1"]);
    assert!(seen.insert(game.digest()), "a bid");
    game.advance();
    assert!(seen.insert(game.digest()), "resolution");
    run_ok(&mut game, Seat(1), &["construire_monument 51 49"]);
    assert!(seen.insert(game.digest()), "a monument");
    // Refused calls and information functions change nothing.
    let before = game.digest();
    for call in [
        "construire_monument 49 51",
        "encherir 1",
        "score 0",
        "distance 0 0 5 5",
    ] {
        run(&mut game, Seat(1), call);
        run(&mut game, Seat(0), call);
    }
    assert_eq!(game.digest(), before);
    assert_eq!(TAILLE_CARTE, 100);
}

/// Every refusal met, by random players (junk calls included) and by every action tried
/// with odd arguments by every seat at the end of every stage (out of turn, off the map,
/// beyond its money), is one its function lists (`Function::refusals`, which replays check
/// a record's counted refusals against), and every code a function lists is met: the list
/// is the rules' own, no more, no less.
#[test]
fn every_refusal_met_is_one_its_function_lists_and_every_listed_one_is_met() {
    use engine::{ApiError, Call, Function};
    use std::collections::BTreeSet;
    let mut met = BTreeSet::new();
    let mut meet = |call: &Call, result: i32, context: &str| {
        if call.function.is_action() && result < 0 {
            assert!(
                call.function.refusals().iter().any(|e| e.code() == result),
                "{context}: {call} refused with {result}, which its function does not list"
            );
            met.insert((call.function.name(), result));
        }
    };
    for seed in 0..40u64 {
        let mut tried = Vec::new();
        let (_, record) = play_random(Setup::from_seed(seed), seed, true, |game| {
            for seat in Seat::ALL {
                for function in Function::ALL.iter().filter(|f| f.is_action()) {
                    for args in [[-1, 5], [50, 50], [i32::MAX, 0], [0, 99]] {
                        let call = Call::new(*function, &args[..function.arity()]).unwrap();
                        tried.push((call, call.apply(&mut game.player(seat))));
                    }
                }
            }
        });
        for (call, result) in record.iter().flatten().flat_map(|(_, log)| log) {
            meet(call, *result, &format!("seed {seed}, played"));
        }
        for (call, result) in tried {
            meet(&call, result, &format!("seed {seed}, tried"));
        }
    }
    let listed: BTreeSet<_> = Function::ALL
        .iter()
        .flat_map(|f| f.refusals().iter().map(|e: &ApiError| (f.name(), e.code())))
        .collect();
    assert_eq!(
        listed.difference(&met).collect::<Vec<_>>(),
        Vec::<&(&str, i32)>::new(),
        "listed but never met"
    );
}
