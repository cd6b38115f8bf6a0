//! The champions' console, through the binary: a champion that prints known lines on stderr
//! in known callbacks (`fixtures/console/console.sh`) and one that floods it
//! (`fixtures/console/flood.sh`) play a match; `show --step` and the replay page's console
//! show exactly those lines at the right steps, escaped, with each callback's time against
//! its budget, the 1 MiB cap holds, and the referee never waits on the flood.

use crate::common;

use arena::GameRecord;
use referee::games::loi_play::LOI;
use referee::view::loi_arena;
use referee::view::timeline::StepKind;
use referee::view::Timeline;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/console")
        .join(name)
        .display()
        .to_string()
}

/// The match `random console.sh flood.sh --seed 3 --html`, played once per test process:
/// its directory, record and timeline, and how long the referee took.
struct Played {
    dir: PathBuf,
    record: GameRecord,
    timeline: Timeline,
    seconds: f64,
}

fn played() -> &'static Played {
    static PLAYED: OnceLock<Played> = OnceLock::new();
    PLAYED.get_or_init(|| {
        let dir = common::fresh_dir("console", "match");
        let started = std::time::Instant::now();
        let out = Command::new(REFEREE)
            .args(["match", "random"])
            .arg(fixture("console.sh"))
            .arg(fixture("flood.sh"))
            .args(["--seed", "3", "--html", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        let seconds = started.elapsed().as_secs_f64();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let record = LOI.load(&dir.join("record.json")).unwrap();
        let timeline = loi_arena::timeline(&record).unwrap();
        Played {
            dir,
            record,
            timeline,
            seconds,
        }
    })
}

/// The step (0-based) of `callback` of `seat` at `turn`.
fn step_of(p: &Played, seat: u8, callback: &str, turn: u8) -> usize {
    p.timeline
        .steps
        .iter()
        .position(|s| {
            s.kind == StepKind::Callback
                && s.seat == Some(seat)
                && s.callback.to_string() == callback
                && s.turn == turn
        })
        .unwrap_or_else(|| panic!("no {callback} of seat {seat} at turn {turn}"))
}

/// `referee show DIR --step N` (1-based), its console part (from its header on).
fn show_console(p: &Played, step: usize) -> String {
    let out = Command::new(REFEREE)
        .arg("show")
        .arg(&p.dir)
        .args(["--step", &(step + 1).to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let at = text.find("\nconsole (").expect("a console section");
    text[at + 1..].to_string()
}

/// `referee show DIR --step N` (1-based) with `COLUMNS` set to `columns` (none: unset),
/// its whole text.
fn show_at_width(p: &Played, step: usize, columns: Option<&str>) -> String {
    let mut show = Command::new(REFEREE);
    show.arg("show")
        .arg(&p.dir)
        .args(["--step", &(step + 1).to_string()])
        .env_remove("COLUMNS");
    if let Some(columns) = columns {
        show.env("COLUMNS", columns);
    }
    let out = show.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The lines `show` quotes of `seat`'s callback in a console section (after `    | `).
fn quoted(console: &str, seat: u8) -> Vec<String> {
    let head = format!("  seat {seat} ");
    let mut lines = Vec::new();
    let mut inside = false;
    for line in console.lines() {
        if line.starts_with("  seat ") {
            inside = line.starts_with(&head);
        } else if inside {
            if let Some(text) = line.strip_prefix("    | ") {
                lines.push(text.to_string());
            }
        }
    }
    lines
}

#[test]
fn show_step_prints_what_each_callback_wrote_and_its_time() {
    let p = played();
    // init_game: what it wrote before its first callback belongs to it.
    let init = p.timeline.stage_end(1, 0).unwrap();
    let text = show_console(p, init);
    assert_eq!(quoted(&text, 1), ["starting up", "init_game: hello"]);
    assert!(quoted(&text, 0).is_empty(), "{text}");
    assert!(
        text.contains("seat 1 console.sh, init_game: CPU ") && text.contains(" of 10000 ms, wall "),
        "{text}"
    );
    // One callback: its own lines, nobody else's.
    for turn in [1u8, 3, 7, 14] {
        let text = show_console(p, step_of(p, 1, "jouer", turn));
        assert_eq!(quoted(&text, 1), [format!("turn {turn} phase 1")], "{text}");
        assert_eq!(text.matches("  seat ").count(), 1, "{text}");
        assert!(text.contains(" of 1000 ms, wall "), "{text}");
        let text = show_console(p, step_of(p, 1, "enchere", turn));
        if turn != 5 {
            assert_eq!(quoted(&text, 1), [format!("turn {turn} phase 2")], "{text}");
        }
    }
    // Escape sequences and a bell are shown escaped, never raw.
    let text = show_console(p, step_of(p, 1, "jouer", 2));
    assert_eq!(
        quoted(&text, 1),
        [
            "turn 2 phase 1",
            "colour \\x1b[31mred\\x1b[0m and a bell \\x07 here"
        ]
    );
    assert!(!text.contains('\x1b') && !text.contains('\x07'));
    // A line without its newline stays with the callback that wrote it.
    let text = show_console(p, step_of(p, 1, "jouer", 4));
    assert_eq!(quoted(&text, 1), ["turn 4 phase 1", "no newline yet"]);
    assert!(text.contains("[no newline at the end]"), "{text}");
    let text = show_console(p, step_of(p, 1, "enchere", 4));
    assert_eq!(quoted(&text, 1), ["turn 4 phase 2"]);
    // A lot of output: its last 40 lines shown (a crash's traceback is at the end), those
    // before counted first, with the file and their bytes.
    let text = show_console(p, step_of(p, 1, "enchere", 5));
    let lines = quoted(&text, 1);
    assert_eq!(lines.len(), 40);
    assert_eq!(lines[0], "line 2961 of many");
    assert_eq!(lines[39], "line 3000 of many");
    let file = p.dir.join("seat1.stderr");
    let note = format!(
        "[the first 2961 line(s) are not shown ({} byte(s); see {}, bytes ",
        "turn 5 phase 2\n".len()
            + (1..=2960)
                .map(|i| format!("line {i} of many\n").len())
                .sum::<usize>(),
        file.display()
    );
    let at = text
        .find(&note)
        .unwrap_or_else(|| panic!("{note} in {text}"));
    assert!(
        at < text.find("line 2961 of many").unwrap(),
        "said before: {text}"
    );
    assert!(text[at..].contains("); the last 40 follow]"), "{text}");
    // The end of a phase shows the phase's callbacks; the last step, what came after.
    let phase = show_console(p, p.timeline.stage_end(6, 1).unwrap());
    assert_eq!(quoted(&phase, 1), ["turn 6 phase 1"]);
    assert_eq!(phase.matches("  seat ").count(), 3, "{phase}");
    let end = show_console(p, p.timeline.steps.len() - 1);
    assert!(
        end.contains("seat 1 console.sh, after its last callback"),
        "{end}"
    );
    assert_eq!(quoted(&end, 1), ["end_game: bye", "goodbye"]);
    assert!(end.find("end_game: bye") < end.find("after its last callback"));
}

#[test]
fn a_flood_is_capped_counted_and_never_waited_for() {
    let p = played();
    // 8 MiB in one callback: the match still takes well under the flood's worth of waiting.
    assert!(p.seconds < 20.0, "{}", p.seconds);
    let file = std::fs::read(p.dir.join("seat2.stderr")).unwrap();
    // Capped at 1 MiB, the marker included.
    assert_eq!(file.len(), 1 << 20);
    assert!(file.ends_with(b"\n[stderr truncated]\n"));
    let jouer = p
        .record
        .callbacks
        .iter()
        .position(|c| c.seat == 2 && c.callback == "jouer")
        .unwrap();
    let [start, end] = p.record.timings[jouer].stderr.unwrap();
    // The flood and its line (and the complaints of its pipeline cut short, if any).
    assert!(
        end - start >= (8 << 20) + 6,
        "every byte written is counted"
    );
    // Ranges of a seat follow each other, from 0.
    let mut next = [0u64; 3];
    for (c, t) in p.record.callbacks.iter().zip(&p.record.timings) {
        let [a, b] = t.stderr.unwrap();
        assert_eq!(a, next[usize::from(c.seat)]);
        assert!(b >= a);
        next[usize::from(c.seat)] = b;
    }
    let text = show_console(p, step_of(p, 2, "jouer", 1));
    assert!(
        text.contains(&format!("{} byte(s) of stderr", end - start))
            && text.contains("byte(s) dropped past the cap of"),
        "{text}"
    );
    let console = loi_arena::console(&p.record, Some(&p.dir), &p.timeline);
    let out = console.output(jouer).unwrap();
    assert_eq!(out.bytes.len() as u64 + out.lost, end - start);
    assert!(out.bytes.len() < 1 << 20);
}

/// `show` fits the terminal's width (`COLUMNS`, as a terminal sets it): no line wider than
/// 80 or 200 columns, sentences wrapped with their words all there, a champion's stderr line
/// wrapped whole; standard output to a pipe without `COLUMNS` keeps its lines as they are.
#[test]
fn show_fits_the_terminal_s_width() {
    let p = played();
    // The step of the colour and the bell (a champion's line), at the end of a phase
    // (long lines of actions); and the end of the match (the widest board).
    let steps = [
        step_of(p, 1, "jouer", 2),
        p.timeline.stage_end(6, 1).unwrap(),
        p.timeline.steps.len() - 1,
    ];
    for step in steps {
        let whole = show_at_width(p, step, None);
        let widest = whole.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest > 80, "a line wider than 80 to fit: {widest}");
        // The text of `lines` without spaces and the stderr lines' bars.
        let letters = |lines: Vec<&str>| -> Vec<char> {
            lines
                .concat()
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '|')
                .collect()
        };
        for columns in [80, 200] {
            let fitted = show_at_width(p, step, Some(&columns.to_string()));
            for line in fitted.lines() {
                assert!(line.chars().count() <= columns, "{columns}: {line:?}");
            }
            if widest <= columns {
                assert_eq!(fitted, whole, "{columns}: it fits as it is");
            }
            // Sentences wrap: the text of every line that is not cut is all there, in order.
            let kept = letters(
                whole
                    .lines()
                    .filter(|l| l.chars().count() <= columns || !l.trim_start().contains("  "))
                    .collect(),
            );
            let mut shown = letters(fitted.lines().collect()).into_iter();
            assert!(
                kept.iter().all(|c| shown.any(|s| s == *c)),
                "{columns}: text lost in\n{fitted}"
            );
        }
        let narrow = show_at_width(p, step, Some("80"));
        let wide = show_at_width(p, step, Some("200"));
        assert!(narrow.lines().count() > wide.lines().count() || wide == whole);
    }
}

/// The page's console JSON (`<script id="console-data">`).
fn page_console(p: &Played) -> Value {
    let page = std::fs::read_to_string(p.dir.join("replay.html")).unwrap();
    let marker = "id=\"console-data\">";
    let start = page.find(marker).unwrap() + marker.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn the_replay_page_carries_each_step_s_stderr_and_time() {
    let p = played();
    let json = page_console(p);
    let steps = json["steps"].as_array().unwrap();
    assert_eq!(steps.len(), p.timeline.steps.len());
    let calls = json["calls"].as_array().unwrap();
    assert_eq!(calls.len(), p.record.callbacks.len());
    // The calls a step shows, as (seat, text).
    let shown = |step: usize| -> Vec<(u64, String)> {
        let [a, b] = [0, 1].map(|k| steps[step][k].as_u64().unwrap() as usize);
        calls[a..b]
            .iter()
            .map(|c| {
                (
                    c["seat"].as_u64().unwrap(),
                    c["stderr"]["text"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let at = step_of(p, 1, "jouer", 3);
    assert_eq!(shown(at), [(1, "turn 3 phase 1".to_string())]);
    let at = step_of(p, 1, "jouer", 2);
    assert_eq!(
        shown(at)[0].1,
        "turn 2 phase 1\ncolour \\x1b[31mred\\x1b[0m and a bell \\x07 here"
    );
    let init = p.timeline.stage_end(1, 0).unwrap();
    assert!(shown(init).contains(&(1, "starting up\ninit_game: hello".to_string())));
    // Each call knows its step, its time and its budget.
    for c in calls {
        let step = c["step"].as_u64().unwrap() as usize;
        assert_eq!(
            p.timeline.steps[step].seat,
            c["seat"].as_u64().map(|s| s as u8)
        );
        let budget = if c["callback"] == "init_game" {
            10_000_000
        } else {
            1_000_000
        };
        assert_eq!(c["cpu_budget_us"], budget);
        assert!(c["cpu_us"].is_u64() && c["wall_us"].is_u64());
    }
    // The flood is cut, with notes.
    let flood = calls
        .iter()
        .find(|c| c["seat"] == 2 && c["callback"] == "jouer")
        .unwrap();
    assert!(flood["stderr"]["bytes"].as_u64().unwrap() > 8 << 20);
    let notes = flood["stderr"]["notes"].to_string();
    assert!(
        notes.contains("dropped past the cap of seat2.stderr"),
        "{notes}"
    );
    assert_eq!(json["after"][1]["text"], "goodbye");
}

#[test]
fn markup_in_stderr_stays_text_on_the_page() {
    let dir = common::fresh_dir("console", "markup");
    let champion = dir.join("markup.sh");
    std::fs::write(
        &champion,
        "#!/bin/sh\nwhile read -r c; do\n  echo '</script><script>alert(1)</script><b>bold</b> & <!--' >&2\n  echo fin\ndone\n",
    )
    .unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&champion).unwrap().permissions(),
        0o755,
    );
    std::fs::set_permissions(
        &champion,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let out = Command::new(REFEREE)
        .args(["match", "random", "random"])
        .arg(&champion)
        .args(["--seed", "5", "--html", "--out"])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("m/replay.html")).unwrap();
    // The champion's text is only inside the JSON, with no `<` for the HTML tokenizer.
    assert!(!page.contains("<b>bold"), "markup leaked into the page");
    assert_eq!(page.matches("</script>").count(), 4);
    let marker = "id=\"console-data\">";
    let start = page.find(marker).unwrap() + marker.len();
    let end = start + page[start..].find("</script>").unwrap();
    let json: Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(
        json["calls"][2]["stderr"]["text"],
        "</script><script>alert(1)</script><b>bold</b> & <!--"
    );
}

/// The console of one step as `show` prints it, times masked (they vary from run to run).
#[test]
fn snapshot_of_a_step_s_console() {
    let p = played();
    let text = show_console(p, p.timeline.stage_end(2, 1).unwrap());
    let dir = p.dir.display().to_string();
    // `CPU 12 µs of 1000 ms, wall 3.4 ms of 4000 ms`: the amounts used vary, and their unit.
    let mut words = Vec::new();
    let mut masking = 0;
    for word in text.replace(&dir, "DIR").split(' ') {
        masking = match (masking, word) {
            (_, "CPU" | "wall") => {
                words.push(word.to_string());
                1
            }
            (1, w) if w.starts_with(|c: char| c.is_ascii_digit()) => 2,
            (2, _) => {
                words.push("T".to_string());
                0
            }
            _ => {
                words.push(word.to_string());
                0
            }
        };
    }
    let masked = words.join(" ");
    insta::assert_snapshot!("console_turn2_phase1", masked);
}

/// A record of before (schema 4, `fixtures/records/loi-v4/bots`: random, greedy,
/// random) made one of schema 3.
#[test]
fn records_of_schema_3_are_read_and_older_ones_refused() {
    let dir = common::fresh_dir("console", "schema");
    let before = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/loi-v4/bots");
    for seat in 0..3 {
        let name = format!("seat{seat}.stderr");
        std::fs::copy(before.join(&name), dir.join(&name)).unwrap();
    }
    let mut json: Value =
        serde_json::from_slice(&std::fs::read(before.join("record.json")).unwrap()).unwrap();
    json["schema"] = 3.into();
    json.as_object_mut().unwrap().remove("budgets");
    for t in json["timings"].as_array_mut().unwrap() {
        t.as_object_mut().unwrap().remove("stderr");
    }
    std::fs::write(dir.join("record.json"), json.to_string()).unwrap();
    let show = |args: &[&str]| {
        Command::new(REFEREE)
            .arg("show")
            .arg(&dir)
            .args(args)
            .output()
            .unwrap()
    };
    let out = show(&["--turn", "3", "--phase", "1"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("stderr by callback was not recorded (a record of schema 3)"),
        "{text}"
    );
    assert!(
        text.contains("seat 1 greedy, jouer of turn 3 phase I: CPU "),
        "{text}"
    );
    assert!(
        !text.contains(" of 1000 ms"),
        "no budget in schema 3: {text}"
    );
    let replay = Command::new(REFEREE)
        .arg("replay")
        .arg(dir.join("record.json"))
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    json["schema"] = 2.into();
    std::fs::write(dir.join("record.json"), json.to_string()).unwrap();
    let out = show(&[]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(
        err.contains("has record schema 2, which this referee does not read"),
        "{err}"
    );
}

#[test]
fn the_record_with_its_stderr_ranges_still_replays() {
    let p = played();
    let out = Command::new(REFEREE)
        .arg("replay")
        .arg(p.dir.join("record.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
