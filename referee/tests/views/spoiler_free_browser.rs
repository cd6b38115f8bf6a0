//! Spoiler-free mode, in a real browser, on the frame every game's replay page shares: the
//! future hidden (each chart drawn up to the step shown, its labels that step's values,
//! the marks, the CPU dots and what the game marks as the future after it: the Amazons'
//! moves, their isolation and the result), the page saying which mode is on, turned on
//! and off by its checkbox, the `S` key or `&spoiler-free` in the URL; and the charts'
//! curves dashed per seat, so that seats differ in greyscale. The 2009 page hides its
//! monument order (the footer's) as well as its chart's future.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`.

use crate::common;
use crate::viewer_page;

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

/// Ticket to Ride's and Little Town's panels in spoiler-free mode: at a step in the middle,
/// only the moves up to it listed, no fault or elimination after it, and (Little Town) no
/// result; at the end, every one; in the whole-match mode, every one from any step.
#[test]
fn spoiler_free_hides_the_later_moves_faults_and_result_of_the_other_games() {
    let Some(chromium) = common::browser_ready(
        "spoiler_free_hides_the_later_moves_faults_and_result_of_the_other_games",
    ) else {
        return;
    };
    let dir = common::fresh_dir("spoiler-free", "panels");
    let hostile = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/town/free_quarry.sh")
        .display()
        .to_string();
    // Little Town, seed 2: the hostile seat 1 is excluded at its first turn, a `random`
    // seat eliminated by its upkeep later.
    let games: [(&str, &str, Vec<&str>); 2] = [
        (
            "ticket-to-ride",
            "ticket.mjs",
            vec!["strong", "random", "--seed", "4", "--option", "board=small"],
        ),
        (
            "little-town",
            "town.mjs",
            vec!["random", &hostile, "strong", "random", "--seed", "2"],
        ),
    ];
    for (game, driver, args) in games {
        let out = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["--game", game, "match"])
            .args(&args)
            .args(["--html", "--out"])
            .arg(dir.join(game))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::text(&out.stderr));
        let page = dir.join(game).join("replay.html").display().to_string();
        // The last step and the faults' steps, read off the page in the whole-match mode.
        let whole =
            &common::drive_page(driver, &chromium, format!("{page}#last"), &[])["states"][0];
        let last = whole["last"].as_u64().unwrap();
        let faults: Vec<u64> = whole["fault_steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        assert!(
            faults.windows(2).all(|w| w[0] <= w[1]),
            "{game}: faults listed in the order of their steps: {faults:?}"
        );
        assert_eq!(whole["moves_shown"], last, "{game}: {whole}");
        assert_eq!(whole["faults_shown"], faults.len(), "{game}");
        // In the middle: a fault before it and one after it where the game has two.
        let mid = match faults.as_slice() {
            [first, .., later] if later > first => (first + later) / 2,
            _ => last / 2,
        };
        let json = common::drive_page(
            driver,
            &chromium,
            format!("{page}#step={mid}&spoiler-free"),
            &["key:End", "key:s", &format!("hash:step={mid}")],
        );
        assert_eq!(json["errors"], serde_json::json!([]), "{game}: {json}");
        let states = json["states"].as_array().unwrap();
        let (at_mid, end, whole_mid) = (&states[0], &states[1], &states[3]);
        assert_eq!(at_mid["step"], mid, "{game}");
        assert_eq!(at_mid["spoiler_free"], true, "{game}");
        assert_eq!(at_mid["moves_shown"], mid, "{game}: {at_mid}");
        let before = faults.iter().filter(|&&s| s <= mid).count();
        assert_eq!(at_mid["faults_shown"], before, "{game}: {at_mid}");
        assert_eq!(end["spoiler_free"], true, "{game}");
        assert_eq!(end["moves_shown"], last, "{game}");
        assert_eq!(end["faults_shown"], faults.len(), "{game}");
        assert_eq!(whole_mid["spoiler_free"], false, "{game}");
        assert_eq!(whole_mid["moves_shown"], last, "{game}");
        assert_eq!(whole_mid["faults_shown"], faults.len(), "{game}");
        if game == "little-town" {
            assert!(
                before < faults.len(),
                "a fault after step {mid}: {faults:?}"
            );
            assert_eq!(at_mid["result_shown"], false, "{game}");
            assert_eq!(end["result_shown"], true, "{game}");
            assert_eq!(whole_mid["result_shown"], true, "{game}");
        }
    }
}

/// Page-side, on the 2009 page: the mode said, each curve's points, and the footer's
/// monument order (its text and whether it is seen).
const LOI_FUTURE: &str = "(() => { const order = [...document.querySelectorAll('#footer span')] \
    .find((s) => s.textContent.includes('monument order')); \
    return { mode: document.getElementById('mode').textContent, \
    spoiler_free: viewer.spoilerFree, \
    chart_points: [...document.querySelectorAll('#chart path.seat-line')] \
    .map((p) => p.getAttribute('d').split(/[ML]/).length - 1), \
    order: order ? order.textContent : null, \
    order_seen: order ? getComputedStyle(order).visibility === 'visible' : null, \
    footer_read: document.getElementById('footer').innerText }; })()";

/// The 2009 page at turn 2 in spoiler-free mode: its final-score chart drawn up to the step
/// shown and its monument order (the order of every auction to come, in the footer)
/// unseen; the `S` key shows the whole match, the order with it.
#[test]
fn spoiler_free_hides_the_2009_monument_order_and_the_chart_s_future() {
    let Some(chromium) =
        common::browser_ready("spoiler_free_hides_the_2009_monument_order_and_the_chart_s_future")
    else {
        return;
    };
    let dir = common::fresh_dir("spoiler-free", "loi");
    viewer_page::play(&dir, 5, true);
    let order: Vec<String> = viewer_page::arena_timeline(&dir)
        .monument_order
        .iter()
        .map(u8::to_string)
        .collect();
    let order = format!(" \u{b7} monument order {}", order.join(","));
    let page = viewer_page::at(&dir.join("replay.html"), 9);
    let page = std::path::PathBuf::from(format!("{}&spoiler-free", page.display()));
    let hidden = viewer_page::open(&chromium, &page, &["--eval", LOI_FUTURE]);
    let hidden = hidden.eval(0);
    assert_eq!(hidden["spoiler_free"], true, "{hidden}");
    assert!(
        hidden["mode"].as_str().unwrap().starts_with("Spoiler-free"),
        "{hidden}"
    );
    assert_eq!(hidden["chart_points"], serde_json::json!([10, 10, 10]));
    assert_eq!(hidden["order"], order.as_str(), "{hidden}");
    assert_eq!(hidden["order_seen"], false, "the monument order is seen");
    assert!(
        !hidden["footer_read"]
            .as_str()
            .unwrap()
            .contains("monument order"),
        "{hidden}"
    );
    let whole = viewer_page::open(&chromium, &page, &["--press", "s", "--eval", LOI_FUTURE]);
    let whole = whole.eval(0);
    assert_eq!(whole["spoiler_free"], false, "{whole}");
    assert_eq!(whole["order_seen"], true, "{whole}");
    assert!(
        whole["footer_read"].as_str().unwrap().contains(&order),
        "{whole}"
    );
    let points = whole["chart_points"][0].as_u64().unwrap();
    assert!(points > 10, "the whole chart: {whole}");
}
