//! Someone who can write a run's results folder but not read the organiser's key (issue 26,
//! round 3, the red team's F1-F5 and F9), through the binary, as root and as a user: files
//! the referee reads put there in place of its own. A FIFO where a shard keeps its lock or
//! in place of `progress.json` is refused at once, naming it, never waited on; a link in
//! place of `progress.json` is not followed; sparse files of gigabytes in place of
//! `matches.csv`, a record, a seal or `tournament.json` are refused before they are read,
//! naming the file, its size and the bound, and a refused merge writes nothing; a gzip bomb
//! as a 2009 match's full log is refused at the first request past the record's count; a
//! `matches.csv` swapped during `merge` changes nothing (it is read once); a replay page
//! planted in a shard is made again from its record by `merge --html`. The attackers are
//! the files of `tests/fixtures/results/`: files only, no referee code.

use crate::common;

use common::users::Who;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// How long a command that used to wait for ever may take before the test calls it stuck:
/// far above the second it takes.
const STUCK: Duration = Duration::from_secs(120);

/// The referee with `args`, as `who`.
fn referee(who: Who, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command.args(args).stdin(Stdio::null());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// `referee --game amazons tournament random mobility` (4 matches, 2 a shard) as shard
/// `shard` (`1/2`) into `dir/results/t`, with `extra` flags.
fn shard(who: Who, dir: &Path, shard: &str, extra: &[&str]) -> Command {
    let results = dir.join("results");
    let mut args = vec!["--game", "amazons", "tournament"];
    if !extra.contains(&"--resume") {
        args.extend(["random", "mobility"]);
    }
    let mut command = referee(who, &args);
    command
        .args(["--name", "t", "--seed", "7", "--rounds", "4", "--jobs", "1"])
        .arg("--key")
        .arg(dir.join("key"))
        .args(["--shard", shard, "--results"])
        .arg(&results)
        .args(extra);
    command
}

/// Both shards of `t`, played; returns `dir/results/t`.
fn shards(who: Who, dir: &Path) -> PathBuf {
    for s in ["1/2", "2/2"] {
        common::succeeded(&common::output(shard(who, dir, s, &[])));
    }
    dir.join("results/t")
}

/// `referee merge` of `t`'s shards into `dir/out`, with `extra` flags.
fn merge(who: Who, dir: &Path, t: &Path, extra: &[&str]) -> Command {
    let mut command = referee(who, &["--game", "amazons", "merge"]);
    command
        .arg("--key")
        .arg(dir.join("key"))
        .arg(t.join("shard-1-of-2"))
        .arg(t.join("shard-2-of-2"))
        .arg("--out")
        .arg(dir.join("out"))
        .args(extra);
    command
}

/// Runs the attacker `name` of `tests/fixtures/results` with `args`, as `who`.
fn attack(who: Who, name: &str, args: &[&dyn AsRef<std::ffi::OsStr>]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(name);
    let mut command = Command::new(&script);
    for arg in args {
        command.arg(arg);
    }
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid);
    }
    common::run_ok(command);
}

/// Runs `command` to its end, failing the test if it is still running after [`STUCK`]
/// (then killed): what the attack made it do before.
fn unstuck(mut command: Command, what: &str) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the referee runs");
    // Read in threads: a full pipe would hold the referee.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).unwrap();
        v
    });
    let stderr = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).unwrap();
        v
    });
    let status = common::wait_timeout(&mut child, STUCK);
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let status = status.unwrap_or_else(|| {
        panic!(
            "{what} was still running after {STUCK:?} (killed): the attack made it wait:\n{}",
            common::text(&stderr)
        )
    });
    Output {
        status,
        stdout,
        stderr,
    }
}

/// Asserts that `out` is a refusal (exit 2) whose message holds each of `words`.
fn refused(out: &Output, what: &str, words: &[&str]) {
    let stderr = common::text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{what}: not refused as bad input:\n{stderr}"
    );
    for word in words {
        assert!(stderr.contains(word), "{what}: `{word}` not in:\n{stderr}");
    }
}

/// The names in `folder`, sorted (none if it does not exist).
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// F1: a FIFO where shard 1/2 keeps its lock: `--resume` refuses it at once, naming it
/// and saying what to do, and resumes once it is removed.
#[test]
fn a_fifo_in_place_of_a_shard_s_lock_is_refused_not_waited_on() {
    common::users::each_run_in("results_files", "lock_fifo", |who, dir| {
        let t = shards(who, dir);
        attack(who, "lock_fifo.sh", &[&t, &"1", &"2"]);
        let out = unstuck(shard(who, dir, "1/2", &["--resume"]), "--resume");
        let lock = t.join(".shard-1-of-2.lock");
        refused(
            &out,
            "--resume",
            &[
                &format!("{} is not a regular file", lock.display()),
                "remove it and run again",
            ],
        );
        std::fs::remove_file(&lock).unwrap();
        common::succeeded(&common::output(shard(who, dir, "1/2", &["--resume"])));
    });
}

/// F9: a FIFO in place of a shard's `progress.json`: `referee status` refuses it at once,
/// naming it; a link in its place to a file of the referee's user is not followed.
#[test]
fn status_refuses_a_fifo_or_a_link_as_progress_json() {
    common::users::each_run_in("results_files", "progress", |who, dir| {
        let t = shards(who, dir);
        let shard = t.join("shard-2-of-2");
        let progress = shard.join("progress.json");
        let status = || referee(who, &["status", t.to_str().unwrap()]);
        common::succeeded(&common::output(status()));
        attack(who, "progress_swap.sh", &[&shard, &"fifo"]);
        let out = unstuck(status(), "status");
        refused(
            &out,
            "status (FIFO)",
            &[&format!("{} is not a regular file", progress.display())],
        );
        // A progress file of the referee's user elsewhere, that the link names.
        let elsewhere = dir.join("elsewhere.json");
        std::fs::copy(t.join("shard-1-of-2/progress.json"), &elsewhere).unwrap();
        attack(who, "progress_swap.sh", &[&shard, &"link", &elsewhere]);
        let out = unstuck(status(), "status");
        refused(
            &out,
            "status (link)",
            &[&format!("{} is a symbolic link", progress.display())],
        );
    });
}

/// F2: sparse files of 2 GiB in place of a shard's `matches.csv` (one line without a
/// newline), a match's record, its seal, and `tournament.json`: `merge` refuses each before
/// reading it, naming the file, its size and the bound, and writes nothing; `status`
/// refuses the `matches.csv` the same way. No referee grows past a fraction of the file.
#[test]
fn sparse_files_of_gigabytes_are_refused_before_they_are_read() {
    common::users::each_run_in("results_files", "sparse", |who, dir| {
        let t = shards(who, dir);
        let shard = t.join("shard-1-of-2");
        let cases = [
            ("matches.csv", "a matches.csv"),
            ("matches/0/record.json", "a match record"),
            ("matches/0/mac", "a match's seal"),
            ("tournament.json", "a run's description"),
        ];
        for (file, kind) in cases {
            let path = shard.join(file);
            let genuine = dir.join("genuine");
            std::fs::copy(&path, &genuine).unwrap();
            attack(who, "sparse.sh", &[&path, &"2G"]);
            let out = unstuck(merge(who, dir, &t, &[]), "merge");
            refused(
                &out,
                &format!("merge ({file})"),
                &[&format!(
                    "{} is 2.0 GiB (2147483648 bytes), more than {kind} may be",
                    path.display()
                )],
            );
            assert_eq!(names(&dir.join("out")), Vec::<String>::new(), "{file}");
            if file == "matches.csv" {
                let out = unstuck(referee(who, &["status", t.to_str().unwrap()]), "status");
                refused(&out, "status", &[&format!("{} is 2.0 GiB", path.display())]);
            }
            std::fs::rename(&genuine, &path).unwrap();
        }
        common::succeeded(&common::output(merge(who, dir, &t, &[])));
    });
    // The most any referee of this test held: far below a file read whole.
    let mut usage = std::mem::MaybeUninit::<nix::libc::rusage>::zeroed();
    // SAFETY: a valid pointer to a rusage.
    let usage = unsafe {
        assert_eq!(
            nix::libc::getrusage(nix::libc::RUSAGE_CHILDREN, usage.as_mut_ptr()),
            0
        );
        usage.assume_init()
    };
    assert!(
        usage.ru_maxrss < 1 << 20,
        "a child held {} KiB: a file was read whole",
        usage.ru_maxrss
    );
}

/// F4: shard 1's `matches.csv` swapped for one missing its last row right after `merge`
/// checked it (the test's hook, `REFEREE_TEST_AFTER_CHECK`, runs the attacker then): the
/// merge writes the rows it checked, all four matches, never three.
#[test]
fn a_matches_csv_swapped_during_merge_changes_nothing() {
    common::users::each_run_in("results_files", "swap_short", |who, dir| {
        let t = shards(who, dir);
        let csv = t.join("shard-1-of-2/matches.csv");
        let text = std::fs::read_to_string(&csv).unwrap();
        let short = dir.join("short.csv");
        let lines: Vec<&str> = text.lines().collect();
        std::fs::write(&short, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
        common::chmod(&short, 0o644);
        let hook =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results/swap_short.sh");
        let mut command = merge(who, dir, &t, &[]);
        command
            .env("REFEREE_TEST_AFTER_CHECK", &hook)
            .env("SHORT", &short);
        let out = common::output(command);
        common::succeeded(&out);
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            std::fs::read_to_string(&short).unwrap(),
            "the hook did not swap the file"
        );
        let merged = common::tables::untimed(&dir.join("out/matches.csv"));
        assert_eq!(merged.len(), 4, "merged: {merged:?}");
        let stderr = common::text(&out.stderr);
        assert!(stderr.contains("merged 4 matches"), "{stderr}");
    });
}

/// F5: a replay page planted in a shard's match folder (forged text, a script of its own,
/// a forged fault in its links): `merge --html` writes that match's page again from its
/// record, and the index shows no forged fault.
#[test]
fn merge_html_makes_replay_pages_again_from_their_records() {
    common::users::each_run_in("results_files", "plant_replay", |who, dir| {
        let t = shards(who, dir);
        let shard = t.join("shard-1-of-2");
        attack(who, "plant_replay.sh", &[&shard, &"0"]);
        common::succeeded(&common::output(merge(who, dir, &t, &["--html"])));
        let page = std::fs::read_to_string(shard.join("matches/0/replay.html")).unwrap();
        assert!(
            !page.contains("FORGED") && !page.contains("document.title=\"forged\""),
            "the planted page was kept"
        );
        assert!(page.contains("id=\"match-nav\""), "no links in the page");
        let index = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
        assert!(
            !index.contains("FORGED"),
            "the index shows the forged fault"
        );
    });
}

/// F3: a gzip bomb (64 MiB of requests, compressed to about 64 KiB) in place of a 2009
/// match's full log: `replay` and `--resume` refuse it at the first request past the
/// record's count of the callback, naming it, without reading the rest.
#[test]
fn a_gzip_bomb_as_a_full_log_is_refused_at_the_record_s_count() {
    common::users::each_run_in("results_files", "fulllog_bomb", |who, dir| {
        let tournament = |extra: &[&str]| {
            let mut command = referee(who, &["tournament"]);
            if !extra.contains(&"--resume") {
                command.args(["random", "greedy", &common::shell_champion("passive.sh")]);
            }
            command
                .args([
                    "--name", "t", "--seed", "26", "--rounds", "1", "--jobs", "1",
                ])
                .args(["--time-scale", "2", "--full-log", "--key"])
                .arg(dir.join("key"))
                .arg("--results")
                .arg(dir.join("results"))
                .args(extra);
            command
        };
        common::succeeded(&common::output(tournament(&[])));
        let record = dir.join("results/t/matches/0/record.json");
        let log = record.with_file_name("requests.log.gz");
        attack(who, "fulllog_bomb.py", &[&log, &"64"]);
        let words = ["callback 1", "the full log holds more than its"];
        let out = unstuck(
            referee(who, &["replay", record.to_str().unwrap()]),
            "replay",
        );
        let stderr = common::text(&out.stderr);
        assert!(!out.status.success(), "replay took the bomb:\n{stderr}");
        for word in words {
            assert!(stderr.contains(word), "replay: `{word}` not in:\n{stderr}");
        }
        let out = unstuck(tournament(&["--resume"]), "--resume");
        refused(&out, "--resume", &words);
    });
}
