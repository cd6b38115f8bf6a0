//! The Amazons' records of schema 1, written before every game had one record (by the
//! referee of then: `fixtures/records/amazons-v1`), still replay, show, make their page,
//! merge and resume with this referee, with the same results; an edit is still refused.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/amazons-v1")
}

fn referee(args: &[&str]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A copy of the fixture `name` in a fresh directory (runs write into their folders).
fn copied(name: &str) -> PathBuf {
    let dir = common::fresh_dir("amazons-v1", name);
    let status = Command::new("cp")
        .arg("-r")
        .arg(fixtures().join(name))
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    dir.join(name)
}

#[test]
fn old_records_replay_show_and_have_their_page() {
    for (name, fault) in [("m1", false), ("m2", true)] {
        let path = fixtures().join(name).join("record.json");
        let path = path.to_str().unwrap();
        let replay = referee(&["--game", "amazons", "replay", path]);
        assert!(replay.status.success(), "{name}: {}", text(&replay));
        assert!(text(&replay).contains("replay ok"), "{}", text(&replay));
        let show = referee(&["--game", "amazons", "show", path]);
        assert!(show.status.success(), "{name}: {}", text(&show));
        let record = referee::games::amazons_play::AMAZONS
            .load(Path::new(path))
            .unwrap();
        assert_eq!(record.schema, arena::GAME_RECORD_SCHEMA);
        assert_eq!(
            record.faults.len(),
            usize::from(fault),
            "{name}: {:?}",
            record.faults
        );
        let page = referee::view::amazons_html::page(&record).unwrap();
        assert!(page.contains("Game of the Amazons"));
    }
    // The clean match: the moves of the old record, in order, and its winner.
    let old: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixtures().join("m1/record.json")).unwrap()).unwrap();
    let record = referee::games::amazons_play::AMAZONS
        .load(&fixtures().join("m1/record.json"))
        .unwrap();
    let moves: Vec<String> = record.actions().map(String::from).collect();
    assert_eq!(serde_json::json!(moves), old["moves"]);
    assert_eq!(
        serde_json::json!(record.ranking.winners()),
        serde_json::json!([old["winner"]])
    );
}

#[test]
fn an_edited_old_record_is_still_refused() {
    let dir = copied("m1");
    let path = dir.join("record.json");
    let mut old: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    old["winner"] = serde_json::json!(1 - old["winner"].as_u64().unwrap());
    std::fs::write(&path, serde_json::to_vec(&old).unwrap()).unwrap();
    let replay = referee(&["--game", "amazons", "replay", path.to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(3), "{}", text(&replay));
    assert!(text(&replay).contains("winner"), "{}", text(&replay));
    common::remove_dir(dir.parent().unwrap());
}

/// The shards of a tournament of then merge into the results the referee of then merged
/// (`merged/`, its output), and a shard resumes with nothing to play again.
#[test]
fn old_shards_merge_to_the_same_results_and_resume() {
    let shards = copied("shards");
    let t = shards.join("t");
    let merge = referee(&[
        "--game",
        "amazons",
        "merge",
        t.join("shard-1-of-2").to_str().unwrap(),
        t.join("shard-2-of-2").to_str().unwrap(),
    ]);
    assert!(merge.status.success(), "{}", text(&merge));
    // The same results, read in today's schema: the rows of then gain their places
    // (results schema 4), which the files of then did not have.
    let of_then = |rows: Vec<common::tables::Row>| -> Vec<common::tables::Row> {
        rows.into_iter()
            .map(|mut row| {
                row.retain(|column, _| !column.starts_with("place") && column != "schema");
                row
            })
            .collect()
    };
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert_eq!(
            of_then(common::tables::untimed(&t.join(file))),
            of_then(common::tables::untimed(
                &fixtures().join("merged").join(file)
            )),
            "{file}"
        );
    }
    // The run of then played rotated deals (a pair's two matches on one seed): its
    // `tournament.json`, which does not say, reads so, and the merge counted both rows.
    let merged = common::tables::untimed(&t.join("matches.csv"));
    assert_eq!(merged.len(), 2);
    assert_eq!(merged[0]["seed"], merged[1]["seed"]);
    let before = of_then(common::tables::untimed(&t.join("shard-1-of-2/matches.csv")));
    // The run of then holds the one hash of the kits of its day; the kits have changed
    // since (a resume on other kits is refused, as it must be): the shard resumes here as
    // on the installation it started on, the kits' hash of then being today's.
    let spec = t.join("shard-1-of-2/tournament.json");
    let then = std::fs::read_to_string(&spec).unwrap();
    let kits = "d5cda3019e1c1a313ede4a553861bdddcc1246117d928fcdff125f76a3f3d3a2";
    assert!(then.contains(kits), "the fixture's kits hash");
    referee::kits::install();
    let now = referee::snapshot::kits_whole_hash().unwrap();
    std::fs::write(&spec, then.replace(kits, &now)).unwrap();
    let resume = Command::new(REFEREE)
        .args(["--game", "amazons", "tournament", "--name", "t", "--resume"])
        .args(["--rounds", "2"])
        .args(["--shard", "1/2", "--results"])
        .arg(&shards)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(resume.status.success(), "{}", text(&resume));
    // Its rows migrated to today's schema, none played again.
    assert_eq!(
        of_then(common::tables::untimed(&t.join("shard-1-of-2/matches.csv"))),
        before,
        "nothing played again"
    );
    common::remove_dir(shards.parent().unwrap());
}
