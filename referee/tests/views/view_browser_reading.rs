//! The 2009 replay page read at a laptop's 1366x768, in headless Chromium (see
//! `view_browser.rs` for the driver and when these tests are skipped): the final-score
//! chart's labels on no curve and on no other label, the step label whole, each console
//! output open at its end (a crash's traceback in view), the "auction won" badge naming
//! its auction, and the keys back to the page after a choice in "play by".

use crate::common;
use crate::viewer_page;

use viewer_page::{at, open, play, temp_dir};

/// Page-side: the boxes of the final-score chart's labels, and the top of its plot.
const LABELS: &str = "(() => { const box = (e) => { const r = e.getBoundingClientRect(); \
    return [r.left, r.top, r.right, r.bottom]; }; \
    return { labels: [...document.querySelectorAll('#chart text.end')].map(box), \
    lines_top: Math.min(...[...document.querySelectorAll('#chart path.seat-line')].map((p) => box(p)[1])) }; })()";

/// Page-side: whether the step label shows all its text.
const LABEL_WHOLE: &str = "(() => { const l = document.getElementById('step-label'); \
    return l.scrollWidth <= l.clientWidth; })()";

/// Page-side: whether each console output shows its last line (scrolled to its end).
const OUTPUT_ENDS: &str = "[...document.querySelectorAll('#console pre')].map((p) => \
    p.scrollTop + p.clientHeight >= p.scrollHeight - 1)";

/// Page-side: the "auction won" badges shown.
const BADGES: &str = "[...document.querySelectorAll('.player .won')].filter((b) => !b.hidden) \
    .map((b) => b.textContent)";

#[test]
fn at_1366_the_chart_labels_the_step_label_and_the_console_read_whole() {
    let Some(chromium) =
        common::browser_ready("at_1366_the_chart_labels_the_step_label_and_the_console_read_whole")
    else {
        return;
    };
    let dir = temp_dir("reading");
    play(&dir, 5, true);
    let timeline = viewer_page::arena_timeline(&dir);
    let page = dir.join("replay.html");
    let last = timeline.steps.len() - 1;
    // The longest step label of the match.
    let longest = (0..=last)
        .max_by_key(|&i| timeline.steps[i].label().len())
        .unwrap();
    for step in [last, longest] {
        let seen = open(
            &chromium,
            &at(&page, step),
            &[
                "--size",
                "1366x768",
                "--eval",
                LABELS,
                "--eval",
                LABEL_WHOLE,
                "--eval",
                BADGES,
            ],
        );
        let labels: Vec<[f64; 4]> = serde_json::from_value(seen.eval(0)["labels"].clone()).unwrap();
        assert_eq!(labels.len(), 3, "a label a seat");
        let lines_top = seen.eval(0)["lines_top"].as_f64().unwrap();
        for (i, a) in labels.iter().enumerate() {
            assert!(
                a[3] <= lines_top + 0.5,
                "label {i} {a:?} above the curves ({lines_top})"
            );
            for b in &labels[i + 1..] {
                let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
                assert!(apart, "labels {a:?} and {b:?} overlap");
            }
        }
        assert_eq!(seen.eval(1), true, "step {step}: the step label is cut");
        if step == last {
            let badges = seen.eval(2).as_array().unwrap();
            assert_eq!(badges.len(), 1, "{badges:?}");
            assert!(
                badges[0]
                    .as_str()
                    .unwrap()
                    .starts_with("won the auction of turn 14 (monument "),
                "{badges:?}"
            );
        }
    }
}

#[test]
fn a_console_output_opens_at_its_end_and_play_by_gives_the_keys_back() {
    let Some(chromium) =
        common::browser_ready("a_console_output_opens_at_its_end_and_play_by_gives_the_keys_back")
    else {
        return;
    };
    // `console.sh` writes 3000 lines in its enchere of turn 5: more than its box shows.
    let dir = temp_dir("reading-console");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/console");
    viewer_page::run({
        let mut command = std::process::Command::new(viewer_page::REFEREE);
        command
            .arg("match")
            .arg("random")
            .arg(fixture.join("console.sh"))
            .arg("random")
            .args(["--seed", "3", "--html", "--out"])
            .arg(&dir);
        command
    });
    let timeline = viewer_page::arena_timeline(&dir);
    let many = timeline
        .steps
        .iter()
        .position(|s| s.seat == Some(1) && s.turn == 5 && s.callback.to_string() == "enchere")
        .expect("the enchere of turn 5");
    let page = dir.join("replay.html");
    let choose = "(() => { const s = document.getElementById('play-by'); s.focus(); \
        s.value = 'turn'; s.dispatchEvent(new Event('change')); })()";
    let seen = open(
        &chromium,
        &at(&page, many),
        &[
            "--size",
            "1366x768",
            "--eval",
            OUTPUT_ENDS,
            "--eval",
            "[...document.querySelectorAll('#console pre')].map((p) => p.scrollHeight > p.clientHeight)",
        ],
    );
    let ends = seen.eval(0).as_array().unwrap();
    assert!(
        seen.eval(1)
            .as_array()
            .unwrap()
            .iter()
            .any(|more| more == true),
        "an output longer than its box"
    );
    assert!(
        ends.iter().all(|e| e == true),
        "each output opens at its end: {ends:?}"
    );
    let seen = open(
        &chromium,
        &at(&page, many),
        &[
            "--size",
            "1366x768",
            "--before",
            choose,
            "--press",
            "ArrowLeft",
            "--eval",
            "document.activeElement.tagName",
        ],
    );
    assert_eq!(
        seen.step as usize,
        many - 1,
        "the arrow moved the page, not the dropdown"
    );
    assert_ne!(seen.eval(0), "SELECT");
}
