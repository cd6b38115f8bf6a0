//! Text from champions reaches people escaped: champions in
//! `tests/fixtures/untrusted/` write terminal escape sequences (window title, clear screen,
//! OSC 52 clipboard write) to their stderr and in a malformed protocol line, and one is
//! started from a folder whose name holds ESC, its file named like a spreadsheet formula
//! (a champion whose own name holds ESC is refused: it could only be shown escaped). The
//! output of `referee match`, `referee show`, `referee tournament` and the CSV and JSON
//! files hold no raw control character but the `\x1b`-style escapes, while the record keeps
//! the exact text. A quoted `<!--<script>` or `</script>` leaves the HTML replay page whole.

use crate::common;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// What the fixtures write, raw and as it must be shown.
const SEQUENCES: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}]52;c;cHduZWQ=\u{7}";
const SEQUENCES_SHOWN: &str = "\\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;cHduZWQ=\\x07";
/// The malformed line of `bad_line.sh`, as its fault quotes it.
const LINE_SHOWN: &str = "fin\\x1b]0;pwned\\x07\\x1b[2J";
/// A file name holding ESC, and its name as a refusal quotes it.
const EVIL_FILE: &str = "=evil\u{1b}]0;title\u{7}\u{1b}[2J.sh";
const EVIL_NAME: &str = "=evil\\x1b]0;title\\x07\\x1b[2J.sh";
/// The folder of the champion played, whose name holds ESC, and that folder as shown.
const EVIL_DIR: &str = "evil\u{1b}]0;title\u{7}\u{1b}[2J";
const EVIL_DIR_SHOWN: &str = "evil\\x1b]0;title\\x07\\x1b[2J";
/// A champion's file named like a formula, and its name in the results.
const FORMULA_FILE: &str = "=evil.sh";
const FORMULA_NAME: &str = "_=evil.sh";

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/untrusted")
        .join(name)
        .display()
        .to_string()
}

/// A copy of the passive champion as `dir/file`.
fn passive_as(dir: &Path, file: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(file);
    std::fs::copy(common::passive(), &path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

fn run(command: &mut Command) -> Output {
    let output = command
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "{:?} failed:\n{}\n{}",
        command,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `bytes` as UTF-8 with no control character but line breaks (no ESC, no BEL, no C1).
#[track_caller]
fn assert_clean(what: &str, bytes: &[u8]) -> String {
    let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    if let Some((i, c)) = text
        .char_indices()
        .find(|&(_, c)| c != '\n' && c.is_control())
    {
        let from = text[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
        panic!(
            "{what}: raw U+{:04X} after {:?}",
            u32::from(c),
            &text[from..i]
        );
    }
    text.to_string()
}

/// `command` refused as bad input (exit 2), its stderr (`what`) clean and naming
/// [`EVIL_NAME`].
#[track_caller]
fn refuses_the_evil_name(what: &str, command: &mut Command) {
    let out = command.stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{what}");
    let stderr = assert_clean(what, &out.stderr);
    assert!(stderr.contains(EVIL_NAME), "{stderr}");
}

/// `text` without the SGR colour sequences `ESC [ digits;... m` that `--color` adds.
fn without_colours(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\u{1b}[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        if after[end..].starts_with('m') {
            rest = &after[end + 1..];
        } else {
            // Not a colour: keep the ESC for `assert_clean` to find.
            out.push_str("\u{1b}[");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// A match of the crashing and the malformed-line champions, and of [`FORMULA_FILE`] in
/// the folder [`EVIL_DIR`], in `dir`.
fn play_untrusted(dir: &Path) -> (Output, PathBuf) {
    let out = dir.join("match");
    let output = run(Command::new(REFEREE)
        .arg("match")
        .args([fixture("stderr_crash.sh"), fixture("bad_line.sh")])
        .arg(passive_as(&dir.join(EVIL_DIR), FORMULA_FILE))
        .args(["--seed", "5", "--first-player", "0", "--out"])
        .arg(&out));
    (output, out)
}

#[test]
fn match_table_and_show_escape_champion_text() {
    let dir = common::fresh_dir("untrusted", "match");
    // A name that can only be shown escaped is refused (its escape would read as another
    // file's name), the refusal itself escaped.
    refuses_the_evil_name(
        "a refused match's stderr",
        Command::new(REFEREE)
            .arg("match")
            .arg(passive_as(&dir, EVIL_FILE))
            .args(["random", "greedy", "--out"])
            .arg(dir.join("refused")),
    );
    assert!(
        !dir.join("refused").exists(),
        "a refused match made its folder"
    );
    let (output, out) = play_untrusted(&dir);
    let stdout = assert_clean("referee match stdout", &output.stdout);
    assert_clean("referee match stderr", &output.stderr);
    assert!(stdout.contains(SEQUENCES_SHOWN), "{stdout}");
    assert!(stdout.contains(LINE_SHOWN), "{stdout}");
    assert!(stdout.contains(FORMULA_NAME), "{stdout}");
    // The reproduce command quotes the folder's name in `$'...'`, still one printable line.
    assert!(
        stdout.contains("$'") && stdout.contains(EVIL_DIR_SHOWN),
        "{stdout}"
    );

    // The record keeps the exact text (as JSON escapes): the stderr quoted by the crash
    // fault, the path; the name is the label the tables show.
    let bytes = std::fs::read(out.join("record.json")).unwrap();
    assert_clean("record.json", &bytes);
    let record: Value = serde_json::from_slice(&bytes).unwrap();
    common::assert_no_process_left(&record);
    let messages: Vec<&str> = record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains(SEQUENCES)),
        "{messages:?}"
    );
    assert!(record["seats"][2]["path"]
        .as_str()
        .unwrap()
        .ends_with(&format!("{EVIL_DIR}/{FORMULA_FILE}")));
    assert_eq!(record["seats"][2]["name"], FORMULA_NAME);

    for colour in ["never", "always"] {
        let shown = run(Command::new(REFEREE)
            .arg("show")
            .arg(&out)
            .args(["--color", colour]));
        assert_clean("referee show stderr", &shown.stderr);
        let text = String::from_utf8(shown.stdout).unwrap();
        let text = if colour == "always" {
            assert!(text.contains("\u{1b}[1;38;5;196m"), "colours are on");
            without_colours(&text)
        } else {
            text
        };
        let text = assert_clean(&format!("referee show --color {colour}"), text.as_bytes());
        assert!(text.contains(SEQUENCES_SHOWN), "{text}");
        assert!(text.contains(LINE_SHOWN), "{text}");
        assert!(text.contains(FORMULA_NAME), "{text}");
    }
}

/// A record whose seat name and faults hold raw escapes (written by an older referee, or by
/// hand) is shown escaped too, and so are the errors that quote a record.
#[test]
fn show_and_errors_escape_a_raw_record() {
    let dir = common::fresh_dir("untrusted", "raw");
    let (_, out) = play_untrusted(&dir);
    let path = out.join("record.json");
    let mut record: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    record["seats"][1]["name"] = format!("raw{SEQUENCES}\u{9b}2J").into();
    // A callback's fault is kept twice: in its callback, and in the list after the
    // callback's name.
    let faulted = record["faults"][0]["callback"].as_u64().unwrap() as usize;
    let callback = record["callbacks"][faulted]["callback"]
        .as_str()
        .unwrap()
        .to_string();
    let message = format!("raw {SEQUENCES} \u{202e}");
    record["callbacks"][faulted]["fault"]["message"] = message.clone().into();
    record["faults"][0]["message"] = format!("{callback}: {message}").into();
    std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
    let shown = run(Command::new(REFEREE)
        .arg("show")
        .arg(&out)
        .args(["--color", "never"]));
    let text = assert_clean("referee show", &shown.stdout);
    assert!(
        text.contains(&format!("raw{SEQUENCES_SHOWN}\\x9b2J")),
        "{text}"
    );
    assert!(
        text.contains(&format!("raw {SEQUENCES_SHOWN} \\u{{202e}}")),
        "{text}"
    );

    // A request the engine rejects: `replay` quotes it in its error.
    let seat = record["callbacks"][1]["seat"].clone();
    record["callbacks"][1]["steps"].as_array_mut().unwrap().insert(
        0,
        serde_json::json!({"act": {"seat": seat, "action": format!("bad{SEQUENCES}"), "answer": {"Ok": "0"}}}),
    );
    let requests = record["callbacks"][1]["requests"].as_u64().unwrap();
    record["callbacks"][1]["requests"] = (requests + 1).into();
    std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
    let output = Command::new(REFEREE)
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = assert_clean("referee replay stderr", &output.stderr);
    assert!(
        stderr.contains(&format!("bad{SEQUENCES_SHOWN}")),
        "{stderr}"
    );
}

#[test]
fn tournament_tables_and_files_escape_champion_text() {
    let dir = common::fresh_dir("untrusted", "tournament");
    let results = dir.join("results");
    // A name that can only be shown escaped is refused in a tournament (its escape would
    // read as another file's name), the refusal itself escaped.
    refuses_the_evil_name(
        "a refused tournament's stderr",
        Command::new(REFEREE)
            .args(["tournament", "random", "greedy"])
            .arg(passive_as(&dir, EVIL_FILE))
            .arg("--results")
            .arg(&results),
    );
    let formula = dir.join(FORMULA_FILE);
    std::fs::rename(dir.join(EVIL_FILE), &formula).unwrap();
    let output = run(Command::new(REFEREE)
        .arg("tournament")
        .args([
            fixture("stderr_crash.sh"),
            fixture("bad_line.sh"),
            fixture("init_crash.sh"),
            fixture("early_line.sh"),
        ])
        .arg(&formula)
        .args(["random", "--exclude-broken", "--name", "t", "--seed", "8"])
        .arg("--results")
        .arg(&results));
    let stdout = assert_clean("referee tournament stdout", &output.stdout);
    let stderr = assert_clean("referee tournament stderr", &output.stderr);
    assert!(stdout.contains(FORMULA_NAME), "{stdout}");
    // The pre-run check quotes the stderr of `init_crash.sh`.
    assert!(
        stderr.contains(&format!("init{SEQUENCES_SHOWN}")),
        "{stderr}"
    );

    let t = results.join("t");
    for file in [
        "matches.csv",
        "leaderboard.csv",
        "pairwise.csv",
        "tournament.json",
    ] {
        assert_clean(file, &std::fs::read(t.join(file)).unwrap());
    }
    // No text cell starts like a spreadsheet formula; `-` starts only negative numbers.
    let mut names = Vec::new();
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        let mut reader = csv::Reader::from_path(t.join(file)).unwrap();
        for row in reader.records() {
            for cell in row.unwrap().iter() {
                assert!(
                    !cell.starts_with(['=', '+', '@'])
                        && (!cell.starts_with('-') || cell.parse::<f64>().is_ok()),
                    "{file}: {cell}"
                );
                names.push(cell.to_string());
            }
        }
    }
    assert!(names.iter().any(|n| n == FORMULA_NAME), "{names:?}");
    // tournament.json keeps the exact stderr in the excluded champion's fault, and the
    // line quoted as every fault quotes lines.
    let spec: Value =
        serde_json::from_slice(&std::fs::read(t.join("tournament.json")).unwrap()).unwrap();
    let fault = |i: usize| spec["excluded"][i]["fault"].as_str().unwrap().to_string();
    assert!(fault(0).contains(SEQUENCES), "{spec}");
    assert!(fault(1).contains("`\\x1b]0;pwned\\x07\\x1b[2J`"), "{spec}");
    assert!(
        spec["champions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == FORMULA_NAME
                && c["given"].as_str().unwrap().ends_with(FORMULA_FILE))
    );
}

/// The JSON inside the page's `<script>` element, from `page`.
fn embedded_json(page: &str) -> &str {
    let marker = "<script type=\"application/json\" id=\"timeline\">";
    let start = page.find(marker).expect("the timeline element") + marker.len();
    let end = start + page[start..].find("</script>").unwrap();
    &page[start..end]
}

#[test]
fn quoted_script_tags_leave_the_replay_page_whole() {
    let dir = common::fresh_dir("untrusted", "html");
    let out = dir.join("match");
    run(Command::new(REFEREE)
        .arg("match")
        .args([fixture("html_comment.sh"), fixture("html_close.sh")])
        .args([
            "random",
            "--seed",
            "6",
            "--first-player",
            "0",
            "--html",
            "--out",
        ])
        .arg(&out));
    let record = common::loi::load_in(&out);
    let quoted = |text: &str| record.faults.iter().any(|f| f.message.contains(text));
    assert!(quoted("<!--<script>") && quoted("</script><b>&amp;"));
    let page = std::fs::read_to_string(out.join("replay.html")).unwrap();
    let json = embedded_json(&page);
    // No `<` at all: in the "script data" state only `<` can change the HTML tokenizer's
    // state, so the element ends at the first `</script>`, the one the template put there.
    assert!(!json.contains(['<', '>', '&']), "{json}");
    assert!(json.contains("\\u003c!--\\u003cscript\\u003e"));
    let timeline: Value = serde_json::from_str(json).unwrap();
    let messages: Vec<&str> = timeline["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["faults"].as_array().into_iter().flatten())
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("`<!--<script>`")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("`</script><b>&amp;`")),
        "{messages:?}"
    );
    // What follows the timeline is the console's JSON (without a `<` either), the page's
    // own script, then the end of the page.
    let after = &page[page.find(json).unwrap() + json.len()..];
    assert!(
        after.starts_with("</script>\n<script type=\"application/json\" id=\"console-data\">"),
        "{}",
        &after[..80]
    );
    assert!(after.trim_end().ends_with("</script>\n</body>\n</html>"));
    assert_eq!(after.matches("</script>").count(), 3);
    let marker = "id=\"console-data\">";
    let console = &after[after.find(marker).unwrap() + marker.len()..];
    let console = &console[..console.find("</script>").unwrap()];
    assert!(!console.contains(['<', '>', '&']), "{console}");
}

/// A crash whose stderr holds a carriage return, ESC and U+202E (which reverses the rest
/// of its line): the replay page's faults (the seat card's line, the timeline marker's
/// tooltip) quote it escaped, as the console, `show` and the terminal do.
#[test]
fn the_replay_page_s_faults_quote_stderr_escaped() {
    let dir = common::fresh_dir("untrusted", "bidi");
    let out = dir.join("match");
    run(Command::new(REFEREE)
        .arg("match")
        .args([fixture("bidi_crash.sh"), "random".into(), "random".into()])
        .args(["--seed", "9", "--first-player", "0", "--html", "--out"])
        .arg(&out));
    let page = std::fs::read_to_string(out.join("replay.html")).unwrap();
    let timeline: Value = serde_json::from_str(embedded_json(&page)).unwrap();
    let messages: Vec<&str> = timeline["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["faults"].as_array().into_iter().flatten())
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(!messages.is_empty(), "{timeline}");
    for message in messages {
        assert_clean("a fault of the page", message.as_bytes());
        assert!(!message.contains('\u{202e}'), "{message}");
        assert!(
            message.contains("a crash\\x0dseat B crashed\\x1b[2K \\u{202e}seat A wins"),
            "{message}"
        );
    }
}
