//! The replay page's modes and tools in headless Chromium (see `view_browser.rs` for the
//! driver and when these tests are skipped):
//!
//! - presentation mode (`P`): large type, auto-play by turn at the chosen speed, and at the
//!   last step a banner with the names, final scores and points of the record; `Escape`
//!   leaves it;
//! - the board's tools: `Z` the whole map and back, `Shift`+arrows or a drag pan, `R` every
//!   monument's range (and a click on a monument pins its own), `V` the values as a heat map with its
//!   legend spanning the values on the board; the footer lists the keys.

use crate::common;
use crate::viewer_page;

use viewer_page::{at, open, pixel, play, rgb, temp_dir};

#[test]
fn presentation_plays_by_turn_and_ends_on_the_winner() {
    let Some(chromium) = common::browser_ready("presentation_plays_by_turn_and_ends_on_the_winner")
    else {
        return;
    };
    let dir = temp_dir("present");
    let record = play(&dir, 9, true);
    let t = viewer_page::arena_timeline(&dir);
    let page = dir.join("replay.html");
    let starts: Vec<usize> = (1..=15u8)
        .map(|turn| {
            t.steps
                .iter()
                .position(|s| s.turn == turn && s.phase != 0)
                .unwrap()
        })
        .collect();
    let end_game = t
        .steps
        .iter()
        .position(|s| s.phase == 0 && s.callback.to_string() == "end_game")
        .unwrap();
    let last = t.steps.len() - 1;
    let speed = "document.getElementById('speed').value = '1000'";
    // From turn 13: a turn a second, then the end of the match, then the last step.
    let seen = open(
        &chromium,
        &at(&page, starts[12]),
        &[
            "--size",
            "1920x1080",
            "--before",
            speed,
            "--press",
            "p",
            "--wait",
            "1500",
        ],
    );
    assert_eq!(seen.json["presenting"], true);
    let step = seen.step as usize;
    assert!(
        step > starts[12] && (starts.contains(&step) || step == end_game || step == last),
        "playing by turn went from step {} to step {step}",
        starts[12]
    );
    assert!(seen.json["layout"]["step_label_px"].as_f64().unwrap() >= 20.0);
    assert!(seen.rect("chart")[3] <= 1080.0, "the chart stays in view");
    let seen = open(
        &chromium,
        &at(&page, starts[13]),
        &[
            "--size",
            "1920x1080",
            "--before",
            speed,
            "--press",
            "p",
            "--wait",
            "5000",
        ],
    );
    assert_eq!(seen.step as usize, last, "the play stops at the last step");
    let banner = seen.json["banner"].as_str().expect("the winner banner");
    let result = common::loi::result(&record);
    let top = *result.points.iter().max().unwrap();
    let first: Vec<usize> = (0..3).filter(|&s| result.points[s] == top).collect();
    if let [winner] = first[..] {
        assert!(
            banner.starts_with(&format!("{} wins", record.seats[winner].name)),
            "{banner}"
        );
    }
    for s in 0..3 {
        let points = result.points[s];
        let line = format!(
            "{} {} — final score {} — {points} point{}",
            ["A", "B", "C"][s],
            record.seats[s].name,
            result.final_scores[s],
            if points == 1 { "" } else { "s" }
        );
        assert!(banner.contains(&line), "{banner} lacks {line}");
    }
    // Escape leaves it (in full screen, the browser takes the key and leaves full screen,
    // which the page follows), and the play stops.
    let seen = open(
        &chromium,
        &at(&page, starts[3]),
        &[
            "--press",
            "p",
            "--press",
            "Escape",
            "--wait",
            "500",
            "--eval",
            "document.getElementById('btn-play').textContent",
        ],
    );
    assert_eq!(seen.json["presenting"], false);
    assert!(seen.json["banner"].is_null());
    assert_eq!(*seen.eval(0), "Play");
}

#[test]
fn zoom_pan_ranges_and_values_work_from_keys_and_mouse() {
    let Some(chromium) =
        common::browser_ready("zoom_pan_ranges_and_values_work_from_keys_and_mouse")
    else {
        return;
    };
    let dir = temp_dir("tools");
    play(&dir, 9, true);
    let t = viewer_page::arena_timeline(&dir);
    let last = t.steps.len() - 1;
    let page = at(&dir.join("replay.html"), last);
    let view = "JSON.parse(JSON.stringify(viewer.board.view()))";
    let stash = "window.before = viewer.board.view()";

    let seen = open(
        &chromium,
        &page,
        &[
            "--press",
            "z",
            "--eval",
            view,
            "--eval",
            "document.getElementById('btn-zoom').textContent",
        ],
    );
    assert_eq!(
        *seen.eval(0),
        serde_json::json!({"w": 100, "x0": 0, "y0": 0})
    );
    assert_eq!(*seen.eval(1), "City");
    let seen = open(
        &chromium,
        &page,
        &[
            "--before",
            stash,
            "--press",
            "Shift+ArrowRight",
            "--press",
            "Shift+ArrowDown",
            "--eval",
            "[before, viewer.board.view()]",
        ],
    );
    let (before, after) = (&seen.eval(0)[0], &seen.eval(0)[1]);
    let w = before["w"].as_i64().unwrap();
    assert!(w < 100, "the city view is zoomed in");
    let d = (w as f64 / 8.0).round().max(1.0) as i64;
    for axis in ["x0", "y0"] {
        let expected = (before[axis].as_i64().unwrap() + d).min(100 - w);
        assert_eq!(
            after[axis].as_i64(),
            Some(expected),
            "{axis}: {seen:?}",
            seen = seen.eval(0)
        );
    }
    assert_eq!(after["w"], before["w"]);
    // A drag of 100 by 50 pixels pans by as many cells (the other way).
    let drag = "(() => { const c = viewer.board.canvas, r = c.getBoundingClientRect(), x = r.left + 200, y = r.top + 200;
      const at = (type, dx, dy, target) => target.dispatchEvent(new MouseEvent(type, { clientX: x + dx, clientY: y + dy, buttons: type === 'mouseup' ? 0 : 1, bubbles: true }));
      at('mousedown', 0, 0, c); at('mousemove', -100, -50, c); at('mouseup', -100, -50, window);
      return viewer.board.cellRect(0, 0).size; })()";
    let seen = open(
        &chromium,
        &page,
        &[
            "--before",
            stash,
            "--eval",
            drag,
            "--eval",
            "[before, viewer.board.view()]",
        ],
    );
    let cell = seen.eval(0).as_f64().unwrap();
    let (before, after) = (&seen.eval(1)[0], &seen.eval(1)[1]);
    for (axis, pixels) in [("x0", 100.0), ("y0", 50.0)] {
        let expected =
            (before[axis].as_i64().unwrap() + (pixels / cell).round() as i64).min(100 - w);
        assert_eq!(
            after[axis].as_i64(),
            Some(expected),
            "{axis}: {}",
            seen.eval(1)
        );
    }

    // A monument, and an empty cell in its range: plain ground until the ranges are shown.
    let cells = t.cells_at(last);
    let (monument, inside) = cells
        .iter()
        .filter(|c| c[2] == 3)
        .find_map(|m| {
            let range = t.monuments[m[4] as usize].range;
            cells
                .iter()
                .find(|c| {
                    c[2] == 0
                        && c[5] == 0
                        && (c[0] - m[0]).abs() <= range
                        && (c[1] - m[1]).abs() <= range
                        && (c[0] - m[0]).abs().max((c[1] - m[1]).abs()) > 0
                })
                .map(|c| (*m, *c))
        })
        .expect("an empty cell of value 0 in a monument's range");
    let probe = pixel(inside[0], inside[1], 0.5, 0.5);
    let plain = open(&chromium, &page, &["--eval", &probe]);
    let ground = rgb(plain.json["palette"]["--ground"].as_str().unwrap());
    assert_eq!(*plain.eval(0), ground);
    let ranges = open(
        &chromium,
        &page,
        &[
            "--press",
            "r",
            "--eval",
            &probe,
            "--eval",
            "document.getElementById('btn-ranges').getAttribute('aria-pressed')",
        ],
    );
    assert_ne!(
        *ranges.eval(0),
        ground,
        "the range is drawn over ({}, {})",
        inside[0],
        inside[1]
    );
    assert_eq!(*ranges.eval(1), "true");
    // A click on the monument pins its range.
    let click = format!(
        "(() => {{ const r = viewer.board.cellRect({}, {}); viewer.board.canvas.dispatchEvent(new MouseEvent('click', {{ clientX: r.left + r.size / 2, clientY: r.top + r.size / 2, bubbles: true }})); return 1; }})()",
        monument[0], monument[1]
    );
    let pinned = open(&chromium, &page, &["--eval", &click, "--eval", &probe]);
    assert_ne!(*pinned.eval(1), ground);

    // Values: the heat map's legend spans the values on the board.
    let lo = cells.iter().map(|c| c[5]).min().unwrap().min(0);
    let hi = cells.iter().map(|c| c[5]).max().unwrap().max(0);
    let seen = open(
        &chromium,
        &page,
        &[
            "--press",
            "v",
            "--eval",
            "document.getElementById('heat-legend').hidden",
            "--eval",
            "document.getElementById('heat-legend').dataset.range",
            "--eval",
            "document.querySelectorAll('#heat-legend i').length",
        ],
    );
    assert_eq!(*seen.eval(0), false);
    assert_eq!(*seen.eval(1), format!("{lo} {hi}").as_str());
    assert_eq!(seen.eval(2).as_i64(), Some(i64::from(hi - lo + 1)));

    // The footer lists the keys.
    let keys = seen.json["keys"].as_str().unwrap();
    for key in [
        "← previous step",
        "→ next step",
        "↑ / PageUp previous turn",
        "Home first step",
        "End last step",
        "Space play / pause",
        "Z zoom",
        "V cell values",
        "R monument ranges",
        "Shift+Left / Shift+Right / Shift+Up / Shift+Down pan",
        "P presentation",
        "Escape leave it",
    ] {
        assert!(keys.contains(key), "{keys} lacks {key}");
    }
}
