//! A champion's environment through `referee match`, jailed and not: exactly the variables
//! that protocol.md section 6 lists (read from protocol.md itself, not copied here), with
//! the values it gives.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The variable names of protocol.md section 6's "Environment" list: the backquoted names
/// that open each of its items (`HOME` and `TMPDIR` share one), but those of an item
/// marked "(without the jail only)" when `jailed`, and those passed on only when set.
fn documented_names(jailed: bool) -> Vec<String> {
    let protocol =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol.md"))
            .unwrap();
    let section = protocol
        .split_once("## 6. Process life")
        .and_then(|(_, rest)| rest.split_once("## 7."))
        .expect("protocol.md has a section 6")
        .0;
    let list = section
        .split_once("**Environment**")
        .expect("section 6 has an Environment item")
        .1;
    let mut names = Vec::new();
    for line in list.lines().skip(1) {
        let Some(item) = line.strip_prefix("  - ") else {
            if line.starts_with("- ") {
                break; // the next item of section 6
            }
            continue;
        };
        let head = item.split_once(':').map_or(item, |(head, _)| head);
        if jailed && head.contains("(without the jail only)") {
            continue;
        }
        if head.contains("only when it is set in the referee's own environment") {
            continue; // the test's referee runs without it (`env_remove` below)
        }
        names.extend(head.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names.sort();
    names
}

/// Plays one match of three `environ.sh` champions and returns whether the referee's
/// sandbox line says the jail was on, and the environment each seat printed.
fn environments(sandbox: &str) -> (bool, Vec<BTreeMap<String, String>>) {
    let champion = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/match/environ.sh")
        .display()
        .to_string();
    let dir = common::fresh_dir("environment", sandbox);
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["match", &champion, &champion, &champion])
        .args(["--seed", "7", "--sandbox", sandbox, "--out"])
        .env_remove("PROLOGIN_PYTHON")
        .arg(&dir)
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "referee match failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let jailed = String::from_utf8_lossy(&output.stderr).contains("sandbox: jail=on");
    let envs = (0..3)
        .map(|seat| {
            let stderr = std::fs::read_to_string(dir.join(format!("seat{seat}.stderr"))).unwrap();
            let (_, rest) = stderr.split_once("environ-begin\n").expect("begin marker");
            let (vars, _) = rest.split_once("environ-end\n").expect("end marker");
            vars.lines()
                .map(|l| {
                    let (k, v) = l.split_once('=').expect("NAME=value");
                    (k.to_string(), v.to_string())
                })
                .collect()
        })
        .collect();
    common::remove_dir(&dir);
    (jailed, envs)
}

fn check(sandbox: &str) {
    let (jailed, envs) = environments(sandbox);
    assert!(
        !(sandbox == "off" && jailed),
        "the jail is on with --sandbox off"
    );
    if sandbox == "auto" && !jailed {
        common::skip_missing("the jail (namespaces) cannot be built here");
    }
    let documented = documented_names(jailed);
    assert!(
        documented.len() >= 6,
        "section 6's list was not found whole: {documented:?}"
    );
    for env in envs {
        let names: Vec<String> = env.keys().cloned().collect();
        assert_eq!(names, documented, "--sandbox {sandbox}: {env:?}");
        assert_eq!(env["PATH"], "/usr/local/bin:/usr/bin:/bin");
        assert_eq!(env["LANG"], "C.UTF-8");
        assert_eq!(env["HOME"], env["TMPDIR"]);
        assert!(env["PROLOGIN_SEED"].parse::<u64>().is_ok(), "{env:?}");
        if jailed {
            assert_eq!(env["HOME"], "/tmp");
            assert_eq!(env["PROLOGIN_KITS"], "/kits");
        } else {
            assert!(!env["PROLOGIN_SANDBOX_TOKEN"].is_empty());
            assert!(Path::new(&env["PROLOGIN_KITS"]).join("python").is_dir());
        }
    }
}

#[test]
fn a_jailed_champion_gets_exactly_the_documented_environment() {
    check("auto");
}

#[test]
fn an_unjailed_champion_gets_exactly_the_documented_environment() {
    check("off");
}
