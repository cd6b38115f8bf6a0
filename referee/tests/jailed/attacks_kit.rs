//! Attacks on what a champion's folder is trusted with, through the real `referee` binary,
//! as root and as a user: a contestant folder named `kit` in a flat layout of logins (its
//! `launch.sh` and `champion.mk` must never run for a neighbour, in a match or at `referee
//! build`), a tournament whose output folder lies inside a champion's folder (the champion
//! must read neither `tournament.json` nor any record, of this run or an older one), and
//! hostile Makefiles at `referee build` (network, writes outside the folder, reading
//! another champion, a build that never ends): refused, and reported.
//!
//! Fixtures: `tests/fixtures/kit/` (the hostile kit, the spy, the Makefiles). A failure that
//! is the attack working says `THE ATTACK WORKED`.

use crate::common;

use common::users::Who;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const RUN_TIMEOUT: Duration = Duration::from_secs(300);

fn each_run(test: &str, body: impl Fn(Who)) {
    common::users::each_run("attacks_kit", test, body);
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kit")
        .join(name)
}

fn champions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions")
}

fn write(path: &Path, text: &str, mode: u32) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn copy(from: &Path, to: &Path) {
    let mode = fs::metadata(from).unwrap().permissions().mode();
    write(to, &fs::read_to_string(from).unwrap(), mode);
}

/// A flat layout of contestants' folders (`<dir>/<login>/`), readable by everyone, given
/// to the user running the referee (a user builds only the folders it owns).
struct Final {
    dir: PathBuf,
    who: Who,
}

impl Final {
    fn new(who: Who, name: &str) -> Final {
        Final {
            dir: common::fresh_dir("attacks-kit", name),
            who,
        }
    }

    fn login(&self, name: &str) -> PathBuf {
        let dir = self.dir.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        dir
    }

    /// The folder `kit` of a contestant: its own champion, and a hostile `launch.sh` and
    /// `champion.mk` that leave `mark` if they ever run on the host.
    fn hostile_kit(&self, mark: &Path) -> PathBuf {
        let kit = self.login("kit");
        copy(Path::new(&common::passive()), &kit.join("champion"));
        copy(&fixture("launch.sh"), &kit.join("launch.sh"));
        let mk = fs::read_to_string(fixture("champion.mk")).unwrap();
        write(
            &kit.join("champion.mk"),
            &mk.replace("MARK", &mark.display().to_string()),
            0o644,
        );
        kit
    }

    /// Gives every folder to the user running the referee.
    fn hand_over(&self) {
        if let Who::User(uid, gid) = self.who {
            let status = Command::new("chown")
                .arg("-R")
                .arg(format!("{uid}:{gid}"))
                .arg(&self.dir)
                .status()
                .unwrap();
            assert!(status.success());
        }
    }

    /// Runs the referee with `args` as the test's user, in `cwd`.
    fn referee(&self, args: &[&str], cwd: &Path) -> Output {
        self.referee_with(args, cwd, &[])
    }

    /// [`Final::referee`] with variables `env` added to its environment.
    fn referee_with(&self, args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(REFEREE);
        cmd.args(args)
            .envs(env.iter().copied())
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Who::User(uid, gid) = self.who {
            cmd.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let child = cmd.spawn().expect("the referee starts");
        let pid = child.id() as i32;
        let out = std::thread::spawn(move || child.wait_with_output());
        if !common::wait_exit(pid, RUN_TIMEOUT) {
            // SAFETY: a signal to the child this test started.
            unsafe { nix::libc::kill(pid, nix::libc::SIGKILL) };
        }
        out.join().unwrap().expect("the referee ran")
    }
}

impl Drop for Final {
    fn drop(&mut self) {
        common::remove_dir(&self.dir);
    }
}

fn shown(out: &Output) -> String {
    format!(
        "[{}]\nstdout:\n{}\nstderr:\n{}",
        out.status,
        common::text(&out.stdout),
        common::text(&out.stderr)
    )
}

/// Every `seat*.stderr` under `dir`, concatenated.
fn all_stderr(dir: &Path) -> String {
    let mut text = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "stderr") {
                text.push_str(&fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    text
}

/// A Python champion `<login>/` of `fin` with `launcher` as its `champion`, whose program
/// prints `nonce` on its stderr first.
fn python_victim(fin: &Final, login: &str, launcher: &Path, nonce: &str) {
    let victim = fin.login(login);
    copy(launcher, &victim.join("champion"));
    let program = fs::read_to_string(champions().join("python/random/prologin.py")).unwrap();
    write(
        &victim.join("prologin.py"),
        &format!("import sys\nprint({nonce:?}, file=sys.stderr)\n{program}"),
        0o644,
    );
}

/// Plays `<login>` against the built-ins with `extra` flags; checks that it played its own
/// code (`nonce` on its stderr, no fault) and that the hostile kit did not run.
fn play_victim(fin: &Final, login: &str, nonce: &str, extra: &[&str]) {
    let out_dir = fin.dir.join(format!("out-{login}-{}", extra.len()));
    let mut args = vec![
        "match",
        login,
        "random",
        "greedy",
        "--seed",
        "7",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = fin.referee(&args, &fin.dir);
    let seat0 = fs::read_to_string(out_dir.join("seat0.stderr")).unwrap_or_default();
    assert!(
        !seat0.contains("HOSTILE KIT RAN"),
        "THE ATTACK WORKED: the neighbour's kit ran for {login} {extra:?}\n{seat0}\n{}",
        shown(&out)
    );
    assert!(out.status.success(), "the match failed\n{}", shown(&out));
    assert!(
        seat0.contains(nonce),
        "{login} did not play its own code\n{seat0}\n{}",
        shown(&out)
    );
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out_dir.join("record.json")).unwrap()).unwrap();
    let faults: Vec<_> = record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == 0)
        .collect();
    assert!(faults.is_empty(), "{login} faulted: {faults:?}");
}

/// A flat layout where a contestant's login is `kit`: the Python champions beside it play
/// their own code (the hostile `launch.sh` never runs, and cannot read their program):
/// with the kits' launcher, jailed and with the sandbox off (the launcher takes the
/// operator's kits first), and with a launcher of the old kits, which prefers `../kit`
/// (the jail has no such folder). The C champion beside it builds with the operator's kit
/// at `referee build` (the hostile `champion.mk` leaves no mark), then plays.
#[test]
fn kit_01_a_folder_named_kit_never_runs_for_its_neighbours() {
    each_run("kit_01", |who| {
        let fin = Final::new(who, "flat");
        let mark = fin.dir.join("HOSTILE-MARK");
        fin.hostile_kit(&mark);
        let nonce = format!("victim-own-code-{}", std::process::id());
        let launcher = champions().join("python/random/champion");
        python_victim(&fin, "victim", &launcher, &nonce);
        python_victim(&fin, "oldvictim", &fixture("old-launcher"), &nonce);
        let cvictim = fin.login("cvictim");
        for file in ["Makefile", "prologin.c"] {
            copy(
                &champions().join("c/random").join(file),
                &cvictim.join(file),
            );
        }
        fin.hand_over();

        play_victim(&fin, "victim", &nonce, &[]);
        play_victim(&fin, "oldvictim", &nonce, &[]);
        play_victim(&fin, "victim", &nonce, &["--sandbox", "off"]);

        let built = fin.referee(&["build", "cvictim"], &fin.dir);
        assert!(
            !mark.exists() && !common::text(&built.stdout).contains("HOSTILE"),
            "THE ATTACK WORKED: the neighbour's champion.mk ran at the build\n{}",
            shown(&built)
        );
        assert!(
            built.status.success(),
            "the build failed\n{}",
            shown(&built)
        );
        let champion = cvictim.join("champion");
        let text = fs::read(&champion).unwrap_or_default();
        assert!(
            text.starts_with(b"\x7fELF"),
            "the build did not make the C champion\n{}",
            shown(&built)
        );
        let owner = fs::metadata(&cvictim).unwrap().uid();
        assert_eq!(
            fs::metadata(&champion).unwrap().uid(),
            owner,
            "the built champion was not given to the folder's owner"
        );
        let played = fin.referee(
            &["match", "cvictim", "random", "greedy", "--seed", "7"],
            &fin.dir,
        );
        assert!(played.status.success(), "{}", shown(&played));
        assert!(!mark.exists(), "THE ATTACK WORKED: the hostile kit ran");
    });
}

/// By hand on the host, with the operator's kits named (`PROLOGIN_KITS`), a Makefile copied
/// from a kit takes the kit from there, never the `kit` folder beside its own.
#[test]
fn kit_02_a_host_build_takes_the_operators_kit_first() {
    let fin = Final::new(Who::Me, "host-make");
    let mark = fin.dir.join("HOSTILE-MARK");
    fin.hostile_kit(&mark);
    let cvictim = fin.login("cvictim");
    for file in ["Makefile", "prologin.c"] {
        copy(
            &champions().join("c/random").join(file),
            &cvictim.join(file),
        );
    }
    let kits = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kits");
    let out = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&cvictim)
        .env("PROLOGIN_KITS", &kits)
        .output()
        .expect("make runs");
    assert!(
        !mark.exists(),
        "THE ATTACK WORKED: the neighbour's champion.mk ran on the host\n{}",
        shown(&out)
    );
    assert!(out.status.success(), "make failed\n{}", shown(&out));
}

/// A tournament whose output folder lies inside a champion's folder (run from there), and
/// older results left in it: the champion reads neither `tournament.json` (the seed) nor
/// any record, of this run or the older ones.
#[test]
fn kit_03_results_inside_a_champions_folder_stay_hidden_in_a_tournament() {
    each_run("kit_03", |who| {
        let fin = Final::new(who, "results-inside");
        let spy = fin.login("spy");
        copy(&fixture("spy.sh"), &spy.join("champion"));
        let seed = "424242424242";
        write(
            &spy.join("old/club/tournament.json"),
            "{\"seed\": \"OLD-SEED-SECRET\"}\n",
            0o644,
        );
        write(
            &spy.join("old/club/matches/0/record.json"),
            "OLD-RECORD-SECRET\n",
            0o644,
        );
        write(
            &spy.join("results/matches/1-a-b/record.json"),
            "OLD-MATCH-SECRET\n",
            0o644,
        );
        fin.hand_over();
        let out = fin.referee(
            &[
                "tournament",
                "champion",
                "random",
                "greedy",
                "--seed",
                seed,
                "--name",
                "club",
                "--jobs",
                "1",
                "--time-scale",
                "0.5",
            ],
            &spy,
        );
        assert!(
            out.status.success(),
            "the tournament failed\n{}",
            shown(&out)
        );
        let seen = all_stderr(&spy.join("results/club"));
        assert!(seen.contains("SPY RAN"), "the spy did not run\n{seen}");
        // Results written into the champion's folder itself: refused, saying why. Its
        // reproduce command (which writes under `results/`) plays, so it is kept out of the
        // suite's reproduce pass.
        let own = fin.referee_with(
            &["match", "champion", "random", "greedy", "--out", "."],
            &spy,
            &[("REFEREE_REPRODUCE_LOG", "/dev/null")],
        );
        assert!(own.status.success(), "{}", shown(&own));
        let record = fs::read_to_string(spy.join("record.json")).unwrap_or_default();
        assert!(
            record.contains("spawn") && record.contains("the champion's own folder"),
            "results written into the champion's folder were not refused\n{record}\n{}",
            shown(&own)
        );
        let seen = seen + &fs::read_to_string(spy.join("seat0.stderr")).unwrap_or_default();
        for secret in [
            seed,
            "tournament.json",
            "record.json",
            "OLD-SEED-SECRET",
            "OLD-RECORD-SECRET",
            "OLD-MATCH-SECRET",
        ] {
            assert!(
                !seen.contains(secret),
                "THE ATTACK WORKED: the champion read `{secret}` in its folder\n{seen}"
            );
        }
    });
}

/// Hostile Makefiles at `referee build`: the network, writes outside the folder, reading
/// another champion, a build that never ends. Each build fails and says why, with its
/// output escaped; nothing of the host changed.
#[test]
fn kit_04_a_hostile_makefile_is_held_in_its_jail() {
    each_run("kit_04", |who| {
        let fin = Final::new(who, "makefiles");
        let victim = fin.login("victim");
        let secret = format!("victim-secret-{}", std::process::id());
        write(&victim.join("prologin.py"), &format!("# {secret}\n"), 0o644);
        let outside = fin.dir.join("OUTSIDE-MARK");
        let kits_c = champions().join("c/kit");
        let before: Vec<_> = fs::read_dir(&kits_c)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        for (name, fixture_name) in [
            ("network", "network.mk"),
            ("outside", "outside.mk"),
            ("reader", "reader.mk"),
            ("spin", "spin.mk"),
        ] {
            let dir = fin.login(name);
            let text = fs::read_to_string(fixture(fixture_name))
                .unwrap()
                .replace("OUTSIDE", &outside.display().to_string())
                .replace(
                    "NEIGHBOUR",
                    &victim.join("prologin.py").display().to_string(),
                );
            write(&dir.join("Makefile"), &text, 0o644);
        }
        fin.hand_over();
        let build = |name: &str, extra: &[&str]| {
            let mut args = vec!["build", name];
            args.extend(extra);
            let out = fin.referee(&args, &fin.dir);
            assert_eq!(
                out.status.code(),
                Some(4),
                "the build of {name} did not fail as a build\n{}",
                shown(&out)
            );
            let stdout = common::text(&out.stdout);
            assert!(
                stdout.contains(&format!("FAILED to build {name}")),
                "no failure reported for {name}\n{}",
                shown(&out)
            );
            out
        };

        let out = build("network", &[]);
        let stdout = common::text(&out.stdout);
        assert!(
            !stdout.contains("NETWORK REACHED"),
            "THE ATTACK WORKED: the build reached the network\n{}",
            shown(&out)
        );
        assert!(
            stdout.contains("OSError") || stdout.contains("Error"),
            "the refusal is not shown\n{}",
            shown(&out)
        );

        let out = build("outside", &[]);
        let stdout = common::text(&out.stdout);
        assert!(
            !outside.exists()
                && !fin.dir.join("pwned.txt").exists()
                && !kits_c.join("pwned.txt").exists(),
            "THE ATTACK WORKED: the build wrote outside its folder\n{}",
            shown(&out)
        );
        let after: Vec<_> = fs::read_dir(&kits_c)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert_eq!(before.len(), after.len(), "the kit changed");
        assert!(
            stdout.contains("\\x1b]0;pwned") && !stdout.contains('\u{1b}'),
            "the build's output is not escaped\n{}",
            shown(&out)
        );

        let out = build("reader", &[]);
        let stolen = fs::read_to_string(fin.dir.join("reader/stolen.txt")).unwrap_or_default();
        assert!(
            !stolen.contains(&secret) && !common::text(&out.stdout).contains(&secret),
            "THE ATTACK WORKED: the build read another champion\n{}",
            shown(&out)
        );

        let out = build("spin", &["--cpu", "1", "--wall", "60"]);
        assert!(
            common::text(&out.stdout).contains("CPU"),
            "the CPU bound is not named\n{}",
            shown(&out)
        );
    });
}
