//! A run of results schema 3 (before rows had places), committed as the referee of then
//! wrote it (`fixtures/records/loi-v4-run`), resumes and merges with today's referee: its
//! rows migrated (places derived from their scores, all else kept), the rows it plays
//! written in today's schema.

use crate::common::{self, tables::untimed};
use std::path::{Path, PathBuf};
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// A copy of the committed run of schema 3 (two shards of a 2009 round-robin of `random`,
/// `greedy`, `passive.sh` and `builder.sh`) in a fresh folder: `<dir>/t`. Its recorded
/// kits are dropped (read as a run started before kits were recorded): those of the
/// machine that made it are not this one's, and its champions use none.
fn run_of_before() -> PathBuf {
    let dir = common::fresh_dir("results_migration", "run");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/loi-v4-run/t");
    let status = Command::new("cp")
        .arg("-r")
        .arg(&fixture)
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    for shard in ["shard-1-of-2", "shard-2-of-2"] {
        let path = dir.join("t").join(shard).join("tournament.json");
        let mut spec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(spec["schema"], 3, "a run of before");
        spec.as_object_mut().unwrap().remove("kits");
        std::fs::write(&path, serde_json::to_vec_pretty(&spec).unwrap()).unwrap();
    }
    dir
}

/// The fixture's rows of schema 3, `column -> value` without the timing columns.
fn rows_of_before() -> Vec<common::tables::Row> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/loi-v4-run/t");
    let mut rows = Vec::new();
    for shard in ["shard-1-of-2", "shard-2-of-2"] {
        rows.extend(untimed(&fixture.join(shard).join("matches.csv")));
    }
    rows.sort_by_key(|r| r["id"].parse::<u64>().unwrap());
    rows
}

/// Shard 1, cut before its last match (the row and the match's folder gone, as a kill
/// leaves it), resumes: the match is played again to the same result, its row in today's
/// schema, the row of before migrated in place; then both shards (one of them still of
/// schema 3) merge into today's `matches.csv`, each row the row of before with the places
/// its scores give, and a leaderboard counted from them.
#[test]
fn a_run_of_schema_3_resumes_and_merges() {
    let dir = run_of_before();
    let shard = dir.join("t/shard-1-of-2");
    let csv = shard.join("matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let kept: String = text
        .lines()
        .filter(|l| !l.starts_with("2,"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(kept, text, "match 2 is in shard 1");
    std::fs::write(&csv, kept).unwrap();
    std::fs::remove_dir_all(shard.join("matches/2")).unwrap();
    let out = common::run_ok({
        let mut c = Command::new(REFEREE);
        c.args([
            "tournament",
            "--resume",
            "--name",
            "t",
            "--shard",
            "1/2",
            "--results",
        ])
        .arg(&dir)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions"))
        .env_remove(referee::reproduce_log::VARIABLE)
        .env_remove("PROLOGIN_PYTHON");
        c
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("played 1 matches"), "{stderr}");
    let header = std::fs::read_to_string(&csv).unwrap();
    assert!(
        header.starts_with("id,seed,first_player,champion0,champion1,champion2,place0,"),
        "{header}"
    );
    assert!(
        header.lines().skip(1).all(|l| l.ends_with(",4")),
        "{header}"
    );
    common::run_ok({
        let mut c = Command::new(REFEREE);
        c.arg("merge")
            .arg(&shard)
            .arg(dir.join("t/shard-2-of-2"))
            .arg("--out")
            .arg(dir.join("merged"))
            .env_remove("PROLOGIN_PYTHON");
        c
    });
    let merged = untimed(&dir.join("merged/matches.csv"));
    let before = rows_of_before();
    assert_eq!(merged.len(), 4);
    assert_eq!(merged.len(), before.len());
    for (now, then) in merged.iter().zip(&before) {
        let scores: Vec<i32> = (0..3)
            .map(|s| then[&format!("score{s}")].parse().unwrap())
            .collect();
        for s in 0..3 {
            // Schema 3's scores follow the places: the place is one more than the seats
            // scoring more.
            let place = 1 + scores.iter().filter(|&&o| o > scores[s]).count();
            assert_eq!(now[&format!("place{s}")], place.to_string(), "{now:?}");
        }
        let mut now = now.clone();
        now.retain(|column, _| !column.starts_with("place"));
        let mut then = then.clone();
        assert_eq!(
            then.insert("schema".into(), "4".into()).as_deref(),
            Some("3")
        );
        assert_eq!(now, then, "the row of before, migrated");
    }
    let board = untimed(&dir.join("merged/leaderboard.csv"));
    let line = |name: &str| {
        board
            .iter()
            .find(|l| l["champion"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (
            line("greedy")["rank"].as_str(),
            line("greedy")["points"].as_str()
        ),
        ("1", "9")
    );
    assert_eq!(line("passive.sh")["thirds"], "3");
}
