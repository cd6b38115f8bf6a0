//! The `random` bot: every action it takes is legal, drawn uniformly among the legal ones,
//! and a seed plays the same match.

use game::{Acting, Game, State};
use town::{bots, Town, TownState};

/// A match of `seats` random bots from `seed`: each action taken, and the ranking.
fn bots_match(seats: usize, seed: u64) -> (Vec<String>, game::Ranking) {
    let mut state = Town.start(seats, &Town.defaults()).unwrap();
    let mut stream = draw::Stream::new(seed);
    let mut actions = Vec::new();
    loop {
        match state.acting() {
            Acting::Over => return (actions, state.ranking().unwrap()),
            Acting::Chance(c) => state.chance(&c.draw(seed, &mut stream)).unwrap(),
            Acting::Seats(seats) => {
                let action = bots::random(&state, seats[0], &mut stream).unwrap();
                assert!(state.legal(seats[0]).contains(&action));
                state.act(seats[0], &action).unwrap();
                actions.push(action.to_string());
            }
        }
    }
}

#[test]
fn random_plays_legal_actions_and_a_seed_the_same_match() {
    for seed in 0..20 {
        let (actions, ranking) = bots_match(4, seed);
        assert!(!actions.is_empty());
        assert_eq!(bots_match(4, seed), (actions, ranking));
    }
}

#[test]
fn random_draws_each_legal_action_alike() {
    let mut state: TownState = Town.start(2, &Town.defaults()).unwrap();
    let mut stream = draw::Stream::new(9);
    while let Acting::Chance(c) = state.acting() {
        state.chance(&c.draw(9, &mut stream)).unwrap();
    }
    let seat = state.to_play().unwrap();
    assert!(
        bots::random(&state, 1 - seat, &mut stream).is_none(),
        "not its turn"
    );
    let legal = state.legal(seat);
    let mut counts = vec![0u32; legal.len()];
    let draws = 400 * legal.len() as u32;
    for _ in 0..draws {
        let action = bots::random(&state, seat, &mut stream).unwrap();
        counts[legal.iter().position(|a| *a == action).unwrap()] += 1;
    }
    // 400 expected each: a fixed seed, so no flake; wide bounds.
    assert!(
        counts.iter().all(|&c| (250..=550).contains(&c)),
        "{counts:?}"
    );
}

/// A four-seat match from `seed` under `options` (`name=value`), `strong` in seat
/// `strong_seat` and `random` in the others: the ranking.
fn strong_vs_random(options: &[&str], seed: u64, strong_seat: usize) -> game::Ranking {
    let given: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    let options = game::Options::parse(Town.options(), &given).unwrap();
    let mut state = Town.start(4, &options).unwrap();
    let mut stream = draw::Stream::new(seed);
    loop {
        match state.acting() {
            Acting::Over => return state.ranking().unwrap(),
            Acting::Chance(c) => state.chance(&c.draw(seed, &mut stream)).unwrap(),
            Acting::Seats(seats) => {
                let seat = seats[0];
                let action = match seat == strong_seat {
                    true => bots::strong(&state.observe(seat), &state.legal(seat)).unwrap(),
                    false => bots::random(&state, seat, &mut stream).unwrap(),
                };
                state.act(seat, &action).unwrap();
            }
        }
    }
}

/// The bar: `strong` first in at least 80% of 200 four-seat matches against three
/// `random` (seats rotated, seed = match number), with the objectives and the powers off,
/// either on, or both. The lower end of the 95% Wilson interval is held at 90%: a `strong`
/// blind to the powers' gold still made 86% with them on (interval 80.5% to 90.1%).
#[test]
fn strong_finishes_first_in_most_matches_against_three_random() {
    for options in [
        &[][..],
        &["powers=on"][..],
        &["objectives=on"][..],
        &["powers=on", "objectives=on"][..],
    ] {
        let n = 200u64;
        let firsts = (0..n)
            .filter(|&seed| {
                let seat = (seed % 4) as usize;
                strong_vs_random(options, seed, seat).places[seat] == 1
            })
            .count() as f64;
        let (p, z, n) = (firsts / n as f64, 1.96f64, n as f64);
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
        println!(
            "{options:?}: strong first in {firsts}/{n} matches ({:.1}%, 95% Wilson {:.1}%-{:.1}%)",
            100.0 * p,
            100.0 * (centre - half),
            100.0 * (centre + half)
        );
        assert!(
            centre - half >= 0.9,
            "{options:?}: strong first in only {firsts} of {n}, the interval's lower end {:.1}%",
            100.0 * (centre - half)
        );
    }
}
