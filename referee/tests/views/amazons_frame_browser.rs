//! What the replay-page frame every game shares gives the Amazons' page, in a real browser
//! (headless Chromium driven by `tests/browser/amazons.mjs`): play and pause, ten moves a
//! PageDown, every key listed in the footer, a chart of each seat's mobility (the squares
//! its amazons can reach, as the `amazons` crate counts them) on the slider's scale, the
//! faults and the isolation marked above the slider, the result at the last step.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`,
//! where a missing browser fails the test (CI installs both, `scripts/ci-install.sh`).

use crate::common;

use amazons::{Board, Color, Move};
use arena::GameRecord;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

fn play(dir: &Path, champions: [&str; 2], seed: u64) -> GameRecord {
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["--game", "amazons", "match"])
        .args(champions)
        .args(["--seed", &seed.to_string(), "--html", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

/// Each colour's mobility after the last move of `record`.
fn last_mobility(record: &GameRecord) -> [usize; 2] {
    let mut board = Board::start();
    for m in common::amazons::moves(record) {
        board.play(m.parse::<Move>().unwrap()).unwrap();
    }
    [Color::White, Color::Black].map(|c| board.amazons(c).map(|s| board.reach_count(s)).sum())
}

#[test]
fn the_frame_gives_the_amazons_play_keys_marks_and_a_mobility_chart() {
    let Some(chromium) =
        common::browser_ready("the_frame_gives_the_amazons_play_keys_marks_and_a_mobility_chart")
    else {
        return;
    };
    let dir = common::fresh_dir("amazons-frame", "play");
    // A champion that crashes at its third move: a fault to mark.
    let crashing = common::amazons_crashing_champion(&dir, "crashing", 3);
    let record = play(&dir.join("m"), ["mobility", crashing.to_str().unwrap()], 11);
    let last = common::amazons::moves(&record).len();
    let page = format!("{}#step=0", dir.join("m/replay.html").display());
    let json = common::drive_page(
        "amazons.mjs",
        &chromium,
        &page,
        &["key:PageDown", "key:End"],
    );
    let states: &Vec<Value> = json["states"].as_array().unwrap();
    // PageDown: ten moves on, at most the last.
    assert_eq!(states[1]["step"], 10.min(last) as u64, "{}", states[1]);
    assert_eq!(states[2]["step"], last as u64);
    let keys = states[0]["keys"].as_str().unwrap();
    for listed in [
        "→ next step",
        "PageDown ten steps on",
        "Space play / pause",
        "End last step",
    ] {
        assert!(keys.contains(listed), "{listed}: {keys}");
    }
    assert_eq!(states[0]["play"], "Play");
    // The chart: one curve a seat, each ending on its mobility after the last move.
    assert_eq!(states[2]["chart_lines"], 2);
    let [white, black] = last_mobility(&record);
    let name = &record.seats[1].name;
    assert_eq!(
        states[2]["chart_ends"].as_array().unwrap().len(),
        2,
        "{}",
        states[2]["chart_ends"]
    );
    for end in [
        format!("White mobility {white}"),
        format!("Black {name} {black}"),
    ] {
        assert!(
            states[2]["chart_ends"]
                .as_array()
                .unwrap()
                .contains(&json!(end)),
            "{end}: {}",
            states[2]["chart_ends"]
        );
    }
    // The crash is marked above the slider; the result shows at the last step only.
    assert!(
        states[0]["slider_marks"]
            .as_array()
            .unwrap()
            .contains(&json!("fault")),
        "{}",
        states[0]["slider_marks"]
    );
    assert!(states[0]["banner"].is_null());
    assert!(
        states[2]["banner"]
            .as_str()
            .unwrap()
            .starts_with("mobility (White) wins"),
        "{}",
        states[2]["banner"]
    );
}

/// Play moves the page on by itself, move after move, until paused.
#[test]
fn the_amazons_page_plays_and_pauses() {
    let Some(chromium) = common::browser_ready("the_amazons_page_plays_and_pauses") else {
        return;
    };
    let dir = common::fresh_dir("amazons-frame", "pause");
    play(&dir, ["mobility", "random"], 5);
    let page = format!("{}#step=0", dir.join("replay.html").display());
    let json = common::drive_page(
        "amazons.mjs",
        &chromium,
        &page,
        &[
            "click:#btn-play",
            "until:Number(document.documentElement.dataset.step) >= 3",
            "click:#btn-play",
        ],
    );
    let states = json["states"].as_array().unwrap();
    assert_eq!(states[1]["play"], "Pause");
    assert_eq!(states[3]["play"], "Play");
    let paused = states[3]["step"].as_u64().unwrap();
    assert!(paused >= 3, "{}", states[3]);
    assert_eq!(states[3]["hash"], format!("#step={paused}"));
}
