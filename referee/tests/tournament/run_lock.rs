//! The run's lock, through the binary: the owner's alone (0600), so that no other local
//! user can open it and hold it to keep `--resume` out, and a `--resume` refused while the
//! lock is held names the process that holds it. The message of an attack that works says
//! `THE ATTACK WORKED`.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use crate::tournament_t as tournament;

#[test]
fn no_other_user_holds_the_runs_lock_and_a_holder_is_named() {
    let dir = common::fresh_dir("run_lock", "held");
    let passive = common::passive();
    common::run_ok(tournament(
        &dir,
        &["random", "greedy", &passive, "--rounds", "1"],
    ));
    let lock = dir.join(".t.lock");
    let mode = std::fs::metadata(&lock).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, 0o600,
        "THE ATTACK WORKED: the run's lock is {mode:o}: anyone who can read it can hold it"
    );
    if common::users::is_root() {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (uid, gid) = common::users::test_user();
        let opened = Command::new("sh")
            .args(["-c", "exec 3<\"$0\"", &lock.display().to_string()])
            .uid(uid)
            .gid(gid)
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(
            !opened.success(),
            "THE ATTACK WORKED: another user opened the run's lock"
        );
    } else {
        common::skip_by_design("run_lock: another user's open of the lock (not root)");
    }
    // Held here (as by someone who could open it): the resume says who holds it.
    let file = std::fs::File::open(&lock).unwrap();
    let held = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockSharedNonblock).unwrap();
    let refused = tournament(&dir, &["--resume"]).output().unwrap();
    let said = common::text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!("is held by process {} (`", std::process::id())),
        "the refusal does not name the holder: {said}"
    );
    drop(held);
    common::run_ok(tournament(&dir, &["--resume"]));
    common::remove_dir(&dir);
}
