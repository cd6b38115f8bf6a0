//! The `random` player's games, kept: each seed's moves compared with a file written by the
//! referee of 2026-11-29 (before its sampling was its own: `engine`'s `draw`), so that a
//! dependency upgrade or a change of the sampling cannot change what an old seed plays.
//!
//! `GOLDEN_WRITE=1 cargo test -p amazons --test rules golden_draws` writes the file anew.

use amazons::bots::Random;
use amazons::Board;
use std::fmt::Write as _;
use std::path::PathBuf;

#[test]
fn the_random_player_plays_the_games_kept() {
    let mut text = String::new();
    for seed in 0..40u64 {
        let mut board = Board::start();
        let mut players = [Random::new(seed), Random::new(seed + 1000)];
        let mut moves = Vec::new();
        while let Some(m) = players[moves.len() % 2].choose(&board) {
            board.play(m).unwrap();
            moves.push(m.to_string());
        }
        writeln!(text, "{seed} {}", moves.join(" ")).unwrap();
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/random.txt");
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let kept = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    for (n, (got, want)) in text.lines().zip(kept.lines()).enumerate() {
        assert_eq!(got, want, "{} line {}", path.display(), n + 1);
    }
    assert_eq!(text.lines().count(), kept.lines().count());
}
