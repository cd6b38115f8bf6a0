//! The sandbox layers, end to end through `referee match`, as root and as a user (`nobody`,
//! when the test runs as root; the user running the test otherwise). Champions under
//! `tests/fixtures/sandbox/` try to escape: a TCP connection to a listener on 127.0.0.1,
//! reading another champion's files, writing outside their scratch, signalling the referee,
//! `setsid` and outliving the match, mounts it could write or run setuid programs or
//! device nodes from (the jail's must be read-only, `nosuid`, `nodev`), forking without bound (only where a process-count limit
//! is in force), mapping more memory than allowed (shared anonymous mappings too). Each
//! attempt must fail, the match must complete, and nothing may be left running.

use crate::common;

use common::nobody::{self, Who, NOBODY};
use common::users::is_root;
use common::{assert_no_process_left, passive};
use serde_json::Value;
use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

/// The users to test as.
fn users() -> Vec<Who> {
    nobody::users("sandbox test", "cannot test root's layers nor switch user")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sandbox")
}

/// A champion folder of its own holding the attacker and its list of attacks.
fn attacker(arena: &Path, name: &str, attacks: &[String]) -> PathBuf {
    let dir = arena.join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let program = dir.join("champion");
    fs::copy(fixtures().join("attacker.py"), &program).unwrap();
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(dir.join("attacks"), attacks.join("\n") + "\n").unwrap();
    fs::write(dir.join("secret.txt"), format!("secret of {name}\n")).unwrap();
    dir
}

/// Runs `referee` as `who`.
fn referee(who: Who, args: &[String]) -> Output {
    referee_with(who, args, &[])
}

/// [`referee`] with `env` added to its environment.
fn referee_with(who: Who, args: &[String], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_referee"));
    cmd.args(args).envs(env.iter().copied());
    nobody::run_as(&mut cmd, who)
        .output()
        .expect("the referee runs")
}

/// A completed match: its record, the referee's stderr and the seats' stderr.
struct Played {
    /// The match as its record tells it.
    game: common::loi::Match,
    record: Value,
    referee_stderr: String,
    seat_stderr: [String; 3],
    out: PathBuf,
}

impl Played {
    fn line(&self) -> &str {
        self.record["sandbox"].as_str().unwrap()
    }

    fn faults(&self, seat: u64) -> Vec<String> {
        self.game
            .faults_of(seat as usize)
            .into_iter()
            .map(|f| format!("{}: {}", f.kind, f.message))
            .collect()
    }
}

fn out_dir(arena: &Path, who: Who) -> PathBuf {
    let out = arena.join("results");
    fs::create_dir_all(&out).unwrap();
    if who == Who::Nobody {
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    out
}

fn play(who: Who, arena: &Path, champions: [String; 3], extra: &[&str]) -> Played {
    play_with(who, arena, champions, extra, &[])
}

/// [`play`] with `env` added to the referee's environment.
fn play_with(
    who: Who,
    arena: &Path,
    champions: [String; 3],
    extra: &[&str],
    env: &[(&str, &str)],
) -> Played {
    let out = out_dir(arena, who);
    let mut args: Vec<String> = vec!["match".into()];
    args.extend(champions);
    // A seed of its own: the no-process-left check looks for the seats' seeds, and tests
    // run in parallel.
    static SEED: AtomicU32 = AtomicU32::new(1);
    let seed =
        u64::from(std::process::id()) << 20 | u64::from(SEED.fetch_add(1, Ordering::Relaxed));
    args.extend(["--seed".into(), seed.to_string()]);
    args.extend(["--first-player", "0", "--out"].map(String::from));
    args.push(out.display().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    let output = referee_with(who, &args, env);
    let referee_stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "referee match as {who:?} failed: {}\n{referee_stderr}",
        String::from_utf8_lossy(&output.stdout)
    );
    let record: Value =
        serde_json::from_slice(&fs::read(out.join("record.json")).unwrap()).unwrap();
    let game = common::loi::Match::read(&out);
    assert!(game.completed(), "the match did not complete: {record}");
    let seat_stderr = std::array::from_fn(|i| {
        fs::read_to_string(out.join(format!("seat{i}.stderr"))).unwrap_or_default()
    });
    assert_no_process_left(&record);
    Played {
        game,
        record,
        referee_stderr,
        seat_stderr,
        out,
    }
}

/// Every attack of `stderr` was blocked, and the attacker got through its list.
fn assert_all_blocked(who: Who, played: &Played, seat: usize, expected: usize) {
    let stderr = &played.seat_stderr[seat];
    assert!(
        stderr.contains("attacks done"),
        "as {who:?}, seat {seat} did not finish its attacks ({}): {stderr}\nfaults: {:?}",
        played.line(),
        played.faults(seat as u64)
    );
    assert!(
        !stderr.contains("ESCAPED"),
        "as {who:?}, an attack succeeded ({}):\n{stderr}",
        played.line()
    );
    let blocked = stderr.lines().filter(|l| l.starts_with("blocked ")).count();
    assert_eq!(blocked, expected, "as {who:?}: {stderr}");
}

#[test]
fn the_line_names_every_layer_and_is_recorded() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "line");
        let played = play(who, &arena, [passive(), passive(), passive()], &[]);
        let line = played.line();
        eprintln!("as {who:?}: {line}");
        assert!(
            played.referee_stderr.contains(line),
            "{}",
            played.referee_stderr
        );
        for layer in [
            "proc=",
            "netns=",
            "landlock=",
            "seccomp=",
            "futex=",
            "cgroup=",
            "uid=",
            "memory=",
            "cpu=",
            "freeze=",
            "pids=",
        ] {
            assert!(line.contains(layer), "{line}");
        }
        // A jail's /proc holds its processes alone, or its masks where the kernel refuses
        // `subset=pid` (the line says why).
        if line.contains("jail=on") {
            assert!(
                line.contains("proc=pid ") || line.contains("proc=masked(subset=pid refused"),
                "{line}"
            );
        }
        // In a jail with seccomp, shared futexes go to its init, or spin where the kernel
        // gives no listener (the line says why).
        if line.contains("jail=on") && line.contains("seccomp=on") {
            assert!(
                line.contains("futex=notify") || line.contains("futex=spin("),
                "{line}"
            );
        }
        if is_root() && who == Who::Me {
            for on in ["netns=on", "uid=on", "seccomp=on", "landlock=v"] {
                assert!(line.contains(on), "root should have {on}: {line}");
            }
        }
        if who == Who::Nobody {
            assert!(line.contains("uid=off(not root"), "{line}");
            // No cgroup of its own: what that leaves out is named (README, "Sandbox").
            if line.contains("jail=on") {
                assert!(
                    line.contains("cpu=proc freeze=sigstop(no cgroup freezer)"),
                    "{line}"
                );
            }
        }
        common::remove_dir(&arena);
    }
}

#[test]
fn escapes_fail_and_the_match_completes() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "escapes");
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let victim = attacker(&arena, "victim", &["scratch".into()]);
        let out = out_dir(&arena, who);
        let stray = arena.join("stray.txt");
        let line = referee_line(who, &arena);
        let mut attacks: Vec<String> = vec![
            format!("connect 127.0.0.1 {port}"),
            "socket_inet".into(),
            format!("read {}", victim.join("secret.txt").display()),
            format!("list {}", victim.display()),
            format!("write {}", stray.display()),
            format!("write {}", out.join("forged.json").display()),
            format!("write {}", arena.join("thief/forged").display()),
            "write /var/tmp/referee-sandbox-escaped".to_string(),
            "kill_parent".into(),
            "setsid".into(),
            "setpgid".into(),
            "unshare".into(),
            "outlive".into(),
        ];
        if line.contains("jail=on") {
            // The jail's mounts: read-only, no setuid programs, no device nodes, nothing run
            // from /proc or /dev.
            attacks.push("mount_flags".into());
        }
        if line.contains("seccomp=on") {
            // Denied outright by the filter (never run where it is not: as root without
            // a sandbox it would signal every process of the machine).
            attacks.push("kill_all".into());
        }
        let thief = attacker(&arena, "thief", &attacks);
        attacks.push("scratch".into());
        fs::write(thief.join("attacks"), attacks.join("\n") + "\n").unwrap();
        let played = play(
            who,
            &arena,
            [
                thief.join("champion").display().to_string(),
                victim.join("champion").display().to_string(),
                passive(),
            ],
            &[],
        );
        eprintln!("as {who:?}: {}\n{}", played.line(), played.seat_stderr[0]);
        assert!(
            played.seat_stderr[0].contains("scratch ok"),
            "{}",
            played.seat_stderr[0]
        );
        // Every attack but the scratch control and the daemon (reported "blocked" when it
        // started, then swept) must be blocked.
        assert_all_blocked(who, &played, 0, attacks.len() - 1);
        assert!(played.seat_stderr[1].contains("scratch ok"));
        assert!(played.faults(0).is_empty(), "{:?}", played.faults(0));
        match listener.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => panic!("as {who:?}, the listener on 127.0.0.1 was reached: {other:?}"),
        }
        assert!(!stray.exists() && !Path::new("/var/tmp/referee-sandbox-escaped").exists());
        assert!(!played.out.join("forged.json").exists());
        common::remove_dir(&arena);
    }
}

/// The sandbox line the referee prints as `who` (from a short match of passive champions).
fn referee_line(who: Who, arena: &Path) -> String {
    let dir = arena.join("probe");
    fs::create_dir_all(&dir).unwrap();
    play(who, &dir, [passive(), passive(), passive()], &[])
        .line()
        .to_string()
}

/// The jail makes its mounts read-only with `mount_setattr`, and on kernels before 5.12
/// (without it) with a remount: that path, forced here (`REFEREE_JAIL_REMOUNT`), gives
/// the champion the same mounts: read-only, `nosuid`, `nodev`, `noexec` at /proc and /dev.
#[test]
fn the_remount_of_older_kernels_gives_the_same_mounts() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "remount");
        let thief = attacker(&arena, "thief", &["mount_flags".into(), "scratch".into()]);
        let played = play_with(
            who,
            &arena,
            [
                thief.join("champion").display().to_string(),
                passive(),
                passive(),
            ],
            &[],
            &[("REFEREE_JAIL_REMOUNT", "1")],
        );
        assert!(played.line().contains("jail=on"), "{}", played.line());
        assert!(
            played.seat_stderr[0].contains("scratch ok"),
            "{}",
            played.seat_stderr[0]
        );
        assert_all_blocked(who, &played, 0, 1);
        common::remove_dir(&arena);
    }
}

#[test]
fn a_fork_bomb_is_bounded_where_a_process_limit_holds() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "forkbomb");
        let line = referee_line(who, &arena);
        if !line.contains("pids=cgroup") && !line.contains("pids=rlimit") {
            common::skip_missing(&format!(
                "sandbox test: the fork bomb as {who:?}: no process-count limit in force here \
                 ({line}); it would take the machine down"
            ));
            continue;
        }
        let bomber = attacker(&arena, "bomber", &["forkbomb".into()]);
        let played = play(
            who,
            &arena,
            [
                bomber.join("champion").display().to_string(),
                passive(),
                passive(),
            ],
            &["--processes", "32"],
        );
        eprintln!("as {who:?}: {}\n{}", played.line(), played.seat_stderr[0]);
        assert_all_blocked(who, &played, 0, 1);
        common::remove_dir(&arena);
    }
}

#[test]
fn memory_beyond_the_limit_fails_shared_mappings_too() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "memory");
        let line = referee_line(who, &arena);
        let mut attacks: Vec<String> = vec!["mmap_private 256".into(), "mmap_shared 256".into()];
        let memory_cgroup = line.contains("memory=cgroup");
        if !memory_cgroup {
            attacks.push("memfd 256".into());
        }
        let hog = attacker(&arena, "hog", &attacks);
        let played = play(
            who,
            &arena,
            [
                hog.join("champion").display().to_string(),
                passive(),
                passive(),
            ],
            &["--memory", "64"],
        );
        eprintln!("as {who:?}: {}\n{}", played.line(), played.seat_stderr[0]);
        if memory_cgroup && !played.faults(0).is_empty() {
            // The cgroup's OOM killer stopped the shared mapping: a memory fault.
            assert!(
                played.faults(0)[0].contains("memory"),
                "{:?}",
                played.faults(0)
            );
        } else {
            assert_all_blocked(who, &played, 0, attacks.len());
        }
        common::remove_dir(&arena);
    }
}

fn installed(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        // A JVM run on the host would leave /tmp/hsperfdata_<user> behind.
        .env("JAVA_TOOL_OPTIONS", "-XX:-UsePerfData")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn java_and_node_start_under_the_default_memory_limit() {
    let mut runtimes = Vec::new();
    for runtime in ["java", "node"] {
        if installed(runtime) {
            runtimes.push(runtime);
        } else {
            common::skip_missing(&format!("sandbox test: {runtime}: not installed"));
        }
    }
    if runtimes.is_empty() {
        return;
    }
    for who in users() {
        let arena = common::fresh_dir("sandbox", "runtimes");
        let mut champions = Vec::new();
        for runtime in &runtimes {
            let dir = arena.join(runtime);
            fs::create_dir_all(&dir).unwrap();
            for entry in fs::read_dir(fixtures().join(runtime)).unwrap().flatten() {
                fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
            }
            champions.push(dir.join("champion").display().to_string());
        }
        while champions.len() < 3 {
            champions.push(passive());
        }
        let played = play(who, &arena, champions.try_into().unwrap(), &[]);
        for (seat, runtime) in runtimes.iter().enumerate() {
            let stderr = &played.seat_stderr[seat];
            eprintln!("as {who:?}, {runtime}: {stderr}");
            assert!(
                played.faults(seat as u64).is_empty(),
                "as {who:?}, {runtime} ({}): {:?}\n{stderr}",
                played.line(),
                played.faults(seat as u64)
            );
            assert!(stderr.contains(&format!("{runtime} started")), "{stderr}");
        }
        common::remove_dir(&arena);
    }
}

#[test]
fn require_sandbox_names_what_is_missing() {
    for who in users() {
        let arena = common::fresh_dir("sandbox", "require");
        let line = referee_line(who, &arena);
        let out = out_dir(&arena, who).join("required");
        let args: Vec<String> = [
            "match",
            &passive(),
            &passive(),
            &passive(),
            "--require-sandbox",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect();
        let output = referee(who, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        // Required: the jail and seccomp, and the uid layer of root; the others (landlock,
        // netns, cgroup) are used where available.
        let root = who == Who::Me && is_root();
        let required_off: Vec<&str> = line
            .split_whitespace()
            .filter(|w| w.contains("=off("))
            .map(|w| w.split('=').next().unwrap())
            .filter(|layer| ["jail", "seccomp"].contains(layer) || (root && *layer == "uid"))
            .collect();
        if required_off.is_empty() {
            assert!(output.status.success(), "as {who:?}: {line}\n{stderr}");
            assert!(out.join("record.json").exists(), "no match was played");
        } else {
            assert!(!output.status.success(), "as {who:?}: {line}");
            assert!(stderr.contains("--require-sandbox"), "{stderr}");
            for layer in required_off {
                assert!(
                    stderr.contains(&format!("  {layer}: ")),
                    "{layer} not named: {stderr}"
                );
            }
            assert!(!out.join("record.json").exists(), "a match was played");
        }
        // --sandbox off is always refused with --require-sandbox.
        let mut off = args.clone();
        off.extend(["--sandbox".into(), "off".into()]);
        let output = referee(who, &off);
        assert!(!output.status.success());
        assert!(String::from_utf8_lossy(&output.stderr).contains("--sandbox off"));
        common::remove_dir(&arena);
    }
}

#[test]
fn sandbox_off_says_so() {
    let arena = common::fresh_dir("sandbox", "off");
    let played = play(
        Who::Me,
        &arena,
        [passive(), passive(), passive()],
        &["--sandbox", "off"],
    );
    assert!(
        played.line().starts_with("sandbox: off"),
        "{}",
        played.line()
    );
    common::remove_dir(&arena);
}
