//! Shared by the replay page's browser tests (`view_browser*.rs`): a match played with the
//! real referee, the page opened in headless Chromium by `tests/browser/viewer.mjs` (one
//! browser at a time), what the driver saw, and small page-side expressions.
#![allow(dead_code)]

pub mod arena;

use crate::common;
use ::arena::GameRecord;
use referee::view::{loi_arena, Timeline};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

pub fn temp_dir(name: &str) -> PathBuf {
    common::fresh_dir("view-browser", name)
}

/// Plays `random greedy random` with `seed` into `dir` (with its full log, and with the
/// page if asked, [`arena_page`]); its record.
pub fn play(dir: &Path, seed: u64, html: bool) -> GameRecord {
    let mut command = Command::new(REFEREE);
    command.args([
        "match",
        "random",
        "greedy",
        "random",
        "--seed",
        &seed.to_string(),
        "--full-log",
        "--out",
    ]);
    command.arg(dir);
    run(command);
    if html {
        arena_page(dir);
    }
    common::loi::load_in(dir)
}

/// The match in `dir`, its replay page written as `replay.html` (`view::loi_arena::page`,
/// the console's stderr read from `dir`): its record and the page's timeline.
pub fn arena_page(dir: &Path) -> (GameRecord, Timeline) {
    let arena = common::loi::load_in(dir);
    let page = loi_arena::page(&arena, Some(dir)).unwrap();
    std::fs::write(dir.join("replay.html"), page).unwrap();
    let timeline = loi_arena::timeline(&arena).unwrap();
    (arena, timeline)
}

/// The timeline of the page [`arena_page`] writes for the match in `dir`.
pub fn arena_timeline(dir: &Path) -> Timeline {
    loi_arena::timeline(&common::loi::load_in(dir)).unwrap()
}

pub fn run(mut command: Command) {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The fixtures of `tests/fixtures/viewer`: `actor.sh` twice and `quitter.sh`, first
/// player seat 0, with the full log and the page ([`arena_page`]); the record and the
/// page's timeline.
pub fn actor_match(dir: &Path) -> (GameRecord, Timeline) {
    let fixture = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/viewer")
            .join(name)
    };
    let mut command = Command::new(REFEREE);
    command
        .arg("match")
        .arg(fixture("actor.sh"))
        .arg(fixture("actor.sh"))
        .arg(fixture("quitter.sh"))
        .args([
            "--first-player",
            "0",
            "--seed",
            "1",
            "--full-log",
            "--html",
            "--out",
        ])
        .arg(dir);
    run(command);
    let (record, timeline) = arena_page(dir);
    assert!(timeline.full_log);
    (record, timeline)
}

/// What `viewer.mjs` reports (every field of its JSON in `json`).
pub struct Seen {
    pub json: serde_json::Value,
    pub ready_ms: f64,
    pub steps: u64,
    pub step: u64,
    pub scores: Vec<i64>,
    /// The console panel's callbacks (`seat`, `head`, `text`, `notes`, `elements`).
    pub console: Vec<serde_json::Value>,
    /// Dots of the CPU chart, and whether it draws the budget line.
    pub cpu_dots: u64,
    pub budget_line: bool,
}

impl Seen {
    /// The text of the explanation's paragraphs whose class holds `class`.
    pub fn info(&self, class: &str) -> Vec<String> {
        self.json["info"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["class"].as_str().unwrap().split(' ').any(|c| c == class))
            .map(|p| p["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// Seat `seat`'s card.
    pub fn card(&self, seat: usize) -> &serde_json::Value {
        &self.json["cards"][seat]
    }

    /// A `[left, top, right, bottom, width, height]` box of the layout.
    pub fn rect(&self, name: &str) -> [f64; 6] {
        let b = &self.json["layout"][name];
        ["left", "top", "right", "bottom", "width", "height"].map(|k| b[k].as_f64().unwrap())
    }

    /// The value of the `i`-th `--eval`.
    pub fn eval(&self, i: usize) -> &serde_json::Value {
        &self.json["evals"][i]
    }
}

/// Opens `page` (a path, with `#step=N` if wanted) with the driver's `extra` options; the
/// page must report no error.
pub fn open(chromium: &Path, page: &Path, extra: &[&str]) -> Seen {
    let json = common::drive_page("viewer.mjs", chromium, page, extra);
    Seen {
        ready_ms: json["ready_ms"].as_f64().unwrap(),
        steps: json["steps"].as_u64().unwrap(),
        step: json["step"].as_u64().unwrap(),
        scores: json["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect(),
        console: json["console"].as_array().cloned().unwrap_or_default(),
        cpu_dots: json["cpu_dots"].as_u64().unwrap_or(0),
        budget_line: json["budget_line"].as_bool().unwrap_or(false),
        json,
    }
}

/// `page` opened at step `index` (0-based; the URL numbers steps from 1).
pub fn at(page: &Path, index: usize) -> PathBuf {
    PathBuf::from(format!("{}#step={}", page.display(), index + 1))
}

/// A point of the board and the colour of the page's CSS drawn there: the cell (as the
/// timeline gives it), the point's fractions of the cell's side, the custom property.
pub type Probe = ([i32; 7], f64, f64, &'static str);

/// The last step of `timeline` with houses of the three seats and of the town hall and a
/// road, and a point inside each, away from its letter (square, diamond, triangle, square),
/// a road's corner and its centre line.
pub fn board_probes(timeline: &Timeline) -> (usize, [Probe; 6]) {
    let has = |cells: &[[i32; 7]], kind: i32, owner: i32| {
        cells.iter().any(|c| c[2] == kind && c[3] == owner)
    };
    let last = (0..timeline.steps.len())
        .rev()
        .find(|&i| {
            let cells = timeline.cells_at(i);
            (0..4).all(|owner| has(&cells, 1, owner)) && has(&cells, 4, 3)
        })
        .expect("a step with houses of every owner and a road");
    let cells = timeline.cells_at(last);
    let find = |kind: i32, owner: i32| {
        *cells
            .iter()
            .find(|c| c[2] == kind && c[3] == owner)
            .unwrap()
    };
    let probes = [
        (find(1, 0), 0.2, 0.2, "--p0"),
        (find(1, 1), 0.22, 0.5, "--p1"),
        (find(1, 2), 0.3, 0.86, "--p2"),
        (find(1, 3), 0.2, 0.2, "--hall"),
        (find(4, 3), 0.2, 0.2, "--road"),
        (find(4, 3), 0.5, 0.5, "--road-line"),
    ];
    (last, probes)
}

/// A page-side expression: the `[r, g, b]` of the board's canvas at the point `(fx, fy)`
/// of cell `(x, y)` (fractions of the cell's side).
pub fn pixel(x: i32, y: i32, fx: f64, fy: f64) -> String {
    format!(
        "(() => {{ const c = document.getElementById('board'), b = c.getBoundingClientRect(), d = devicePixelRatio;
          const r = viewer.board.cellRect({x}, {y});
          const data = c.getContext('2d').getImageData(Math.floor((r.left - b.left + {fx} * r.size) * d),
            Math.floor((r.top - b.top + {fy} * r.size) * d), 1, 1).data;
          return [data[0], data[1], data[2]]; }})()"
    )
}

/// `#rrggbb` as `[r, g, b]`.
pub fn rgb(hex: &str) -> serde_json::Value {
    let hex = hex.trim().trim_start_matches('#');
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    serde_json::json!([c(0), c(2), c(4)])
}

/// The name the page gives an answer code (`referee show` prints the same).
pub fn code(code: i32) -> String {
    referee::view::terminal::code_name(code)
}
