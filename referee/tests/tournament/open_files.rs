//! The referee's own open files (`RLIMIT_NOFILE`, soft and hard) too few for what it is
//! asked: a tournament's `--jobs` past them, a match whose seats cannot all start. Each is
//! the operator's to fix (exit 2 naming the limit and the fix), refused before anyone is
//! started or anything written, never a champion's fault; the command with the fix plays.

use crate::common;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `referee ARGS` under a limit of `files` open files (soft and hard: nothing to raise).
fn with_files(files: u64, args: &[&str], results: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .args(args)
        .arg(results)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing is allocated in the child.
    unsafe {
        command.pre_exec(move || {
            use nix::sys::resource::{setrlimit, Resource};
            setrlimit(Resource::RLIMIT_NOFILE, files, files).map_err(std::io::Error::from)
        });
    }
    command.output().unwrap()
}

#[test]
fn more_jobs_than_the_open_files_hold_are_refused_before_anything_is_written() {
    let dir = common::fresh_dir("open-files", "jobs");
    let results = dir.join("results");
    let passive = common::passive();
    let cup = |jobs: &str| {
        let args = [
            "tournament",
            "random",
            "greedy",
            &passive,
            "--rounds",
            "4",
            "--seed",
            "3",
            "--name",
            "cup",
            "--jobs",
            jobs,
            "--results",
        ];
        with_files(200, &args, &results)
    };
    // 4 matches of 3 seats at once need 4 x 3 x 16 + 64 = 256 open files.
    let out = cup("4");
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for needle in [
        "--jobs 4: 4 matches of 3 seats at once need at least 256 open files",
        "the referee may open 200",
        "give at most --jobs 2",
    ] {
        assert!(stderr.contains(needle), "expected `{needle}` in: {stderr}");
    }
    assert!(
        !stderr.contains("pre-run check"),
        "no one started: {stderr}"
    );
    assert!(!results.join("cup").exists(), "nothing written");
    // More jobs than matches hold only the matches' files: 64 jobs for 4 matches ask 256.
    let out = cup("64");
    assert!(
        common::text(&out.stderr).contains("--jobs 64: 4 matches of 3 seats"),
        "{}",
        common::text(&out.stderr)
    );
    // The fix the refusal names plays the tournament, no champion at fault.
    let out = cup("2");
    let stderr = common::text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let rows = std::fs::read_to_string(results.join("cup/matches.csv")).unwrap();
    assert_eq!(rows.lines().count(), 5, "a header and 4 rows: {rows}");
    assert!(!rows.contains("spawn"), "{rows}");
}

#[test]
fn a_match_whose_seats_cannot_all_start_is_the_operator_s_to_fix() {
    let dir = common::fresh_dir("open-files", "match");
    let passive = common::passive();
    let args = [
        "match", "random", "greedy", &passive, "--seed", "1", "--out",
    ];
    // The limits at which the third seat's start failed (`EMFILE`), a spawn fault of a
    // champion, the match counted (35 as root, 40 as a user).
    for files in [35, 40, 45] {
        let out_dir = dir.join(format!("m{files}"));
        let out = with_files(files, &args, &out_dir);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{files}: {stderr}");
        for needle in [
            "a match of 3 seats needs at least 112 open files".to_string(),
            format!("the referee may open {files} (RLIMIT_NOFILE"),
            "ulimit -n 112".to_string(),
        ] {
            assert!(stderr.contains(&needle), "expected `{needle}` in: {stderr}");
        }
        assert!(!out_dir.join("record.json").exists(), "{files}: no record");
    }
    let out_dir = dir.join("m112");
    let out = with_files(112, &args, &out_dir);
    let stdout = common::text(&out.stdout);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(!stdout.contains("spawn"), "every seat started: {stdout}");
}
