//! The attack suite of the "jail" issue: each test replays one attack that a contestant
//! made on the referee, through the real `referee` binary, as root and as a user.
//!
//! Every test asserts that the attack fails (the attacker's own report on its stderr, and
//! the effect looked for on the host), that the legal opponents get no fault, that the match
//! completes (exit 0 and a record), and that nothing of the champions is left running.
//!
//! - The attacker is `tests/fixtures/attacks/attacker.py`, a passive champion that runs the
//!   attacks appended to its own file (`#ATTACK <callback> <kind> <args>`: a single-file
//!   champion may see nothing but its own program) and reports each one on stderr as
//!   `blocked <kind>: ...` or `ESCAPED <kind>: ...`; the C fixtures beside it are built by the
//!   test with `cc` (CPU, fork bomb, crash).
//! - As a user: the tests run as root and switch to a user of their own, `referee-attacks`,
//!   created with `useradd` on first use (not `nobody`: some attacks act on every process of
//!   their uid, and other test suites run as `nobody` on this machine; a dedicated uid keeps
//!   the blast radius to this suite). When `useradd` fails, `nobody` is used and the test
//!   says so. When the tests do not run as root, the root runs are skipped with a
//!   `SKIPPED` line and the user runs are made as the current user.
//! - Each run (root, user) of a test is independent: a failure of one is reported together
//!   with the other's result. A failure that is the attack working says `THE ATTACK WORKED`.
//! - Tests that load the machine (CPU, gigabytes of memory or disk) take turns ([`heavy`]).
//! - Attacks 12 (raw text from champions), 13 (seccomp gaps) and 15 (concurrent referees)
//!   are covered elsewhere.

use crate::common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io::{ErrorKind, Write};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{SocketAddr, UnixListener};
use std::os::unix::process::CommandExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
/// The user the non-root runs switch to (created when missing).
const USER: &str = "referee-attacks";
const NOBODY: (u32, u32) = (65534, 65534);
/// Longest a referee run may take before the test kills it.
const RUN_TIMEOUT: Duration = Duration::from_secs(180);

// ---- who runs the referee ----------------------------------------------------------------

fn euid() -> u32 {
    // SAFETY: no arguments.
    unsafe { nix::libc::geteuid() }
}

fn is_root() -> bool {
    euid() == 0
}

/// Who runs the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    /// The test's own user, root.
    Root,
    /// A user the test switches to (it runs as root).
    User { uid: u32, gid: u32 },
    /// The test's own user, not root.
    Me,
}

impl Who {
    /// The ids to switch to, if any.
    fn switch(self) -> Option<(u32, u32)> {
        match self {
            Who::User { uid, gid } => Some((uid, gid)),
            _ => None,
        }
    }

    /// Gives `path` to the user running the referee.
    fn own(self, path: &Path) {
        if let Some((uid, gid)) = self.switch() {
            std::os::unix::fs::lchown(path, Some(uid), Some(gid)).unwrap();
        }
    }
}

/// `(uid, gid)` of `name` in /etc/passwd.
fn lookup_user(name: &str) -> Option<(u32, u32)> {
    let passwd = fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() > 3 && fields[0] == name)
            .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
            .flatten()
    })
}

/// The user of the non-root runs: `referee-attacks`, created on first use; `nobody` when it
/// cannot be created. `Err` when no user can run the referee.
fn test_user() -> Result<(u32, u32), String> {
    static USER_IDS: OnceLock<Result<(u32, u32), String>> = OnceLock::new();
    USER_IDS
        .get_or_init(|| {
            let ids = match lookup_user(USER) {
                Some(ids) => ids,
                None => {
                    let made = Command::new("useradd")
                        .args([
                            "--system",
                            "--user-group",
                            "--no-create-home",
                            "--home-dir",
                            "/nonexistent",
                            "--shell",
                            "/usr/sbin/nologin",
                            USER,
                        ])
                        .output();
                    match lookup_user(USER) {
                        Some(ids) => ids,
                        None => {
                            eprintln!(
                                "attacks: cannot create the user {USER} ({made:?}); the non-root \
                                 runs use `nobody` instead"
                            );
                            NOBODY
                        }
                    }
                }
            };
            let probe = Command::new(REFEREE)
                .arg("--version")
                .uid(ids.0)
                .gid(ids.1)
                .output();
            match probe {
                Ok(o) if o.status.success() => Ok(ids),
                other => Err(format!(
                    "uid {} cannot run {REFEREE} ({other:?}); make the target directory \
                     readable by others",
                    ids.0
                )),
            }
        })
        .clone()
}

/// The runs of a test: as root and as a user, printing why one is skipped.
fn runs(test: &str) -> Vec<Who> {
    if !is_root() {
        common::skip_by_design(&format!(
            "attacks {test}: the root run: the test does not run as root (uid {}); running \
             as this user only (scripts/test.sh runs it as root)",
            euid()
        ));
        return vec![Who::Me];
    }
    match test_user() {
        Ok((uid, gid)) => vec![Who::Root, Who::User { uid, gid }],
        Err(why) => {
            common::skip_missing(&format!("attacks {test}: the non-root run: {why}"));
            vec![Who::Root]
        }
    }
}

/// Runs `body` for each run of the test; fails after all of them, naming each failure.
fn each_run(test: &str, body: impl Fn(Who)) {
    each_case(
        &format!("attacks {test}"),
        runs(test)
            .into_iter()
            .map(|who| (format!("as {who:?}"), who)),
        body,
    );
}

/// Runs `body` for each case; fails after all of them, naming each failure.
fn each_case<T>(what: &str, cases: impl IntoIterator<Item = (String, T)>, body: impl Fn(T)) {
    let mut failures = Vec::new();
    for (name, case) in cases {
        eprintln!("=== {what} {name}");
        if let Err(panic) = std::panic::catch_unwind(AssertUnwindSafe(|| body(case))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            failures.push(format!("--- {name}:\n{message}"));
        } else {
            eprintln!("=== {what} {name}: ok");
        }
    }
    assert!(
        failures.is_empty(),
        "{what} failed:\n{}",
        failures.join("\n")
    );
}

/// Tests that load the machine (CPU burners, gigabytes of memory or disk) run one at a
/// time, so that they neither disturb each other's timings nor add up their memory.
fn heavy() -> common::Heavy {
    common::heavy()
}

fn unique() -> u32 {
    static N: AtomicU32 = AtomicU32::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

// ---- files -------------------------------------------------------------------------------

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/attacks")
}

fn champions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions")
}

fn passive() -> String {
    common::passive()
}

fn c_random() -> String {
    champions_dir().join("c/random").display().to_string()
}

use common::chmod;

/// A directory of one test run, removed at the end (whatever champions left in it).
struct Arena {
    dir: PathBuf,
    who: Who,
}

impl Arena {
    fn new(who: Who, name: &str) -> Arena {
        Arena {
            dir: common::fresh_dir("attacks", name),
            who,
        }
    }

    /// A fresh directory, mode 0755 (champions run under other uids).
    fn dir(&self, rel: &str) -> PathBuf {
        let dir = self.dir.join(rel);
        fs::create_dir_all(&dir).unwrap();
        chmod(&dir, 0o755);
        dir
    }

    /// A fresh directory owned by the user running the referee.
    fn owned_dir(&self, rel: &str) -> PathBuf {
        let dir = self.dir(rel);
        self.who.own(&dir);
        dir
    }

    /// A folder champion `<rel>/champion`: the attacker with these attacks.
    fn attacker(&self, rel: &str, attacks: &[String]) -> String {
        let program = self.dir(rel).join("champion");
        install_attacker(&program, attacks);
        program.display().to_string()
    }

    /// A folder champion `<rel>/champion`: a copy of `program`.
    fn folder_champion(&self, rel: &str, program: &Path) -> String {
        let dest = self.dir(rel).join("champion");
        fs::copy(program, &dest).unwrap();
        chmod(&dest, 0o755);
        dest.display().to_string()
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        common::remove_dir(&self.dir);
    }
}

/// Writes the attacker to `program`, with `attacks` (`<callback> <kind> <args>`) appended.
fn install_attacker(program: &Path, attacks: &[String]) {
    let mut text = fs::read_to_string(fixtures().join("attacker.py")).unwrap();
    for attack in attacks {
        text.push_str(&format!("#ATTACK {attack}\n"));
    }
    fs::write(program, text).unwrap();
    chmod(program, 0o755);
}

/// Builds a C fixture (with `-D` definitions) into the target's temporary directory, named
/// after its source and definitions (built once, kept for the next runs); the binary is
/// readable and executable by everyone.
fn compiled(source: &str, defines: &[&str]) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("attacks-bin");
    fs::create_dir_all(&dir).unwrap();
    // Another user's run may have made it (then it is already readable by everyone).
    let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(0o755));
    let text = fs::read(fixtures().join(source)).unwrap();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (text, defines).hash(&mut hasher);
    let out = dir.join(format!(
        "{}-{:016x}",
        source.trim_end_matches(".c"),
        hasher.finish()
    ));
    if out.exists() {
        return out;
    }
    let partial = dir.join(format!("partial-{}-{}", std::process::id(), unique()));
    let mut cc = Command::new("cc");
    cc.args(["-O1", "-pthread", "-o"]).arg(&partial);
    for define in defines {
        cc.arg(format!("-D{define}"));
    }
    let status = cc
        .arg(fixtures().join(source))
        .status()
        .expect("cc is needed to build the C fixtures");
    assert!(status.success(), "compiling {source} failed");
    chmod(&partial, 0o755);
    fs::rename(&partial, &out).unwrap();
    out
}

// ---- running the referee -----------------------------------------------------------------

/// A referee process started paused (a shell waiting for a line, then `exec`ing the
/// referee): its pid is known before it runs, so the test can prepare what depends on it.
struct Running {
    child: Child,
    pid: u32,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Running {
    fn start(who: Who, args: &[String], env: &[(String, String)], logs: &Path) -> Running {
        let tag = unique();
        let stdout = logs.join(format!("referee-{tag}.stdout"));
        let stderr = logs.join(format!("referee-{tag}.stderr"));
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(r#"read _ && exec "$0" "$@""#)
            .arg(REFEREE)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(fs::File::create(&stdout).unwrap())
            .stderr(fs::File::create(&stderr).unwrap());
        if let Some((uid, gid)) = who.switch() {
            cmd.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        for (key, value) in env {
            cmd.env(key, value);
        }
        let child = cmd.spawn().expect("sh runs");
        let pid = child.id();
        Running {
            child,
            pid,
            stdout,
            stderr,
        }
    }

    /// Lets the referee run.
    fn go(&mut self) {
        let mut stdin = self.child.stdin.take().expect("paused");
        stdin.write_all(b"\n").unwrap();
    }

    /// Waits for the referee to exit (killing it after [`RUN_TIMEOUT`]).
    fn wait(mut self) -> Finished {
        let Some(status) = common::wait_timeout(&mut self.child, RUN_TIMEOUT) else {
            panic!(
                "the referee did not finish within {RUN_TIMEOUT:?}: {}",
                fs::read_to_string(&self.stderr).unwrap_or_default()
            );
        };
        Finished {
            status,
            stdout: fs::read_to_string(&self.stdout).unwrap_or_default(),
            stderr: fs::read_to_string(&self.stderr).unwrap_or_default(),
        }
    }
}

struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// A match to play.
struct Setup<'a> {
    who: Who,
    arena: &'a Arena,
    champions: [String; 3],
    extra: Vec<String>,
    /// The out directory (default: a fresh one in the arena, owned by the referee's user).
    out: Option<PathBuf>,
    env: Vec<(String, String)>,
}

impl<'a> Setup<'a> {
    fn new(who: Who, arena: &'a Arena, champions: [String; 3]) -> Setup<'a> {
        Setup {
            who,
            arena,
            champions,
            extra: Vec::new(),
            out: None,
            env: Vec::new(),
        }
    }

    fn extra(mut self, args: &[&str]) -> Self {
        self.extra.extend(args.iter().map(|s| s.to_string()));
        self
    }

    fn play(self) -> Played {
        self.play_with(|_| {})
    }

    /// Plays the match; `before` gets the referee's pid before it starts.
    fn play_with(self, before: impl FnOnce(u32)) -> Played {
        let out = self
            .out
            .clone()
            .unwrap_or_else(|| self.arena.owned_dir(&format!("out-{}", unique())));
        let seed = u64::from(std::process::id()) << 24 | u64::from(unique());
        let mut args: Vec<String> = vec!["match".into()];
        args.extend(self.champions.iter().cloned());
        args.extend(["--seed".into(), seed.to_string()]);
        args.extend(["--first-player", "0", "--out"].map(String::from));
        args.push(out.display().to_string());
        args.extend(self.extra.iter().cloned());
        let logs = self.arena.dir("logs");
        let mut running = Running::start(self.who, &args, &self.env, &logs);
        let pid = running.pid;
        before(pid);
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch_zombies(pid, stop.clone());
        running.go();
        let finished = running.wait();
        stop.store(true, Ordering::Relaxed);
        let zombies = lasting_zombies(&watcher.join().unwrap());
        Played::read(self.who, seed, pid, out, finished, zombies)
    }
}

/// A match as played: the referee's exit, the record, each seat's stderr.
struct Played {
    who: Who,
    seed: u64,
    pid: u32,
    out: PathBuf,
    finished: Finished,
    record: Option<Value>,
    seats: [String; 3],
    /// Zombie children of the referee left unreaped for a second or more: (pid, ms).
    zombies: Vec<(i32, u128)>,
}

impl Played {
    fn read(
        who: Who,
        seed: u64,
        pid: u32,
        out: PathBuf,
        finished: Finished,
        zombies: Vec<(i32, u128)>,
    ) -> Played {
        let record = fs::read(out.join("record.json"))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok());
        let seats = std::array::from_fn(|i| {
            fs::read_to_string(out.join(format!("seat{i}.stderr"))).unwrap_or_default()
        });
        let played = Played {
            who,
            seed,
            pid,
            out,
            finished,
            record,
            seats,
            zombies,
        };
        eprintln!("{}", played.summary());
        played
    }

    /// What a failure message shows: the sandbox line, the faults, the seats' reports.
    fn summary(&self) -> String {
        let sandbox = self
            .record
            .as_ref()
            .and_then(|r| r["sandbox"].as_str().map(str::to_string))
            .unwrap_or_else(|| "(no record)".into());
        let faults = self
            .record
            .as_ref()
            .map(|r| r["faults"].to_string())
            .unwrap_or_default();
        let mut text = format!(
            "[as {:?}, referee pid {}, {}] {sandbox}\nfaults: {faults}",
            self.who, self.pid, self.finished.status
        );
        for (seat, stderr) in self.seats.iter().enumerate() {
            let lines: Vec<&str> = stderr.lines().collect();
            let shown = if lines.len() > 40 {
                let mut l = lines[..20].to_vec();
                l.push("...");
                l.extend(&lines[lines.len() - 20..]);
                l
            } else {
                lines
            };
            if !shown.is_empty() {
                text.push_str(&format!("\nseat{seat}.stderr:\n  {}", shown.join("\n  ")));
            }
        }
        if !self.finished.status.success() {
            text.push_str(&format!("\nreferee stderr:\n{}", self.finished.stderr));
        }
        text
    }

    /// The match as its record tells it, if the referee wrote one.
    fn game(&self) -> Option<common::loi::Match> {
        self.record.as_ref()?;
        Some(common::loi::Match::read(&self.out))
    }

    fn seat(&self, seat: usize) -> &str {
        &self.seats[seat]
    }

    /// The faults of `seat`, as (kind, message).
    fn faults(&self, seat: usize) -> Vec<(String, String)> {
        let Some(game) = self.game() else {
            return Vec::new();
        };
        game.faults_of(seat)
            .into_iter()
            .map(|f| (f.kind, f.message))
            .collect()
    }

    /// The attacker of `seat` reported at least `count` attempts of `kind` and no escape.
    fn assert_attack_failed(&self, seat: usize, kind: &str, count: usize) {
        let report = self.seat(seat);
        let errors: Vec<&str> = report.lines().filter(|l| l.starts_with("error ")).collect();
        assert!(
            errors.is_empty(),
            "the fixture failed (a bug of the test): {errors:?}\n{}",
            self.summary()
        );
        let escaped: Vec<&str> = report
            .lines()
            .filter(|l| l.starts_with("ESCAPED "))
            .collect();
        assert!(
            escaped.is_empty(),
            "THE ATTACK WORKED: seat {seat} reports\n  {}\n{}",
            escaped.join("\n  "),
            self.summary()
        );
        let attempts = report
            .lines()
            .filter(|l| l.starts_with(&format!("blocked {kind}")))
            .count();
        assert!(
            attempts >= count,
            "seat {seat} reported {attempts} attempts of {kind}, expected {count} (did it get \
             that far?)\n{}",
            self.summary()
        );
    }

    /// Exit 0 and a record of a whole match.
    fn assert_completed(&self) {
        assert!(
            self.finished.status.success(),
            "the referee failed ({}): {}\n{}",
            self.finished.status,
            self.finished.stdout,
            self.summary()
        );
        assert!(
            self.game().expect("a record").completed(),
            "the match did not complete\n{}",
            self.summary()
        );
    }

    /// These seats (the legal opponents) got no fault.
    fn assert_faultless(&self, seats: &[usize]) {
        for &seat in seats {
            let faults = self.faults(seat);
            assert!(
                faults.is_empty(),
                "the legal opponent in seat {seat} got a fault: {faults:?}\n{}",
                self.summary()
            );
        }
    }

    /// No process of the match is left (none carries a seat's seed), and none carrying
    /// `marker` in its command line either (for fixtures that drop their environment); no
    /// zombie child of the referee stayed unreaped for a second while it ran.
    fn assert_nothing_left(&self, markers: &[&str]) {
        assert!(
            self.zombies.is_empty(),
            "{} zombie children of the referee stayed unreaped for a second or more (pid, \
             ms): {:?}\n{}",
            self.zombies.len(),
            self.zombies,
            self.summary()
        );
        if let Some(record) = &self.record {
            common::assert_no_process_left(record);
        }
        for marker in markers {
            let left = processes_with(marker);
            if !left.is_empty() {
                kill_all(&left);
                panic!(
                    "processes of the champion left running after the match (now killed): \
                     {left:?}\n{}",
                    self.summary()
                );
            }
        }
    }

    /// The CPU time of `seat`'s callbacks in the record, milliseconds, in order.
    fn cpu_ms(&self, seat: usize) -> Vec<(String, u64)> {
        let Some(record) = &self.record else {
            return Vec::new();
        };
        let callbacks = record["callbacks"].as_array().unwrap();
        let timings = record["timings"].as_array().unwrap();
        callbacks
            .iter()
            .zip(timings)
            .filter(|(c, _)| c["seat"] == seat as u64)
            .map(|(c, t)| {
                (
                    c["callback"].as_str().unwrap_or("?").to_string(),
                    t["cpu_us"].as_u64().unwrap_or(0) / 1000,
                )
            })
            .collect()
    }
}

impl Drop for Played {
    /// Removes the scratch directories the referee failed to remove (a test about them
    /// looks before), so that /tmp does not fill up.
    fn drop(&mut self) {
        let prefix = format!("referee-{}-", self.pid);
        if let Ok(entries) = fs::read_dir(std::env::temp_dir()) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = Command::new("rm").arg("-rf").arg(entry.path()).status();
                }
            }
        }
    }
}

/// Pids of the processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if pid == std::process::id() as i32 {
            continue;
        }
        if fs::read(entry.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        {
            found.push(pid);
        }
    }
    found
}

/// Cleanup of what an attack left (processes of this test's fixtures only, by pid).
fn kill_all(pids: &[i32]) {
    for &pid in pids {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

/// `used <N> ms` (or `used <N>`) in a fault message.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let at = text.find(key)? + key.len();
    let digits: String = text[at..]
        .chars()
        .skip_while(|c| *c == ' ')
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Fields of `/proc/<pid>/stat` after the command name: state is [0], ppid [1], starttime
/// [19].
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---- 1. unix sockets ---------------------------------------------------------------------

/// Attack 1: connect() to a pathname unix socket of the operator (in a directory owned by
/// the user running the referee, socket mode 0777) and to an abstract socket the test
/// listens on. Nothing may ever connect.
#[test]
fn attack_01_operator_unix_sockets_are_out_of_reach() {
    each_run("01", |who| {
        let arena = Arena::new(who, "unix");
        let sockets = arena.owned_dir("operator");
        let path = sockets.join("operator.sock");
        let listener = UnixListener::bind(&path).unwrap();
        listener.set_nonblocking(true).unwrap();
        chmod(&path, 0o777);
        who.own(&path);
        let name = format!("referee-attacks-{}-{}", std::process::id(), unique());
        let address = SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
        let abstract_listener = UnixListener::bind_addr(&address).unwrap();
        abstract_listener.set_nonblocking(true).unwrap();
        let attacker = arena.attacker(
            "attacker",
            &[
                format!("init_game connect_unix path {}", path.display()),
                format!("init_game connect_unix abstract {name}"),
            ],
        );
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
        for (what, l) in [("path", &listener), ("abstract", &abstract_listener)] {
            match l.accept() {
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                other => panic!(
                    "THE ATTACK WORKED: the operator's {what} socket was reached: {other:?}\n{}",
                    played.summary()
                ),
            }
        }
        played.assert_attack_failed(0, "connect_unix", 2);
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 2. same-uid calls -------------------------------------------------------------------

/// Attack 2: calls that need only the same uid: prlimit(RLIMIT_AS, 64 MiB) on the referee,
/// and setpriority, sched_setscheduler(SCHED_IDLE), sched_setaffinity and prlimit on the
/// opponents (the referee's other children). Each must fail (ESRCH, EPERM, or nothing of
/// the referee visible); the referee finishes with its record and the opponents play on.
#[test]
fn attack_02_same_uid_calls_on_the_referee_and_opponents_fail() {
    each_run("02", |who| {
        let arena = Arena::new(who, "sameuid");
        let program = arena.dir("attacker").join("champion");
        let champion = program.display().to_string();
        let played =
            Setup::new(who, &arena, [champion, c_random(), "greedy".into()]).play_with(|referee| {
                install_attacker(
                    &program,
                    &[
                        format!("init_game siblings {referee}"),
                        format!("init_game prlimit {referee}"),
                    ],
                );
            });
        played.assert_attack_failed(0, "prlimit", 1);
        assert!(
            played.seat(0).contains("blocked siblings"),
            "no report of the attack on the opponents\n{}",
            played.summary()
        );
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 3. CPU budget and chattering --------------------------------------------------------

const CHATTER_BUDGET_MS: u64 = 250;

/// Attack 3: two threads burn CPU while the main thread sends `mon_tour` every millisecond,
/// in one `jouer`. (a) It never sends `fin`: it must get a `timeout` whose message reports a
/// CPU use below twice the budget (the accounting, not the machine's speed). (b) It sends
/// `fin` after about 1 s of CPU (4 budgets) but before the wall deadline: it must get a
/// `timeout` all the same. (c) As (a), not pinned to one CPU (`--no-pin`): its chattering
/// thread never waits for its burners, so only the check made while lines keep coming
/// catches it.
#[test]
fn attack_03_cpu_budget_holds_while_the_champion_chatters() {
    let _heavy = heavy();
    let budget = format!("{}", CHATTER_BUDGET_MS as f64 / 1000.0);
    each_run("03", |who| {
        let arena = Arena::new(who, "chatter");
        let variants = [
            ("forever", vec!["FOREVER"], false),
            ("fin", vec![], false),
            ("forever-unpinned", vec!["FOREVER"], true),
        ];
        let cases = variants.map(|(v, d, u)| (v.to_string(), (v, d, u)));
        each_case("variant", cases, |(variant, defines, unpinned)| {
            let binary = compiled("chatter.c", &defines);
            let attacker = arena.folder_champion(&format!("chatter-{variant}"), &binary);
            let mut flags = vec!["--call-cpu", budget.as_str()];
            if unpinned {
                flags.push("--no-pin");
            }
            let played = Setup::new(who, &arena, [attacker, passive(), "random".into()])
                .extra(&flags)
                .play();
            played.assert_completed();
            played.assert_faultless(&[1, 2]);
            let faults = played.faults(0);
            let timings = played.cpu_ms(0);
            let jouer_cpu = timings
                .iter()
                .find(|(c, _)| c == "jouer")
                .map(|(_, ms)| *ms);
            let Some((kind, message)) = faults.first() else {
                panic!(
                    "THE ATTACK WORKED ({variant}): no fault for a champion that burned CPU \
                     while chattering; the record charges its jouer {jouer_cpu:?} ms of CPU for \
                     a budget of {CHATTER_BUDGET_MS} ms\n{}",
                    played.summary()
                );
            };
            assert_eq!(
                kind,
                "timeout",
                "({variant}) {message}\n{}",
                played.summary()
            );
            if variant != "fin" {
                let used = number_after(message, "used ")
                    .or(jouer_cpu)
                    .unwrap_or_else(|| {
                        panic!("the timeout does not report the CPU used: {message}")
                    });
                assert!(
                    used < 2 * CHATTER_BUDGET_MS,
                    "THE ATTACK WORKED (forever): the timeout came after {used} ms of CPU, \
                     more than twice the budget of {CHATTER_BUDGET_MS} ms: {message}\n{}",
                    played.summary()
                );
            }
            played.assert_nothing_left(&[]);
        });
    });
}

// ---- 4. CPU between callbacks ------------------------------------------------------------

/// Attack 4: 15 burner processes run while the opponents play (stopped with SIGSTOP during
/// the attacker's own callbacks, resumed with SIGCONT before its `fin`). The opponents get
/// no timeout, and the burners' CPU is charged to the attacker (its record timings add up to
/// at least most of what the burners used, which the fixture measures with
/// `RUSAGE_CHILDREN`), or it gets a timeout.
#[test]
fn attack_04_cpu_between_callbacks_is_charged() {
    let _heavy = heavy();
    each_run("04", |who| {
        let arena = Arena::new(who, "between");
        let attacker = arena.attacker("attacker", &["init_game burners 15".into()]);
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        let faults = played.faults(0);
        if faults.iter().any(|(kind, _)| kind == "timeout") {
            eprintln!("the attacker got a timeout: {faults:?}");
        } else {
            let burned = played
                .seat(0)
                .lines()
                .find_map(|l| number_after(l, "info burners: cpu_ms"))
                .unwrap_or_else(|| {
                    panic!(
                        "the attacker neither faulted nor reported its burners' CPU\n{}",
                        played.summary()
                    )
                });
            let charged: u64 = played.cpu_ms(0).iter().map(|(_, ms)| ms).sum();
            eprintln!("burners used {burned} ms of CPU; the record charges {charged} ms");
            assert!(
                charged * 10 + 500 >= burned * 8,
                "THE ATTACK WORKED: the burners used {burned} ms of CPU between the attacker's \
                 callbacks, but its record charges it {charged} ms in all and no timeout\n{}",
                played.summary()
            );
        }
        played.assert_nothing_left(&[]);
    });
}

/// Attack 4b: a child that keeps running after its champion's `fin` (a ticker noting the
/// time every millisecond), while the opponents take 50 ms a callback: in its jail, the
/// champion is frozen from its `fin` to its next callback, so the ticker stops at once.
#[test]
fn attack_04b_a_champion_is_frozen_between_its_callbacks() {
    each_run("04b", |who| {
        let arena = Arena::new(who, "frozen");
        let attacker = arena.attacker(
            "attacker",
            &["init_game ticker".into(), "jouer* ticker_check".into()],
        );
        let slow = fixtures().join("slow.sh").display().to_string();
        let played = Setup::new(who, &arena, [attacker, slow.clone(), slow]).play();
        played.assert_attack_failed(0, "ticker", 1);
        played.assert_completed();
        played.assert_faultless(&[0, 1, 2]);
        played.assert_nothing_left(&[]);
    });
}

/// Attack 4c (red team): workers that wake themselves while frozen, with a POSIX timer
/// sending them `SIGCONT` every millisecond, and burn CPU noting the time. Where the
/// champion has a cgroup, its freezer holds them (no `SIGCONT` thaws a frozen cgroup): they
/// note nothing between the attacker's `fin` and its next callback. Otherwise (`SIGSTOP`
/// from the jail's init), the CPU they used while frozen is found before the attacker is
/// thawed: a timeout that says so, and the jail is killed. Either way the opponents play on.
#[test]
fn attack_04c_a_sigcont_timer_does_not_thaw_a_frozen_champion() {
    let _heavy = heavy();
    each_run("04c", |who| {
        let arena = Arena::new(who, "thaw");
        let cases = [
            ("burning workers", "thaw 2 0"),
            // The bursts run in children the kernel reaps at once (SIGCHLD ignored), whose
            // CPU no walk of /proc sees once they are gone: without a cgroup, the pids the
            // jail handed out while frozen give them away.
            ("a worker forking reaped children", "thaw 1 0 fork"),
        ];
        each_case("thaw", cases.map(|(n, a)| (n.to_string(), a)), |attack| {
            let attacker = arena.attacker(
                &format!("attacker-{}", unique()),
                &[format!("init_game {attack}"), "jouer* thaw_check".into()],
            );
            let slow = fixtures().join("slow.sh").display().to_string();
            let played = Setup::new(who, &arena, [attacker, slow.clone(), slow]).play();
            assert_thaw_failed(&played, &["timeout"]);
            played.assert_completed();
            played.assert_faultless(&[1, 2]);
            played.assert_nothing_left(&[]);
        });
    });
}

/// The attacker of seat 0 either got nowhere (`blocked thaw`, no fault) or was stopped with
/// a fault of one of `kinds`; a `timeout` must say it ran while frozen, and cannot happen
/// where the champion has a cgroup freezer (the sandbox line names `cgroup.freeze`, or the
/// cgroup layer is on).
fn assert_thaw_failed(played: &Played, kinds: &[&str]) {
    let faults = played.faults(0);
    let sandbox = played
        .record
        .as_ref()
        .map_or(String::new(), |r| r["sandbox"].to_string());
    let freezer = sandbox.contains("cgroup=on") || sandbox.contains("cgroup.freeze");
    if freezer {
        assert!(
            !faults.iter().any(|(_, m)| m.contains("while frozen")),
            "the cgroup freezer did not hold the attacker: {faults:?}\n{}",
            played.summary()
        );
    }
    match faults.first() {
        None => played.assert_attack_failed(0, "thaw", 1),
        Some((kind, message)) => {
            let escaped: Vec<&str> = played
                .seat(0)
                .lines()
                .filter(|l| l.starts_with("ESCAPED") || l.starts_with("error "))
                .collect();
            assert!(escaped.is_empty(), "{escaped:?}\n{}", played.summary());
            assert!(
                kinds.contains(&kind.as_str()),
                "expected a fault of {kinds:?}, got {faults:?}\n{}",
                played.summary()
            );
            if kind == "timeout" {
                assert!(
                    message.contains("while frozen"),
                    "the timeout should name CPU used while frozen: {message}\n{}",
                    played.summary()
                );
            }
        }
    }
}

// ---- 5. hidden information ---------------------------------------------------------------

/// Attack 5: read /proc/*/cmdline and /proc/*/environ of every visible process, looking
/// for the match seed (the referee's `--seed N`); the champion must not find it, and must
/// see no process but its own. Its /proc/self/cgroup names no cgroup of the host (the
/// referee's, the seat's).
#[test]
fn attack_05_other_processes_are_invisible() {
    each_run("05", |who| {
        let arena = Arena::new(who, "procscan");
        let attacker = arena.attacker(
            "attacker",
            &["jouer procscan".into(), "jouer cgroup".into()],
        );
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
        let seed = played.seed.to_string();
        played.assert_attack_failed(0, "cgroup", 1);
        assert!(
            !played.seat(0).contains(&seed),
            "THE ATTACK WORKED: the champion found the match seed {seed}\n{}",
            played.summary()
        );
        played.assert_attack_failed(0, "procscan", 1);
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 6. predictable scratch paths --------------------------------------------------------

/// Owner, mode and content of every entry under `dir`.
fn snapshot_tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let rel = path.strip_prefix(dir).unwrap().display().to_string();
        let content = if meta.is_file() {
            fs::read_to_string(&path).unwrap_or_default()
        } else {
            String::new()
        };
        out.insert(
            rel,
            format!("{}:{} {:o} {content}", meta.uid(), meta.gid(), meta.mode()),
        );
        if meta.is_dir() {
            if let Ok(entries) = fs::read_dir(&path) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        }
    }
    out
}

/// Attack 6: symlinks planted in the referee's TMPDIR (a sticky world-writable directory,
/// like /tmp) at the names its scratch directories would get (`referee-<pid>-<n>`,
/// `referee-check-<pid>-<n>`; the pid is known before it starts), pointing to a directory of
/// the user running the referee (root's, as root). After a match, with the sandbox and with
/// `--sandbox off`, that directory is unchanged (owner, mode, contents) and holds nothing of
/// the champion.
#[test]
fn attack_06_planted_scratch_symlinks_are_not_followed() {
    each_run("06", |who| {
        each_case(
            "--sandbox",
            ["auto", "off"].map(|m| (m.to_string(), m)),
            |mode| {
                let arena = Arena::new(who, "symlinks");
                let tmp = arena.dir("tmp");
                chmod(&tmp, 0o1777);
                let victim = arena.owned_dir("victim");
                fs::write(victim.join("precious.txt"), "precious\n").unwrap();
                who.own(&victim.join("precious.txt"));
                let before = snapshot_tree(&victim);
                let marker = format!("att6-{}-{}", std::process::id(), unique());
                let attacker =
                    arena.attacker("attacker", &[format!("init_game scratch_mark {marker}")]);
                // The symlinks belong to another local user, as they would in /tmp.
                let planter = if who == Who::Root {
                    test_user().unwrap_or(NOBODY)
                } else {
                    NOBODY
                };
                let mut setup = Setup::new(who, &arena, [attacker, passive(), "random".into()])
                    .extra(&["--sandbox", mode]);
                setup.env.push(("TMPDIR".into(), tmp.display().to_string()));
                let played = setup.play_with(|pid| {
                    for name in (0..8)
                        .map(|n| format!("referee-{pid}-{n}"))
                        .chain((0..4).map(|n| format!("referee-check-{pid}-{n}")))
                    {
                        let link = tmp.join(name);
                        std::os::unix::fs::symlink(&victim, &link).unwrap();
                        let _ = std::os::unix::fs::lchown(&link, Some(planter.0), Some(planter.1));
                    }
                });
                let after = snapshot_tree(&victim);
                assert!(
                    before == after,
                    "THE ATTACK WORKED (--sandbox {mode}): the referee followed a planted symlink \
                 into {}: before {before:?}\nafter {after:?}\n{}",
                    victim.display(),
                    played.summary()
                );
                played.assert_completed();
                played.assert_faultless(&[1, 2]);
                played.assert_nothing_left(&[]);
            },
        );
    });
}

// ---- 7. processes left behind ------------------------------------------------------------

/// Attack 7a: the main process starts a child with an empty environment (no token), in its
/// process group, then dies in the middle of a callback. After `referee match` returns, no
/// process of the champion exists (the child carries a marker in its argv).
#[test]
fn attack_07a_a_child_without_environment_dies_with_the_match() {
    each_run("07a", |who| {
        let arena = Arena::new(who, "orphan");
        let marker = format!("att7a-orphan-{}-{}", std::process::id(), unique());
        let attacker = arena.attacker("attacker", &[format!("jouer orphan {marker}")]);
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
        assert!(
            played.seat(0).contains("info orphan: child"),
            "the child was not started\n{}",
            played.summary()
        );
        let left = processes_with(&marker);
        if !left.is_empty() {
            kill_all(&left);
            panic!(
                "THE ATTACK WORKED: the child {left:?} outlived the match (now killed)\n{}",
                played.summary()
            );
        }
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[&marker]);
    });
}

/// Watches the zombie children of `pid` until `stop`: (pid, start time) -> (first seen,
/// last seen).
fn watch_zombies(
    pid: u32,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<HashMap<(i32, String), (Instant, Instant)>> {
    std::thread::spawn(move || {
        let mut seen: HashMap<(i32, String), (Instant, Instant)> = HashMap::new();
        while !stop.load(Ordering::Relaxed) {
            let mut children: Vec<i32> = Vec::new();
            if let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) {
                for task in tasks.flatten() {
                    if let Ok(text) = fs::read_to_string(task.path().join("children")) {
                        children.extend(
                            text.split_whitespace()
                                .filter_map(|c| c.parse::<i32>().ok()),
                        );
                    }
                }
            }
            let now = Instant::now();
            for child in children {
                if let Some(fields) = stat_fields(child) {
                    if fields[0] == "Z" {
                        let entry = seen
                            .entry((child, fields[19].clone()))
                            .or_insert((now, now));
                        entry.1 = now;
                    }
                }
            }
            // A sampler, not a wait: zombies raise no event, so it looks every 20 ms.
            std::thread::sleep(Duration::from_millis(20));
        }
        seen
    })
}

/// The zombies of [`watch_zombies`] that stayed a second or more: (pid, ms).
fn lasting_zombies(seen: &HashMap<(i32, String), (Instant, Instant)>) -> Vec<(i32, u128)> {
    let mut lasting: Vec<(i32, u128)> = seen
        .iter()
        .filter(|(_, (first, last))| *last - *first >= Duration::from_secs(1))
        .map(|((pid, _), (first, last))| (*pid, (*last - *first).as_millis()))
        .collect();
    lasting.sort();
    lasting
}

/// Attack 7b: children and grandchildren (holding some memory, so that they take a moment
/// to die, but far below the limit: a tree that ends a match just over it gets its
/// `memory` fault in a callback that depends on the machine's load, and its match would
/// not replay the same) still running when the main process exits after `end_game`, and when the
/// pre-run check kills it. A tournament of a few matches must leave no zombie: the test
/// watches the referee's children while it runs; a zombie that stays unreaped for a second
/// is a leak.
#[test]
fn attack_07b_a_tournament_leaves_no_zombie() {
    let _heavy = heavy();
    each_run("07b", |who| {
        let arena = Arena::new(who, "zombies");
        let attacker = arena.attacker("attacker", &["init_game children 6 80".into()]);
        let results = arena.owned_dir("results");
        let args: Vec<String> = [
            "tournament",
            &attacker,
            &passive(),
            "random",
            &c_random(),
            "--rounds",
            "1",
            "--jobs",
            "1",
            "--name",
            "zombies",
            "--seed",
            "7",
            "--results",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([results.display().to_string()])
        .collect();
        let logs = arena.dir("logs");
        let mut running = Running::start(who, &args, &[], &logs);
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch_zombies(running.pid, stop.clone());
        running.go();
        let finished = running.wait();
        stop.store(true, Ordering::Relaxed);
        let leaked = lasting_zombies(&watcher.join().unwrap());
        assert!(
            finished.status.success(),
            "the tournament failed: {}\n{}",
            finished.stdout,
            finished.stderr
        );
        assert!(
            leaked.is_empty(),
            "THE ATTACK WORKED: {} zombie children of the referee stayed unreaped for a second \
             or more (pid, ms): {leaked:?}\n{}",
            leaked.len(),
            finished.stderr
        );
        let matches = results.join("zombies/matches");
        for entry in fs::read_dir(&matches).unwrap().flatten() {
            let record: Value =
                serde_json::from_slice(&fs::read(entry.path().join("record.json")).unwrap())
                    .unwrap();
            for fault in record["faults"].as_array().unwrap() {
                let seat = fault["seat"].as_u64().unwrap() as usize;
                assert!(
                    record["seats"][seat]["path"]
                        .as_str()
                        .is_some_and(|p| p == attacker),
                    "a legal champion got a fault: {fault}"
                );
            }
            common::assert_no_process_left(&record);
        }
    });
}

// ---- 8. memory ---------------------------------------------------------------------------

/// Attack 8: memory counts the whole tree: (a) four processes of 800 MiB each (pages
/// touched) give the champion a `memory` fault under the default 1024 MiB; (b) a 2.5 GiB
/// `MAP_GROWSDOWN` mapping (not data in the kernel's accounting) fails, or is charged (a
/// `memory` fault). No harm to the others.
#[test]
fn attack_08_memory_counts_the_whole_tree() {
    let _heavy = heavy();
    each_run("08", |who| {
        let arena = Arena::new(who, "memory");
        let cases = [
            ("four processes of 800 MiB", "fork_alloc 4 800"),
            ("a 2.5 GiB MAP_GROWSDOWN mapping", "growsdown 2560"),
        ];
        each_case("memory", cases.map(|(n, a)| (n.to_string(), a)), |attack| {
            let kind = attack.split_whitespace().next().unwrap();
            let attacker = arena.attacker(kind, &[format!("init_game {attack}")]);
            let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
            let escaped: Vec<&str> = played
                .seat(0)
                .lines()
                .filter(|l| l.starts_with("ESCAPED"))
                .collect();
            assert!(
                escaped.is_empty(),
                "THE ATTACK WORKED: {escaped:?}\n{}",
                played.summary()
            );
            let faults = played.faults(0);
            if kind == "fork_alloc" {
                // The tree holds 3.2 GiB: it must be stopped with a memory fault.
                assert!(
                    faults.first().is_some_and(|(kind, _)| kind == "memory"),
                    "expected a memory fault, got {faults:?}\n{}",
                    played.summary()
                );
            } else if faults.is_empty() {
                // The mapping failed.
                played.assert_attack_failed(0, kind, 1);
            } else {
                // It was charged: stopped with a memory fault.
                assert_eq!(faults[0].0, "memory", "{}", played.summary());
            }
            played.assert_completed();
            played.assert_faultless(&[1, 2]);
            played.assert_nothing_left(&[]);
        });
    });
}

/// Attack 8b (red team): eight workers woken by a `SIGCONT` timer (as in 4c) that each
/// allocate, touch and free 30 MiB over and over, under `--memory 64`: memory that would
/// exist only while the champion is meant to be frozen. The attacker must get a `memory`
/// fault (what it holds is measured when it is frozen and before it is thawed) or the
/// timeout of 4c; the opponents play on.
#[test]
fn attack_08b_memory_held_between_callbacks_counts() {
    let _heavy = heavy();
    each_run("08b", |who| {
        let arena = Arena::new(who, "hoard");
        let attacker = arena.attacker(
            "attacker",
            &["init_game thaw 8 30".into(), "jouer* thaw_check".into()],
        );
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()])
            .extra(&["--memory", "64"])
            .play();
        assert!(
            !played.faults(0).is_empty(),
            "THE ATTACK WORKED: eight workers of 30 MiB under --memory 64, no fault\n{}",
            played.summary()
        );
        assert_thaw_failed(&played, &["memory", "timeout"]);
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 9. disk -----------------------------------------------------------------------------

/// Entries of /tmp.
fn tmp_entries() -> HashSet<String> {
    fs::read_dir("/tmp")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Paths under `dir` (down to `depth` levels) whose name starts with `marker`.
fn find_marked(dir: &Path, marker: &str, depth: u32) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with(marker) {
            found.push(path.clone());
        }
        if depth > 1 && entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(find_marked(&path, marker, depth - 1));
        }
    }
    found
}

/// Attack 9: disk. Writing 1.9 GiB in its scratch directory (HOME, TMPDIR) must fail with
/// ENOSPC (or EDQUOT) well before (the test accepts up to 1 GiB; the default limit is around
/// 64 MiB). A mode-000 directory and a 20,000-deep chain of directories in the scratch: after
/// the match nothing of it is left on the host (/tmp's new entries and the out directory,
/// looked through for the fixture's unique marker and for the referee's scratch names).
#[test]
fn attack_09_disk_is_bounded_and_scratch_is_removed() {
    let _heavy = heavy();
    each_run("09", |who| {
        let arena = Arena::new(who, "disk");
        let marker = format!("att9-{}-{}", std::process::id(), unique());
        let attacker = arena.attacker(
            "attacker",
            &[
                format!("init_game disk 1945 {marker}"),
                format!("init_game mode000 {marker}"),
                format!("init_game deepchain 20000 {marker}"),
            ],
        );
        let before = tmp_entries();
        let played = Setup::new(who, &arena, [attacker, passive(), "random".into()]).play();
        let new: Vec<String> = tmp_entries().difference(&before).cloned().collect();
        let mut left: Vec<PathBuf> = Vec::new();
        for name in &new {
            let path = Path::new("/tmp").join(name);
            if name.starts_with(&format!("referee-{}-", played.pid)) {
                left.push(path.clone());
            }
            left.extend(find_marked(&path, &marker, 3));
        }
        left.extend(find_marked(&played.out, &marker, 3));
        left.sort();
        left.dedup();
        for path in &left {
            let _ = Command::new("chmod")
                .arg("-R")
                .arg("u+rwX")
                .arg(path)
                .status();
            let _ = Command::new("rm").arg("-rf").arg(path).status();
        }
        assert!(
            left.is_empty(),
            "THE ATTACK WORKED: {} files of the champion outlived the match (now removed), \
             e.g. {:?}\n{}",
            left.len(),
            &left[..left.len().min(6)],
            played.summary()
        );
        let report = played
            .seat(0)
            .lines()
            .find(|l| l.contains(" disk: "))
            .unwrap_or("")
            .to_string();
        let written = number_after(&report, "wrote ");
        assert!(
            report.starts_with("blocked disk")
                && (report.ends_with("ENOSPC") || report.ends_with("EDQUOT"))
                && written.is_some_and(|mib| mib < 1024),
            "THE ATTACK WORKED: the disk was not bounded: `{report}`\n{}",
            played.summary()
        );
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 10. fork bomb -----------------------------------------------------------------------

/// Attack 10: one champion forks without bound (bounded by the fixture at 5460 processes so
/// that a missing limit cannot take the machine down). The other champions of its match,
/// and a tournament started by the same user while the bomb is in place (its pre-run check
/// and its match), start and play without fault.
#[test]
fn attack_10_a_fork_bomb_harms_nobody_else() {
    let _heavy = heavy();
    each_run("10", |who| {
        let arena = Arena::new(who, "forkbomb");
        let bomb = arena.folder_champion("bomb", &compiled("bomb.c", &[]));
        let out = arena.owned_dir("out");
        let second_results = arena.owned_dir("second");
        let mut setup = Setup::new(who, &arena, [bomb.clone(), passive(), c_random()]);
        setup.out = Some(out.clone());
        let second_args: Vec<String> = [
            "tournament",
            &passive(),
            "random",
            &c_random(),
            "--rounds",
            "1",
            "--jobs",
            "1",
            "--name",
            "second",
            "--results",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([second_results.display().to_string()])
        .collect();
        let logs = arena.dir("logs");
        let second = std::thread::scope(|scope| {
            let waiter = scope.spawn(|| {
                // Start the second run once the bomb is in place.
                let started = common::poll_until(Duration::from_secs(30), || {
                    fs::read_to_string(out.join("seat0.stderr"))
                        .is_ok_and(|s| s.contains("info bomb: started"))
                });
                if !started {
                    return None;
                }
                let bombers = processes_with(&bomb).len();
                let mut running = Running::start(who, &second_args, &[], &logs);
                running.go();
                Some((bombers, running.wait()))
            });
            let played = setup.play();
            (played, waiter.join().unwrap())
        });
        let (played, second) = second;
        let Some((bombers, second)) = second else {
            panic!("the bomb never started\n{}", played.summary());
        };
        eprintln!("{bombers} processes of the bomb when the second run started");
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        assert!(
            second.status.success(),
            "THE ATTACK WORKED: a tournament started during the fork bomb failed: {}\n{}",
            second.stdout,
            second.stderr
        );
        let matches = second_results.join("second/matches");
        for entry in fs::read_dir(&matches).unwrap().flatten() {
            let record: Value =
                serde_json::from_slice(&fs::read(entry.path().join("record.json")).unwrap())
                    .unwrap();
            assert!(
                record["faults"].as_array().unwrap().is_empty(),
                "THE ATTACK WORKED: faults in a match played during the fork bomb: {}",
                record["faults"]
            );
        }
        played.assert_nothing_left(&[&bomb]);
    });
}

/// Attack 10b (red team): the kernel counts POSIX timers (as pending signals) and inotify
/// instances per user, and as a user every champion's user is the operator's. The champion
/// of seat 0 takes all it can get and keeps it; the one of seat 1, playing next, must still
/// get its own share: each champion is bounded (`RLIMIT_SIGPENDING`), and as root each has
/// a uid of its own. Inotify is refused to every champion (attack 17): neither gets one.
#[test]
fn attack_10b_per_user_counts_are_not_shared() {
    each_run("10b", |who| {
        let arena = Arena::new(who, "ucounts");
        let hog = arena.attacker("hog", &["init_game ucounts".into()]);
        let victim = arena.attacker("victim", &["init_game ucounts".into()]);
        let played = Setup::new(who, &arena, [hog, victim, passive()]).play();
        played.assert_completed();
        played.assert_faultless(&[0, 1, 2]);
        let counts = |seat: usize| {
            let line = played
                .seat(seat)
                .lines()
                .find(|l| l.starts_with("info ucounts:"))
                .unwrap_or_else(|| panic!("seat {seat} did not report\n{}", played.summary()))
                .to_string();
            let timers = number_after(&line, "timers").unwrap();
            let inotify = number_after(&line, "inotify").unwrap();
            (timers, inotify)
        };
        let (hog_timers, hog_inotify) = counts(0);
        let (timers, inotify) = counts(1);
        eprintln!("the hog got {hog_timers} timers and {hog_inotify} inotify instances; the next champion {timers} and {inotify}");
        assert!(
            hog_timers <= 1024 && hog_inotify <= 128,
            "a champion took {hog_timers} timers and {hog_inotify} inotify instances\n{}",
            played.summary()
        );
        assert!(
            timers >= 64,
            "THE ATTACK WORKED: after the hog, the next champion got only {timers} timers\n{}",
            played.summary()
        );
        assert!(
            hog_inotify == 0 && inotify == 0,
            "a champion got inotify instances ({hog_inotify}, {inotify}): they watch files \
             that other jails see\n{}",
            played.summary()
        );
        played.assert_nothing_left(&[]);
    });
}

// ---- 11. a champion's folder -------------------------------------------------------------

/// Attack 11a: two single-file champions kept in one folder; the attacker must not read
/// its neighbour's file.
#[test]
fn attack_11a_a_single_file_champion_cannot_read_its_neighbour() {
    each_run("11a", |who| {
        let arena = Arena::new(who, "neighbour");
        let shared = arena.dir("shared");
        let secret = format!("neighbour-secret-{}-{}", std::process::id(), unique());
        let neighbour = shared.join("neighbour.sh");
        let passive_text = fs::read_to_string(passive()).unwrap();
        fs::write(&neighbour, format!("{passive_text}# {secret}\n")).unwrap();
        chmod(&neighbour, 0o755);
        let attacker = shared.join("attacker.py");
        install_attacker(
            &attacker,
            &[format!("init_game read_neighbour {}", neighbour.display())],
        );
        let played = Setup::new(
            who,
            &arena,
            [
                attacker.display().to_string(),
                neighbour.display().to_string(),
                "random".into(),
            ],
        )
        .play();
        assert!(
            !played.seat(0).contains(&secret),
            "THE ATTACK WORKED: the champion read its neighbour's file\n{}",
            played.summary()
        );
        played.assert_attack_failed(0, "read_neighbour", 2);
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

/// Attack 11b: `--out` inside the attacker's own folder: it must not see the results
/// folder, where an opponent's stderr is written live (the opponent logs a secret at every
/// callback; the attacker looks for it at its first `jouer`).
#[test]
fn attack_11b_results_inside_the_champions_folder_stay_hidden() {
    each_run("11b", |who| {
        let arena = Arena::new(who, "results-inside");
        let secret = format!("opponent-secret-{}-{}", std::process::id(), unique());
        let folder = arena.dir("attacker");
        let attacker = arena.attacker(
            "attacker",
            &[
                format!(
                    "jouer search {} {}",
                    folder.display(),
                    hex(secret.as_bytes())
                ),
                format!("jouer plant {}", folder.display()),
            ],
        );
        let opponent = arena.dir("opponent").join("champion");
        let script = fs::read_to_string(fixtures().join("secretive.sh")).unwrap();
        fs::write(&opponent, script.replace("SECRET", &secret)).unwrap();
        chmod(&opponent, 0o755);
        let out = folder.join("results");
        fs::create_dir_all(&out).unwrap();
        who.own(&out);
        let mut setup = Setup::new(
            who,
            &arena,
            [attacker, opponent.display().to_string(), passive()],
        );
        setup.out = Some(out.clone());
        let played = setup.play();
        assert!(
            played.seat(1).contains(&secret),
            "the opponent did not log its secret\n{}",
            played.summary()
        );
        assert!(
            !played.seat(0).contains(&secret),
            "THE ATTACK WORKED: the champion read an opponent's live stderr\n{}",
            played.summary()
        );
        played.assert_attack_failed(0, "search", 1);
        played.assert_attack_failed(0, "plant", 1);
        assert!(
            !out.join(".planted").exists() && !folder.join(".planted").exists(),
            "a file planted on the host"
        );
        played.assert_completed();
        played.assert_faultless(&[1, 2]);
        played.assert_nothing_left(&[]);
    });
}

/// Attack 11c: two champions of one match (two copies of the attacker, in two seats)
/// listen on a unix socket in their scratch directory and on an abstract socket, and try to
/// reach each other's (found by listing the parent of their scratch directory and
/// /proc/net/unix) at every `jouer`. Neither may reach the other.
#[test]
fn attack_11c_two_champions_cannot_talk() {
    each_run("11c", |who| {
        let arena = Arena::new(who, "talk");
        let name = format!("att11c-{}-{}", std::process::id(), unique());
        let attacks = [
            format!("init_game talk_listen {name}"),
            format!("jouer* talk_try {name}"),
            format!("end_game talk_try {name}"),
        ];
        let first = arena.attacker("first", &attacks);
        let second = arena.attacker("second", &attacks);
        let played = Setup::new(who, &arena, [first, second, passive()]).play();
        for seat in [0, 1] {
            assert!(
                played.seat(seat).contains("info talk: listening"),
                "seat {seat} did not get to listen\n{}",
                played.summary()
            );
            played.assert_attack_failed(seat, "talk", 1);
        }
        played.assert_completed();
        played.assert_faultless(&[2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 14. misread faults ------------------------------------------------------------------

/// Parses the referee's default limits (sandbox included), as `referee match` would.
#[derive(clap::Parser)]
struct DefaultFlags {
    #[command(flatten)]
    limits: referee::cli::LimitArgs,
}

/// The referee's default limits, sandbox included (its probe builds a jail: the caller
/// names the zygote's executable first).
pub(crate) fn default_limits() -> jail::champion::Limits {
    use clap::Parser;
    DefaultFlags::parse_from(["referee"])
        .limits
        .process()
        .expect("default limits")
}

/// Spawns the crashing fixture through the library from this (big) process: the fault it
/// gets, as `kind: message`.
fn crash_from_a_big_process() -> String {
    use jail::champion::{Budget, Champion, LaunchSpec};
    // Jailed champions are cloned from a zygote: the referee binary serves as one.
    jail::use_helper(env!("CARGO_BIN_EXE_referee"));
    let limits = default_limits();
    let crash = compiled("crash.c", &[]);
    let dir = common::fresh_dir("attacks", "crash14");
    let mut spec = LaunchSpec::new(crash, dir.join("scratch"), dir.join("stderr.txt"));
    spec.limits = limits;
    // 1.5 GiB, every page touched: what the referee may hold after a long run.
    let mut hoard = vec![0u8; 1536 << 20];
    for i in (0..hoard.len()).step_by(4096) {
        hoard[i] = 1;
    }
    std::hint::black_box(&hoard);
    let spawned = Champion::spawn(&spec);
    drop(hoard);
    let mut champion = spawned.expect("the crasher starts");
    let generous = Duration::from_secs(10);
    champion
        .send("init_game", Instant::now() + generous)
        .expect("the crasher reads its first line");
    let budget = Budget::start(&champion, generous, generous);
    let fault = champion
        .recv(&budget)
        .expect_err("the crasher dies of SIGSEGV");
    champion.kill();
    common::remove_dir(&dir);
    format!("{:?}: {}", fault.kind, fault.message).to_lowercase()
}

/// Attack 14: a champion that crashes (SIGSEGV) with almost no memory, spawned by a
/// referee that holds 1.5 GiB (a long run), must be reported as `crash`, not `memory`: its
/// peak memory must not count what the process inherited from the referee. Through the
/// library (`Champion::spawn`) from this test process; the non-root run re-executes this
/// test binary as the user (the helper below).
#[test]
fn attack_14_a_crash_is_not_read_as_memory() {
    let _heavy = heavy();
    each_run("14", |who| {
        let fault = match who.switch() {
            None => crash_from_a_big_process(),
            Some((uid, gid)) => {
                let output = Command::new(std::env::current_exe().unwrap())
                    .args([
                        "attacks::attack_14_helper_as_user",
                        "--exact",
                        "--ignored",
                        "--nocapture",
                        "--test-threads=1",
                    ])
                    .env("ATTACKS_HELPER", "14")
                    .env("HOME", "/tmp")
                    .uid(uid)
                    .gid(gid)
                    .output()
                    .unwrap();
                let stdout = String::from_utf8_lossy(&output.stdout);
                stdout
                    .lines()
                    .find_map(|l| l.split_once("ATTACK14 "))
                    .map(|(_, fault)| fault.trim().to_string())
                    .unwrap_or_else(|| {
                        panic!(
                            "the helper run as the user failed: {stdout}\n{}",
                            String::from_utf8_lossy(&output.stderr)
                        )
                    })
            }
        };
        eprintln!("as {who:?}: {fault}");
        assert!(
            fault.starts_with("crash"),
            "THE ATTACK WORKED: a SIGSEGV with almost no memory, spawned from a referee \
             holding 1.5 GiB, was reported as: {fault}"
        );
    });
}

/// The user side of [`attack_14_a_crash_is_not_read_as_memory`]; does nothing unless run
/// by it.
#[test]
#[ignore = "run by attack_14_a_crash_is_not_read_as_memory as another user"]
fn attack_14_helper_as_user() {
    if std::env::var("ATTACKS_HELPER").as_deref() != Ok("14") {
        return;
    }
    println!("\nATTACK14 {}", crash_from_a_big_process());
}

// ---- 16. memory outside the heap ---------------------------------------------------------

/// Attack 16 (red team, round 3): every kind of memory a champion can hold outside its
/// heap, under `--memory 128`: a 1 GiB shared mapping of `/dev/zero` (shmem, neither heap
/// nor `RLIMIT_DATA`: it once held 1 GiB with no fault) must be a `memory` fault or be
/// refused; a memfd written without a mapping, a file in `/dev/shm` (POSIX shared memory),
/// huge pages and a System V segment must be refused (or, with a memory cgroup, end in a
/// `memory` fault). No harm to the others.
#[test]
fn attack_16_memory_outside_the_heap_is_counted_or_refused() {
    let _heavy = heavy();
    each_run("16", |who| {
        let arena = Arena::new(who, "shmem");
        let cases = [
            ("a 1 GiB shared mapping of /dev/zero", "shared_zero 1024"),
            ("a memfd of 512 MiB, never mapped", "memfd 512"),
            ("512 MiB in /dev/shm", "dev_shm 512"),
            ("64 MiB of huge pages", "hugetlb 64"),
            ("a System V segment of 512 MiB", "sysv_shm 512"),
        ];
        each_case("memory", cases.map(|(n, a)| (n.to_string(), a)), |attack| {
            let kind = attack.split_whitespace().next().unwrap();
            let attacker = arena.attacker(kind, &[format!("init_game {attack}")]);
            let played = Setup::new(who, &arena, [attacker, passive(), "random".into()])
                .extra(&["--memory", "128"])
                .play();
            let faults = played.faults(0);
            if kind == "shared_zero" {
                assert!(
                    !faults.is_empty() || played.seat(0).contains("blocked shared_zero"),
                    "THE ATTACK WORKED: 1 GiB of /dev/zero held under --memory 128, no \
                     fault\n{}",
                    played.summary()
                );
            }
            if faults.is_empty() {
                // Refused: the attacker says so (an `ESCAPED` line fails here).
                played.assert_attack_failed(0, kind, 1);
            } else {
                assert_eq!(faults[0].0, "memory", "{}", played.summary());
            }
            played.assert_completed();
            played.assert_faultless(&[1, 2]);
            played.assert_nothing_left(&[]);
        });
    });
}

// ---- 17. locks and watches between jails -------------------------------------------------

/// The 64-bit numbers `info covert: <key> <name> <hex>` lines of `report` give, by name.
fn covert_values(report: &str, key: &str) -> Vec<(String, u64)> {
    report
        .lines()
        .filter_map(|l| l.strip_prefix("info covert: "))
        .filter_map(|l| l.strip_prefix(key))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let (name, hex) = match words.as_slice() {
                [hex] => ("", *hex),
                [name, hex] => (*name, *hex),
                _ => return None,
            };
            Some((name.to_string(), u64::from_str_radix(hex, 16).ok()?))
        })
        .collect()
}

/// Attack 17 (red team, round 3): a covert channel between two seats of one match through
/// kernel objects on files every jail sees. Seat 0 encodes its `PROLOGIN_SEED` as read
/// locks on bytes of `/etc/passwd` (POSIX and open-file record locks), as `flock`s on 64
/// files of `/usr/bin` and as opens of 64 others; seat 1 reads them with `F_GETLK`,
/// `F_OFD_GETLK`, `flock(LOCK_EX | LOCK_NB)` and inotify watches at each of its turns.
/// Once carried the seed whole. The receiver must learn nothing: its every probe refused
/// (`flock` succeeds but locks nothing, which each end checks on a file of its own), and
/// no value it decodes equal to the seed.
#[test]
fn attack_17_two_seats_cannot_signal_through_locks_or_watches() {
    each_run("17", |who| {
        let arena = Arena::new(who, "covert");
        let sender = arena.attacker(
            "sender",
            &["init_game covert_send".into(), "jouer* covert_send".into()],
        );
        let receiver = arena.attacker(
            "receiver",
            &[
                "init_game covert_watch".into(),
                "jouer* covert_receive".into(),
            ],
        );
        let played = Setup::new(who, &arena, [sender, receiver, passive()]).play();
        let sent = covert_values(played.seat(0), "sent ");
        let Some(&(_, seed)) = sent.first() else {
            panic!("the sender did not say its seed\n{}", played.summary());
        };
        assert_ne!(seed, 0, "a seed of 0 proves nothing\n{}", played.summary());
        let learned = covert_values(played.seat(1), "learned ");
        let carried: BTreeSet<&String> = learned
            .iter()
            .filter(|(_, v)| *v == seed)
            .map(|(name, _)| name)
            .collect();
        assert!(
            carried.is_empty(),
            "THE ATTACK WORKED: seat 1 read seat 0's seed {seed:016x} through {carried:?}\n{}",
            played.summary()
        );
        let seen: BTreeSet<&(String, u64)> = learned.iter().filter(|(_, v)| *v != 0).collect();
        assert!(
            seen.is_empty(),
            "THE ATTACK WORKED in part: seat 1 saw bits through {seen:?}\n{}",
            played.summary()
        );
        // Each carrier refused on both ends: nothing to learn, whatever the seed.
        for probe in [
            "sender posix lock",
            "sender ofd lock",
            "sender flock",
            "receiver inotify_init1",
            "receiver posix lock test",
            "receiver ofd lock test",
            "receiver flock",
        ] {
            assert!(
                played.seat(0).contains(&format!("blocked covert: {probe}"))
                    || played.seat(1).contains(&format!("blocked covert: {probe}")),
                "the {probe} was not refused\n{}",
                played.summary()
            );
        }
        played.assert_attack_failed(1, "covert", 3);
        played.assert_completed();
        played.assert_faultless(&[0, 1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- 18. other jails' sockets ------------------------------------------------------------

/// Attack 18 (red team, round 3): two seats each bind an abstract unix socket and open an
/// unbound pair, then list `/proc/net/unix` at each turn. As root the jails of a referee
/// shared one network namespace, so each saw the other's sockets (their names, and their
/// number: a channel). Each must see its own sockets only.
#[test]
fn attack_18_no_jail_lists_another_jails_sockets() {
    each_run("18", |who| {
        let arena = Arena::new(who, "census");
        let name = format!("att18-{}-{}", std::process::id(), unique());
        let attacks = [
            format!("init_game census_open {name}"),
            "jouer* census".to_string(),
        ];
        let first = arena.attacker("first", &attacks);
        let second = arena.attacker("second", &attacks);
        let played = Setup::new(who, &arena, [first, second, passive()]).play();
        for seat in [0, 1] {
            assert!(
                played.seat(seat).contains("info census: bound"),
                "seat {seat} did not get to bind its socket\n{}",
                played.summary()
            );
            played.assert_attack_failed(seat, "census", 1);
        }
        played.assert_completed();
        played.assert_faultless(&[0, 1, 2]);
        played.assert_nothing_left(&[]);
    });
}

// ---- runtimes ----------------------------------------------------------------------------

fn installed(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        // A JVM run on the host would leave /tmp/hsperfdata_<user> behind.
        .env("JAVA_TOOL_OPTIONS", "-XX:-UsePerfData")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Java, Node and Python champions start under the default limits inside the jail and
/// play a whole match without fault. Java is compiled here with `javac`; a missing runtime
/// is skipped with a printed reason (its seat gets the passive champion).
#[test]
fn runtimes_start_under_the_default_limits() {
    let _heavy = heavy();
    let runtimes = fixtures().join("runtimes");
    each_run("runtimes", |who| {
        let arena = Arena::new(who, "runtimes");
        let mut champions: Vec<String> = Vec::new();
        let mut expected: Vec<(usize, &str)> = Vec::new();
        if installed("python3", "--version") {
            expected.push((champions.len(), "python started"));
            champions.push(arena.folder_champion("python", &runtimes.join("hello.py")));
        } else {
            common::skip_missing("attacks runtimes: python: python3 is not installed");
        }
        if installed("javac", "-version") && installed("java", "-version") {
            let dir = arena.dir("java");
            let status = Command::new("javac")
                .env("JAVA_TOOL_OPTIONS", "-XX:-UsePerfData")
                .arg("-d")
                .arg(&dir)
                .arg(runtimes.join("Main.java"))
                .status()
                .unwrap();
            assert!(status.success(), "javac failed");
            chmod(&dir.join("Main.class"), 0o644);
            expected.push((champions.len(), "java started"));
            champions.push(arena.folder_champion("java", &runtimes.join("java.sh")));
        } else {
            common::skip_missing(
                "attacks runtimes: java: java or javac is not installed (scripts/ci-install.sh)",
            );
        }
        if installed("node", "--version") {
            fs::copy(runtimes.join("main.js"), arena.dir("node").join("main.js")).unwrap();
            expected.push((champions.len(), "node started"));
            champions.push(arena.folder_champion("node", &runtimes.join("node.sh")));
        } else {
            common::skip_missing("attacks runtimes: node: node is not installed");
        }
        while champions.len() < 3 {
            champions.push(passive());
        }
        let played = Setup::new(who, &arena, champions.try_into().unwrap()).play();
        played.assert_completed();
        played.assert_faultless(&[0, 1, 2]);
        for (seat, line) in expected {
            assert!(
                played.seat(seat).contains(line),
                "seat {seat}: no `{line}`\n{}",
                played.summary()
            );
        }
        played.assert_nothing_left(&[]);
    });
}
