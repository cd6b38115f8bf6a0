//! The referee's open files between the walk of one seat's processes and the start of the
//! next seat: a champion of many processes must not leave, through the `/proc` files the
//! walk keeps, too few open files for another seat's jail to start. Through the library
//! (`Champion::spawn`, `Champion::pause`), the only way to walk one seat before the next
//! starts every time: a match walks its seats only once all have started, unless a
//! champion forks before its start freeze (a cgroup's, as root), which is a race.
//!
//! Runs: as root and as the user `referee-attacks`, each in a child of this test binary
//! (the limit of open files is the whole process's); as this user only when not root.

use crate::common;

use common::users::Who;
use jail::champion::{Budget, Champion, LaunchSpec};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The environment variable that makes this test binary the child below, naming its folder.
const CHILD: &str = "OPEN_FILES_CHILD_DIR";
/// The attacker's processes: `file_hider.c`'s main and its 63 idle children.
const ATTACKER_PROCESSES: u32 = 64;

/// Hole 10's second half (a CI run, root): under a limit of 150 open files, the walk of the
/// 64 processes of `file_hider` kept their `stat`, `status` and `children` files open and
/// left too few for the next seat's jail ("cannot start the jail's zygote: Too many open
/// files"): the honest seats got `spawn` faults. Forced every time here: the attacker's
/// processes are all there, the limit is set to what the process has open plus what a
/// walk of them keeps plus 3, the seat is walked (frozen), and two more seats must start
/// and answer. The walks keep files only within what the limit leaves once the seats'
/// and the program's own are set aside (`jail::usage::leave_open_files`), so the walk
/// reads the rest without keeping them, and never goes blind.
#[test]
fn a_walk_of_many_processes_leaves_the_next_seats_their_open_files() {
    let _heavy = common::heavy();
    let attacker = crate::redteam::compiled("file_hider.c", &[]);
    common::users::each_run("jailed", "open_files", |who| {
        let dir = common::fresh_dir("open_files", "walk");
        common::chmod(&dir, 0o777);
        let mut child = Command::new(std::env::current_exe().unwrap());
        child
            .args([
                "open_files::walk_then_spawn_in_a_child",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, &dir)
            .env("OPEN_FILES_ATTACKER", &attacker);
        if let Who::User(uid, gid) = who {
            child.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let out = child.output().expect("the test binary runs again");
        common::remove_dir(&dir);
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        let said = text.lines().find(|l| l.starts_with("a walk keeps"));
        eprintln!("as {who:?}: {}", said.unwrap_or("(nothing said)"));
        assert!(
            out.status.success() && text.contains("1 passed"),
            "as {who:?}, the child failed:\n{text}"
        );
    });
}

/// The child of [`a_walk_of_many_processes_leaves_the_next_seats_their_open_files`]; does
/// nothing unless run by it.
#[test]
#[ignore = "run by a_walk_of_many_processes_leaves_the_next_seats_their_open_files"]
fn walk_then_spawn_in_a_child() {
    let Some(dir) = std::env::var_os(CHILD).map(PathBuf::from) else {
        return;
    };
    let attacker = PathBuf::from(std::env::var_os("OPEN_FILES_ATTACKER").unwrap());
    // Jailed champions are cloned from a zygote: the referee binary serves as one.
    jail::use_helper(env!("CARGO_BIN_EXE_referee"));
    let limits = crate::attacks::default_limits();
    assert!(limits.sandbox.jails(), "no jail here: {:?}", limits.sandbox);
    let spec = |name: &str, program: &Path| {
        let mut spec = LaunchSpec::new(
            program,
            dir.join(format!("{name}-scratch")),
            dir.join(format!("{name}.stderr")),
        );
        spec.limits = limits.clone();
        spec
    };
    let mut attacker = Champion::spawn(&spec("attacker", &attacker)).expect("the attacker starts");
    let jail = attacker.pid() as i32;
    common::wait_until(
        "the attacker's 63 children",
        Duration::from_secs(30),
        || jail::usage::measure(jail).processes >= ATTACKER_PROCESSES,
    );
    // What a walk of its processes keeps open when nothing bounds it.
    let open = open_files();
    let mut tracker = jail::usage::Tracker::default();
    tracker.measure(jail);
    let appetite = open_files() - open;
    drop(tracker);
    assert!(
        appetite >= 150,
        "a walk of the attacker's processes kept only {appetite} files open"
    );
    let limit = open_files() + appetite + 3;
    nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, limit, limit)
        .expect("the limit of open files lowered");
    // The seat's own walk, frozen as at the end of a callback.
    attacker.pause();
    let kept = open_files();
    eprintln!("a walk keeps {appetite} files; under a limit of {limit}, this one left {kept} open");
    // Each seat started stays, as in a match, while the next one starts.
    let mut seats = Vec::new();
    for seat in 1..3 {
        let name = format!("seat{seat}");
        let mut honest = Champion::spawn(&spec(&name, Path::new(&common::passive())))
            .unwrap_or_else(|fault| {
                panic!(
                    "SEAT {seat} COULD NOT START after the attacker's walk: {kept} of {limit} \
                     open files taken: {fault:?}"
                )
            });
        let generous = Duration::from_secs(20);
        honest
            .send("init_game", Instant::now() + generous)
            .expect("the seat reads");
        let budget = Budget::start(&honest, generous, generous);
        assert_eq!(
            honest.recv(&budget).expect("the seat answers"),
            "fin",
            "seat {seat}"
        );
        seats.push(honest);
    }
    jail::blind::watched().expect("a walk went blind");
    for seat in seats {
        seat.kill();
    }
    attacker.kill();
}

/// The open files of this process.
fn open_files() -> u64 {
    // The listing holds one itself.
    std::fs::read_dir("/proc/self/fd").unwrap().count() as u64 - 1
}
