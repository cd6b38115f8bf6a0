//! The replay page in a real browser: headless Chromium driven by
//! `tests/browser/viewer.mjs` (Node, the DevTools protocol over a pipe, no npm package).
//! Skipped, with a message, when `chromium` or `node` is missing, and a failure under
//! `CI=true` (CI installs both, `scripts/ci-install.sh`). No page may log an error
//! (`viewer_page::open` checks every one). The other `view_browser_*.rs` files test the
//! layout, what a step shows, and the modes and tools. Their pages are built from the
//! arena's record of each match (`view::loi_arena`; `viewer_page::arena_page`), the one
//! record every game will have.
//!
//! - the End key moves the page to the last step, whose displayed final scores are the
//!   record's;
//! - a 15-turn match whose record holds 100,000 requests loads in under a second
//!   (`performance.now()` from navigation start to the viewer's ready marker; the figure is
//!   printed, run with `--nocapture` to see it, and kept in `referee/BENCHMARKS.md`);
//! - the console panel shows, at a step given in the URL, exactly what the champion printed
//!   on stderr in that step's callback, escaped and as text, and the CPU chart has a dot per
//!   callback and the budget line;
//! - the URL names the step, numbered from 1 as `referee show --step` numbers it: a URL with
//!   a step opens there, and stepping updates it.

use crate::common;
use crate::viewer_page;

use arena::GameRecord;
use referee::games::loi_wire::LoiWire;
use referee::view::loi_arena;
use std::path::Path;
use std::process::Command;
use viewer_page::{at, open, play, temp_dir, REFEREE};

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
    assert_eq!(seen.scores, record.ranking.scores);
    // The first step is not the end: the page really moved.
    let first = open(&chromium, &dir.join("replay.html"), &[]);
    assert_eq!(first.step, 0);
    assert_eq!(first.scores, vec![10, 10, 10]);
}

/// `record` (the arena's) with information requests added, so that it holds exactly
/// `total` requests as the protocol counts them (`fin` not) and still checks.
fn inflate(record: &mut GameRecord, total: usize) {
    let have = loi_arena::timeline(record).unwrap().requests;
    let missing = total - have;
    let n = record.callbacks.len();
    for (i, callback) in record.callbacks.iter_mut().enumerate() {
        callback.requests += (missing / n + usize::from(i < missing % n)) as u64;
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
    let turns = loi_arena::timeline(&record)
        .unwrap()
        .steps
        .iter()
        .map(|s| s.turn)
        .max();
    assert_eq!(turns, Some(15));
    let expected = record.ranking.scores.clone();
    inflate(&mut record, 100_000);
    arena::check(&LoiWire, &record).expect("the inflated record checks");
    let started = std::time::Instant::now();
    let page = loi_arena::page(&record, None).unwrap();
    let built = started.elapsed();
    assert_eq!(loi_arena::timeline(&record).unwrap().requests, 100_000);
    let path = dir.join("replay.html");
    std::fs::write(&path, &page).unwrap();
    let seen = open(&chromium, &path, &["--last"]);
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
    common::run_ok(
        Command::new(REFEREE)
            .arg("match")
            .arg(fixture("html_comment.sh"))
            .arg(fixture("html_close.sh"))
            .args(["random", "--seed", "6", "--full-log", "--html", "--out"])
            .arg(&dir),
    );
    let (record, timeline) = viewer_page::arena_page(&dir);
    assert!(record
        .faults
        .iter()
        .any(|f| f.message.contains("<!--<script>")));
    let seen = open(&chromium, &dir.join("replay.html"), &["--last"]);
    assert_eq!(seen.steps, timeline.steps.len() as u64);
    assert_eq!(seen.step + 1, seen.steps);
    assert_eq!(seen.scores, record.ranking.scores);
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
    common::run_ok(
        Command::new(REFEREE)
            .args(["match", "random"])
            .arg(&fixture)
            .args(["greedy", "--seed", "3", "--full-log", "--html", "--out"])
            .arg(&dir),
    );
    let (record, timeline) = viewer_page::arena_page(&dir);
    let step = |turn: u8| {
        timeline
            .steps
            .iter()
            .position(|s| s.seat == Some(1) && s.turn == turn && s.callback.to_string() == "jouer")
            .unwrap()
    };
    let page = dir.join("replay.html");
    let seen_at = |turn: u8| {
        let seen = open(&chromium, &at(&page, step(turn)), &[]);
        assert_eq!(seen.step as usize, step(turn));
        seen
    };
    let seen = seen_at(3);
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
    let seen = seen_at(2);
    assert_eq!(
        seen.console[0]["text"],
        "turn 2 phase 1\ncolour \\x1b[31mred\\x1b[0m and a bell \\x07 here"
    );
    assert_eq!(seen.console[0]["elements"], 0);
    let seen = seen_at(4);
    assert_eq!(seen.console[0]["text"], "turn 4 phase 1\nno newline yet");
    assert_eq!(seen.console[0]["notes"][0], "no newline at the end");
}

#[test]
fn the_url_follows_the_step_numbered_like_show_step() {
    let Some(chromium) = common::browser_ready("the_url_follows_the_step_numbered_like_show_step")
    else {
        return;
    };
    let dir = temp_dir("url");
    let record = play(&dir, 9, true);
    let timeline = viewer_page::arena_timeline(&dir);
    let page = dir.join("replay.html");
    // A URL with a step opens there.
    let seen = open(&chromium, &at(&page, 4), &[]);
    assert_eq!(
        (seen.step, seen.json["hash"].as_str()),
        (4, Some("#step=5"))
    );
    // Stepping updates the URL.
    let seen = open(
        &chromium,
        &at(&page, 4),
        &["--press", "ArrowRight", "--press", "ArrowRight"],
    );
    assert_eq!(
        (seen.step, seen.json["hash"].as_str()),
        (6, Some("#step=7"))
    );
    let seen = open(&chromium, &at(&page, 4), &["--press", "ArrowDown"]);
    let next_turn = seen.step as usize;
    assert!(next_turn > 4 && timeline.steps[next_turn].turn == timeline.steps[4].turn + 1);
    assert_eq!(
        seen.json["hash"].as_str().unwrap(),
        format!("#step={}", next_turn + 1)
    );
    // Step 7 is the one `referee show --step 7` shows.
    let out = Command::new(REFEREE)
        .arg("show")
        .arg(&dir)
        .args(["--step", "7", "--color", "never"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    let step = &timeline.steps[6];
    assert!(
        shown.contains(&format!(
            "step 7/{}: {}",
            timeline.steps.len(),
            step.label()
        )),
        "{shown}"
    );
    let label = open(
        &chromium,
        &at(&page, 6),
        &[
            "--eval",
            "document.getElementById('step-label').textContent",
        ],
    );
    let label = label.eval(0).as_str().unwrap().to_string();
    let seat = step.seat.unwrap();
    assert!(
        label.starts_with(&format!("Step 7/{}", timeline.steps.len()))
            && label.contains(&format!(
                "Turn {} · phase {} · {} of {}",
                step.turn,
                referee::view::timeline::roman(step.phase),
                step.callback,
                record.seats[usize::from(seat)].name
            ))
            && label.contains(&format!("seat {seat})")),
        "{label}"
    );
    // Past the end, or `#last`: the last step.
    let last = timeline.steps.len() as u64 - 1;
    assert_eq!(open(&chromium, &at(&page, 100_000), &[]).step, last);
    let seen = open(
        &chromium,
        Path::new(&format!("{}#last", page.display())),
        &[],
    );
    assert_eq!(seen.step, last);
    assert_eq!(
        seen.json["hash"].as_str().unwrap(),
        format!("#step={}", last + 1)
    );
}
