//! Attacks on `referee build`'s hand-over and hand-back of a contestant's folder, through
//! the real `referee` binary, as root and as a user: the folder swapped for a link to a
//! root-only folder during its build (the hand-back must not follow it), a referee killed
//! with SIGKILL during a build (the next build of the folder gives it back), a build
//! making more files than the hand-over takes (the hand-back still gives every one back).
//! The contestant is the tests' user (`common::users`), owner of its folder and of the
//! folder above it; the referee runs as root, then as that user.
//!
//! Fixtures: `tests/fixtures/build/` (the Makefiles, the racing contestant). A failure that
//! is the attack working says `THE ATTACK WORKED`.

mod common;

use common::users::Who;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const RUN_TIMEOUT: Duration = Duration::from_secs(300);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/build")
        .join(name)
}

/// A contestant's folder `<base>/contest/champ` with the Makefile `makefile` and a fifo
/// `gate`, the contestant owning `contest` and all in it; the referee run as `who`.
struct Contest {
    base: PathBuf,
    champ: PathBuf,
    who: Who,
    /// The contestant's uid and gid.
    owner: (u32, u32),
}

impl Contest {
    fn new(who: Who, name: &str, makefile: &str) -> Contest {
        let base = common::fresh_dir("attacks-build", name);
        let champ = base.join("contest/champ");
        fs::create_dir_all(&champ).unwrap();
        fs::copy(fixture(makefile), champ.join("Makefile")).unwrap();
        let made = Command::new("mkfifo")
            .args(["-m", "666"])
            .arg(champ.join("gate"))
            .status()
            .unwrap();
        assert!(made.success());
        let owner = match who {
            Who::Root | Who::User(..) => common::users::test_user(),
            // SAFETY: plain id queries.
            Who::Me => unsafe { (nix::libc::getuid(), nix::libc::getgid()) },
        };
        let status = Command::new("chown")
            .arg("-R")
            .arg(format!("{}:{}", owner.0, owner.1))
            .arg(base.join("contest"))
            .status()
            .unwrap();
        assert!(status.success());
        Contest {
            base,
            champ,
            who,
            owner,
        }
    }

    /// Starts `referee build` with `args` in `base`, as the test's `who`.
    fn spawn(&self, args: &[&str]) -> Child {
        let mut cmd = Command::new(REFEREE);
        cmd.arg("build")
            .args(args)
            .current_dir(&self.base)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Who::User(uid, gid) = self.who {
            cmd.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        cmd.spawn().expect("the referee starts")
    }

    /// Runs `referee build` with `args` to its end (killed past [`RUN_TIMEOUT`]).
    fn run(&self, args: &[&str]) -> Output {
        finish(self.spawn(args))
    }

    /// Starts `program` with `args` as the contestant.
    fn contestant(&self, program: &Path, args: &[&Path]) -> Child {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.who != Who::Me {
            cmd.uid(self.owner.0).gid(self.owner.1).env("HOME", "/tmp");
        }
        cmd.spawn().expect("the contestant's program starts")
    }

    /// The entries of `dir` (itself included, links not followed) that the contestant
    /// does not own, a few of them and their number.
    fn not_owned(&self, dir: &Path) -> (Vec<String>, usize) {
        let mut found = Vec::new();
        let mut count = 0;
        let mut stack = vec![dir.to_path_buf()];
        let mut check = |path: &Path, found: &mut Vec<String>| {
            let meta = fs::symlink_metadata(path).unwrap();
            if (meta.uid(), meta.gid()) != self.owner {
                count += 1;
                if found.len() < 5 {
                    found.push(format!(
                        "{} ({}:{})",
                        path.display(),
                        meta.uid(),
                        meta.gid()
                    ));
                }
            }
            meta.is_dir()
        };
        check(dir, &mut found);
        while let Some(folder) = stack.pop() {
            for entry in fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if check(&path, &mut found) {
                    stack.push(path);
                }
            }
        }
        (found, count)
    }
}

impl Drop for Contest {
    fn drop(&mut self) {
        common::remove_dir(&self.base);
    }
}

/// Waits for `child` to end (killed past [`RUN_TIMEOUT`]) and returns its output.
fn finish(child: Child) -> Output {
    let pid = child.id() as i32;
    let out = std::thread::spawn(move || child.wait_with_output());
    if !common::wait_exit(pid, RUN_TIMEOUT) {
        // SAFETY: a signal to the child this test started.
        unsafe { nix::libc::kill(pid, nix::libc::SIGKILL) };
    }
    out.join().unwrap().expect("the process ran")
}

fn shown(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        common::text(&out.stdout),
        common::text(&out.stderr)
    )
}

fn owner_of(path: &Path) -> (u32, u32) {
    let meta = fs::symlink_metadata(path).unwrap();
    (meta.uid(), meta.gid())
}

/// The contestant renames its folder during the build and puts a link to a root-only
/// folder in its place: the hand-back gives back the folder that was handed (now under its
/// new name), every file to the contestant, and never touches the folder the link names.
#[test]
fn build_01_a_folder_swapped_for_a_link_during_its_build_gives_nothing_elsewhere() {
    common::users::each_run("attacks_build", "build_01", |who| {
        let t = Contest::new(who, "swap", "gated.mk");
        let victim = t.base.join("victim");
        fs::create_dir(&victim).unwrap();
        fs::write(victim.join("secret"), "the operator's\n").unwrap();
        fs::set_permissions(victim.join("secret"), fs::Permissions::from_mode(0o600)).unwrap();
        fs::set_permissions(&victim, fs::Permissions::from_mode(0o700)).unwrap();
        let before = (owner_of(&victim), owner_of(&victim.join("secret")));
        let attacker = fs::read(fixture("swap.sh")).unwrap();
        let swap = t.base.join("swap.sh");
        fs::write(&swap, attacker).unwrap();
        fs::set_permissions(&swap, fs::Permissions::from_mode(0o755)).unwrap();

        let build = t.spawn(&["contest/champ", "--wall", "120"]);
        let racer = t.contestant(&swap, &[&t.champ, &victim]);
        let out = finish(build);
        // The build is over: a contestant still waiting for it to start lost the race.
        // SAFETY: a signal to the child this test started (not yet reaped).
        unsafe { nix::libc::kill(racer.id() as i32, nix::libc::SIGKILL) };
        let raced = finish(racer);
        assert!(
            raced.status.success(),
            "the contestant did not swap its folder\n{}\n{}",
            shown(&raced),
            shown(&out)
        );
        let after = (owner_of(&victim), owner_of(&victim.join("secret")));
        assert_eq!(
            after,
            before,
            "THE ATTACK WORKED: the hand-back followed the link and gave {} to the contestant\n{}",
            victim.display(),
            shown(&out)
        );
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
        let real = t.base.join("contest/champ.real");
        assert!(
            real.join("champion").is_file() && real.join("out/made").is_file(),
            "the build's files are not in the folder handed\n{}",
            shown(&out)
        );
        let (found, count) = t.not_owned(&real);
        assert_eq!(
            count,
            0,
            "the folder handed was not given back to the contestant: {found:?}\n{}",
            shown(&out)
        );
    });
}

/// A referee killed with SIGKILL during a build leaves the folder to the build's uid: the
/// next `referee build` of the folder gives every file back to the contestant first (and
/// says so), then builds it.
#[test]
fn build_02_a_folder_left_by_a_killed_build_is_given_back_by_the_next() {
    common::users::each_run("attacks_build", "build_02", |who| {
        let t = Contest::new(who, "killed", "killed.mk");
        let first = t.spawn(&["contest/champ", "--wall", "120"]);
        let started = t.champ.join("started");
        let seen = common::poll_until(RUN_TIMEOUT, || started.exists());
        // SAFETY: a signal to the child this test started.
        unsafe { nix::libc::kill(first.id() as i32, nix::libc::SIGKILL) };
        let killed = finish(first);
        assert!(seen, "the first build never started\n{}", shown(&killed));

        let out = t.run(&["contest/champ", "--wall", "120"]);
        let (found, count) = t.not_owned(&t.champ);
        assert_eq!(
            count,
            0,
            "THE ATTACK WORKED: a build killed with SIGKILL left the folder to the build's \
             uid, and the next build did not give it back: {found:?}\n{}",
            shown(&out)
        );
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
        assert!(t.champ.join("champion").is_file(), "{}", shown(&out));
        if who == Who::Root {
            assert!(
                common::text(&out.stderr).contains("did not give it back"),
                "the recovery is not said\n{}",
                shown(&out)
            );
        }
    });
}

/// A build making more files than the hand-over takes (200,000): the hand-back gives every
/// one back to the contestant, and nothing tells the operator to run the contestant's
/// Makefile on the host.
#[test]
fn build_03_a_build_making_too_many_files_is_given_back_whole() {
    common::users::each_run("attacks_build", "build_03", |who| {
        let t = Contest::new(who, "many", "manyfiles.mk");
        let out = t.run(&["contest/champ", "--wall", "240"]);
        let (found, count) = t.not_owned(&t.champ);
        assert_eq!(
            count,
            0,
            "THE ATTACK WORKED: {count} built file(s) were not given back to the contestant: \
             {found:?}\n{}",
            shown(&out)
        );
        assert!(
            !shown(&out).contains("make -C"),
            "the referee tells the operator to run the contestant's Makefile on the host\n{}",
            shown(&out)
        );
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
    });
}
