//! Little Town's records of version 1, written before every seat scored its gold (by the
//! referee of then: `fixtures/records/town-v1`, a match in which two seats were eliminated
//! at two upkeeps and scored -4 and -3), still replay, show and make their page with this
//! referee, checked as they were played and made again as version 2; an edit is still
//! refused.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/town-v1/eliminated")
}

fn town(args: &[&str], record: &Path) -> Output {
    Command::new(REFEREE)
        .args(["--game", "little-town"])
        .args(args)
        .arg(record)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_record_of_version_1_with_seats_eliminated_replays_shows_and_has_its_page() {
    let path = fixture().join("record.json");
    let old = json(&path);
    assert_eq!(old["version"], 1, "the fixture is of version 1");
    assert_eq!(
        old["ranking"]["scores"],
        serde_json::json!([-4, 1, -3, 15]),
        "two seats out at two upkeeps, scored as version 1 scored them"
    );
    let replay = town(&["replay"], &path);
    assert!(replay.status.success(), "{}", text(&replay));
    assert!(text(&replay).contains("replay ok"), "{}", text(&replay));
    let show = town(&["show"], &path);
    assert!(show.status.success(), "{}", text(&show));
    let shown = text(&show);
    assert_eq!(shown.matches(", eliminated").count(), 2, "{shown}");
    // Made again as today's record: the same history and places, each seat's gold.
    let record = referee::games::town_play::TOWN.load(&path).unwrap();
    assert_eq!(record.version, 2);
    assert_eq!(
        serde_json::json!(record.ranking.places),
        old["ranking"]["places"]
    );
    assert_eq!(record.ranking.scores, [0, 1, 0, 15]);
    assert_eq!(
        serde_json::json!(record.actions().count()),
        old["summary"]["actions"]
    );
    let page = referee::view::town_html::page_in(&record, Some(&fixture())).unwrap();
    assert!(page.contains("Little Town"), "a page of Little Town");
}

/// The record of version 1 with today's scores (what a referee that forgot version 1
/// would accept), or its version raised without its scores, is refused by `replay`.
#[test]
fn an_edited_record_of_version_1_is_refused() {
    let dir = common::fresh_dir("town-v1", "edited");
    for (what, edit) in [
        (
            "today's scores",
            &(|r: &mut serde_json::Value| {
                r["ranking"]["scores"] = serde_json::json!([0, 1, 0, 15]);
            }) as &dyn Fn(&mut serde_json::Value),
        ),
        (
            "version 2",
            &(|r: &mut serde_json::Value| r["version"] = serde_json::json!(2)),
        ),
        (
            "a place",
            &(|r: &mut serde_json::Value| r["ranking"]["places"][0] = serde_json::json!(3)),
        ),
    ] {
        let mut record = json(&fixture().join("record.json"));
        edit(&mut record);
        let path = dir.join("record.json");
        std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
        let replay = town(&["replay"], &path);
        assert_eq!(replay.status.code(), Some(3), "{what}: {}", text(&replay));
        assert!(
            text(&replay).contains("ranked"),
            "{what}: {}",
            text(&replay)
        );
    }
    common::remove_dir(&dir);
}

/// A run of then resumed or merged: the row this referee makes again from the record of
/// version 1 (when it checks the rows of a run against their records, or writes the row of
/// a match whose record was kept) is the row the referee of then wrote, its scores version
/// 1's, its places and points today's alike.
#[test]
fn the_row_of_a_record_of_version_1_keeps_its_scores() {
    use referee::games::Game as _;
    let record = referee::games::town_play::TOWN
        .load(&fixture().join("record.json"))
        .unwrap();
    let seated = record
        .seats
        .iter()
        .map(|s| arena::roster::ChampionSpec {
            name: s.name.clone(),
            given: s.name.clone(),
            program: s.path.clone().into(),
            args: Vec::new(),
            path: s.path.clone(),
            sha256: s.sha256.clone(),
            identity: s.sha256.clone(),
            snapshot: None,
        })
        .collect();
    let stored = (
        arena::endpoint::TimeLimits::default(),
        jail::limits::Limits::default(),
    );
    let mut expected =
        referee::games::Expected::new(record.seed, seated, &stored, record.options.clone());
    expected.budgets = record.budgets;
    let played = referee::games::town_play::TOWN
        .recorded_row(&fixture(), &expected)
        .unwrap();
    assert_eq!(played.row.scores, [-4, 1, -3, 15], "version 1's scores");
    assert_eq!(played.row.places, [4, 2, 3, 1]);
    let today = record.row(referee::games::town_play::TOWN.points(), String::new());
    assert_eq!(played.row.points, today.points, "points from the places");
}
