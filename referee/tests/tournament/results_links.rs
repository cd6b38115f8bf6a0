//! Someone who can write a tournament's results folder (issue 26, round 3, F3), through the
//! binary, as root and as a user: a match dropped whole (one a resume plays again when the
//! run was killed while it played: the run's journal beside the key cut there) and its
//! folder replaced by a symbolic link to a folder only the referee's user may write, or
//! made again with its future files as links to such files. The resume writes nothing
//! through a link: the linked folder is refused, naming it (before the journal names the
//! match deleted), and nothing lands where it points; the links in a match folder are
//! removed and its match played into fresh files, the files pointed to untouched; a linked
//! `snapshots` folder is refused. The attackers are `tests/fixtures/results/link_folder.sh`
//! and `link_files.sh`: files only, no referee code.

use crate::common;

use common::users::Who;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// What the victims hold before the attack.
const PRECIOUS: &str = "precious, the referee's user's own\n";

/// `referee tournament` (random, greedy, passive.sh; two matches) as `who`, into
/// `dir/results/t`, with the key `dir/key`, and `extra` flags.
fn tournament(who: Who, dir: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command.arg("tournament");
    if !extra.contains(&"--resume") {
        command.args(["random", "greedy", &common::shell_champion("passive.sh")]);
    }
    command
        .args([
            "--name", "t", "--seed", "26", "--rounds", "2", "--jobs", "1",
        ])
        .args(["--time-scale", "2", "--results"])
        .arg(dir.join("results"))
        .arg("--key")
        .arg(dir.join("key"))
        .args(extra)
        .stdin(Stdio::null());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// Runs the attacker `script` with `args`, as `who` (a writer of the results, whose files
/// the referee's user can still rewrite).
fn attack(who: Who, script: &str, args: &[&Path]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(script);
    common::run_ok({
        let mut c = Command::new("sh");
        c.arg(script).args(args);
        if let Who::User(uid, gid) = who {
            c.uid(uid).gid(gid);
        }
        c
    });
}

/// A folder `dir/vault` of mode 0700 owned by the referee's user (`who`), holding the
/// victims `v-mac`, `v-record`, `v-s0` and `v-s2`, each [`PRECIOUS`].
fn vault(who: Who, dir: &Path) -> PathBuf {
    let vault = dir.join("vault");
    std::fs::create_dir(&vault).unwrap();
    for name in ["v-mac", "v-record", "v-s0", "v-s2"] {
        std::fs::write(vault.join(name), PRECIOUS).unwrap();
        std::fs::set_permissions(vault.join(name), PermissionsExt::from_mode(0o600)).unwrap();
    }
    std::fs::set_permissions(&vault, PermissionsExt::from_mode(0o700)).unwrap();
    if let Who::User(uid, gid) = who {
        for entry in std::fs::read_dir(&vault).unwrap() {
            std::os::unix::fs::chown(entry.unwrap().path(), Some(uid), Some(gid)).unwrap();
        }
        std::os::unix::fs::chown(&vault, Some(uid), Some(gid)).unwrap();
    }
    vault
}

/// The names in `folder`, sorted.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Match 1's folder replaced by a link to the vault: the resume refuses it, naming it and
/// saying what to do, and writes nothing into the vault, whether the run's journal says
/// the match was played (the link is named before the match deleted) or not (the run
/// killed while it played); once the link is removed, the resume plays the match.
#[test]
fn a_match_folder_replaced_by_a_link_is_refused_and_nothing_is_written_through_it() {
    common::users::each_run_in("results_links", "link_folder", |who, dir| {
        common::succeeded(&common::output(tournament(who, dir, &[])));
        let run = dir.join("results/t");
        let vault = vault(who, dir);
        attack(who, "link_folder.sh", &[&run, Path::new("1"), &vault]);
        let refused_link = || {
            let out: Output = common::output(tournament(who, dir, &["--resume"]));
            let stderr = common::text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "the resume took the link:\n{stderr}"
            );
            let named = format!(
                "{} is not a folder but a symbolic link",
                run.join("matches/1").display()
            );
            assert!(
                stderr.contains(&named) && stderr.contains("remove it and run again"),
                "`{named}` not in:\n{stderr}"
            );
            assert_eq!(
                names(&vault),
                ["v-mac", "v-record", "v-s0", "v-s2"],
                "written into the vault"
            );
            for name in names(&vault) {
                assert_eq!(
                    std::fs::read_to_string(vault.join(&name)).unwrap(),
                    PRECIOUS
                );
            }
        };
        refused_link();
        common::tables::cut_journal(&dir.join("key"), &["1"]);
        refused_link();
        std::fs::remove_file(run.join("matches/1")).unwrap();
        common::succeeded(&common::output(tournament(who, dir, &["--resume"])));
        assert_eq!(common::tables::untimed(&run.join("matches.csv")).len(), 2);
    });
}

/// Match 1's folder made again with its files as links to the vault's, after the run was
/// killed while match 1 played (its journal cut there): the resume refuses the link in
/// place of the match's seal, naming it; once it is removed (what the message says), the
/// resume removes the other links (not what they point to), plays the match into fresh
/// files, and ends as a whole run; the vault's files keep their bytes.
#[test]
fn links_left_in_a_match_folder_are_refused_or_removed_never_written_through() {
    common::users::each_run_in("results_links", "link_files", |who, dir| {
        common::succeeded(&common::output(tournament(who, dir, &[])));
        let run = dir.join("results/t");
        let vault = vault(who, dir);
        common::tables::cut_journal(&dir.join("key"), &["1"]);
        attack(who, "link_files.sh", &[&run, Path::new("1"), &vault]);
        let out: Output = common::output(tournament(who, dir, &["--resume"]));
        let stderr = common::text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "the resume took the links:\n{stderr}"
        );
        let named = format!("{} is a symbolic link", run.join("matches/1/mac").display());
        assert!(
            stderr.contains(&named) && stderr.contains("remove it and run again"),
            "`{named}` not in:\n{stderr}"
        );
        std::fs::remove_file(run.join("matches/1/mac")).unwrap();
        common::succeeded(&common::output(tournament(who, dir, &["--resume"])));
        for name in names(&vault) {
            assert_eq!(
                std::fs::read_to_string(vault.join(&name)).unwrap(),
                PRECIOUS,
                "{name} was written through its link"
            );
        }
        for name in ["mac", "record.json", "seat0.stderr", "seat2.stderr"] {
            let meta = std::fs::symlink_metadata(run.join("matches/1").join(name)).unwrap();
            assert!(meta.is_file(), "matches/1/{name} is not a file of its own");
        }
        assert_eq!(common::tables::untimed(&run.join("matches.csv")).len(), 2);
    });
}

/// A link to the vault put where a run's champion snapshots will go (`snapshots`, in the
/// folder of a run named in advance): the tournament refuses it, naming it, and copies
/// nothing into the vault nor changes its mode.
#[test]
fn a_snapshots_folder_replaced_by_a_link_is_refused() {
    common::users::each_run_in("results_links", "link_snapshots", |who, dir| {
        let vault = vault(who, dir);
        let run = dir.join("results/t");
        std::fs::create_dir_all(&run).unwrap();
        if let Who::User(uid, gid) = who {
            for folder in [dir.join("results"), run.clone()] {
                std::os::unix::fs::chown(folder, Some(uid), Some(gid)).unwrap();
            }
        }
        std::os::unix::fs::symlink(&vault, run.join("snapshots")).unwrap();
        let out: Output = common::output(tournament(who, dir, &[]));
        let stderr = common::text(&out.stderr);
        assert!(!out.status.success(), "the run took the link:\n{stderr}");
        let named = format!(
            "{} is not a folder but a symbolic link",
            run.join("snapshots").display()
        );
        assert!(stderr.contains(&named), "`{named}` not in:\n{stderr}");
        assert_eq!(
            names(&vault),
            ["v-mac", "v-record", "v-s0", "v-s2"],
            "copied into the vault"
        );
        let mode = std::fs::metadata(&vault).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "the vault's mode was changed");
    });
}

/// A seat's stderr replaced by a link to the vault's file, and the match's replay page
/// removed, before a resume that writes the index (`--html`): the page is written again
/// without the vault's bytes (the link is not read), and the vault's file keeps them.
#[test]
fn a_linked_stderr_file_is_not_read_into_a_replay_page() {
    common::users::each_run_in("results_links", "link_stderr", |who, dir| {
        common::succeeded(&common::output(tournament(who, dir, &["--html"])));
        let vault = vault(who, dir);
        let folder = dir.join("results/t/matches/1");
        std::fs::remove_file(folder.join("replay.html")).unwrap();
        std::fs::remove_file(folder.join("seat0.stderr")).unwrap();
        std::os::unix::fs::symlink(vault.join("v-s0"), folder.join("seat0.stderr")).unwrap();
        common::succeeded(&common::output(tournament(
            who,
            dir,
            &["--resume", "--html"],
        )));
        let page = std::fs::read_to_string(folder.join("replay.html")).unwrap();
        assert!(
            !page.contains("precious"),
            "the vault's file was read into the page"
        );
        assert_eq!(
            std::fs::read_to_string(vault.join("v-s0")).unwrap(),
            PRECIOUS
        );
    });
}
