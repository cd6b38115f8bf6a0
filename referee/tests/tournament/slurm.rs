//! The Slurm path run for real: a one-node cluster on this machine
//! (`scripts/slurm-local.sh`: munged, slurmctld, slurmd, a generated slurm.conf), a
//! tournament submitted as 3 shards with the organiser's one command
//! (`scripts/slurm-tournament.sh submit`), its merged results compared with a single
//! machine's run of the same seed; then one task cancelled with `scancel` in the middle of
//! a match, re-submitted alone by its index, and the results compared again. Every daemon
//! started is stopped, also when the test fails.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The cluster, stopped when dropped (a failed assertion unwinds through it).
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let out = Command::new(repo().join("scripts/slurm-local.sh"))
            .arg("start")
            .arg(dir)
            .output()
            .unwrap();
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
        };
        assert!(
            out.status.success(),
            "the cluster did not start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster
    }

    /// A command of the cluster's clients (or of the organiser's script).
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env("SLURM_CONF", &self.conf)
            .env("REFEREE", REFEREE)
            .current_dir(repo())
            .stdin(Stdio::null());
        command
    }

    /// Waits until no job of the cluster is pending or running.
    fn wait_idle(&self, timeout: Duration) {
        let start = Instant::now();
        loop {
            let out = self
                .command("squeue")
                .args(["-h", "-o", "%i %T"])
                .output()
                .unwrap();
            let queue = String::from_utf8_lossy(&out.stdout).to_string();
            if out.status.success() && queue.trim().is_empty() {
                return;
            }
            assert!(
                start.elapsed() < timeout,
                "jobs still queued after {timeout:?}:\n{queue}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(repo().join("scripts/slurm-local.sh"))
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// Whether Slurm can run here; if not, says why (a failure under CI=true).
fn slurm_ready() -> bool {
    // SAFETY: no arguments.
    if unsafe { nix::libc::geteuid() } != 0 {
        common::skip_by_design(
            "slurm: a one-node cluster needs root (slurmd starts each job as its user); the \
             root run of the suite runs it",
        );
        return false;
    }
    let missing: Vec<&str> = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scancel",
    ]
    .into_iter()
    .filter(|tool| {
        !Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool} || test -x /usr/sbin/{tool}"))
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
    .collect();
    if !missing.is_empty() {
        common::skip_missing(&format!(
            "slurm: {} not installed (apt-get install slurm-wlm munge; scripts/ci-install.sh)",
            missing.join(", ")
        ));
        return false;
    }
    true
}

#[test]
fn a_tournament_on_slurm_equals_a_single_run_also_after_a_cancelled_task_is_rerun() {
    if !slurm_ready() {
        return;
    }
    let dir = common::fresh_dir("slurm", "cluster");
    let cluster = Cluster::start(&dir.join("cluster"));
    let results = dir.join("results");
    // slow.sh sits in half the matches: a shard lasts long enough to be cancelled mid-match.
    let champions = [
        "random".to_string(),
        "greedy".to_string(),
        repo()
            .join("referee/tests/fixtures/tournament/slow.sh")
            .display()
            .to_string(),
        repo()
            .join("champions/shell/passive.sh")
            .display()
            .to_string(),
    ];
    let flags = ["--rounds", "6", "--time-scale", "2"];

    let mut single = Command::new(REFEREE);
    single
        .arg("tournament")
        .args(&champions)
        .args(flags)
        .args([
            "--seed",
            "77",
            "--name",
            "single",
            "--jobs",
            "2",
            "--results",
        ])
        .arg(&results)
        .stdin(Stdio::null());
    common::run_ok(single);

    let submit = |name: &str| {
        let mut c = cluster.command(repo().join("scripts/slurm-tournament.sh"));
        c.args([
            "submit", name, "--seed", "77", "--shards", "3", "--cpus", "1", "--",
        ])
        .args(&champions)
        .args(flags)
        .env("RESULTS", &results);
        let out = common::run_ok(c);
        String::from_utf8(out.stdout).unwrap()
    };

    // Submitted with the one command, merged by the job it submitted.
    let said = submit("whole");
    assert!(
        said.contains("shards 1-3 of 3 as job") && said.contains("scancel "),
        "{said}"
    );
    cluster.wait_idle(Duration::from_secs(300));
    // The jobs' logs are beside the key, never in the results.
    let logs = common::default_key(&results.join("whole")).with_extension("slurm-logs");
    assert!(!results.join("whole/slurm").exists());
    let log = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("shard-1."))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .expect("a log of shard 1 beside the key");
    // The jail inside a job step: its layers are said (and kept in every record).
    let sandbox = log
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .unwrap_or("");
    eprintln!("in a Slurm job step: {sandbox}");
    assert!(sandbox.contains("jail="), "{log}");
    assert_eq!(
        common::tables::untimed_tables(&results.join("single")),
        common::tables::untimed_tables(&results.join("whole")),
        "the merged shards differ from a single run"
    );

    // A task cancelled in the middle of a match: no result of it is kept, the merge does
    // not run, and the task submitted again alone (by its index) completes it.
    let said = submit("cut");
    let job = said
        .split("as job ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .expect("the array job's id")
        .to_string();
    let shard2 = results.join("cut/shard-2-of-3");
    common::wait_until("shard 2 never played", Duration::from_secs(120), || {
        common::tables::played(&shard2) >= 2
    });
    common::run_ok({
        let mut c = cluster.command("scancel");
        c.arg(format!("{job}_2"));
        c
    });
    // Only the cancelled task is waited for: the others play on, and the merge of the
    // re-run below must wait for them too.
    common::wait_until(
        "the cancelled task is still queued",
        Duration::from_secs(60),
        || {
            let out = cluster
                .command("squeue")
                .args(["-h", "-j", &format!("{job}_2")])
                .output()
                .unwrap();
            out.status.success() && out.stdout.is_empty()
        },
    );
    // The logs are beside the key, never in the results.
    let logs = common::default_key(&results.join("cut")).with_extension("slurm-logs");
    let log = std::fs::read_to_string(logs.join(format!("shard-2.{job}.log"))).unwrap();
    assert!(
        log.contains("SIGTERM: stopping") && log.contains("1 match(es) in flight abandoned"),
        "the cancelled task's log:\n{log}"
    );
    let played = common::tables::played(&shard2);
    assert!(played < 8, "shard 2 finished before it was cancelled");
    let text = std::fs::read_to_string(shard2.join("matches.csv")).unwrap();
    assert!(
        !text.contains("crash"),
        "a cancelled match was kept:\n{text}"
    );
    assert!(
        !results.join("cut/leaderboard.csv").exists(),
        "the merge ran after a cancelled shard"
    );
    let status = common::run_ok({
        let mut c = Command::new(REFEREE);
        c.arg("status").arg(results.join("cut"));
        c
    });
    let status = String::from_utf8(status.stdout).unwrap();
    assert!(
        status.contains(&format!(
            "shard 2/3: {played}/8 matches, faults 0, stopped without finishing"
        )) && status.contains("stopped without finishing: shard 2/3; run each again"),
        "{status}"
    );
    common::run_ok({
        let mut c = cluster.command(repo().join("scripts/slurm-tournament.sh"));
        c.args(["rerun", "cut", "2"]).env("RESULTS", &results);
        c
    });
    cluster.wait_idle(Duration::from_secs(300));
    assert_eq!(
        common::tables::untimed_tables(&results.join("single")),
        common::tables::untimed_tables(&results.join("cut")),
        "after a cancelled shard re-run, the merged results differ from a single run"
    );
    drop(cluster);
}

/// `submit` refuses before submitting anything, with a message naming the problem: run
/// with stand-ins for `sinfo` (a cluster of two nodes of 2 CPUs) and `sbatch` (which notes
/// that it was called), so no cluster is needed.
#[test]
fn submit_refuses_before_submitting_anything() {
    let dir = common::fresh_dir("slurm", "refusals");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let called = dir.join("sbatch-was-called");
    for (name, body) in [
        (
            "sinfo",
            "case \"$*\" in *%N*) printf 'node1\\nnode2\\n' ;; *%c*) echo 2 ;; esac".to_string(),
        ),
        ("sbatch", format!("touch {}; echo 1", called.display())),
    ] {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let fixture = |name: &str| {
        repo()
            .join("referee/tests/fixtures/tournament")
            .join(name)
            .display()
            .to_string()
    };
    let submit = |referee: &str, options: &[&str], champions: &[String]| {
        let out = Command::new(repo().join("scripts/slurm-tournament.sh"))
            .arg("submit")
            .arg("t")
            .args(options)
            .arg("--")
            .args(champions)
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .env("REFEREE", referee)
            .env("RESULTS", dir.join("results"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(!called.exists(), "sbatch was called: {out:?}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let good = [
        "random".to_string(),
        "greedy".into(),
        repo()
            .join("champions/shell/passive.sh")
            .display()
            .to_string(),
    ];
    let seeded = ["--seed", "1", "--shards", "3"];
    let said = submit(REFEREE, &["--shards", "3"], &good);
    assert!(said.contains("--seed S is required"), "{said}");
    let said = submit("/nonexistent/referee", &seeded, &good);
    assert!(said.contains("/nonexistent/referee is not built"), "{said}");
    let said = submit(REFEREE, &[&seeded[..], &["--cpus", "8"]].concat(), &good);
    assert!(
        said.contains("--cpus 8: the largest node has 2 CPUs"),
        "{said}"
    );
    let said = submit(
        REFEREE,
        &seeded,
        &[&good[..], &["--name".into(), "x".into()]].concat(),
    );
    assert!(said.contains("--name is set by this script"), "{said}");
    let said = submit(
        REFEREE,
        &seeded,
        &[&good[..], &[fixture("broken.sh")]].concat(),
    );
    assert!(
        said.contains("broken.sh") && said.contains("the pre-run check failed"),
        "{said}"
    );
    // Two nodes, and the results on this machine's own filesystem: the other node would
    // not see them.
    let kind = Command::new("stat")
        .args(["-f", "-c", "%T"])
        .arg(&dir)
        .output()
        .unwrap();
    let kind = String::from_utf8_lossy(&kind.stdout).trim().to_string();
    if ["ext2/ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlayfs"].contains(&kind.as_str()) {
        let said = submit(REFEREE, &seeded, &good);
        assert!(
            said.contains("is on a local filesystem") && said.contains("--shared"),
            "{said}"
        );
    } else {
        common::skip_by_design(&format!(
            "slurm: the temporary directory is on {kind}, not a local filesystem: the shared \
             path refusal is not shown here"
        ));
    }
}

/// Stand-ins for `sinfo`, `squeue` and `sbatch` in `dir/bin` (`sbatch` runs each job at
/// once, here, every task of its array in turn, writing its output where `--output` says
/// as Slurm does, following links, and notes its command line and exit in `dir/jobs`; job
/// ids count up from 101, as a cluster's do); returns `bin`, `jobs` and the results folder.
fn fake_slurm(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (bin, jobs, results) = (dir.join("bin"), dir.join("jobs"), dir.join("results"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&jobs).unwrap();
    let sbatch = r#"set -u
array=1 out=/dev/null chdir=.
while [ $# -gt 0 ]; do
  case $1 in
    --array=*) array=${1#--array=} ;;
    --output=*) out=${1#--output=} ;;
    --chdir=*) chdir=${1#--chdir=} ;;
    -*) ;;
    *) break ;;
  esac
  shift
done
n=$(( $(cat "$JOBS/next" 2>/dev/null || echo 100) + 1 ))
echo "$n" >"$JOBS/next"
printf '%s\n' "$*" >>"$JOBS/commands"
for part in ${array//,/ }; do
  for task in $(seq "${part%-*}" "${part#*-}"); do
    log=${out//%A/$n}; log=${log//%a/$task}; log=${log//%j/$n}
    (cd "$chdir" && SLURM_JOB_ID=$n SLURM_ARRAY_JOB_ID=$n SLURM_ARRAY_TASK_ID=$task \
      SLURM_CPUS_PER_TASK=1 "$@" >"$log" 2>&1)
    echo "$1 $2 $task $?" >>"$JOBS/exits"
  done
done
echo "$n""#;
    for (name, body) in [
        (
            "sinfo",
            "case \"$*\" in *%N*) hostname -s ;; *%c*) echo 2 ;; esac",
        ),
        ("squeue", "true"),
        ("sbatch", sbatch),
    ] {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    (bin, jobs, results)
}

/// `scripts/slurm-tournament.sh ARGS` as the organiser, with the stand-ins of [`fake_slurm`].
fn organiser(bin: &Path, jobs: &Path, results: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(repo().join("scripts/slurm-tournament.sh"));
    c.args(args)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("JOBS", jobs)
        .env("REFEREE", REFEREE)
        .env("RESULTS", results)
        .env_remove("REFEREE_KEY")
        .current_dir(repo())
        .stdin(Stdio::null());
    c
}

/// The organiser's key reaches every job of a Slurm run, never the results: `submit` run
/// with stand-ins for `sinfo`, `squeue` and `sbatch` (which runs each job at once, here,
/// every task of its array in turn, and notes its command line), so no cluster is needed.
/// Each task and the merge get `--key` with the referee's default key of the tournament
/// (a plain `referee merge` finds the same), mode 0600, out of the results, whose files
/// never hold it; a shard forged afterwards makes the task re-run by `rerun` and its merge
/// refuse it.
#[test]
fn the_key_reaches_every_job_and_the_merge_but_never_the_results() {
    let dir = common::fresh_dir("slurm", "key");
    let (bin, jobs, results) = fake_slurm(&dir);
    let script = |args: &[&str]| common::run_ok(organiser(&bin, &jobs, &results, args));
    let passive = repo().join("champions/shell/passive.sh");
    let builder = repo().join("champions/shell/builder.sh");
    script(&[
        "submit",
        "final",
        "--seed",
        "77",
        "--shards",
        "2",
        "--cpus",
        "1",
        "--",
        "random",
        "greedy",
        &passive.display().to_string(),
        &builder.display().to_string(),
        "--time-scale",
        "2",
    ]);

    // The referee's default key of results/final.
    let key = common::default_key(&results.join("final"));
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", key.display());
    let commands = std::fs::read_to_string(jobs.join("commands")).unwrap();
    let key_text = key.display().to_string();
    assert!(
        commands.contains(&format!("task final 2 77 {key_text} --"))
            && commands.contains(&format!("merge final 2 {key_text}")),
        "a job without the key:\n{commands}"
    );
    let exits = std::fs::read_to_string(jobs.join("exits")).unwrap();
    assert!(
        exits.lines().all(|l| l.ends_with(" 0")) && exits.lines().count() == 3,
        "{exits}"
    );
    assert!(results.join("final/leaderboard.csv").exists());
    // No file of the results holds the key, or the saved command of `rerun`.
    let secret = std::fs::read_to_string(&key).unwrap();
    let grep = Command::new("grep")
        .args(["-rlF", secret.trim()])
        .arg(&results)
        .output()
        .unwrap();
    assert!(grep.stdout.is_empty(), "the key is in {:?}", grep.stdout);
    assert!(!results.join("final/slurm/submit.sh").exists());
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| results.join(format!("final/shard-{i}-of-2")))
        .collect();
    let out = common::run_ok({
        let mut c = Command::new(REFEREE);
        c.arg("merge")
            .args(&shards)
            .arg("--out")
            .arg(dir.join("again"));
        c
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("not authenticated"), "{stderr}");

    // A forged row (its wall time, which no record gives): the re-run task's resume and
    // the merge after it refuse it.
    let csv = shards[0].join("matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let column = header.iter().position(|c| *c == "duration_ms").unwrap();
    let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
    fields[column] = "1".into();
    lines[1] = fields.join(",");
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    script(&["rerun", "final", "1"]);
    let exits = std::fs::read_to_string(jobs.join("exits")).unwrap();
    let last: Vec<&str> = exits.lines().rev().take(2).collect();
    assert!(
        last.iter().all(|l| l.ends_with(" 2")),
        "the forged shard was accepted: {exits}"
    );
}

/// A results writer's links where Slurm writes the jobs' logs: job ids come in order, so
/// whoever writes the results plants, under the next jobs' log names, links to the
/// organiser's key and to what `rerun` sources (Slurm opens a log as the organiser,
/// following links: a merge's output would truncate the key, or become shell commands the
/// next `rerun` runs). The logs go beside the key instead, a folder of the organiser's:
/// after a `rerun`, the key and the saved command are what they were, the links' targets
/// untouched, and the jobs' logs are beside the key.
#[test]
fn a_results_writer_s_links_never_receive_a_job_s_log() {
    let dir = common::fresh_dir("slurm", "logs");
    let (bin, jobs, results) = fake_slurm(&dir);
    let script = |args: &[&str]| common::run_ok(organiser(&bin, &jobs, &results, args));
    let passive = repo().join("champions/shell/passive.sh");
    script(&[
        "submit",
        "open",
        "--seed",
        "5",
        "--shards",
        "2",
        "--cpus",
        "1",
        "--",
        "random",
        "greedy",
        &passive.display().to_string(),
    ]);
    let key = common::default_key(&results.join("open"));
    let saved = key.with_extension("slurm.sh");
    let logs = key.with_extension("slurm-logs");
    let (key_bytes, saved_bytes) = (std::fs::read(&key).unwrap(), std::fs::read(&saved).unwrap());
    let logged_in_results = results.join("open/slurm").exists();
    // The writer: links under the next jobs' log names, where the script used to log.
    let planted = results.join("open/slurm");
    std::fs::create_dir_all(&planted).unwrap();
    let last: u64 = std::fs::read_to_string(jobs.join("next"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    for id in last + 1..=last + 4 {
        std::os::unix::fs::symlink(&saved, planted.join(format!("merge.{id}.log"))).unwrap();
        std::os::unix::fs::symlink(&key, planted.join(format!("shard-1.{id}.log"))).unwrap();
    }
    let said = common::text(&script(&["rerun", "open", "1"]).stdout);
    assert_eq!(
        std::fs::read(&key).unwrap(),
        key_bytes,
        "THE ATTACK WORKED: a job's log was written into the organiser's key\n{said}"
    );
    assert_eq!(
        std::fs::read(&saved).unwrap(),
        saved_bytes,
        "THE ATTACK WORKED: a job's log was written into what `rerun` sources\n{said}"
    );
    let exits = std::fs::read_to_string(jobs.join("exits")).unwrap();
    assert!(
        exits.lines().count() == 5 && exits.lines().all(|l| l.ends_with(" 0")),
        "the jobs did not all run and succeed:\n{exits}"
    );
    for log in [
        format!("shard-1.{}.log", last + 1),
        format!("merge.{}.log", last + 2),
    ] {
        assert!(
            logs.join(&log).is_file(),
            "no log {log} beside the key, in {}\n{said}",
            logs.display()
        );
    }
    assert!(said.contains(&logs.display().to_string()), "{said}");
    assert!(
        !logged_in_results,
        "the jobs' logs are still written into the results"
    );
    let mode = std::fs::metadata(&logs).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{}", logs.display());
}

/// The script runs where the organiser runs it, not in the repository: from a folder of
/// their own, with champions and a manifest given by relative paths and no `RESULTS`, the
/// pre-run check, the jobs and the merge find them, the results land in `./results`, and
/// the lines it prints (`status`, `rerun`) work from any folder; `rerun` from another
/// folder says where to run it.
#[test]
fn the_script_runs_from_the_organisers_own_folder() {
    let dir = common::fresh_dir("slurm", "own-folder");
    let (bin, jobs, _) = fake_slurm(&dir);
    let work = dir.join("final");
    std::fs::create_dir_all(work.join("field")).unwrap();
    for name in ["passive.sh", "builder.sh"] {
        std::fs::copy(
            repo().join("champions/shell").join(name),
            work.join("field").join(name),
        )
        .unwrap();
    }
    std::fs::write(work.join("finalists.txt"), "builder = field/builder.sh\n").unwrap();
    let script = |args: &[&str], cwd: &Path| {
        let mut c = Command::new(repo().join("scripts/slurm-tournament.sh"));
        c.args(args)
            .env(
                "PATH",
                format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
            )
            .env("JOBS", &jobs)
            .env("REFEREE", REFEREE)
            .env_remove("RESULTS")
            .env_remove("REFEREE_KEY")
            .current_dir(cwd)
            .stdin(Stdio::null());
        c
    };
    let out = common::run_ok(script(
        &[
            "submit",
            "club",
            "--seed",
            "7",
            "--shards",
            "2",
            "--cpus",
            "1",
            "--",
            "random",
            "greedy",
            "field/passive.sh",
            "--manifest",
            "finalists.txt",
            "--time-scale",
            "2",
        ],
        &work,
    ));
    let said = String::from_utf8(out.stdout).unwrap();
    let results = work.join("results/club");
    assert!(results.join("leaderboard.csv").exists(), "{said}");
    assert!(!repo().join("results/club").exists());
    let exits = std::fs::read_to_string(jobs.join("exits")).unwrap();
    assert!(exits.lines().all(|l| l.ends_with(" 0")), "{exits}");
    // The printed `status` command, run from the root.
    let watch = said.lines().find(|l| l.starts_with("watch:")).unwrap();
    let status: Vec<&str> = watch.split_whitespace().collect();
    let at = status.iter().position(|w| *w == "status").unwrap();
    let out = Command::new(status[at - 1])
        .args(["status", status[at + 1]])
        .current_dir("/")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("complete"),
        "{watch}\n{text}"
    );
    // The printed `rerun` line names the script by its full path and the folder to run it in.
    let rerun = said.lines().find(|l| l.contains(" rerun club I")).unwrap();
    assert!(
        rerun.contains(&repo().join("scripts").display().to_string())
            || rerun.contains("/scripts/slurm-tournament.sh"),
        "{rerun}"
    );
    assert!(rerun.contains(&work.display().to_string()), "{rerun}");
    common::run_ok(script(&["rerun", "club", "1"], &work));
    let out = script(&["rerun", "club", "1"], &dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("run rerun from the folder submit ran in"),
        "{stderr}"
    );
}
