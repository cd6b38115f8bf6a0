//! The replay page in a real browser: headless Chromium driven by
//! `tests/browser/viewer.mjs` (Node, the DevTools protocol over a pipe, no npm package).
//! Skipped, with a message, when `chromium` or `node` is missing, and a failure under
//! `CI=true` (CI installs both, `scripts/ci-install.sh`).
//!
//! - the End key moves the page to the last step, whose displayed final scores are the
//!   record's;
//! - a 15-turn match whose record holds 100,000 requests loads in under a second
//!   (`performance.now()` from navigation start to the viewer's ready marker; the figure is
//!   printed, run with `--nocapture` to see it, and kept in `referee/BENCHMARKS.md`);
//! - the console panel shows, at a step given in the URL, exactly what the champion printed
//!   on stderr in that step's callback, escaped and as text, and the CPU chart has a dot per
//!   callback and the budget line.

mod common;

use referee::record::MatchRecord;
use referee::view::html;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
/// One browser at a time: the machine may have 2 cores.
static BROWSER: Mutex<()> = Mutex::new(());

fn temp_dir(name: &str) -> PathBuf {
    common::fresh_dir("view-browser", name)
}

fn play(dir: &Path, seed: u64, html: bool) -> MatchRecord {
    let mut command = Command::new(REFEREE);
    command.args([
        "match",
        "random",
        "greedy",
        "random",
        "--seed",
        &seed.to_string(),
        "--out",
    ]);
    command.arg(dir);
    if html {
        command.arg("--html");
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    MatchRecord::load(&dir.join("record.json")).unwrap()
}

/// What `viewer.mjs` reports.
struct Seen {
    ready_ms: f64,
    steps: u64,
    step: u64,
    scores: Vec<i64>,
    /// The console panel's callbacks (`seat`, `head`, `text`, `notes`, `elements`).
    console: Vec<serde_json::Value>,
    /// Dots of the CPU chart, and whether it draws the budget line.
    cpu_dots: u64,
    budget_line: bool,
}

fn open(chromium: &Path, page: &Path, extra: &[&str]) -> Seen {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser/viewer.mjs");
    let out = Command::new("node")
        .arg(driver)
        .arg(page)
        .args(extra)
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "viewer.mjs failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
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
    }
}

#[test]
fn the_last_step_shows_the_final_scores_of_the_record() {
    let Some(chromium) =
        common::browser_ready("the_last_step_shows_the_final_scores_of_the_record")
    else {
        return;
    };
    let dir = temp_dir("last");
    let record = play(&dir, 9, true);
    let seen = open(&chromium, &dir.join("replay.html"), &["--last"]);
    assert_eq!(
        seen.step + 1,
        seen.steps,
        "the End key goes to the last step"
    );
    let expected: Vec<i64> = record
        .result
        .final_scores
        .iter()
        .map(|&s| i64::from(s))
        .collect();
    assert_eq!(seen.scores, expected);
    // The first step is not the end: the page really moved.
    let first = open(&chromium, &dir.join("replay.html"), &[]);
    assert_eq!(first.step, 0);
    assert_eq!(first.scores, vec![10, 10, 10]);
}

/// `record` with information requests added (`type_case`, counted as the record keeps
/// them) so that it holds exactly `total` requests and still replays.
fn inflate(record: &mut MatchRecord, total: usize) {
    let have: usize = record.callbacks.iter().map(|c| c.requests as usize).sum();
    let missing = total - have;
    let n = record.callbacks.len();
    for (i, callback) in record.callbacks.iter_mut().enumerate() {
        let add = (missing / n + usize::from(i < missing % n)) as u64;
        callback.requests += add;
        *callback.info.entry("type_case".to_string()).or_default() += add;
    }
}

#[test]
fn a_record_of_100000_requests_loads_in_under_a_second() {
    let Some(chromium) =
        common::browser_ready("a_record_of_100000_requests_loads_in_under_a_second")
    else {
        return;
    };
    let dir = temp_dir("large");
    let mut record = play(&dir, 9, false);
    assert_eq!(record.callbacks.iter().map(|c| c.turn).max(), Some(15));
    inflate(&mut record, 100_000);
    let report = referee::replay::replay(&record).expect("the inflated record replays");
    assert_eq!(report.requests, 100_000);
    let started = std::time::Instant::now();
    let page = html::replay_page(&record).unwrap();
    let built = started.elapsed();
    let path = dir.join("replay.html");
    std::fs::write(&path, &page).unwrap();
    let seen = open(&chromium, &path, &["--last"]);
    let expected: Vec<i64> = record
        .result
        .final_scores
        .iter()
        .map(|&s| i64::from(s))
        .collect();
    assert_eq!(seen.scores, expected);
    println!(
        "viewer: 15-turn record of 100000 requests ({} KiB of JSON record): page built in {} ms, {} KiB, ready in the browser in {:.0} ms",
        record.to_json().len() / 1024,
        built.as_millis(),
        page.len() / 1024,
        seen.ready_ms
    );
    assert!(
        seen.ready_ms < 1000.0,
        "the viewer took {} ms to load",
        seen.ready_ms
    );
}

/// Champions whose faults quote `<!--<script>` and `</script>`: the page still loads, its
/// board and timeline show the whole match, and the End key reaches the record's result.
#[test]
fn quoted_script_tags_do_not_break_the_page() {
    let Some(chromium) = common::browser_ready("quoted_script_tags_do_not_break_the_page") else {
        return;
    };
    let dir = temp_dir("script-tags");
    let fixture = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/untrusted")
            .join(name)
    };
    let out = Command::new(REFEREE)
        .arg("match")
        .arg(fixture("html_comment.sh"))
        .arg(fixture("html_close.sh"))
        .args(["random", "--seed", "6", "--html", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = MatchRecord::load(&dir.join("record.json")).unwrap();
    assert!(record
        .faults
        .iter()
        .any(|f| f.message.contains("<!--<script>")));
    let timeline = referee::view::Timeline::build(&record).unwrap();
    let seen = open(&chromium, &dir.join("replay.html"), &["--last"]);
    assert_eq!(seen.steps, timeline.steps.len() as u64);
    assert_eq!(seen.step + 1, seen.steps);
    let expected: Vec<i64> = record
        .result
        .final_scores
        .iter()
        .map(|&s| i64::from(s))
        .collect();
    assert_eq!(seen.scores, expected);
}

#[test]
fn the_console_shows_the_step_s_stderr_and_the_cpu_chart() {
    let Some(chromium) =
        common::browser_ready("the_console_shows_the_step_s_stderr_and_the_cpu_chart")
    else {
        return;
    };
    let dir = temp_dir("console");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/console/console.sh");
    let out = Command::new(REFEREE)
        .args(["match", "random"])
        .arg(&fixture)
        .args(["greedy", "--seed", "3", "--html", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = MatchRecord::load(&dir.join("record.json")).unwrap();
    let timeline = referee::view::Timeline::build(&record).unwrap();
    let step = |turn: u8| {
        timeline
            .steps
            .iter()
            .position(|s| s.seat == Some(1) && s.turn == turn && s.callback.to_string() == "jouer")
            .unwrap()
    };
    let page = dir.join("replay.html");
    let at = |turn: u8| {
        let seen = open(
            &chromium,
            Path::new(&format!("{}#step={}", page.display(), step(turn) + 1)),
            &[],
        );
        assert_eq!(seen.step as usize, step(turn));
        seen
    };
    let seen = at(3);
    assert_eq!(seen.console.len(), 1, "{:?}", seen.console);
    assert_eq!(seen.console[0]["seat"], 1);
    assert_eq!(seen.console[0]["text"], "turn 3 phase 1");
    let head = seen.console[0]["head"].as_str().unwrap();
    assert!(
        head.contains("jouer") && head.contains("of 1000 ms"),
        "{head}"
    );
    assert_eq!(seen.cpu_dots as usize, record.callbacks.len());
    assert!(seen.budget_line);
    let seen = at(2);
    assert_eq!(
        seen.console[0]["text"],
        "turn 2 phase 1\ncolour \\x1b[31mred\\x1b[0m and a bell \\x07 here"
    );
    assert_eq!(seen.console[0]["elements"], 0);
    let seen = at(4);
    assert_eq!(seen.console[0]["text"], "turn 4 phase 1\nno newline yet");
    assert_eq!(seen.console[0]["notes"][0], "no newline at the end");
}
