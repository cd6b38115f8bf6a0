//! ARCHITECTURE.md's lines per game cannot rot: `scripts/game-lines.sh` runs (every file it
//! lists exists), every game it counts has its row in the document, and every file of
//! `referee/src` named for a game, and of a game's crate under `referee/games`, is in the
//! script's lists.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The games of a table's rows: its first cells, heading and rule rows left out.
fn games(table: &str) -> Vec<String> {
    table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| game |"))
        .filter_map(|l| l.split('|').nth(1))
        .map(|cell| cell.trim().to_string())
        .collect()
}

#[test]
fn the_lines_per_game_are_counted_by_the_script_for_every_game_and_file() {
    let out = Command::new("bash")
        .arg(repo().join("scripts/game-lines.sh"))
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scripts/game-lines.sh failed: {stderr}"
    );
    let counted = games(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(counted.len(), 4, "the four games: {counted:?}");
    let architecture = std::fs::read_to_string(repo().join("ARCHITECTURE.md")).unwrap();
    let documented = games(&architecture);
    for game in &counted {
        assert!(
            documented.contains(game),
            "ARCHITECTURE.md has no row for {game}: paste `scripts/game-lines.sh`'s table"
        );
    }
    let script = std::fs::read_to_string(repo().join("scripts/game-lines.sh")).unwrap();
    for folder in ["referee/src/games", "referee/src/view", "referee/src/human"] {
        for entry in std::fs::read_dir(repo().join(folder)).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let owned = ["loi_", "amazons_", "ticket_", "town_"]
                .iter()
                .any(|prefix| name.starts_with(prefix));
            let path = format!("{folder}/{name}");
            assert!(
                !owned || script.contains(&path) || script.contains(&name),
                "{path} belongs to a game but scripts/game-lines.sh counts it for none: \
                 add it to its game's list"
            );
        }
    }
    // Every file of a game's crate below the referee (`referee/games/<game>/src`) too.
    for game in std::fs::read_dir(repo().join("referee/games"))
        .unwrap()
        .flatten()
    {
        let src = game.path().join("src");
        for file in std::fs::read_dir(&src).unwrap().flatten() {
            let path = format!(
                "referee/games/{}/src/{}",
                game.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            );
            assert!(
                script.contains(&path),
                "{path} belongs to a game but scripts/game-lines.sh counts it for none: add \
                 it to its game's list"
            );
        }
    }
}
