//! The replay page's layout in headless Chromium (see `view_browser.rs` for the driver and
//! when these tests are skipped):
//!
//! - a 1366x768 laptop shows the board, the controls and the whole score chart without
//!   scrolling; a 1080p projector gets a larger board; at pixel ratio 2 (a 4K screen) the
//!   canvas has twice the pixels; a resize or a change of pixel ratio after loading lays
//!   the page out and draws it again;
//! - the slider, the score chart and the CPU chart share one turn scale: the x of each
//!   turn measured on the three agrees within a pixel, and clicking the slider at the x of
//!   a turn on the chart moves the page to that turn's first step;
//! - the board draws each owner and roads in the colours of the page's CSS (those that
//!   `view_palette.rs` checks), and a house's tooltip gives the worth the timeline gives;
//! - `scripts/screenshot-viewer.sh` writes the laptop, projector, 4K and presentation
//!   screenshots at their sizes.

use crate::common;
use crate::viewer_page;

use std::path::Path;
use std::process::Command;
use viewer_page::{at, open, pixel, play, rgb, temp_dir, REFEREE};

/// At 1366x768 in an auction (two bids pending, an action list, the phase's note), the
/// console's title and its first callback are above the controls, not under the fold.
#[test]
fn at_1366_the_console_starts_above_the_controls_in_an_auction() {
    let Some(chromium) =
        common::browser_ready("at_1366_the_console_starts_above_the_controls_in_an_auction")
    else {
        return;
    };
    let dir = temp_dir("console-fold");
    play(&dir, 5, true);
    // Seed 5, step 20: turn 2's auction, seats A and C with a bid pending.
    let page = format!("{}#step=20", dir.join("replay.html").display());
    let laptop = open(&chromium, Path::new(&page), &["--size", "1366x768"]);
    let pending = (0..3)
        .filter(|&s| !laptop.card(s)["pending"].is_null())
        .count();
    assert_eq!(pending, 2, "{}", laptop.json["cards"]);
    let [_, console_top, _, _, _, _] = laptop.rect("console");
    let [_, slider_top, _, _, _, _] = laptop.rect("slider");
    assert!(
        console_top + 60.0 <= slider_top - 40.0,
        "the console starts at {console_top} px, the controls at {} px: {}",
        slider_top - 40.0,
        laptop.json["layout"]
    );
}

#[test]
fn the_board_fits_a_laptop_and_a_projector_and_follows_the_window() {
    let Some(chromium) =
        common::browser_ready("the_board_fits_a_laptop_and_a_projector_and_follows_the_window")
    else {
        return;
    };
    let dir = temp_dir("fit");
    play(&dir, 9, true);
    let page = dir.join("replay.html");
    let laptop = open(&chromium, &page, &["--size", "1366x768"]);
    let [_, board_top, _, board_bottom, board, _] = laptop.rect("board");
    let [_, slider_top, _, slider_bottom, _, _] = laptop.rect("slider");
    let [_, chart_top, _, chart_bottom, _, chart_height] = laptop.rect("chart");
    assert!(
        board_top >= 0.0 && board_bottom <= slider_top,
        "{}",
        laptop.json["layout"]
    );
    assert!(slider_bottom <= chart_top, "{}", laptop.json["layout"]);
    assert!(
        chart_bottom <= 768.0 && chart_height >= 100.0,
        "{}",
        laptop.json["layout"]
    );
    assert!(board >= 400.0, "the board is {board} px on a laptop");
    let canvas = &laptop.json["layout"]["canvas"];
    assert_eq!(canvas[0].as_f64(), Some(board.round()));

    let projector = open(&chromium, &page, &["--size", "1920x1080"]);
    let big = projector.rect("board")[4];
    assert!(
        big >= 1.4 * board,
        "{big} px on a projector, {board} on a laptop"
    );
    assert!(projector.rect("chart")[3] <= 1080.0);
    let uhd = open(&chromium, &page, &["--size", "1920x1080", "--scale", "2"]);
    assert_eq!(uhd.rect("board")[4], big);
    assert_eq!(uhd.json["layout"]["canvas"][0].as_f64(), Some(2.0 * big));

    // After loading: a larger window, then a pixel ratio of 2.
    let resized = open(
        &chromium,
        &page,
        &["--size", "1366x768", "--resize", "1920x1080"],
    );
    assert_eq!(resized.rect("board")[4], big);
    assert!(resized.rect("chart")[3] <= 1080.0);
    let rescaled = open(&chromium, &page, &["--size", "1366x768", "--rescale", "2"]);
    assert_eq!(rescaled.json["layout"]["ratio"], 2);
    assert_eq!(
        rescaled.json["layout"]["canvas"][0].as_f64(),
        Some(2.0 * board.round())
    );
}

#[test]
fn the_slider_and_both_charts_share_one_turn_scale() {
    let Some(chromium) = common::browser_ready("the_slider_and_both_charts_share_one_turn_scale")
    else {
        return;
    };
    let dir = temp_dir("align");
    play(&dir, 9, true);
    let timeline = viewer_page::arena_timeline(&dir);
    // The first step of each turn, from the timeline.
    let starts: Vec<(u64, u64)> = (1..=15u8)
        .map(|turn| {
            let i = timeline
                .steps
                .iter()
                .position(|s| s.turn == turn && s.phase != 0)
                .unwrap();
            (u64::from(turn), i as u64)
        })
        .collect();
    for size in ["1366x768", "1920x1080"] {
        let seen = open(
            &chromium,
            &dir.join("replay.html"),
            &["--size", size, "--align"],
        );
        let align = &seen.json["align"];
        let x_of = |list: &str, key: &str, value: u64| {
            align[list]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t[key].as_u64() == Some(value))
                .unwrap_or_else(|| panic!("{size}: no {list} with {key} {value}"))["x"]
                .as_f64()
                .unwrap()
        };
        for &(turn, step) in &starts {
            let tick = align["ticks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["turn"].as_u64() == Some(turn))
                .unwrap();
            assert_eq!(tick["step"].as_u64(), Some(step), "{size}: turn {turn}");
            let slider = tick["x"].as_f64().unwrap();
            let chart = x_of("lines", "turn", turn);
            assert!(
                (slider - chart).abs() <= 1.0,
                "{size}: turn {turn} at x {slider} on the slider, {chart} on the chart"
            );
            // The CPU chart's dot of that step (its first callback) is there too.
            let cpu = x_of("dots", "step", step);
            assert!(
                (cpu - chart).abs() <= 1.0,
                "{size}: turn {turn}: CPU dot at {cpu}"
            );
            let clicked = align["clicked"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["turn"].as_u64() == Some(turn))
                .unwrap();
            assert_eq!(
                clicked["step"].as_u64(),
                Some(step),
                "{size}: a click on the slider at the chart's turn {turn}"
            );
        }
    }
}

#[test]
fn the_board_draws_with_the_page_s_palette() {
    let Some(chromium) = common::browser_ready("the_board_draws_with_the_page_s_palette") else {
        return;
    };
    let dir = temp_dir("palette");
    play(&dir, 9, true);
    let timeline = viewer_page::arena_timeline(&dir);
    let (last, probes) = viewer_page::board_probes(&timeline);
    let mut args: Vec<String> = Vec::new();
    for (c, fx, fy, _) in &probes {
        args.extend(["--eval".into(), pixel(c[0], c[1], *fx, *fy)]);
    }
    let house = probes[0].0;
    args.extend([
        "--eval".into(),
        format!("viewer.board.describe({}, {})", house[0], house[1]),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let page = at(&dir.join("replay.html"), last);
    for scale in ["1", "2"] {
        let mut all = vec!["--scale", scale];
        all.extend(&args);
        let seen = open(&chromium, &page, &all);
        for (i, (c, _, _, name)) in probes.iter().enumerate() {
            let expected = rgb(seen.json["palette"][name].as_str().unwrap());
            assert_eq!(
                *seen.eval(i),
                expected,
                "scale {scale}: the cell ({}, {}) drawn in {name}",
                c[0],
                c[1]
            );
        }
        let tip = seen.eval(probes.len()).as_str().unwrap();
        assert!(
            tip.contains(&format!("worth: {} rouble", house[6])),
            "{tip} (the timeline says {house:?})"
        );
    }
}

/// PNG width and height, from the IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn the_screenshot_script_writes_a_laptop_a_projector_a_4k_and_a_presentation_view() {
    let Some(chromium) = common::browser_ready(
        "the_screenshot_script_writes_a_laptop_a_projector_a_4k_and_a_presentation_view",
    ) else {
        return;
    };
    let out = temp_dir("screenshots");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = Command::new(repo.join("scripts/screenshot-viewer.sh"))
        .args(["7", "40"])
        .env("REFEREE", REFEREE)
        .env("RESULTS", &out)
        .env("CHROMIUM", &chromium)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for (name, size) in [
        ("viewer-1366x768", (1366, 768)),
        ("viewer-1920x1080", (1920, 1080)),
        ("viewer-3840x2160", (3840, 2160)),
        ("viewer-presentation", (1920, 1080)),
    ] {
        assert_eq!(png_size(&out.join(format!("{name}.png"))), size, "{name}");
    }
    assert!(out.join("viewer-match/replay.html").is_file());
}
