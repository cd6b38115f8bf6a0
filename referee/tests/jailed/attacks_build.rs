//! Attacks on `referee build`, through the real `referee` binary, as root and as a user:
//! the folder swapped for a link to a root-only folder right after the referee opened it
//! (the build and its copy back must not follow it), a folder an older version left handed
//! over to a build's uid (given back first), a build making 200,000 files (every one back,
//! the contestant's), and builds that try to fill the organiser's disk (2 GiB, 500,000
//! files) or to write out of their folder through a link (the folder and the disk are as
//! they were). The contestant is the tests' user (`common::users`), owner of its folder
//! and of the folder above it; the referee runs as root, then as that user.
//!
//! Fixtures: `tests/fixtures/build/` (the Makefiles, the racing contestant, run by the
//! referee's hook after its check: `jail::checked`). A failure that is the attack working
//! says `THE ATTACK WORKED`.

use crate::common;

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

/// A contestant's folder `<base>/contest/champ` with the Makefile `makefile`, the
/// contestant owning `contest` and all in it; the referee run as `who`.
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
        self.spawn_with(args, &[])
    }

    /// Starts `referee build` with `args` and the environment `env` in `base`.
    fn spawn_with(&self, args: &[&str], env: &[(&str, &Path)]) -> Child {
        let mut cmd = Command::new(REFEREE);
        for (key, value) in env {
            cmd.env(key, value);
        }
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

/// Every entry of `dir` (links not followed), with its kind, size, owner and mode: what a
/// build that failed must leave as it was.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            out.push(format!(
                "{} {:?} {} {}:{} {:o}",
                path.strip_prefix(dir).unwrap().display(),
                meta.file_type(),
                if meta.is_dir() { 0 } else { meta.len() },
                meta.uid(),
                meta.gid(),
                meta.mode()
            ));
            if meta.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Free bytes and free inodes of the file system holding `dir`.
fn free(dir: &Path) -> (u64, u64) {
    let vfs = nix::sys::statvfs::statvfs(dir).unwrap();
    (
        vfs.blocks_available() as u64 * vfs.fragment_size() as u64,
        vfs.files_available() as u64,
    )
}

/// Runs the build of `makefile` as `who`, expecting it to fail for having filled its tmpfs
/// (`bound`, in the message with `--disk`), the folder as it was and the disk holding
/// nothing of it (less than 512 MiB and 100,000 inodes lost while it ran, of the 2 GiB or
/// 500,000 files the attacks write: a wide margin for other work on the machine).
fn assert_bounded(who: Who, makefile: &str, bound: &str) {
    let t = Contest::new(who, makefile.trim_end_matches(".mk"), makefile);
    let before = (listing(&t.champ), free(&t.base));
    let out = t.run(&["contest/champ", "--wall", "240"]);
    let after = (listing(&t.champ), free(&t.base));
    assert_eq!(
        after.0,
        before.0,
        "THE ATTACK WORKED: the build's files reached the folder\n{}",
        shown(&out)
    );
    let lost = (
        before.1 .0.saturating_sub(after.1 .0),
        before.1 .1.saturating_sub(after.1 .1),
    );
    assert!(
        lost.0 < 512 << 20 && lost.1 < 100_000,
        "THE ATTACK WORKED: the disk lost {} MiB and {} inodes to the build\n{}",
        lost.0 >> 20,
        lost.1,
        shown(&out)
    );
    assert_eq!(out.status.code(), Some(4), "{}", shown(&out));
    let said = shown(&out);
    for needle in [
        format!("FAILED to build {}", Path::new("contest/champ").display()),
        "it filled its tmpfs".to_string(),
        bound.to_string(),
        "raise --disk".to_string(),
        "nothing was copied back".to_string(),
    ] {
        assert!(said.contains(&needle), "expected `{needle}` in:\n{said}");
    }
}

/// The contestant renames its folder right after the referee opened it and puts a link to a
/// root-only folder in its place (the referee's hook after its check runs `swap.sh`): the
/// build copies the folder it opened (now under its new name) and writes back there, every
/// file the contestant's, and never touches the folder the link names.
#[test]
fn build_01_a_folder_swapped_for_a_link_after_its_check_gives_nothing_elsewhere() {
    common::users::each_run("attacks_build", "build_01", |who| {
        let t = Contest::new(who, "swap", "plain.mk");
        let victim = t.base.join("victim");
        fs::create_dir(&victim).unwrap();
        fs::write(victim.join("secret"), "the operator's\n").unwrap();
        fs::set_permissions(victim.join("secret"), fs::Permissions::from_mode(0o600)).unwrap();
        fs::set_permissions(&victim, fs::Permissions::from_mode(0o700)).unwrap();
        let before = listing(&victim);
        let out = t
            .spawn_with(
                &["contest/champ", "--wall", "120"],
                &[
                    (jail::checked::AFTER_CHECK_VARIABLE, &fixture("swap.sh")),
                    ("VICTIM", &victim),
                ],
            )
            .wait_with_output()
            .unwrap();
        assert!(
            fs::symlink_metadata(&t.champ).is_ok_and(|m| m.file_type().is_symlink()),
            "the contestant did not swap its folder (the test shows nothing)\n{}",
            shown(&out)
        );
        assert_eq!(
            listing(&victim),
            before,
            "THE ATTACK WORKED: the build wrote into {}, which the link names\n{}",
            victim.display(),
            shown(&out)
        );
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
        let real = t.base.join("contest/champ.real");
        assert!(
            real.join("champion").is_file() && real.join("out/made").is_file(),
            "the build's files are not in the folder opened\n{}",
            shown(&out)
        );
        let (found, count) = t.not_owned(&real);
        assert_eq!(
            count,
            0,
            "the build's files are not the contestant's: {found:?}\n{}",
            shown(&out)
        );
    });
}

/// A folder that an older version left handed over to a build's uid (its referee was
/// killed during the build; its record of the owners is in the referee's state): the next
/// `referee build` of it gives every file back to the contestant first, says so, then
/// builds it. Only as root: a user's build never had a uid to hand a folder to.
#[test]
fn build_02_a_folder_left_handed_over_by_an_older_version_is_given_back() {
    common::users::each_run("attacks_build", "build_02", |who| {
        if who != Who::Root {
            common::skip_by_design(
                "build_02 as a user: only root's builds handed folders to a uid (the root run \
                 covers it)",
            );
            return;
        }
        let t = Contest::new(who, "older", "plain.mk");
        fs::create_dir(t.champ.join("src")).unwrap();
        fs::write(t.champ.join("src/main.c"), "int main(void) { return 0; }\n").unwrap();
        let build_uid = 200_777;
        let mut record = format!("uid {build_uid}\nowner {} {}\n", t.owner.0, t.owner.1);
        let mut stack = vec![t.champ.clone()];
        while let Some(path) = stack.pop() {
            let meta = fs::symlink_metadata(&path).unwrap();
            record.push_str(&format!(
                "{} {} {} {}\n",
                meta.dev(),
                meta.ino(),
                t.owner.0,
                t.owner.1
            ));
            std::os::unix::fs::lchown(&path, Some(build_uid), Some(build_uid)).unwrap();
            if meta.is_dir() {
                stack.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            }
        }
        let state = common::state_home().join("prologin-referee/builds");
        fs::create_dir_all(&state).unwrap();
        fs::set_permissions(&state, fs::Permissions::from_mode(0o700)).unwrap();
        let top = fs::metadata(&t.champ).unwrap();
        let file = state.join(format!("{}-{}", top.dev(), top.ino()));
        fs::write(&file, record).unwrap();

        let out = t.run(&["contest/champ", "--wall", "120"]);
        let (found, count) = t.not_owned(&t.champ);
        assert_eq!(
            count,
            0,
            "a folder left to a build's uid was not given back: {found:?}\n{}",
            shown(&out)
        );
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
        assert!(t.champ.join("champion").is_file(), "{}", shown(&out));
        assert!(
            common::text(&out.stderr).contains("did not give it back"),
            "the recovery is not said\n{}",
            shown(&out)
        );
        assert!(!file.exists(), "the record is left behind\n{}", shown(&out));
    });
}

/// The tests that make hundreds of thousands of files, one at a time: those that measure the
/// disk's free space and inodes around a build must not count another test's files.
fn disk_heavy() -> common::Heavy {
    common::heavy()
}

/// A build making 200,100 files (within `--disk 1024`): every one is copied back, the
/// contestant's, and nothing tells the operator to run the contestant's Makefile on the
/// host.
#[test]
fn build_03_a_build_making_many_files_gets_them_all_back() {
    let _disk = disk_heavy();
    common::users::each_run("attacks_build", "build_03", |who| {
        let t = Contest::new(who, "many", "manyfiles.mk");
        let out = t.run(&["contest/champ", "--wall", "240", "--disk", "1024"]);
        assert!(out.status.success(), "the build failed\n{}", shown(&out));
        let (found, count) = t.not_owned(&t.champ);
        assert_eq!(
            count,
            0,
            "{count} built file(s) are not the contestant's: {found:?}\n{}",
            shown(&out)
        );
        let made = fs::read_dir(t.champ.join("d")).unwrap().count();
        assert_eq!(made, 200_100, "not every file came back\n{}", shown(&out));
        assert!(
            !shown(&out).contains("make -C"),
            "the referee tells the operator to run the contestant's Makefile on the host\n{}",
            shown(&out)
        );
    });
}

/// A Makefile that writes 2 GiB: the build fails naming its bound (`--disk`, 512 MiB by
/// default), the folder is as it was and the organiser's disk lost nothing of it.
#[test]
fn build_04_a_build_writing_2_gib_fills_only_its_tmpfs() {
    let _disk = disk_heavy();
    common::users::each_run("attacks_build", "build_04", |who| {
        assert_bounded(who, "fill_disk.mk", "more than 512 MiB");
    });
}

/// A Makefile that makes 500,000 empty files: the build fails naming its bound of files
/// (131,072 under `--disk 512`), the folder is as it was and the organiser's disk lost
/// none of its inodes to it.
#[test]
fn build_05_a_build_making_500000_files_fills_only_its_tmpfs() {
    let _disk = disk_heavy();
    common::users::each_run("attacks_build", "build_05", |who| {
        assert_bounded(who, "half_million.mk", "more than 131072 files and folders");
    });
}

/// The contestant's folder holds `escape`, a link to a folder out of it (standing for
/// `/etc`: a folder of root's); the build replaces it with a folder holding a file, and
/// makes a link to `/etc` with a file written through it. Nothing is written where either
/// link points (the copy back reaches the folder's entries through no link: `escape` is
/// named as not copied back), the build's program is copied back, and the organiser's
/// `/etc` holds nothing new.
#[test]
fn build_06_a_build_writing_through_a_link_writes_nothing_elsewhere() {
    common::users::each_run("attacks_build", "build_06", |who| {
        let t = Contest::new(who, "links", "link_out.mk");
        let victim = t.base.join("victim-etc");
        fs::create_dir(&victim).unwrap();
        std::os::unix::fs::symlink(&victim, t.champ.join("escape")).unwrap();
        std::os::unix::fs::lchown(t.champ.join("escape"), Some(t.owner.0), Some(t.owner.1))
            .unwrap();
        let out = t.run(&["contest/champ", "--wall", "120"]);
        assert_eq!(
            listing(&victim),
            Vec::<String>::new(),
            "THE ATTACK WORKED: the copy back followed the folder's link\n{}",
            shown(&out)
        );
        assert!(
            !Path::new("/etc/planted-by-a-build").exists(),
            "THE ATTACK WORKED: the build wrote into the organiser's /etc\n{}",
            shown(&out)
        );
        assert!(
            fs::symlink_metadata(t.champ.join("etc")).is_err(),
            "a link the build made was copied back\n{}",
            shown(&out)
        );
        assert!(t.champ.join("champion").is_file(), "{}", shown(&out));
        assert!(
            shown(&out).contains("escape"),
            "the entry not copied back is not named\n{}",
            shown(&out)
        );
    });
}
