//! Real-process tests of the champion layer: fixture champions under
//! `tests/fixtures/champions/` that behave or misbehave on purpose; every test also checks
//! that no process carrying the champion's token is left behind.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common;

use jail::champion::{Budget, Champion, ExitReport, LaunchSpec, Limits, TOKEN_VAR};
use jail::fault::FaultKind;

const GENEROUS: Duration = Duration::from_secs(20);

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/champions")
}

/// A fixture, made executable (in case a checkout lost the mode).
fn fixture(name: &str) -> PathBuf {
    let path = fixtures().join(name);
    let mut perms = fs::metadata(&path).unwrap().permissions();
    if perms.mode() & 0o111 != 0o111 {
        perms.set_mode(0o755);
        let _ = fs::set_permissions(&path, perms);
    }
    path
}

/// Compiles a C fixture once per test run.
fn compiled(name: &str) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = common::fresh_dir("champion", "bin");
        for src in ["echo.c", "alloc.c"] {
            let out = dir.join(src.trim_end_matches(".c"));
            let status = Command::new("cc")
                .args(["-O2", "-o"])
                .arg(&out)
                .arg(fixtures().join(src))
                .status()
                .expect("cc is needed to build the C fixtures");
            assert!(status.success(), "compiling {src} failed");
        }
        dir
    });
    dir.join(name)
}

fn spec(program: PathBuf) -> LaunchSpec {
    let dir = common::fresh_dir(
        "champion",
        program
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("champion"),
    );
    LaunchSpec::new(program, dir.join("scratch"), dir.join("stderr.txt"))
}

fn budget(champion: &Champion) -> Budget {
    Budget::start(champion, GENEROUS, GENEROUS)
}

fn deadline() -> Instant {
    Instant::now() + GENEROUS
}

/// Pids of live or zombie processes whose environment carries `token`.
fn processes_with_token(token: &str) -> Vec<i32> {
    let needle = format!("{TOKEN_VAR}={token}").into_bytes();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        if let Ok(env) = fs::read(format!("/proc/{pid}/environ")) {
            if env.split(|&b| b == 0).any(|e| e == needle.as_slice()) {
                found.push(pid);
            }
        }
    }
    found
}

/// Spawns `spec`, runs `body`, and checks that nothing of the champion survives `body`
/// (which must consume the champion with `finish` or `kill`).
fn with_champion<T>(spec: &LaunchSpec, body: impl FnOnce(Champion) -> T) -> T {
    let champion = Champion::spawn(spec).expect("spawn");
    let token = champion.token().to_string();
    let pid = champion.pid() as i32;
    let result = body(champion);
    assert_nothing_left(&token, pid);
    result
}

/// The fault of a fixture that misbehaves as soon as it reads `go`; nothing is left after.
fn fault_after_go(fixture_name: &str) -> jail::fault::Fault {
    with_champion(&spec(fixture(fixture_name)), |mut c| {
        c.send("go", deadline()).unwrap();
        let fault = c.recv(&budget(&c)).unwrap_err();
        c.kill();
        fault
    })
}

fn assert_nothing_left(token: &str, pid: i32) {
    let left = processes_with_token(token);
    assert!(left.is_empty(), "processes left behind: {left:?}");
    // The main process is reaped (no zombie either), unless its pid was already reused.
    if let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) {
        let ppid: i32 = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert_ne!(
            ppid,
            std::process::id() as i32,
            "main process {pid} not reaped"
        );
    }
}

// ---- happy paths ----

#[test]
fn echo_round_trips() {
    let spec = spec(fixture("echo.sh"));
    let report = with_champion(&spec, |mut c| {
        for i in 0..20 {
            c.send(&format!("ping {i}"), deadline()).unwrap();
            assert_eq!(c.recv(&budget(&c)).unwrap(), format!("re ping {i}"));
        }
        assert!(!c.has_pending_output());
        c.finish(GENEROUS)
    });
    assert_eq!(report.status.as_deref(), Some("exit 0"));
    assert_eq!(report.fault, None);
    assert_eq!(fs::read_to_string(&spec.stderr_path).unwrap(), "bye\n");
}

#[test]
fn c_echo_round_trips_and_large_lines() {
    let mut spec = spec(compiled("echo"));
    spec.limits.max_line = 100_000;
    with_champion(&spec, |mut c| {
        for n in [0, 1, 4095, 4096, 65_536, 99_999] {
            let line = "y".repeat(n);
            c.send(&line, deadline()).unwrap();
            assert_eq!(c.recv(&budget(&c)).unwrap(), line);
        }
        c.finish(GENEROUS)
    });
}

#[test]
fn python_reads_a_45_kb_line() {
    let spec = spec(fixture("length.py"));
    with_champion(&spec, |mut c| {
        let line = "0123456789 ".repeat(4100);
        c.send(&line, deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), line.len().to_string());
        c.finish(GENEROUS)
    });
}

#[test]
fn pipelined_lines_are_all_delivered() {
    let spec = spec(fixture("pipeline.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let b = budget(&c);
        assert_eq!(c.recv(&b).unwrap(), "one");
        assert_eq!(c.recv(&b).unwrap(), "two");
        assert_eq!(c.recv(&b).unwrap(), "three");
        c.finish(GENEROUS)
    });
}

#[test]
fn environment_is_cleared_and_cwd_is_scratch() {
    let mut spec = spec(fixture("env.sh"));
    spec.env = vec![("CHAMPION_ID".into(), "7".into())];
    std::env::set_var("REFEREE_SECRET_FOR_TEST", "leak");
    let scratch = std::path::absolute(&spec.scratch_dir).unwrap();
    // Given relative to the referee's working directory (`TMPDIR=tmp referee ...`), the
    // scratch is named absolute to the champion: it runs there, and HOME and TMPDIR must
    // name the same directory from there.
    let up: PathBuf = std::env::current_dir()
        .unwrap()
        .components()
        .skip(1)
        .map(|_| "..")
        .collect();
    spec.scratch_dir = up.join(scratch.strip_prefix("/").unwrap());
    assert!(spec.scratch_dir.is_relative());
    // The referee names its bundled kits to the jail (as the binary does at its start).
    referee::kits::install();
    let lines = with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let b = budget(&c);
        let mut lines = Vec::new();
        loop {
            let line = c.recv(&b).unwrap();
            if line == "end" {
                break;
            }
            lines.push(line);
        }
        c.finish(GENEROUS);
        lines
    });
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_once('=').map(|(k, _)| k))
        .collect();
    for name in &names {
        assert!(
            [
                "CHAMPION_ID",
                "HOME",
                "LANG",
                "PATH",
                "PWD",
                "PROLOGIN_KITS",
                "TMPDIR",
                TOKEN_VAR
            ]
            .contains(name),
            "unexpected variable {name} in {lines:?}"
        );
    }
    assert!(lines.contains(&"CHAMPION_ID=7".to_string()));
    // Without the jail, the kits are the repository's (protocol.md section 6).
    let kits = lines
        .iter()
        .find_map(|l| l.strip_prefix("PROLOGIN_KITS="))
        .expect("PROLOGIN_KITS is set");
    assert!(Path::new(kits).join("python").is_dir(), "{kits}");
    assert!(lines.contains(&"PATH=/usr/local/bin:/usr/bin:/bin".to_string()));
    // Absolute names of the scratch (`..` left in them is fine: they lead there).
    let names_scratch = |path: &str| {
        Path::new(path).is_absolute()
            && fs::canonicalize(path).unwrap() == fs::canonicalize(&scratch).unwrap()
    };
    for name in ["HOME", "TMPDIR"] {
        let value = lines
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("{name} is set: {lines:?}"));
        assert!(names_scratch(value), "{name}={value}");
    }
    assert!(names_scratch(lines.last().unwrap()), "{lines:?}");
}

#[test]
fn unasked_output_is_detected() {
    let spec = spec(fixture("unasked.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "answer");
        common::wait_until("surprise never seen", GENEROUS, || c.has_pending_output());
        assert_eq!(c.recv(&budget(&c)).unwrap(), "surprise");
        c.kill()
    });
}

// ---- timeouts ----

#[test]
fn hanging_champion_times_out_by_wall() {
    let spec = spec(fixture("hang.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let started = Instant::now();
        let b = Budget::start(&c, GENEROUS, Duration::from_millis(300));
        let fault = c.recv(&b).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
        assert!(fault.message.contains("wall"), "{fault}");
        assert!(started.elapsed() < Duration::from_secs(5));
        // The fault is final.
        assert_eq!(c.recv(&b).unwrap_err(), fault);
        c.kill()
    });
}

/// A wall timeout after real work (150 ms of CPU, more than a tenth of its 1 s budget)
/// does not suggest that the champion forgot to flush: that hint is for one that used
/// almost no CPU.
#[test]
fn a_wall_timeout_after_work_does_not_ask_about_flushing() {
    let spec = spec(fixture("work_then_hang.py"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let b = Budget::start(&c, Duration::from_secs(1), Duration::from_secs(3));
        let fault = c.recv(&b).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
        assert!(
            fault.message.starts_with("no complete line after "),
            "{fault}"
        );
        assert!(!fault.message.contains("flush"), "{fault}");
        c.kill()
    });
}

/// A CPU timeout: seen while the champion runs (within a few slices of its 300 ms, not at
/// the 60 s of the wall budget), and said so.
fn assert_cpu_timeout(fault: &jail::fault::Fault, started: Instant) {
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
    assert!(
        fault.message.starts_with("used ")
            && fault.message.ends_with(
                " ms of CPU (all its processes) without finishing; the budget is 300 ms"
            ),
        "{fault}"
    );
    assert!(started.elapsed() < GENEROUS, "{:?}", started.elapsed());
}

#[test]
fn busy_champion_times_out_by_cpu() {
    let spec = spec(fixture("busy.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let started = Instant::now();
        let b = Budget::start(&c, Duration::from_millis(300), Duration::from_secs(60));
        let fault = c.recv(&b).unwrap_err();
        assert_cpu_timeout(&fault, started);
        assert!(b.cpu_used(&c) >= Duration::from_millis(300));
        let report = c.kill();
        assert!(report.cpu_time >= Duration::from_millis(300), "{report:?}");
        assert_eq!(report.status.as_deref(), Some("signal 9 (SIGKILL)"));
        report
    });
}

#[test]
fn cpu_of_a_child_process_counts() {
    let spec = spec(fixture("busy_child.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let started = Instant::now();
        let b = Budget::start(&c, Duration::from_millis(300), Duration::from_secs(60));
        let fault = c.recv(&b).unwrap_err();
        assert_cpu_timeout(&fault, started);
        c.kill()
    });
}

#[test]
fn champion_that_does_not_read_times_out_on_send() {
    let spec = spec(fixture("deaf.sh"));
    with_champion(&spec, |mut c| {
        let line = "z".repeat(1 << 20);
        let fault = c
            .send(&line, Instant::now() + Duration::from_millis(200))
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
        c.kill()
    });
}

// ---- memory ----

fn memory_limited(program: PathBuf, memory: u64) -> LaunchSpec {
    let mut spec = spec(program);
    spec.limits = Limits {
        memory,
        ..Limits::default()
    };
    spec
}

#[test]
fn c_allocating_past_the_limit_is_a_memory_fault() {
    let spec = memory_limited(compiled("alloc"), 128 << 20);
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let fault = c.recv(&budget(&c)).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Memory, "{fault}");
        assert!(fault.message.contains("SIGSEGV"), "{fault}");
        let report = c.kill();
        assert!(report.peak_memory.unwrap() > 100 << 20, "{report:?}");
        report
    });
}

#[test]
fn python_allocating_past_the_limit_is_a_memory_fault() {
    let spec = memory_limited(fixture("alloc.py"), 256 << 20);
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let fault = c.recv(&budget(&c)).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Memory, "{fault}");
        assert!(fault.message.contains("exit 1"), "{fault}");
        c.kill()
    });
}

// ---- protocol ----

#[test]
fn endless_line_is_a_protocol_fault() {
    let fault = fault_after_go("endless_line.sh");
    assert_eq!(fault.kind, FaultKind::Protocol, "{fault}");
    assert!(fault.message.contains("`xxxxxxxx"), "{fault}");
    assert!(fault.message.contains("at most 256 bytes"), "{fault}");
    assert!(fault.message.len() < 400, "{fault}");
}

#[test]
fn non_ascii_line_is_a_protocol_fault() {
    let fault = fault_after_go("non_ascii.sh");
    assert_eq!(fault.kind, FaultKind::Protocol, "{fault}");
    assert!(fault.message.contains("non-ASCII"), "{fault}");
}

/// A champion that closes its stdout and lingers (a runtime slow to exit after its error):
/// a crash that quotes the error it printed on stderr, as a death's does.
#[test]
fn closing_stdout_while_running_is_a_crash_that_quotes_its_error() {
    let fault = fault_after_go("close_stdout.sh");
    assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
    assert!(
        fault
            .message
            .starts_with("closed its standard output while still running")
            && fault.message.ends_with(
                "; its error: Exception in thread \"main\" \
                 java.lang.IllegalStateException: no more moves"
            ),
        "{fault}"
    );
}

// ---- crashes ----

#[test]
fn exit_mid_conversation_is_a_crash_with_the_code() {
    let spec = spec(fixture("exit_mid.sh"));
    let report = with_champion(&spec, |mut c| {
        c.send("a", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "first");
        c.send("b", deadline()).unwrap();
        let fault = c.recv(&budget(&c)).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
        assert!(fault.message.contains("exit 3"), "{fault}");
        assert!(fault.message.contains("giving up"), "{fault}");
        // Writing to a dead champion reports the same fate.
        let again = c.send("c", deadline()).unwrap_err();
        assert_eq!(again.kind, FaultKind::Crash);
        c.finish(GENEROUS)
    });
    assert_eq!(report.status.as_deref(), Some("exit 3"));
    assert_eq!(report.fault.map(|f| f.kind), Some(FaultKind::Crash));
}

#[test]
fn death_by_signal_is_a_crash_naming_it() {
    let fault = fault_after_go("signal.sh");
    assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
    assert!(fault.message.contains("signal 6 (SIGABRT)"), "{fault}");
}

#[test]
fn writing_to_a_dead_champion_is_a_crash() {
    let spec = spec(fixture("exit_mid.sh"));
    with_champion(&spec, |mut c| {
        c.send("a", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "first");
        c.send("b", deadline()).unwrap();
        // Wait for its death without reading, then write a lot.
        assert!(
            common::wait_exit(c.pid() as i32, GENEROUS),
            "it did not exit"
        );
        let big = "w".repeat(200_000);
        let fault = c.send(&big, deadline()).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
        assert!(fault.message.contains("exit 3"), "{fault}");
        c.kill()
    });
}

// ---- containment ----

#[test]
fn setsid_grandchildren_are_swept_by_kill() {
    let spec = spec(fixture("setsid_grandchild.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "ready");
        // The background children may still be in `execve` (no readable environment yet).
        common::wait_until("the grandchildren never started", GENEROUS, || {
            processes_with_token(c.token()).len() >= 3
        });
        c.kill()
    });
}

#[test]
fn setsid_grandchildren_are_swept_by_finish() {
    let spec = spec(fixture("setsid_grandchild.sh"));
    let report = with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "ready");
        c.finish(GENEROUS)
    });
    assert_eq!(report.status.as_deref(), Some("exit 0"));
}

#[test]
fn python_setsid_daemon_is_swept() {
    let spec = spec(fixture("setsid_fork.py"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "ready");
        c.kill()
    });
}

#[test]
fn grandchild_holding_stdout_does_not_make_recv_hang() {
    let spec = spec(fixture("setsid_exit.sh"));
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        let started = Instant::now();
        let fault = c.recv(&budget(&c)).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
        assert!(fault.message.contains("exit 0"), "{fault}");
        assert!(started.elapsed() < Duration::from_secs(5));
        c.finish(GENEROUS)
    });
}

#[test]
fn finish_kills_a_champion_that_does_not_exit() {
    let spec = spec(fixture("deaf.sh"));
    let report = with_champion(&spec, |c| c.finish(Duration::from_millis(100)));
    assert_eq!(report.status.as_deref(), Some("signal 9 (SIGKILL)"));
    assert_eq!(report.fault.map(|f| f.kind), Some(FaultKind::Timeout));
}

#[test]
fn dropping_a_champion_kills_it() {
    let spec = spec(fixture("hang.sh"));
    let champion = Champion::spawn(&spec).unwrap();
    let token = champion.token().to_string();
    let pid = champion.pid() as i32;
    drop(champion);
    assert_nothing_left(&token, pid);
}

#[test]
fn parallel_champions_do_not_disturb_each_other() {
    let handles: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                let name = if i % 2 == 0 {
                    "echo.sh"
                } else {
                    "setsid_grandchild.sh"
                };
                let spec = spec(fixture(name));
                with_champion(&spec, |mut c| {
                    c.send("x", deadline()).unwrap();
                    let line = c.recv(&budget(&c)).unwrap();
                    assert!(line == "re x" || line == "ready", "{line}");
                    if i % 3 == 0 {
                        c.kill()
                    } else {
                        c.finish(GENEROUS)
                    }
                })
            })
        })
        .collect();
    for h in handles {
        let report: ExitReport = h.join().unwrap();
        assert!(report.status.is_some());
    }
}

// ---- stderr ----

#[test]
fn stderr_is_capped_without_blocking_the_champion() {
    let mut spec = spec(fixture("stderr_flood.sh"));
    spec.stderr_cap = 1000;
    with_champion(&spec, |mut c| {
        c.send("go", deadline()).unwrap();
        assert_eq!(c.recv(&budget(&c)).unwrap(), "done");
        c.finish(GENEROUS)
    });
    // The cap holds the marker too: the file never exceeds it.
    let text = fs::read_to_string(&spec.stderr_path).unwrap();
    let marker = "\n[stderr truncated]\n";
    assert_eq!(text.len(), 1000);
    assert_eq!(text, "e".repeat(1000 - marker.len()) + marker);
}

// ---- spawn faults ----

#[test]
fn missing_program_is_a_spawn_fault() {
    let spec = spec(PathBuf::from("/nonexistent/champion"));
    let fault = Champion::spawn(&spec).err().unwrap();
    assert_eq!(fault.kind, FaultKind::Spawn);
    assert!(fault.message.contains("/nonexistent/champion"), "{fault}");
    assert!(fault.message.contains("does not exist"), "{fault}");
}

#[test]
fn non_executable_program_is_a_spawn_fault_suggesting_chmod() {
    let dir = common::fresh_dir("champion", "noexec");
    let path = dir.join("not_executable.sh");
    fs::copy(fixtures().join("not_executable.sh"), &path).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let fault = Champion::spawn(&spec(path.clone())).err().unwrap();
    assert_eq!(fault.kind, FaultKind::Spawn);
    assert!(
        fault
            .message
            .contains(&format!("chmod +x {}", path.display())),
        "{fault}"
    );
}

#[test]
fn bad_interpreter_is_a_spawn_fault_naming_it() {
    let fault = Champion::spawn(&spec(fixture("bad_shebang.sh")))
        .err()
        .unwrap();
    assert_eq!(fault.kind, FaultKind::Spawn);
    assert!(
        fault.message.contains("/nonexistent/interpreter"),
        "{fault}"
    );
    assert!(fault.message.contains("#!"), "{fault}");
}

#[test]
fn windows_line_endings_are_a_spawn_fault_suggesting_dos2unix() {
    let fault = Champion::spawn(&spec(fixture("crlf.sh"))).err().unwrap();
    assert_eq!(fault.kind, FaultKind::Spawn);
    assert!(fault.message.contains("dos2unix"), "{fault}");
}

#[test]
fn directory_is_a_spawn_fault() {
    let fault = Champion::spawn(&spec(fixtures())).err().unwrap();
    assert_eq!(fault.kind, FaultKind::Spawn);
    assert!(fault.message.contains("directory"), "{fault}");
}
