//! A champion's files swapped between the referee's check and its jail's start, through
//! the binary, as root and as a user: the jail binds only what was checked (its device and
//! inode, compared by the jail's init with what it opens through no link), so a run whose
//! snapshot folder is swapped right after its check before a start stops, naming the
//! folder, and nothing of the swapped-in folder runs. The swap is made by the referee's
//! hook after a check (`jail::checked`, in test builds only), the moment being too short
//! to hit from outside reliably. The message of an attack that works says
//! `THE ATTACK WORKED`.
//!
//! Fixture: `tests/fixtures/redteam/swap_checked.sh`.

use crate::common;

use common::users::Who;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

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
                && !path.ends_with("champion")
                && std::fs::read(&path).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle))
            {
                found.push(path);
            }
        }
    }
    found
}

/// A tournament of the folder champion `alpha` (the passive shell champion), random and
/// greedy: its snapshot folder is swapped for a fake right after its check before the
/// first match's start (the pre-run check played it as it was). The run stops (exit 1) naming the snapshot's folder as not what
/// was checked, no seat's stderr holds the fake's words, and no match was counted.
#[test]
fn a_snapshot_folder_swapped_after_its_check_is_never_bound() {
    common::users::each_run_in("redteam_checked", "snapshot_swap", |who, dir| {
        let alpha = dir.join("alpha");
        std::fs::create_dir(&alpha).unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::copy(
            repo.join("../champions/shell/passive.sh"),
            alpha.join("champion"),
        )
        .unwrap();
        common::chmod(&alpha.join("champion"), 0o755);
        common::chmod(&alpha, 0o755);
        let results = dir.join("res");
        let hook = repo.join("tests/fixtures/redteam/swap_checked.sh");
        let mut command = Command::new(REFEREE);
        command
            .arg("tournament")
            .arg(&alpha)
            .args([
                "random", "greedy", "--name", "t", "--seed", "7", "--rounds", "1",
            ])
            .args(["--jobs", "1", "--results"])
            .arg(&results)
            .env(jail::checked::AFTER_CHECK_VARIABLE, &hook)
            .env("SWAP_COUNT", dir.join("count"))
            .env_remove(referee::reproduce_log::VARIABLE)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let out = command.output().unwrap();
        let said = common::text(&out.stderr);
        let t = results.join("t");
        let swapped: Vec<PathBuf> = std::fs::read_dir(t.join("snapshots"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "checked"))
            .collect();
        let ran = files_holding(&t, "THE FAKE RAN");
        assert!(
            ran.is_empty(),
            "THE ATTACK WORKED: the folder swapped in after the check ran: {ran:?}\n{said}"
        );
        assert_eq!(
            swapped.len(),
            1,
            "the hook did not swap the snapshot (the test shows nothing)\n{said}"
        );
        let folder = swapped[0].with_extension("");
        assert_eq!(out.status.code(), Some(1), "{said}");
        for needle in [
            "champion `alpha` cannot be started from its snapshot".to_string(),
            format!(
                "{}: it is no longer what the referee checked",
                folder.canonicalize().unwrap().display()
            ),
        ] {
            assert!(said.contains(&needle), "expected `{needle}` in: {said}");
        }
        let rows = std::fs::read_to_string(t.join("matches.csv")).unwrap_or_default();
        assert!(rows.lines().count() <= 1, "a match was counted: {rows}");
    });
}
