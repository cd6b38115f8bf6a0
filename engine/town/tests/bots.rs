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
