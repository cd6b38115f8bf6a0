//! Spoiler-free mode, in a real browser, on the frame every game's replay page shares: the
//! future hidden (each chart drawn up to the step shown, its labels that step's values,
//! the marks, the CPU dots and what the game marks as the future after it: the Amazons'
//! moves, their isolation and the result), the page saying which mode is on, turned on
//! and off by its checkbox, the `S` key or `&spoiler-free` in the URL; and the charts'
//! curves dashed per seat, so that seats differ in greyscale.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`.

use crate::common;

use serde_json::Value;
use std::process::Command;

#[test]
fn spoiler_free_hides_what_comes_after_the_step_shown() {
    let Some(chromium) =
        common::browser_ready("spoiler_free_hides_what_comes_after_the_step_shown")
    else {
        return;
    };
    let dir = common::fresh_dir("spoiler-free", "amazons");
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "--game", "amazons", "match", "mobility", "random", "--seed", "3",
        ])
        .args(["--html", "--out"])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let page = format!(
        "{}#step=10&spoiler-free",
        dir.join("m/replay.html").display()
    );
    let json = common::drive_page("amazons.mjs", &chromium, &page, &["key:End", "key:s"]);
    let states: &Vec<Value> = json["states"].as_array().unwrap();
    assert_eq!(json["errors"], serde_json::json!([]), "{json}");
    let (at10, end, whole) = (&states[0], &states[1], &states[2]);
    let last = end["last"].as_u64().unwrap();
    assert!(last > 20, "a long enough match: {last}");
    // At move 10: the mode said, the curves stop there, nothing later shown.
    assert_eq!(at10["step"], 10);
    assert_eq!(at10["spoiler_free"], true);
    assert!(
        at10["mode"].as_str().unwrap().starts_with("Spoiler-free"),
        "{}",
        at10["mode"]
    );
    assert_eq!(at10["chart_points"], serde_json::json!([11, 11]), "{at10}");
    assert_eq!(at10["moves_shown"], 10);
    assert_eq!(
        at10["cpu_shown"].as_u64().unwrap(),
        10 + 2,
        "init_game's and each move's"
    );
    assert_eq!(at10["shown"]["result"], false);
    assert_eq!(at10["banner"], Value::Null);
    assert!(at10["hash"].as_str().unwrap().ends_with("&spoiler-free"));
    // At the end of the match: all of it, the result too, still in the mode.
    assert_eq!(end["spoiler_free"], true);
    assert_eq!(end["moves_shown"], last);
    assert_eq!(end["shown"]["result"], true);
    let points = last + 1;
    assert_eq!(end["chart_points"], serde_json::json!([points, points]));
    // `S`: the whole match from any step, said so.
    assert_eq!(whole["spoiler_free"], false);
    assert!(
        whole["mode"]
            .as_str()
            .unwrap()
            .starts_with("Whole match shown"),
        "{}",
        whole["mode"]
    );
    assert!(!whole["hash"].as_str().unwrap().contains("spoiler-free"));
    // The seats' curves differ by their dash, not only by colour.
    let dashes = whole["chart_dashes"].as_array().unwrap();
    assert_ne!(dashes[0], dashes[1], "{dashes:?}");

    // Opened on the whole match and moved back to move 10: the ends of the curves show.
    let page = format!("{}#step=10", dir.join("m/replay.html").display());
    let json = common::drive_page("amazons.mjs", &chromium, &page, &[]);
    let shown = &json["states"][0];
    assert_eq!(shown["spoiler_free"], false);
    assert_eq!(shown["chart_points"], serde_json::json!([points, points]));
    assert_eq!(shown["moves_shown"], last);
}
