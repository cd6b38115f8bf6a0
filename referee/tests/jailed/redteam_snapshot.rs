//! Red-team tests of a run's snapshots and of a champion's identity (issue 26, round 3),
//! through the binary, as root and as a user: a contestant who swaps its folder for a link
//! to the organiser's files right after the roster checked it gets nothing of them copied
//! into the results; a file its owner may not read is never copied (as root); an outsider
//! who can write the results and swaps a snapshot's program right after a resume checked it
//! stops the run instead of having the fake played and sealed; a single-file champion of
//! gigabytes is refused without being read into memory. The message of an attack that
//! works says `THE ATTACK WORKED`.
//!
//! Fixtures: `tests/fixtures/redteam/snap_swap.c`, `after_reads.c` (built with `cc`) and
//! `outsider.sh`.

use crate::common;

use common::users::Who;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn each_run(test: &str, body: impl Fn(Who, &Path)) {
    common::users::each_run_in("redteam_snapshot", test, body);
}

use common::chmod;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/redteam")
        .join(name)
}

/// Whether `cc` is here; says why the test cannot run when not.
fn have_cc() -> bool {
    let here = Command::new("cc").arg("--version").output().is_ok();
    if !here {
        common::skip_missing("`cc` builds the attackers of the snapshot (apt install gcc)");
    }
    here
}

/// Builds `tests/fixtures/redteam/<source>` into `dir`.
fn compiled(source: &str, dir: &Path) -> PathBuf {
    let out = dir.join(source.trim_end_matches(".c"));
    let built = Command::new("cc")
        .args(["-O1", "-o"])
        .arg(&out)
        .arg(fixture(source))
        .status()
        .is_ok_and(|s| s.success());
    assert!(built, "compiling {source} failed");
    chmod(&out, 0o755);
    out
}

/// The uid and gid the referee runs as in this pass.
fn ids(who: Who) -> (u32, u32) {
    match who {
        Who::User(uid, gid) => (uid, gid),
        // SAFETY: no arguments.
        _ => unsafe { (nix::libc::geteuid(), nix::libc::getegid()) },
    }
}

/// `referee SUBCOMMAND ARGS` as `who`.
fn referee(who: Who, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// Starts an attacker (as the test's own user) and waits for its `watching` line.
fn start_attacker(mut command: Command) -> Child {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "watching", "the attacker did not start");
    child
}

/// Waits for the attacker to end (killing it after a generous bound); its stderr.
fn finish_attacker(mut child: Child) -> (bool, String) {
    let status = common::wait_timeout(&mut child, Duration::from_secs(30));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status.is_some_and(|s| s.success()), stderr)
}

/// Every file under `dir` whose bytes hold `needle`.
fn files_holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file()
                && std::fs::read(&path).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
            {
                found.push(path);
            }
        }
    }
    found
}

// ---- a champion's folder swapped for a link after its check --------------------------------

/// `snap_swap.c` waits until the roster has read `ops/alpha/champion` twice (its identity
/// and SHA-256), then swaps `ops/alpha` for a link to the organiser's folder (mode 0700, the
/// referee's user's, holding a secret of mode 0600). The roster then hashes `ops/bulk` (256
/// MiB, a window of a good fraction of a second) before the snapshots are taken. The
/// snapshot opens the folder the roster checked, through no link: the run is refused,
/// naming the folder, and nothing of the organiser's is in the results. (The snapshot used
/// to resolve the folder again and copy the secret into the results, read-only for
/// everyone.)
#[test]
fn a_folder_swapped_for_a_link_after_its_check_gets_nothing_copied() {
    if !have_cc() {
        return;
    }
    each_run("swap", |who, dir| {
        let swap = compiled("snap_swap.c", dir);
        let (uid, gid) = ids(who);
        let organiser = dir.join("organiser");
        std::fs::create_dir(&organiser).unwrap();
        std::fs::write(organiser.join("secret"), "ORGANISER SECRET\n").unwrap();
        chmod(&organiser.join("secret"), 0o600);
        chmod(&organiser, 0o700);
        for path in [&organiser, &organiser.join("secret")] {
            std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
        }
        let ops = dir.join("ops");
        for (name, source) in [("alpha", common::passive()), ("bulk", common::passive())] {
            std::fs::create_dir_all(ops.join(name)).unwrap();
            std::fs::copy(source, ops.join(name).join("champion")).unwrap();
            chmod(&ops.join(name).join("champion"), 0o755);
        }
        let bulk = std::fs::File::create(ops.join("bulk/data")).unwrap();
        bulk.set_len(256 << 20).unwrap();
        let attacker = start_attacker({
            let mut c = Command::new(&swap);
            c.arg(ops.join("alpha")).arg(&organiser).arg("2");
            c
        });
        let results = dir.join("results");
        let alpha = ops.join("alpha").display().to_string();
        let bulk = ops.join("bulk").display().to_string();
        let out = common::output(referee(
            who,
            &[
                "tournament",
                &alpha,
                &bulk,
                "random",
                "--seed",
                "1",
                "--time-scale",
                "2",
                "--results",
                results.to_str().unwrap(),
            ],
        ));
        let (swapped, said_attacker) = finish_attacker(attacker);
        let said = common::text(&out.stderr);
        let leaked = files_holding(&results, "ORGANISER SECRET");
        assert!(
            leaked.is_empty(),
            "THE ATTACK WORKED: the organiser's secret was copied into the results: \
             {leaked:?}\n{said}"
        );
        assert!(
            swapped,
            "the attacker did not swap the folder (the test shows nothing): {said_attacker}"
        );
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(
            said.contains("cannot snapshot its files")
                && said.contains(&format!("{alpha} is no longer what the referee checked")),
            "{said}"
        );
    });
}

/// As root the referee reads anything; a file of the contestant's folder that the
/// contestant may not read (here root's, mode 0600, as a hard link would bring where the
/// kernel allows one) is not copied: the run is refused, naming the file, and its bytes
/// are nowhere in the results. (As a user the referee cannot read such a file at all.)
#[test]
fn a_file_the_champions_owner_cannot_read_is_not_copied() {
    each_run("unreadable-by-owner", |who, dir| {
        if who != Who::Root {
            common::skip_by_design(
                "redteam_snapshot unreadable-by-owner: as a user the referee reads only what \
                 it may (the root run covers it)",
            );
            return;
        }
        let (uid, gid) = common::users::test_user();
        let folder = dir.join("mine");
        std::fs::create_dir(&folder).unwrap();
        std::fs::copy(common::passive(), folder.join("champion")).unwrap();
        chmod(&folder.join("champion"), 0o755);
        std::fs::write(folder.join("stolen"), "ROOT ONLY\n").unwrap();
        chmod(&folder.join("stolen"), 0o600);
        for path in [&folder, &folder.join("champion")] {
            std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
        }
        let results = dir.join("results");
        let out = common::output(referee(
            who,
            &[
                "tournament",
                folder.to_str().unwrap(),
                "random",
                "greedy",
                "--seed",
                "1",
                "--time-scale",
                "2",
                "--results",
                results.to_str().unwrap(),
            ],
        ));
        let said = common::text(&out.stderr);
        let leaked = files_holding(&results, "ROOT ONLY");
        assert!(
            leaked.is_empty(),
            "THE ATTACK WORKED: a file its owner cannot read was copied: {leaked:?}\n{said}"
        );
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(
            said.contains(&format!(
                "{} is not readable by the owner of the champion's files",
                folder.join("stolen").display()
            )),
            "{said}"
        );
    });
}

// ---- an outsider swapping a snapshot after the resume checked it ---------------------------

/// The tournament of `slow.sh`, random, greedy and the shell builder (single files), one
/// round, into `results`, as `who`; `--resume` resumes it.
fn tournament(who: Who, results: &Path, dir: &Path, resume: bool) -> Command {
    let slow = dir.join("slow.sh");
    let builder = dir.join("builder.sh");
    let mut args = vec!["tournament".to_string()];
    if resume {
        args.push("--resume".into());
    } else {
        args.extend([slow, builder].map(|p| p.display().to_string()));
        args.extend(["random".into(), "greedy".into()]);
    }
    args.extend(
        [
            "--name",
            "t",
            "--seed",
            "2026",
            "--time-scale",
            "2",
            "--jobs",
            "1",
            "--results",
        ]
        .map(String::from),
    );
    args.push(results.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut command = referee(who, &args);
    // The fake is never what a reproduce command of the suite would play.
    command.env_remove(referee::reproduce_log::VARIABLE);
    command
}

/// `outsider.sh` (run as the referee's user, as a job of the organiser's would be) drops
/// two matches of a tournament killed while they played (its journal beside the key cut
/// there: matches it finished would be refused as deleted), one without the builder and,
/// later, one with it, then waits until the resume has read the builder's snapshot twice (its hash and its
/// SHA-256) and swaps it for a program that exits at once, while the resume plays the
/// first match. Before the builder's match starts its snapshot is hashed again: the run
/// stops (exit 1) naming the file, and no match plays the fake. Once the original is put
/// back, a resume ends with the undisturbed run's results. (The fake used to play the
/// match again, sealed with the real key, and a later resume accepted it all.)
#[test]
fn a_snapshot_swapped_after_the_resume_checked_it_is_never_played() {
    if !have_cc() {
        return;
    }
    each_run("outsider", |who, dir| {
        let after_reads = compiled("after_reads.c", dir);
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(
            repo.join("tests/fixtures/tournament/slow.sh"),
            dir.join("slow.sh"),
        )
        .unwrap();
        std::fs::copy(
            repo.join("../champions/shell/builder.sh"),
            dir.join("builder.sh"),
        )
        .unwrap();
        let results = dir.join("res");
        common::succeeded(&common::output(tournament(who, &results, dir, false)));
        let t = results.join("t");
        let want = common::tables::untimed(&t.join("matches.csv"));
        let with_builder = |row: &common::tables::Row| row.values().any(|v| v == "builder.sh");
        let first = want.iter().find(|r| !with_builder(r)).unwrap()["id"].clone();
        let later = want
            .iter()
            .find(|r| {
                with_builder(r) && r["id"].parse::<u32>().unwrap() > first.parse::<u32>().unwrap()
            })
            .unwrap_or_else(|| panic!("no match of the builder after match {first}: {want:?}"))
            ["id"]
            .clone();
        let snapshot = std::fs::read_dir(t.join("snapshots"))
            .unwrap()
            .flatten()
            .map(|e| e.path().join("builder.sh"))
            .find(|p| p.exists())
            .unwrap();
        let original = std::fs::read(&snapshot).unwrap();
        let key = common::default_key(&t);
        common::tables::cut_journal(&key, &[&first, &later]);

        let outsider = start_attacker({
            let mut c = Command::new(fixture("outsider.sh"));
            c.arg(&after_reads)
                .arg(&t)
                .arg(&snapshot)
                .arg("2")
                .args([&first, &later]);
            if let Who::User(uid, gid) = who {
                c.uid(uid).gid(gid);
            }
            c
        });
        let out = common::output(tournament(who, &results, dir, true));
        let (swapped, said_outsider) = finish_attacker(outsider);
        let said = common::text(&out.stderr);
        let rows = common::tables::untimed(&t.join("matches.csv"));
        let faked = rows.iter().find(|r| r["id"] == later);
        assert!(
            faked.is_none(),
            "THE ATTACK WORKED: match {later} was played again with the fake and kept: \
             {faked:?}\n{said}"
        );
        assert!(
            swapped,
            "the outsider did not swap the snapshot (the test shows nothing): {said_outsider}"
        );
        assert_eq!(out.status.code(), Some(1), "{said}");
        for needle in [
            "champion `builder.sh` cannot be started from its snapshot".to_string(),
            format!(
                "{} changed since the snapshot was checked",
                snapshot.display()
            ),
            "resume with: ".to_string(),
        ] {
            assert!(said.contains(&needle), "expected `{needle}` in: {said}");
        }

        // The outsider puts the original back: the resume plays the real program.
        std::fs::remove_file(&snapshot).unwrap();
        std::fs::write(&snapshot, &original).unwrap();
        chmod(&snapshot, 0o555);
        if let Who::User(uid, gid) = who {
            std::os::unix::fs::chown(&snapshot, Some(uid), Some(gid)).unwrap();
        }
        common::succeeded(&common::output(tournament(who, &results, dir, true)));
        assert_eq!(common::tables::untimed(&t.join("matches.csv")), want);
    });
}

// ---- a single-file champion of gigabytes ------------------------------------------------

/// A single-file champion of 1 GiB (a sparse file: a script followed by a hole) is refused
/// before it is read, naming the file and the bound, and the referee stays small. (Its
/// identity and SHA-256 used to read it whole into memory: 3 GiB took the referee to 3.1
/// GB.)
#[test]
fn a_huge_single_file_champion_is_refused_without_being_read() {
    // The referee's peak memory is measured from its fork of this test process: not while
    // another test of this binary holds gigabytes in it (attack 14's 1.5 GiB).
    let _heavy = common::heavy();
    each_run("huge", |who, dir| {
        let huge = dir.join("huge.sh");
        std::fs::write(&huge, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&huge)
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        chmod(&huge, 0o755);
        let out_dir = dir.join("out");
        let mut command = referee(
            who,
            &[
                "match",
                huge.to_str().unwrap(),
                "random",
                "greedy",
                "--seed",
                "1",
                "--out",
                out_dir.to_str().unwrap(),
            ],
        );
        // A fork of its own, not a spawn sharing this process's memory until its exec (the
        // kernel would count this process's peak, another test's gigabytes, as the
        // child's): the peak measured is the referee's.
        // SAFETY: the closure makes no call between fork and exec.
        unsafe {
            command.pre_exec(|| Ok(()));
        }
        let child = command.spawn().unwrap();
        let (status, stderr, max_rss_kib) = wait_with_usage(child);
        assert!(
            max_rss_kib < 256 << 10,
            "THE ATTACK WORKED: the referee grew to {max_rss_kib} KiB reading the champion\n\
             {stderr}"
        );
        assert_eq!(status, Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{} is larger than 512 MiB (1024 MiB)",
                huge.canonicalize().unwrap().display()
            )),
            "{stderr}"
        );
    });
}

/// Waits for `child` (its stdout and stderr piped) and returns its exit code, its stderr
/// and its peak resident memory in KiB (`wait4`'s usage of that process alone).
fn wait_with_usage(mut child: Child) -> (Option<i32>, String, i64) {
    let mut stderr_pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr_pipe, &mut s).unwrap();
        s
    });
    let mut stdout_pipe = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut stdout_pipe, &mut s).unwrap();
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid, and wait4 fills it for our own child.
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else reaps.
    let pid = unsafe { nix::libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    drain.join().unwrap();
    let stderr = reader.join().unwrap();
    let code = nix::libc::WIFEXITED(status).then(|| nix::libc::WEXITSTATUS(status));
    (code, stderr, usage.ru_maxrss)
}
