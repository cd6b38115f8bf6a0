//! Markup from a champion is text on every page: a champion named like markup (an image
//! whose error handler would run, both quotes), whose stderr closes the script element and
//! opens others, plays a tournament with `--html` and a match of the Amazons; the index,
//! its champion's page and the replay pages (at its fault, its stderr in the console) show
//! the name and the line as they are, with no element made of them (no image, no script
//! but the pages' own) and no error in the browser (`tests/browser/index.mjs`).
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`,
//! where a missing browser fails the test (CI installs both, `scripts/ci-install.sh`).

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
/// The champion's file name, and its name on the pages.
const NAME: &str = "<img src=x onerror=alert(1)>\"'.sh";
/// What it writes on stderr in every callback (`fixtures/hostile/markup.sh`).
const LINE: &str = "</script><script>alert(1)</script><img src=x onerror=alert(2)>\"'<!--";

fn run(args: &[&std::ffi::OsStr]) {
    let out = Command::new(REFEREE).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        common::text(&out.stderr)
    );
}

/// The champion, copied under its name into `dir`.
fn champion(dir: &Path) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/markup.sh");
    let path = dir.join(NAME);
    std::fs::copy(fixture, &path).unwrap();
    path
}

/// What a page shows, from the driver's state: no image, its own scripts only, the text.
fn assert_text_only(state: &Value, scripts: u64) {
    assert_eq!(state["images"], 0, "{}", state["url"]);
    assert_eq!(state["scripts"], scripts, "{}", state["url"]);
}

#[test]
fn markup_in_a_name_or_stderr_is_text_on_the_index_the_champion_and_the_replay_pages() {
    let Some(chromium) = common::browser_ready(
        "markup_in_a_name_or_stderr_is_text_on_the_index_the_champion_and_the_replay_pages",
    ) else {
        return;
    };
    let dir = common::fresh_dir("pages-hostile", "loi");
    let hostile = champion(&dir);
    run(&[
        "tournament".as_ref(),
        "random".as_ref(),
        "greedy".as_ref(),
        hostile.as_os_str(),
        "--rounds".as_ref(),
        "1".as_ref(),
        "--seed".as_ref(),
        "3".as_ref(),
        "--name".as_ref(),
        "t".as_ref(),
        "--html".as_ref(),
        "--results".as_ref(),
        dir.as_os_str(),
    ]);
    let json = common::drive_page(
        "index.mjs",
        &chromium,
        dir.join("t/index.html"),
        &["follow:#leaderboard a[href*=onerror]", "follow:a.fault"],
    );
    let states = json["states"].as_array().unwrap();
    let [index, page, replay] = &states[..] else {
        panic!("three pages: {json}")
    };
    assert_text_only(index, 1);
    assert!(
        index["leaderboard"]
            .as_array()
            .unwrap()
            .iter()
            .any(|row| row.as_array().unwrap().contains(&NAME.into())),
        "{}",
        index["leaderboard"]
    );
    assert_eq!(page["page"], "champion");
    assert_text_only(page, 1);
    assert!(
        page["title"].as_str().unwrap().starts_with(NAME),
        "{}",
        page["title"]
    );
    assert!(page["text"].as_str().unwrap().contains(NAME));
    // The replay, at the fault: the frame's data, the game's, the console's and the code.
    assert_eq!(replay["page"], "replay");
    assert_text_only(replay, 4);
    assert!(
        replay["title"].as_str().unwrap().contains(NAME),
        "{}",
        replay["title"]
    );
    assert!(
        replay["console"]
            .as_array()
            .unwrap()
            .iter()
            .any(|text| text.as_str().unwrap().contains(LINE)),
        "{}",
        replay["console"]
    );
}

#[test]
fn markup_in_a_name_is_text_on_the_amazons_replay_page() {
    let Some(chromium) =
        common::browser_ready("markup_in_a_name_is_text_on_the_amazons_replay_page")
    else {
        return;
    };
    let dir = common::fresh_dir("pages-hostile", "amazons");
    let hostile = common::amazons_crashing_champion(&dir, NAME, 2);
    run(&[
        "--game".as_ref(),
        "amazons".as_ref(),
        "match".as_ref(),
        hostile.as_os_str(),
        "random".as_ref(),
        "--seed".as_ref(),
        "2".as_ref(),
        "--html".as_ref(),
        "--out".as_ref(),
        dir.join("m").as_os_str(),
    ]);
    let json = common::drive_page("index.mjs", &chromium, dir.join("m/replay.html"), &[]);
    let replay = &json["states"][0];
    assert_text_only(replay, 4);
    assert!(
        replay["title"].as_str().unwrap().starts_with(NAME),
        "{}",
        replay["title"]
    );
    let text = replay["text"].as_str().unwrap();
    assert!(text.contains(&format!("{NAME} (White)")), "{text}");
}
