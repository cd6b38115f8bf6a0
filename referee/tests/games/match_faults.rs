//! Whole matches through `referee match` with real champion processes that misbehave on
//! purpose: each gets the right fault class, the match completes with a valid result, and
//! no process of the match is left afterwards.

use crate::common;

use common::{assert_no_process_left, passive, running};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/match")
        .join(name)
        .display()
        .to_string()
}

/// Run `referee` with these arguments.
fn referee(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .output()
        .expect("the referee runs")
}

/// Play a match of `champions` with `seed` and return its record. Each test plays its own
/// seeds: no process may carry a seat's seed once its match is over, which another test's
/// match of the same seed, running meanwhile, would.
fn play(champions: [&str; 3], seed: u64, extra: &[&str]) -> Value {
    play_said(champions, seed, extra).0
}

/// [`play`], and what `referee match` printed on stdout.
fn play_said(champions: [&str; 3], seed: u64, extra: &[&str]) -> (Value, String) {
    let dir = common::fresh_dir("match", &seed.to_string());
    let seed = seed.to_string();
    let mut args = vec![
        "match",
        champions[0],
        champions[1],
        champions[2],
        "--seed",
        &seed,
    ];
    let dir_str = dir.display().to_string();
    args.extend(["--out", &dir_str]);
    if !extra.contains(&"--first-player") {
        args.extend(["--first-player", "0"]);
    }
    args.extend(extra);
    let output = referee(&args);
    assert!(
        output.status.success(),
        "referee match failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    assert_no_process_left(&record);
    (record, String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The faults of `seat`, as (kind, message): a callback's fault as its callback keeps it
/// (the match's list names the callback before the message).
fn faults(record: &Value, seat: u64) -> Vec<(String, String)> {
    record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == seat)
        .map(|f| {
            let message = match f["callback"].as_u64() {
                Some(i) => &record["callbacks"][i as usize]["fault"]["message"],
                None => &f["message"],
            };
            (
                f["kind"].as_str().unwrap().to_string(),
                message.as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The match went to its end: every seat that did not fault got `end_game`.
fn assert_completed(record: &Value) {
    let callbacks = record["callbacks"].as_array().unwrap();
    for seat in 0..3u64 {
        if faults(record, seat).is_empty() {
            assert!(
                callbacks
                    .iter()
                    .any(|c| c["seat"] == seat && c["callback"] == "end_game"),
                "seat {seat} got no end_game"
            );
        }
    }
    // Every seat ranked, with its score.
    for field in ["places", "scores"] {
        let values = record["ranking"][field].as_array().unwrap();
        assert_eq!(values.len(), 3, "{field}");
        assert!(values.iter().all(Value::is_i64), "{field}");
    }
}

/// One misbehaving champion in seat 0 against two passive ones.
fn single_fault(fixture_name: &str, seed: u64, extra: &[&str]) -> (String, String) {
    single_fault_record(fixture_name, seed, extra).0
}

/// The same, and the record.
fn single_fault_record(fixture_name: &str, seed: u64, extra: &[&str]) -> ((String, String), Value) {
    let champion = fixture(fixture_name);
    let record = play([&champion, &passive(), &passive()], seed, extra);
    assert_completed(&record);
    let seat0 = faults(&record, 0);
    assert_eq!(seat0.len(), 1, "one fault for seat 0: {seat0:?}");
    assert!(faults(&record, 1).is_empty() && faults(&record, 2).is_empty());
    // A stopped champion acts no more: nothing of seat 0 after its fault.
    let callbacks = record["callbacks"].as_array().unwrap();
    let after = callbacks
        .iter()
        .position(|c| c["seat"] == 0 && c.get("fault").is_some())
        .map_or(0, |at| at + 1);
    assert!(
        callbacks[after..].iter().all(|c| c["seat"] != 0),
        "a stopped champion got another callback"
    );
    (seat0.into_iter().next().unwrap(), record)
}

/// The shell champion of protocol.md whose block begins with `begins` (after `#!/bin/sh`),
/// taken from the document itself so that it stays true, as an executable file `name` of
/// a fresh folder; its path and the number of its lines.
fn doc_champion(begins: &str, name: &str) -> (String, usize) {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol.md"))
        .unwrap();
    let start = doc
        .find(&format!("```sh\n#!/bin/sh\n{begins}"))
        .unwrap_or_else(|| panic!("protocol.md has no shell champion beginning `{begins}`"))
        + "```sh\n".len();
    let body = &doc[start..start + doc[start..].find("```").unwrap()];
    let path = common::fresh_dir("match", name).join(format!("{name}.sh"));
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (path.display().to_string(), body.lines().count())
}

#[test]
fn the_shell_champion_of_protocol_md_plays_a_full_match() {
    let (path, lines) = doc_champion("", "doc-champion");
    assert!(
        lines <= 10,
        "the champion of protocol.md has at most ten lines"
    );
    let record = play([&path, &path, &path], 11, &[]);
    assert_completed(&record);
    assert!(record["faults"].as_array().unwrap().is_empty());
    assert_eq!(
        record["callbacks"].as_array().unwrap().len(),
        3 + 15 * 3 + 14 * 3 + 14 + 3
    );
    assert_eq!(record["ranking"]["scores"], serde_json::json!([10, 10, 10]));
}

/// The record of one misbehaving champion in seat 0, its fault, what the callback it
/// faulted in measured (`timings`) and that callback's budget, microseconds.
fn timed_fault(fixture_name: &str, seed: u64) -> ((String, String), Value, Value) {
    let (fault, record) = single_fault_record(fixture_name, seed, &["--time-scale", "0.3"]);
    let at = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["seat"] == 0 && c.get("fault").is_some())
        .expect("the callback of the fault");
    (
        fault,
        record["timings"][at].clone(),
        record["budgets"]["call"].clone(),
    )
}

/// The number of milliseconds after `before` in `message`.
fn ms_after(message: &str, before: &str) -> u64 {
    let rest = message
        .split(before)
        .nth(1)
        .unwrap_or_else(|| panic!("{message}"));
    rest.split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{message}"))
}

/// The wall clock ran out: the fault says how long it waited, at least the wall budget,
/// and, as the champion used almost no CPU, asks whether it flushed its output; the
/// callback's timing records that wall time.
#[test]
fn a_hanging_champion_times_out() {
    let ((kind, message), timing, budget) = timed_fault("hang.sh", 12);
    assert_eq!(kind, "timeout", "{message}");
    assert!(
        message.contains("so it was waiting: did you flush stdout"),
        "{message}"
    );
    let wall_ms = budget["wall_us"].as_u64().unwrap() / 1000;
    assert!(
        ms_after(&message, "no complete line after ") >= wall_ms,
        "{message}"
    );
    assert!(
        timing["wall_us"].as_u64().unwrap() >= wall_ms * 1000,
        "{timing}"
    );
}

/// The CPU budget ran out: the fault says how much CPU it used, more than the budget, and
/// the callback's timing records that CPU time.
#[test]
fn a_busy_looping_champion_times_out_on_cpu() {
    let ((kind, message), timing, budget) = timed_fault("busy.sh", 13);
    assert_eq!(kind, "timeout", "{message}");
    let cpu_ms = budget["cpu_us"].as_u64().unwrap() / 1000;
    // Seen while it ran, not at the end of the wall budget.
    assert!(
        message.starts_with("used ") && message.contains(" without finishing; "),
        "{message}"
    );
    assert!(ms_after(&message, "used ") >= cpu_ms, "{message}");
    assert!(
        timing["cpu_us"].as_u64().unwrap() >= cpu_ms * 1000,
        "{timing}"
    );
}

/// A callback's CPU budget counts that callback's CPU only: a champion that uses 60% of it
/// in each of five callbacks (three budgets in all, its start-up besides) plays on without
/// a fault, and the timings of those callbacks show their 60 ms.
#[test]
fn each_callback_is_held_to_its_own_cpu_budget() {
    let champion = fixture("steady.py");
    let record = play(
        [&champion, &passive(), &passive()],
        25,
        &["--call-cpu", "0.1"],
    );
    assert_completed(&record);
    assert!(faults(&record, 0).is_empty(), "{:?}", faults(&record, 0));
    let burnt: Vec<u64> = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .zip(record["timings"].as_array().unwrap())
        .filter(|(c, _)| c["seat"] == 0 && c["callback"] == "jouer")
        .take(5)
        .map(|(_, t)| t["cpu_us"].as_u64().unwrap())
        .collect();
    assert_eq!(burnt.len(), 5);
    // 60 ms each, measured in clock ticks (10 ms) outside a cgroup.
    assert!(
        burnt.iter().all(|&us| (40_000..100_000).contains(&us)),
        "{burnt:?}"
    );
}

#[test]
fn a_champion_over_its_memory_limit_is_a_memory_fault() {
    let (kind, message) = single_fault("hog.py", 14, &["--memory", "256"]);
    assert_eq!(kind, "memory", "{message}");
}

/// Processes each under the limit but over it together: the jail's sampler adds them up.
#[test]
fn processes_over_the_memory_limit_together_are_a_memory_fault() {
    let (kind, message) = single_fault("hoard_together.py", 24, &["--memory", "96"]);
    assert_eq!(kind, "memory", "{message}");
    assert!(
        message.contains("together") && message.contains("the limit is 96 MiB"),
        "{message}"
    );
}

/// A program without a kit that prints a debug line on stdout: a protocol fault that quotes
/// it, says logs belong on stderr, and points to protocol.md's section 9 (the fds 3 and 4
/// way to keep stdout clean), in the record and in what `referee match` prints.
#[test]
fn debug_text_on_stdout_is_a_protocol_fault_that_quotes_it() {
    let ((kind, message), _) = single_fault_record("garbage.sh", 15, &[]);
    assert_eq!(kind, "protocol");
    let points = "logs belong on stderr (without a kit, protocol.md section 9 keeps stdout \
                  clean: the referee on fds 3 and 4)";
    assert!(
        message.contains("unknown request `debug: my turn` during jouer")
            && message.ends_with(points),
        "{message}"
    );
    let (_, said) = play_said([&fixture("garbage.sh"), &passive(), &passive()], 15, &[]);
    assert!(said.contains(points), "referee match says:\n{said}");
}

/// Every game's unknown request (a debug line on stdout) points to the section of that
/// game's protocol document that lists its requests, as the 2009 game's points to
/// protocol.md, then says where logs go: in what `referee match` prints and in the record.
#[test]
fn every_game_s_unknown_request_points_to_its_protocol_document() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let games: [(&str, &[&str], &str, &[&str]); 3] = [
        (
            "amazons",
            &["random"],
            "protocol-amazons.md section 3",
            &["## 3. Requests"],
        ),
        (
            "ticket-to-ride",
            &["random", "--option", "board=small"],
            "protocol-ticket-to-ride.md sections 3 and 4",
            &["## 3. Moves", "## 4. Questions"],
        ),
        (
            "little-town",
            &["random"],
            "protocol-little-town.md section 3",
            &["## 3. Requests"],
        ),
    ];
    for (game, others, points, sections) in games {
        let doc = points.split(' ').next().unwrap();
        let text = std::fs::read_to_string(repository.join(doc)).unwrap();
        for section in sections {
            assert!(text.contains(section), "{doc} has no `{section}`");
        }
        let dir = common::fresh_dir("match", game);
        let out = dir.display().to_string();
        let garbage = fixture("garbage.sh");
        let mut args = vec!["--game", game, "match", &garbage];
        args.extend(others);
        args.extend(["--seed", "3", "--out", &out]);
        let output = referee(&args);
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{game}: {said}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let record: Value =
            serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
        let message = faults(&record, 0)
            .into_iter()
            .map(|(_, message)| message)
            .next()
            .unwrap_or_else(|| panic!("{game}: no fault of seat 0: {said}"));
        let expected = format!("({points}); {}", jail::fault::LOGS_ON_STDERR);
        assert!(
            message.starts_with("unknown request `debug: my turn` during jouer")
                && message.ends_with(&expected),
            "{game}: {message}"
        );
        assert!(
            said.contains(&expected),
            "{game}: referee match says:\n{said}"
        );
    }
}

/// The way out that protocol.md's section 9 shows, taken from the document itself: the
/// shell champion that moves the referee's pipes to fds 3 and 4 and points its stdout at
/// stderr prints a debug line on stdout in every callback and plays a whole match without
/// a fault, the lines in its log.
#[test]
fn the_clean_stdout_champion_of_protocol_md_prints_on_stdout_without_a_fault() {
    let (path, _) = doc_champion("exec 3<&0 4>&1 </dev/null >&2\n", "clean-stdout");
    let (record, said) = play_said([&path, &passive(), &passive()], 62, &[]);
    assert_completed(&record);
    assert!(faults(&record, 0).is_empty(), "{said}");
    // The log of seat 0, where `referee match` says it is.
    let log = said
        .lines()
        .find_map(|l| l.strip_prefix("stderr: "))
        .and_then(|l| l.split(" (").next())
        .unwrap_or_else(|| panic!("no `stderr:` line:\n{said}"));
    let log = std::fs::read_to_string(log).unwrap();
    for callback in ["init_game", "jouer", "enchere", "end_game"] {
        let line = format!("debug: {callback}, on stdout, in the log");
        assert!(log.contains(&line), "the log lacks `{line}`:\n{log}");
    }
}

#[test]
fn an_endless_line_is_a_protocol_fault() {
    let (kind, message) = single_fault("endless.py", 16, &[]);
    assert_eq!(kind, "protocol", "{message}");
}

#[test]
fn exiting_in_a_callback_is_a_crash_with_its_status() {
    let (kind, message) = single_fault("quit.sh", 17, &[]);
    assert_eq!(kind, "crash");
    assert!(
        message.contains('3'),
        "the exit status is in the message: {message}"
    );
}

/// What `match` prints of a crash names its callback and turn, and says in words what the
/// champion did not do (end its callback), not the protocol's "waited for a line".
#[test]
fn a_crash_s_summary_names_its_callback_and_turn() {
    let (record, said) = play_said([&fixture("quit.sh"), &passive(), &passive()], 61, &[]);
    assert_eq!(faults(&record, 0)[0].0, "crash");
    assert!(
        said.contains(
            "crash: in jouer of turn 1 phase I: ended (exit 3) before ending its callback \
             (no `fin`)"
        ),
        "{said}"
    );
    assert!(
        said.contains("crash of seat 0 (quit.sh) in jouer of turn 1 phase I: "),
        "{said}"
    );
    assert!(!said.contains("waited for a line"), "{said}");
}

/// A timeout in a loop (the same house asked for again and again, each refused): `match`
/// names the callback and turn and what the champion was doing, and does not suggest a
/// bigger time budget, which would not help.
#[test]
fn a_timeout_in_a_loop_says_what_the_champion_was_doing() {
    let (record, said) = play_said(
        [&fixture("refused_loop.sh"), &passive(), &passive()],
        62,
        &[],
    );
    assert_eq!(faults(&record, 0)[0].0, "timeout");
    let line = said
        .lines()
        .find(|l| l.starts_with("timeout of seat 0 (refused_loop.sh)"))
        .unwrap_or_else(|| panic!("the timeout's line in:\n{said}"));
    let refused = line
        .strip_prefix("timeout of seat 0 (refused_loop.sh) in jouer of turn 1 phase I: ")
        .and_then(|rest| rest.split_once(" refused construire_maison in that callback: "))
        .unwrap_or_else(|| panic!("{line}"));
    let n: u64 = refused.0.replace(',', "").parse().expect("a count");
    assert!(n >= 1000, "{line}");
    assert!(
        refused
            .1
            .starts_with("a loop, not a slow machine; its stderr is "),
        "{line}"
    );
    assert!(!said.contains("--time-scale"), "{said}");
    assert!(
        said.contains("timeout: in jouer of turn 1 phase I: "),
        "the table's row names the callback: {said}"
    );
}

/// A main process that exits while a child of it keeps its stdout open: no end of file
/// says so (without the jail, whose end kills the child, nothing else does), its death
/// does; a crash with its status, not a wall timeout.
#[test]
fn exiting_while_a_child_holds_stdout_is_a_crash_with_its_status() {
    for extra in [&[][..], &["--sandbox", "off"]] {
        let (kind, message) = single_fault("quit_leaving_child.sh", 26, extra);
        assert_eq!(kind, "crash", "{extra:?}: {message}");
        assert!(message.contains("(exit 3)"), "{extra:?}: {message}");
    }
}

#[test]
fn closing_stdout_is_a_crash() {
    let (kind, message) = single_fault("shut.sh", 18, &[]);
    assert_eq!(kind, "crash", "{message}");
}

#[test]
fn output_between_callbacks_is_a_protocol_fault() {
    let (kind, message) = single_fault("chatty.sh", 19, &[]);
    assert_eq!(kind, "protocol");
    assert!(
        message.contains("hello from between callbacks") && message.contains("stderr"),
        "{message}"
    );
}

#[test]
fn a_setsid_grandchild_does_not_outlive_the_match() {
    // `play` asserts that nothing carrying the match's seeds is left, grandchild included.
    let champion = fixture("escape.sh");
    let record = play([&champion, &passive(), &passive()], 20, &[]);
    assert_completed(&record);
    assert!(faults(&record, 0).is_empty(), "{:?}", faults(&record, 0));
}

#[test]
fn a_champion_that_cannot_start_is_a_spawn_fault_and_the_others_play_on() {
    let (kind, message) = single_fault("badshebang.sh", 21, &[]);
    assert_eq!(kind, "spawn", "{message}");
}

#[test]
fn a_missing_champion_is_refused_with_the_fix() {
    let output = referee(&["match", "/no/such/champion", "random", "random"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("/no/such/champion") && stderr.contains("does not exist"),
        "{stderr}"
    );
}

#[test]
fn a_non_executable_champion_is_refused_with_the_fix() {
    let dir = common::fresh_dir("match", "noexec");
    let path = dir.join("champion.sh");
    std::fs::write(&path, "#!/bin/sh\n").unwrap();
    let output = referee(&["match", path.to_str().unwrap(), "random", "random"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("chmod +x"), "{stderr}");
}

#[test]
fn bad_flags_are_refused_naming_the_flag() {
    for (flag, value) in [
        ("--monuments", "0,1,2"),
        ("--first-player", "5"),
        ("--time-scale", "0"),
    ] {
        let output = referee(&["match", "random", "random", "random", flag, value]);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(flag),
            "{flag}"
        );
    }
}

/// A record without its timings, as bytes.
fn without_timings(dir: &Path) -> Vec<u8> {
    let mut record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    record.as_object_mut().unwrap().remove("timings");
    serde_json::to_vec(&record).unwrap()
}

#[test]
fn the_same_seed_gives_byte_identical_records_and_replays() {
    let echo = fixture("echo_state.sh");
    let dirs: Vec<PathBuf> = (0..2)
        .map(|i| common::fresh_dir("match", &format!("determinism{i}")))
        .collect();
    for dir in &dirs {
        let output = referee(&[
            "match",
            &echo,
            "random",
            "greedy",
            "--seed",
            "77",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        // Started by its path, the program is printed as that path.
        let printed = format!("reproduce: {} match", env!("CARGO_BIN_EXE_referee"));
        assert!(stdout.contains(&printed), "{stdout}");
    }
    assert_eq!(without_timings(&dirs[0]), without_timings(&dirs[1]));
    let replay = referee(&["replay", dirs[0].join("record.json").to_str().unwrap()]);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}

/// Runs `referee match random greedy random --seed <seed> --out <out>`.
fn bots_match(seed: u64, out: &Path) -> Output {
    bots_match_with(seed, out, &[])
}

/// [`bots_match`] with `extra` flags.
fn bots_match_with(seed: u64, out: &Path, extra: &[&str]) -> Output {
    let seed = seed.to_string();
    let mut args = vec![
        "match",
        "random",
        "greedy",
        "random",
        "--seed",
        &seed,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    referee(&args)
}

/// Plays `random greedy random --seed <seed>` into a fresh directory; the record's path and
/// its JSON.
fn played_record(name: &str, seed: u64) -> (PathBuf, Value) {
    let dir = common::fresh_dir("match", name);
    let output = bots_match(seed, &dir);
    assert!(output.status.success());
    let path = dir.join("record.json");
    let record = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, record)
}

#[test]
fn a_tampered_record_fails_its_replay() {
    let (path, mut record) = played_record("tampered", 78);
    record["ranking"]["scores"][0] = serde_json::json!(9999);
    std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
    let replay = referee(&["replay", path.to_str().unwrap()]);
    assert_eq!(
        replay.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}

#[test]
fn a_full_log_is_replayed_request_by_request_and_a_tampered_one_fails() {
    use referee::full_log::{Reader, Sink, Writer, FILE};
    let dir = common::fresh_dir("match", "full-log");
    let output = bots_match_with(81, &dir, &["--full-log"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("--full-log"));
    let record = dir.join("record.json");
    let replay = || {
        let out = referee(&["replay", record.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = replay();
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("every one made again from the full log"),
        "{text}"
    );
    // The log holds every request the record counts.
    let log_path = dir.join(FILE);
    let mut entries = Vec::new();
    let mut reader = Reader::open(&log_path).unwrap();
    while let Some(entry) = reader.next_entry().unwrap() {
        entries.push(entry);
    }
    let json: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    let counted: u64 = json["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["requests"].as_u64().unwrap())
        .sum();
    assert_eq!(entries.len() as u64, counted);
    assert_eq!(json["full_log"]["file"], FILE);
    let rewrite = |entries: &[(usize, String, i32)]| {
        // A log is always created new (never written through what is there); the last
        // rewrite follows the log's removal.
        if log_path.exists() {
            std::fs::remove_file(&log_path).unwrap();
        }
        let mut writer = Writer::create(&log_path, referee::full_log::DEFAULT_CAP_MIB).unwrap();
        for (index, line, answer) in entries {
            writer.request(*index, line, *answer);
        }
        writer.finish().unwrap();
    };
    // An information request's answer changed: the actions alone would not see it.
    let info = entries
        .iter()
        .position(|(_, line, _)| !line.starts_with("construire") && line != "etat")
        .expect("the bots ask questions");
    let mut tampered = entries.clone();
    tampered[info].2 += 1;
    rewrite(&tampered);
    let (code, text) = replay();
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(&format!("request `{}` is answered", entries[info].1)),
        "{text}"
    );
    // A request dropped.
    let mut dropped = entries.clone();
    dropped.remove(info);
    rewrite(&dropped);
    let (code, text) = replay();
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("the full log holds") && text.contains("of its"),
        "{text}"
    );
    // The log gone: named, with its cause.
    std::fs::remove_file(&log_path).unwrap();
    let (code, text) = replay();
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(FILE) && text.contains("--full-log"), "{text}");
    rewrite(&entries);
    assert_eq!(replay().0, Some(0));
}

/// A request spammer's full log stops at its cap (`--full-log-cap`, MiB compressed): the
/// file stays near the cap, the record says where it stopped, the replay checks the log up
/// to there and the actions after, and a record that moves the cut fails its replay.
#[test]
fn a_full_log_stops_at_its_cap_and_the_replay_honours_the_cut() {
    use referee::full_log::FILE;
    let dir = common::fresh_dir("match", "full-log-cap");
    let spammer = fixture("spammer.py");
    let output = referee(&[
        "match",
        &spammer,
        "random",
        "random",
        "--seed",
        "5",
        "--full-log",
        "--full-log-cap",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("--full-log --full-log-cap 1"), "{stdout}");
    let size = std::fs::metadata(dir.join(FILE)).unwrap().len();
    assert!(
        (1 << 20..2 << 20).contains(&size),
        "a log capped at 1 MiB holds {size} bytes"
    );
    let path = dir.join("record.json");
    let original: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(original["full_log"]["cap_mib"], 1);
    let cut = &original["full_log"]["cut"];
    let (callback, kept) = (
        cut["callback"].as_u64().unwrap(),
        cut["requests"].as_u64().unwrap(),
    );
    let spammed = &original["callbacks"][callback as usize];
    assert_eq!(
        spammed["seat"], 0,
        "the spammer's callback is where the log stops"
    );
    assert!(kept < spammed["requests"].as_u64().unwrap());
    let replay_of = |record: &Value| {
        std::fs::write(&path, serde_json::to_vec(record).unwrap()).unwrap();
        let out = referee(&["replay", path.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = replay_of(&original);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "up to callback #{callback}, after {kept} of its requests"
        )),
        "{text}"
    );
    // The cut moved by one request, or to another callback: the log does not agree.
    for (field, delta) in [("requests", 1i64), ("requests", -1), ("callback", 1)] {
        let mut moved = original.clone();
        let value = moved["full_log"]["cut"][field].as_i64().unwrap() + delta;
        moved["full_log"]["cut"][field] = serde_json::json!(value);
        let (code, text) = replay_of(&moved);
        assert_eq!(code, Some(3), "{field} {delta:+}: {text}");
    }
    // No cut at all: the log lacks the requests after it.
    let mut uncut = original.clone();
    uncut["full_log"].as_object_mut().unwrap().remove("cut");
    let (code, text) = replay_of(&uncut);
    assert_eq!(code, Some(3), "{text}");
    assert_eq!(replay_of(&original).0, Some(0));
}

#[test]
fn a_record_whose_seat_stops_without_a_fault_fails_its_replay() {
    let (path, original) = played_record("truncated", 79);
    let replay_of = |record: &Value| {
        std::fs::write(&path, serde_json::to_vec(record).unwrap()).unwrap();
        let replay = referee(&["replay", path.to_str().unwrap()]);
        (
            replay.status.code(),
            String::from_utf8_lossy(&replay.stderr).into_owned(),
        )
    };
    // Seat 1's callbacks from the tenth on removed (with their timings): the game itself
    // cannot tell (a stopped seat plays no more), the missing fault does.
    let mut cut = original.clone();
    let (mut callbacks, mut timings, mut seen) = (Vec::new(), Vec::new(), 0);
    let pairs = original["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .zip(original["timings"].as_array().unwrap());
    for (c, t) in pairs {
        if c["seat"] == 1 {
            seen += 1;
            if seen >= 10 {
                continue;
            }
        }
        callbacks.push(c.clone());
        timings.push(t.clone());
    }
    cut["callbacks"] = Value::Array(callbacks);
    cut["timings"] = Value::Array(timings);
    let (code, stderr) = replay_of(&cut);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("no fault stopped it"), "{stderr}");
    // Timings that do not match the callbacks.
    let mut short = original.clone();
    short["timings"].as_array_mut().unwrap().pop();
    let (code, stderr) = replay_of(&short);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("timings for"), "{stderr}");
    // The untouched record replays.
    let (code, stderr) = replay_of(&original);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn the_2009_reference_setup_is_reproduced() {
    let order = "0,1,2,3,4,5,6,7,8,9,10,11,12,13";
    let record = play(
        [&passive(), &passive(), &passive()],
        22,
        &["--monuments", order, "--first-player", "2"],
    );
    // Kept as the options the match was played with, in the reproduce command's words.
    let order: Vec<String> = (0..14).map(|id: u8| id.to_string()).collect();
    assert_eq!(record["options"]["monuments"], order.join("-"));
    assert_eq!(record["options"]["first-player"], "2");
}

#[test]
fn ctrl_c_during_a_match_kills_every_champion_and_what_it_started() {
    let spawner = fixture("spawner.sh");
    let dir = common::fresh_dir("match", "interrupted");
    let child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "match",
            &spawner,
            &spawner,
            "random",
            "--seed",
            "23",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_until(
        "the grandchild never started",
        Duration::from_secs(30),
        || running("match-spawner-grandchild"),
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::wait_until(
        "a champion's process outlived the interrupted referee",
        Duration::from_secs(5),
        || !(running("match-spawner-grandchild") || running(&spawner)),
    );
    // Killed by the referee, the champions did not crash: the match has no record.
    assert!(
        !dir.join("record.json").exists(),
        "an interrupted match left a record of three crashes"
    );
}

#[test]
fn the_printed_reproduce_command_plays_the_same_match() {
    let first = common::fresh_dir("match", "reproduce-a");
    let echo = fixture("echo_state.sh");
    let output = referee(&[
        "match",
        &echo,
        "random",
        "greedy",
        "--seed",
        "79",
        "--call-cpu",
        "0.5",
        "--memory",
        "512",
        "--first-player",
        "1",
        "--out",
        first.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let command = stdout
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: "))
        .expect("a reproduce line");
    for flag in [
        "--seed 79",
        "--call-cpu 0.5",
        "--memory 512",
        "--option 'first-player=1'",
    ] {
        assert!(command.contains(flag), "{command}");
    }
    // Pasted into a shell, as a person would.
    let second = common::fresh_dir("match", "reproduce-b");
    let pasted = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} --out \"$1\""))
        .arg("sh")
        .arg(&second)
        .output()
        .unwrap();
    assert!(
        pasted.status.success(),
        "{}",
        String::from_utf8_lossy(&pasted.stderr)
    );
    assert_eq!(without_timings(&first), without_timings(&second));
}

#[test]
fn a_full_disk_is_named_with_its_path_and_the_fix() {
    // SAFETY: no arguments.
    if unsafe { nix::libc::geteuid() } != 0 {
        common::skip_by_design(
            "match_faults: a full disk: mounting a small tmpfs to fill needs root (scripts/test.sh \
             runs it as root)",
        );
        return;
    }
    let dir = common::fresh_dir("match", "full-disk");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(mounted.success(), "mount failed");
    // Filled to the last byte but for room for the output folder itself.
    let out = dir.join("m");
    std::fs::create_dir(&out).unwrap();
    let mut filler = std::fs::File::create(dir.join("filler")).unwrap();
    let block = vec![0u8; 4096];
    while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    drop(filler);
    let output = bots_match(3, &out);
    let _ = Command::new("umount").arg(&dir).status();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(out.to_str().unwrap()) && stderr.contains("that disk is full"),
        "{stderr}"
    );
}

/// A device or a FIFO given as a record is refused at once, not read without end.
#[test]
fn a_record_that_is_not_a_regular_file_is_refused() {
    for command in ["show", "replay"] {
        let out = referee(&[command, "/dev/zero"]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {said}");
        assert!(said.contains("not a regular file"), "{command}: {said}");
    }
}

/// A champion whose file name starts with `-` is given after `--`, and the reproduce
/// command printed for it plays the same match when pasted.
#[test]
fn a_reproduce_command_pastes_back_with_a_champion_named_like_a_flag() {
    let dir = common::fresh_dir("match", "dash");
    std::fs::copy(common::passive(), dir.join("-dash")).unwrap();
    let run = |command: &str| {
        let bin = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
        Command::new("bash")
            .arg("-c")
            .arg(command)
            .current_dir(&dir)
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .output()
            .unwrap()
    };
    let first = run("referee match --seed 3 --sandbox off --out first -- -dash random greedy");
    let said = String::from_utf8_lossy(&first.stdout).into_owned();
    assert!(
        first.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let command = said
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: "))
        .expect("a reproduce line");
    assert!(command.ends_with(" -- -dash random greedy"), "{command}");
    let again = run(&command.replacen(" match ", " match --out second ", 1));
    assert!(
        again.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        without_timings(&dir.join("first")),
        without_timings(&dir.join("second"))
    );
}

/// `referee bot`: a name that is no built-in champion, or input that breaks protocol.md,
/// is a usage error (exit 2) that names what is wrong.
#[test]
fn a_built_in_champion_misused_exits_2_naming_the_problem() {
    let unknown = referee(&["bot", "nosuch"]);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("`nosuch`") && stderr.contains("random, greedy"),
        "{stderr}"
    );
    let broken = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["bot", "random"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    broken
        .stdin
        .as_ref()
        .unwrap()
        .write_all(b"no_such_callback\n")
        .unwrap();
    let out = broken.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`no_such_callback`"), "{stderr}");
}

/// A champion that floods its record with refused actions (`refusal_flood.py`: 5 `jouer`
/// of 20,000 refused houses each) makes a record bounded by what the game can change:
/// each flooded callback keeps its first refused actions with their arguments and counts
/// the others by function and answer; the record (with its full log) replays; the timeline
/// counts them all; a count edited past the callback's requests, or a kept refusal taken
/// away, fails the replay.
#[test]
fn a_flood_of_refused_actions_is_counted_not_kept() {
    let dir = common::fresh_dir("match", "refusal-flood");
    let output = referee(&[
        "match",
        &fixture("refusal_flood.py"),
        &passive(),
        &passive(),
        "--seed",
        "71",
        "--first-player",
        "0",
        "--full-log",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}{}",
        common::text(&output.stdout),
        common::text(&output.stderr)
    );
    let path = dir.join("record.json");
    let size = std::fs::metadata(&path).unwrap().len();
    // 100,000 refused actions kept would be megabytes; the match itself is tens of KiB.
    assert!(size < 256 << 10, "a record of {size} bytes");
    let original: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_no_process_left(&original);
    assert_eq!(original["schema"], arena::GAME_RECORD_SCHEMA);
    let flooded: Vec<usize> = original["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.get("refused").is_some())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(flooded.len(), 5, "five flooded callbacks");
    for &i in &flooded {
        let entry = &original["callbacks"][i];
        assert_eq!(
            (&entry["seat"], &entry["callback"]),
            (&0.into(), &"jouer".into())
        );
        for key in entry["refused"].as_object().unwrap().keys() {
            assert!(key.starts_with("construire_maison -"), "{key}");
        }
        assert_eq!(
            kept_and_counted(entry),
            (arena::REFUSALS_KEPT, 20_000 - arena::REFUSALS_KEPT as u64),
            "{entry}"
        );
        // The refusals and `fin`.
        assert_eq!(entry["requests"], 20_001, "{entry}");
    }
    let record = common::loi::load(&path);
    let timeline = common::loi::timeline(&record);
    let refused: u64 = timeline
        .steps
        .iter()
        .flat_map(|s| {
            let listed = s
                .actions
                .iter()
                .filter(|a| a.code < 0)
                .map(|a| u64::from(a.count));
            listed.chain(s.refused.iter().map(|r| r.2))
        })
        .sum();
    assert_eq!(refused, 100_000, "the timeline counts every refusal");
    let replay_of = |record: &Value| {
        std::fs::write(&path, serde_json::to_vec(record).unwrap()).unwrap();
        let out = referee(&["replay", path.to_str().unwrap()]);
        (
            out.status.code(),
            common::text(&out.stdout) + &common::text(&out.stderr),
        )
    };
    let (code, text) = replay_of(&original);
    assert_eq!(code, Some(0), "{text}");
    let first = flooded[0];
    let key = original["callbacks"][first]["refused"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let mut more = original.clone();
    let n = more["callbacks"][first]["refused"][&key].as_u64().unwrap();
    more["callbacks"][first]["refused"][&key] = (n + 1).into();
    let (code, text) = replay_of(&more);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("more than its 20001 requests"), "{text}");
    // Red team 14: a count moved to a function or a code the game never refuses with.
    for invented in [
        "vole_la_banque -99",
        "construire_maison -99",
        "numero_tour -2",
        "fin -2",
        // Codes of the API that these actions never give (off the map for a bid, short of
        // money for a sale, a blocked cell for a destroyed house).
        "encherir -12",
        "vendre_maison -4",
        "detruire_maison -5",
    ] {
        let mut renamed = original.clone();
        let refused = renamed["callbacks"][first]["refused"]
            .as_object_mut()
            .unwrap();
        let n = refused.remove(&key).unwrap();
        refused.insert(invented.to_string(), n);
        let (code, text) = replay_of(&renamed);
        assert_eq!(code, Some(3), "{invented}: {text}");
        assert!(text.contains("not an action of the game refused"), "{text}");
    }
    // What a count cannot prove, `replay` says.
    let (_, text) = replay_of(&original);
    assert!(text.contains("refused actions only counted"), "{text}");
    let mut fewer = original.clone();
    let steps = fewer["callbacks"][first]["steps"].as_array_mut().unwrap();
    let at = steps
        .iter()
        .position(|s| s["act"]["answer"].get("Err").is_some())
        .unwrap();
    steps.remove(at);
    let (code, text) = replay_of(&fewer);
    assert_eq!(code, Some(3), "{text}");
    assert_eq!(replay_of(&original).0, Some(0));
}

/// The refused actions a callback of an arena record (as JSON) keeps with their arguments,
/// and those it only counts (past `arena::REFUSALS_KEPT`).
pub(crate) fn kept_and_counted(entry: &serde_json::Value) -> (usize, u64) {
    let kept = entry["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["act"]["answer"].get("Err").is_some())
        .count();
    let counted = entry["refused"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    (kept, counted)
}
