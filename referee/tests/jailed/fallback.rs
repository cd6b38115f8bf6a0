//! The fallback where no jail can be built (no root and no user namespaces): the inner
//! layers (seccomp, Landlock, rlimits) still hold on a plain process, and everything the
//! champion started is swept when it ends. The jail is left out with
//! `SandboxReport::plan_with(false, true)`, as the referee does when its probe fails.

use crate::common;

use jail::champion::{Budget, Champion, LaunchSpec, Limits};
use jail::sandbox::{probe, SandboxMode};
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

/// On its first line: tries a network socket and a write outside its scratch, starts a
/// child carrying `marker` in its command line, and answers what happened.
const PROBE: &str = r#"#!/usr/bin/python3
import os, socket, sys
marker, outside = sys.argv[1], sys.argv[2]
sys.stdin.readline()
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    net = "OPEN"
except OSError as e:
    net = "blocked"
try:
    with open(outside, "w") as f:
        f.write("escaped")
    write = "OPEN"
except OSError:
    write = "blocked"
if os.fork() == 0:
    os.setsid()
    os.execv("/bin/sleep", [marker, "1000"])
print("net:%s write:%s" % (net, write), flush=True)
sys.stdin.readline()
"#;

#[test]
fn without_the_jail_the_inner_layers_hold_and_everything_is_swept() {
    // The probe builds a jail to see whether it can: the referee binary serves as its zygote.
    jail::use_helper(env!("CARGO_BIN_EXE_referee"));
    let auto = probe(SandboxMode::Auto);
    let layers_on = |line: &str, layer: &str| {
        line.contains(&format!("{layer}=on")) || line.contains(&format!("{layer}=v"))
    };
    let line = auto.line();
    let dir = common::fresh_dir("fallback", "probe");
    let program = dir.join("probe.py");
    std::fs::write(&program, PROBE).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let outside = dir.join("outside.txt");
    let marker = format!("fallback-marker-{}", std::process::id());
    let mut spec = LaunchSpec::new(&program, dir.join("scratch"), dir.join("stderr.txt"));
    spec.args = vec![marker.clone(), outside.display().to_string()];
    spec.limits = Limits {
        sandbox: auto.plan_with(false, true),
        ..Limits::default()
    };
    let mut champion = Champion::spawn(&spec).expect("the champion starts without a jail");
    champion
        .send("go", Instant::now() + Duration::from_secs(5))
        .unwrap();
    let budget = Budget::start(&champion, Duration::from_secs(5), Duration::from_secs(10));
    let answer = champion.recv(&budget).unwrap();
    let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
    eprintln!("{line}\nthe probe says: {answer}\n{stderr}");
    if layers_on(&line, "seccomp") {
        assert!(
            answer.contains("net:blocked"),
            "seccomp let a socket through: {answer}"
        );
    } else {
        common::skip_missing(&format!(
            "fallback: the socket check: seccomp is off here ({line})"
        ));
    }
    if layers_on(&line, "landlock") {
        assert!(
            answer.contains("write:blocked"),
            "Landlock let a write through: {answer}"
        );
        assert!(!outside.exists(), "{} was written", outside.display());
    } else {
        common::skip_missing(&format!(
            "fallback: the write check: Landlock is off here ({line})"
        ));
    }
    assert!(common::running(&marker), "the probe's child did not start");
    champion.kill();
    common::wait_until(
        "the champion's child outlived it without a jail",
        Duration::from_secs(5),
        || !common::running(&marker),
    );
}
