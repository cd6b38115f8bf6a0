//! The built-in players: they play only legal moves, `do-nothing` only draws cards, the
//! same seed plays the same match, and `strong` beats `random` in at least 90 of 100
//! seeded matches on the USA board (the rate and its interval: the example
//! `ticket_strong_vs_random`).

use game::Options;
use ticket::bots::{play, Player};
use ticket::{End, OPTIONS};

fn options(board: &str) -> Options {
    Options::parse(OPTIONS, &[format!("board={board}")]).unwrap()
}

fn players(names: &[&str], seed: u64) -> Vec<Player> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| Player::by_name(n, seed * 10 + i as u64).unwrap())
        .collect()
}

#[test]
fn strong_beats_random_in_at_least_90_of_100_matches() {
    let mut wins = 0;
    for seed in 0..100 {
        let strong = (seed % 2) as usize;
        let mut names = ["random", "random"];
        names[strong] = "strong";
        let played = play(&mut players(&names, seed), &options("usa"), seed, 100_000).unwrap();
        assert!(played.refused.is_empty(), "{:?}", played.refused);
        wins += u32::from(played.ranking.places[strong] == 1);
    }
    eprintln!("strong won {wins} of 100");
    assert!(wins >= 90, "strong won {wins} of 100");
}

#[test]
fn every_bot_plays_only_legal_moves_at_every_seat_count() {
    for seed in 0..30 {
        for board in ["usa", "small"] {
            let seats = 2 + seed as usize % 4;
            let names: Vec<&str> = (0..seats)
                .map(|s| ticket::bots::NAMES[(s + seed as usize) % 3])
                .collect();
            let played = play(&mut players(&names, seed), &options(board), seed, 100_000).unwrap();
            assert!(
                played.refused.is_empty(),
                "{board} {names:?}: {:?}",
                played.refused
            );
        }
    }
    assert!(Player::by_name("nobody", 0).is_none());
}

#[test]
fn do_nothing_only_draws_cards_and_the_cards_run_out() {
    let played = play(
        &mut players(&["do-nothing", "do-nothing"], 3),
        &options("usa"),
        3,
        100_000,
    )
    .unwrap();
    assert!(played.state.owners().iter().all(Option::is_none));
    assert!(matches!(played.state.end(), Some(End::CardsOut { .. })));
    played.state.audit().unwrap();
    // No card left to draw: the pile and discard are empty, or what is left is
    // locomotives enough that the row was laid 50 times in a row (rule 8).
    let left = played.state.pile_len() + played.state.discard_len();
    let row = played.state.row();
    let locomotives = row
        .iter()
        .filter(|c| **c == Some(ticket::Colour::Locomotive))
        .count();
    assert!(
        left == 0 || locomotives >= 3,
        "{left} cards left, {row:?} face up"
    );
}

#[test]
fn the_same_seed_plays_the_same_match() {
    let run = |seed| {
        let played = play(
            &mut players(&["strong", "random", "do-nothing"], seed),
            &options("usa"),
            seed,
            100_000,
        )
        .unwrap();
        (played.ranking, game::State::digest(&played.state))
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}
