//! Every draw a seed makes, kept: the setups of seeds 0 to 9,999 and the built-in bots'
//! games in a set of matches, compared with files written by the referee of 2026-11-29
//! (before its sampling was its own: `engine::draw`). A dependency upgrade, or a change of
//! the sampling, that changes what an old seed plays fails here, so every tournament
//! played before still resumes and merges.
//!
//! `GOLDEN_WRITE=1 cargo test -p engine --test rules golden_draws` writes the files anew (only
//! for a deliberate change of what seeds play, with a new record schema).

use engine::bots::{play_game, Champion, Greedy, Random};
use engine::Setup;
use std::fmt::Write as _;
use std::path::PathBuf;

fn compare(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let kept = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    for (n, (got, want)) in text.lines().zip(kept.lines()).enumerate() {
        assert_eq!(got, want, "{} line {}", path.display(), n + 1);
    }
    assert_eq!(
        text.lines().count(),
        kept.lines().count(),
        "{}",
        path.display()
    );
}

#[test]
fn the_setups_of_seeds_0_to_9999_are_those_kept() {
    let mut text = String::new();
    for seed in 0..10_000u64 {
        let setup = Setup::from_seed(seed);
        let order: String = setup
            .monument_order
            .iter()
            .map(|&m| char::from_digit(u32::from(m), 16).unwrap())
            .collect();
        writeln!(text, "{seed} {} {order}", setup.first_player.0).unwrap();
    }
    compare("setups.txt", &text);
}

#[test]
fn the_built_in_bots_play_the_games_kept() {
    let mut text = String::new();
    for seed in 0..60u64 {
        let (mut a, mut b, mut c) = (
            Random::new(seed * 3),
            Random::new(seed * 3 + 1),
            Random::new(seed * 3 + 2),
        );
        let (mut g, mut r1, mut r2) = (Greedy::new(), Random::new(seed), Random::new(!seed));
        let lineups: [(&str, [&mut dyn Champion; 3]); 2] = [
            ("random-random-random", [&mut a, &mut b, &mut c]),
            ("greedy-random-random", [&mut g, &mut r1, &mut r2]),
        ];
        for (name, mut champions) in lineups {
            let game = play_game(Setup::from_seed(seed), &mut champions);
            let scores = game.outcome().final_scores;
            writeln!(
                text,
                "{seed} {name} {:016x} {} {} {}",
                game.digest(),
                scores[0],
                scores[1],
                scores[2]
            )
            .unwrap();
        }
    }
    compare("bots.txt", &text);
}
