//! The Amazons replay page in a real browser: headless Chromium driven by
//! `tests/browser/amazons.mjs` (Node, the DevTools protocol over a pipe, no npm package).
//! Opened at `#step=N`, stepped with the keyboard and the hash, the board the page shows is
//! the board after that move as the `amazons` crate computes it, the move's squares are
//! marked, the winner is announced at the end, and nothing goes to the console's errors.
//! Its console shows, at each step, what each seat printed on stderr in that step's
//! callbacks, as text, with the callback's CPU and wall time against its budget.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`,
//! where a missing browser fails the test (CI installs both, `scripts/ci-install.sh`).

use crate::common;

use amazons::{Board, Cell, Color, Move, Square};
use arena::GameRecord;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn play(dir: &Path, champions: [&str; 2], seed: u64) -> GameRecord {
    let out = Command::new(REFEREE)
        .args(["--game", "amazons", "match"])
        .args(champions)
        .args(["--seed", &seed.to_string(), "--html", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

/// The boards after each move of `record` (0: the start), square by square as
/// `amazons.mjs` reads them from the page: `W`, `B`, `x`, `.`.
fn boards(record: &GameRecord) -> Vec<String> {
    let text = |board: &Board| -> String {
        Square::all()
            .map(|s| match board.cell(s) {
                Cell::Empty => '.',
                Cell::Amazon(Color::White) => 'W',
                Cell::Amazon(Color::Black) => 'B',
                Cell::Arrow => 'x',
            })
            .collect()
    };
    let mut board = Board::start();
    let mut boards = vec![text(&board)];
    for m in &common::amazons::moves(record) {
        board.play(m.parse::<Move>().unwrap()).unwrap();
        boards.push(text(&board));
    }
    boards
}

/// The page's states: when ready, then after each action; fails on a console error.
fn drive(chromium: &Path, page: &str, actions: &[&str]) -> Vec<Value> {
    let json = common::drive_page("amazons.mjs", chromium, page, actions);
    json["states"].as_array().unwrap().clone()
}

/// `state` shows the board after move `step` of `record`, with that move's squares marked.
fn assert_shows(state: &Value, record: &GameRecord, step: usize) {
    let boards = boards(record);
    assert_eq!(state["step"], step as u64, "{state}");
    assert_eq!(state["slider"], step as u64, "{state}");
    assert_eq!(state["hash"], format!("#step={step}"), "{state}");
    assert_eq!(state["count"], 100);
    assert_eq!(state["cells"], boards[step], "the board after move {step}");
    let marks = &state["marks"];
    if step == 0 {
        assert_eq!(marks, &serde_json::json!({}));
        return;
    }
    let m: Move = common::amazons::moves(record)[step - 1].parse().unwrap();
    assert_eq!(marks["to"], m.to.to_string(), "{state}");
    assert_eq!(marks["arrow"], m.arrow.to_string(), "{state}");
    // The arrow may land where the amazon came from: that square shows the arrow.
    if m.arrow != m.from {
        assert_eq!(marks["from"], m.from.to_string(), "{state}");
    }
}

#[test]
fn stepping_by_hash_and_keyboard_shows_the_boards_of_the_amazons_crate() {
    let Some(chromium) = common::browser_ready(
        "stepping_by_hash_and_keyboard_shows_the_boards_of_the_amazons_crate",
    ) else {
        return;
    };
    let dir = common::fresh_dir("amazons-browser", "steps");
    let record = play(&dir, ["mobility", "random"], 11);
    let last = common::amazons::moves(&record).len();
    assert!(last > 30, "{last}");
    let page = format!("{}#step=12", dir.join("replay.html").display());
    let states = drive(
        &chromium,
        &page,
        &[
            "key:ArrowRight",
            "key:ArrowRight",
            "key:ArrowRight",
            "key:ArrowLeft",
            "hash:step=27",
            "key:End",
            "key:Home",
            "click:#btn-next",
        ],
    );
    let expected = [12, 13, 14, 15, 14, 27, last, 0, 1];
    assert_eq!(states.len(), expected.len());
    for (state, &step) in states.iter().zip(&expected) {
        assert_shows(state, &record, step);
        let banner = &state["banner"];
        if step == last {
            let winner = usize::from(common::amazons::winner(&record).unwrap());
            let name = &record.seats[winner].name;
            assert!(
                banner.as_str().unwrap().starts_with(&format!("{name} (")),
                "{banner}"
            );
        } else {
            assert!(banner.is_null(), "{banner}");
        }
    }
}

/// A champion named like markup, which crashes: the page still loads without an error,
/// shows its name as text and reaches the end.
#[test]
fn a_champion_named_like_markup_shows_as_text() {
    let Some(chromium) = common::browser_ready("a_champion_named_like_markup_shows_as_text") else {
        return;
    };
    let dir = common::fresh_dir("amazons-browser", "script");
    let name = "<script>alert(1)<!--";
    let champion = common::amazons_crashing_champion(&dir, name, 3);
    let record = play(&dir.join("m"), [champion.to_str().unwrap(), "random"], 4);
    let page = format!("{}#step=2", dir.join("m/replay.html").display());
    let states = drive(&chromium, &page, &["key:End"]);
    assert_shows(&states[0], &record, 2);
    assert_shows(&states[1], &record, common::amazons::moves(&record).len());
    assert_eq!(states[1]["names"], serde_json::json!([name, "random"]));
    assert_eq!(
        states[1]["scripts"], 4,
        "the template's four script elements (the board's and the console's data and code)"
    );
    // The console names the seat as text too: at the end, its faulty jouer.
    let heads: Vec<&str> = states[1]["console"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["head"].as_str().unwrap())
        .collect();
    assert!(
        heads
            .iter()
            .any(|h| h.starts_with(&format!("{name} (White, seat 0)jouer"))),
        "{heads:?}"
    );
    assert!(
        states[1]["banner"]
            .as_str()
            .unwrap()
            .contains("White faulted (crash)"),
        "{}",
        states[1]["banner"]
    );
}

/// The page's champion (`protocol-amazons.md`), written into `dir` as `noisy.py`: it
/// prints `init_game: hello` on stderr in `init_game`, and in its `n`-th `jouer` the line
/// `jouer n: <b>bold</b>`, then an escape sequence and no newline in its third.
fn noisy_champion(dir: &Path) -> std::path::PathBuf {
    let page = std::fs::read_to_string(common::amazons_page_champion(dir)).unwrap();
    let loop_start = "for callback in sys.stdin:\n    if callback.strip() == \"jouer\":\n";
    assert!(page.contains(loop_start), "the page's champion changed");
    let noisy = page.replace(
        loop_start,
        &format!(
            "played = 0\n{loop_start}        played += 1\n        \
             print(f\"jouer {{played}}: <b>bold</b>\", file=sys.stderr, flush=True)\n        \
             if played == 3:\n            print(\"\\x1b[31mred\", end=\"\", file=sys.stderr, flush=True)\n    \
             if callback.strip() == \"init_game\":\n        print(\"init_game: hello\", file=sys.stderr, flush=True)\n    \
             if callback.strip() == \"jouer\":\n"
        ),
    );
    let program = dir.join("noisy.py");
    std::fs::write(&program, noisy).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

#[test]
fn the_console_shows_each_seat_s_stderr_and_time_against_the_budget() {
    let Some(chromium) =
        common::browser_ready("the_console_shows_each_seat_s_stderr_and_time_against_the_budget")
    else {
        return;
    };
    let dir = common::fresh_dir("amazons-browser", "console");
    let noisy = noisy_champion(&dir);
    let record = play(&dir.join("m"), [noisy.to_str().unwrap(), "random"], 5);
    assert!(common::amazons::moves(&record).len() > 10);
    // Step 0: both seats' init_game, the noisy one's line.
    let page = dir.join("m/replay.html").display().to_string();
    let states = drive(
        &chromium,
        &format!("{page}#step=0"),
        &["hash:step=5", "key:ArrowRight", "hash:step=3"],
    );
    let seen = &states[0]["console"];
    assert_eq!(seen.as_array().unwrap().len(), 2, "{seen}");
    assert_eq!(seen[0]["seat"], 0);
    assert_eq!(seen[0]["text"], "init_game: hello");
    let head = seen[0]["head"].as_str().unwrap();
    assert!(
        head.starts_with("noisy.py (White, seat 0)init_game") && head.contains("of 10000 ms"),
        "{head}"
    );
    assert_eq!(seen[1]["seat"], 1);
    // Step 5: move 5 is White's third: its line and the escape, as text, no newline.
    let seen = &states[1]["console"];
    assert_eq!(states[1]["console_step"], 5);
    assert_eq!(seen.as_array().unwrap().len(), 1, "{seen}");
    assert_eq!(seen[0]["seat"], 0);
    assert_eq!(seen[0]["text"], "jouer 3: <b>bold</b>\n\\x1b[31mred");
    assert_eq!(seen[0]["elements"], 0, "champion text is never markup");
    assert_eq!(seen[0]["notes"][0], "no newline at the end");
    let head = seen[0]["head"].as_str().unwrap();
    assert!(
        head.contains("jouer") && head.contains("of 1000 ms"),
        "{head}"
    );
    // Step 6 is Black's (random: no output); step 3 White's second.
    let seen = &states[2]["console"];
    assert_eq!(seen[0]["seat"], 1, "{seen}");
    assert_eq!(seen[0]["text"], serde_json::Value::Null, "{seen}");
    assert_eq!(states[3]["console"][0]["text"], "jouer 2: <b>bold</b>");
    // The chart: one dot a callback, and the budget line.
    assert_eq!(states[0]["cpu_dots"], record.callbacks.len() as u64);
    assert_eq!(states[0]["budget_line"], true);
}

/// At 1366x768 after End: the last move is in view in the list, its row numbered by moves
/// as the header counts them ("87–88", "Move 88/88"); the console is tall enough to read
/// and in the window. The move's three marks differ in line style as well as colour
/// (deuteranopia, greyscale), the legend shows the same styles; the CPU chart's dots take
/// the board's shapes (White a disc, Black a square); the footer says in words how the
/// champions were jailed, never the raw sandbox line; a play button and Space to play.
#[test]
fn at_1366_the_last_move_and_the_console_are_in_view_and_marks_read_without_colour() {
    let Some(chromium) = common::browser_ready(
        "at_1366_the_last_move_and_the_console_are_in_view_and_marks_read_without_colour",
    ) else {
        return;
    };
    let dir = common::fresh_dir("amazons-view", "people");
    let record = play(&dir, ["random", "mobility"], 5);
    let last = common::amazons::moves(&record).len();
    let page = format!("{}#step=1", dir.join("replay.html").display());
    let states = drive(&chromium, &page, &["key:End"]);
    let end = &states[1];
    assert_shows(end, &record, last);
    let window = end["window"]["height"].as_f64().unwrap();
    // The last move: current in the list, inside the list's box, the box in the window.
    let now = &end["now_move"];
    assert_eq!(now["text"], common::amazons::moves(&record)[last - 1]);
    let (top, bottom) = (
        now["top"].as_f64().unwrap(),
        now["bottom"].as_f64().unwrap(),
    );
    assert!(
        top >= now["box_top"].as_f64().unwrap() && bottom <= now["box_bottom"].as_f64().unwrap(),
        "the last move is out of the list's view: {now}"
    );
    assert!(bottom <= window, "the last move is below the window: {now}");
    assert_eq!(now["seen"], true, "the last move is hidden: {now}");
    // Numbered as the header counts: the row of moves 87 and 88 for move 88.
    let row = now["row"].as_str().unwrap();
    let numbers: Vec<usize> = row.split('\u{2013}').map(|n| n.parse().unwrap()).collect();
    assert!(numbers.contains(&last), "row {row} for move {last}");
    assert!(
        end["label"]
            .as_str()
            .unwrap()
            .contains(&format!("Move {last}/{last}")),
        "{}",
        end["label"]
    );
    // The console: at least 100 px of it, inside the window.
    let console = &end["rects"]["console"];
    assert!(console["height"].as_f64().unwrap() >= 100.0, "{console}");
    assert!(console["bottom"].as_f64().unwrap() <= window, "{console}");
    assert!(end["rects"]["btn-play"]["bottom"].as_f64().unwrap() <= window);
    assert_eq!(end["play"], "Play");
    assert!(end["keys"].as_str().unwrap().contains("Space play / pause"));
    // The marks: three line styles, the legend's the board's.
    let styles = &end["mark_styles"];
    let mut seen: Vec<&str> = ["from", "to", "arrow"]
        .iter()
        .filter_map(|m| styles[m].as_str())
        .collect();
    assert!(seen.len() >= 2, "{styles}");
    for mark in ["from", "to", "arrow"] {
        if let Some(style) = styles[mark].as_str() {
            assert_eq!(end["legend_marks"][mark], style, "{mark}");
        }
    }
    seen.sort();
    seen.dedup();
    let legend: Vec<&str> = ["from", "to", "arrow"]
        .iter()
        .map(|m| end["legend_marks"][m].as_str().unwrap())
        .collect();
    assert!(
        legend[0] != legend[1] && legend[1] != legend[2] && legend[0] != legend[2],
        "{legend:?}"
    );
    // The CPU chart: White's dots discs, Black's squares, and its legend says so.
    assert_eq!(end["cpu_shapes"], serde_json::json!([["circle"], ["rect"]]));
    let cpu = end["cpu_legend"][0].as_str().unwrap();
    assert!(
        cpu.contains("White disc") && cpu.contains("Black square"),
        "{cpu}"
    );
    // The footer: words, not the sandbox line.
    crate::assert_sandbox_in_words(&end["footer"]);
}
