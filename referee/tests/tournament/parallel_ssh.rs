//! `scripts/parallel-ssh-tournament.sh` for real: GNU parallel runs the shards on
//! `localhost` through an sshd started here (its own port, host key, user key and
//! authorized keys, all in a temporary directory), brings them back with rsync and merges;
//! the results equal a single run's of the same seed, and the same command again (every
//! shard complete: each resumes with nothing to play) leaves them so.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// An sshd on 127.0.0.1, stopped when dropped.
struct Sshd {
    pid_file: PathBuf,
    /// The ssh command that reaches it (GNU parallel's PARALLEL_SSH).
    ssh: String,
}

impl Sshd {
    fn start(dir: &Path) -> Sshd {
        let keygen = |name: &str| {
            let status = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(dir.join(name))
                .status()
                .unwrap();
            assert!(status.success(), "ssh-keygen failed");
        };
        keygen("host_key");
        keygen("user_key");
        std::fs::copy(dir.join("user_key.pub"), dir.join("authorized_keys")).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let d = dir.display();
        std::fs::write(
            dir.join("sshd_config"),
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\nPidFile {d}/sshd.pid\n\
                 AuthorizedKeysFile {d}/authorized_keys\nPasswordAuthentication no\n\
                 KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\nUsePAM no\n\
                 StrictModes no\n"
            ),
        )
        .unwrap();
        // Its privilege separation directory (Debian's service makes it at boot).
        std::fs::create_dir_all("/run/sshd").unwrap();
        let status = Command::new("/usr/sbin/sshd")
            .arg("-f")
            .arg(dir.join("sshd_config"))
            .arg("-E")
            .arg(dir.join("sshd.log"))
            .status()
            .unwrap();
        assert!(status.success(), "sshd did not start");
        let sshd = Sshd {
            pid_file: dir.join("sshd.pid"),
            ssh: format!(
                "ssh -p {port} -i {d}/user_key -o StrictHostKeyChecking=no \
                 -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
            ),
        };
        common::wait_until(
            "sshd never wrote its pid",
            std::time::Duration::from_secs(10),
            || sshd.pid_file.exists(),
        );
        sshd
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        if let Some(pid) = std::fs::read_to_string(&self.pid_file)
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok())
        {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
    }
}

/// Whether sshd and GNU parallel can run here; if not, says why (a failure under CI=true).
fn ready() -> bool {
    // SAFETY: no arguments.
    if unsafe { nix::libc::geteuid() } != 0 {
        common::skip_by_design(
            "parallel-ssh: the local sshd runs as root (privilege separation); the root run of \
             the suite runs it",
        );
        return false;
    }
    let missing: Vec<&str> = ["/usr/sbin/sshd", "ssh", "ssh-keygen", "parallel", "rsync"]
        .into_iter()
        .filter(|tool| {
            !Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {tool}"))
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if !missing.is_empty() {
        common::skip_missing(&format!(
            "parallel-ssh: {} not installed (apt-get install openssh-server parallel rsync; \
             scripts/ci-install.sh)",
            missing.join(", ")
        ));
        return false;
    }
    true
}

#[test]
fn shards_over_ssh_to_localhost_merge_to_a_single_runs_results() {
    if !ready() {
        return;
    }
    let dir = common::fresh_dir("parallel-ssh", "localhost");
    let sshd_dir = dir.join("sshd");
    std::fs::create_dir_all(&sshd_dir).unwrap();
    let sshd = Sshd::start(&sshd_dir);
    let results = dir.join("results");
    let champions = [
        "random".to_string(),
        "greedy".to_string(),
        repo()
            .join("champions/shell/passive.sh")
            .display()
            .to_string(),
        repo()
            .join("champions/shell/builder.sh")
            .display()
            .to_string(),
    ];
    let flags = ["--rounds", "2", "--time-scale", "2"];
    let status = Command::new(REFEREE)
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
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let spread = || {
        let out = Command::new(repo().join("scripts/parallel-ssh-tournament.sh"))
            .args(["ssh", "77", "localhost", "--"])
            .args(&champions)
            .args(flags)
            .env("PARALLEL_SSH", &sshd.ssh)
            .env("REFEREE", REFEREE)
            .env("RESULTS", &results)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{stderr}");
        stderr
    };
    let said = spread();
    // Each shard ran through ssh: GNU parallel tags its lines with the shard's number.
    assert!(said.contains("4\tpre-run check"), "{said}");
    assert_eq!(
        common::tables::untimed_tables(&results.join("single")),
        common::tables::untimed_tables(&results.join("ssh"))
    );
    let said = spread();
    assert!(said.contains("already played"), "{said}");
    assert_eq!(
        common::tables::untimed_tables(&results.join("single")),
        common::tables::untimed_tables(&results.join("ssh"))
    );
}
