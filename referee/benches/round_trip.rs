//! Micro-benchmark of one request round trip: a bare pipe ping-pong with a minimal C echo
//! child versus `Champion::send` + `Champion::recv` with the same child (and, separately,
//! what a `Budget::start` costs, since a game starts one per callback).
//!
//! Then, in the same run, what the whole referee costs per request in a real match (parse,
//! engine, record, I/O), and matches per second with trivial champions.
//!
//! Run: `cargo bench -p referee --bench round_trip`

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jail::champion::{Budget, Champion, LaunchSpec};

const WARM_UP: usize = 1_000;
const ROUNDS: usize = 100_000;

fn main() {
    // Jailed champions start from a zygote: the referee binary.
    jail::use_helper(env!("CARGO_BIN_EXE_referee"));
    let dir = std::env::temp_dir().join(format!("referee-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let echo = build_echo(&dir);

    // Both ends on one CPU, then on two: the two regimes of a wake-up.
    let pin = jail::affinity::Pin::current_thread(0);
    let bare = bare_pipe(&echo, false, 0);
    report("bare pipe, one CPU (blocking read)", &bare);
    let bare_poll = bare_pipe(&echo, true, 0);
    report("bare pipe, one CPU (poll + read)", &bare_poll);
    let bare_cross = bare_pipe(&echo, false, 1);
    report("bare pipe, two CPUs (blocking read)", &bare_cross);

    let spec = LaunchSpec::new(&echo, dir.join("scratch"), dir.join("stderr.txt"));
    let (champion, with_budget, budget_start) = champion(&spec);
    drop(pin);
    report("Champion::send + recv", &champion);
    report("send + Budget::start + recv", &with_budget);
    report("Budget::start alone (tree walk)", &budget_start);

    whole_matches(&dir, &bare, &bare_cross);

    let _ = std::fs::remove_dir_all(&dir);
}

fn build_echo(dir: &std::path::Path) -> PathBuf {
    build_c(dir, "tests/fixtures/champions/echo.c", "echo", &[])
}

/// Compile a C file of the crate into `dir/name`.
fn build_c(dir: &std::path::Path, source: &str, name: &str, flags: &[&str]) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(source);
    let out = dir.join(name);
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(&src)
        .args(flags)
        .status()
        .expect("cc");
    assert!(status.success());
    out
}

/// Whole matches of the 2009 game through the runner (`games::loi_play::LOI`), without the sandbox and then with every layer
/// this machine allows (the jail as root): matches per second with champions that only
/// answer `fin`, then the referee's cost per request in a match of three askers against
/// the same conversation with the same asker over a bare pipe. The per-request figure
/// leaves out what a match costs whatever its requests (the `fin`-only match's time).
fn whole_matches(dir: &std::path::Path, bare: &[Duration], bare_cross: &[Duration]) {
    use referee::games::loi_play::LOI;
    use referee::games::Game;
    let report = jail::sandbox::probe(Default::default());
    // No layer; the jail alone; the jail with Landlock and seccomp.
    let layers = [
        ("sandbox off", None),
        (
            "jail without Landlock and seccomp",
            Some(report.plan_with(true, false)),
        ),
        ("every layer", Some(report.plan())),
    ];
    let plan = |program: &PathBuf, pin: bool, sandbox: &Option<jail::sandbox::SandboxPlan>| {
        let spec = LOI.resolve(program.to_str().unwrap()).unwrap();
        let mut limits = jail::champion::Limits::default();
        if let Some(sandbox) = sandbox {
            limits.sandbox = sandbox.clone();
        }
        referee::games::Seats {
            seed: 1,
            champions: vec![spec.clone(), spec.clone(), spec],
            time: Default::default(),
            limits,
            pin,
            full_log: None,
            options: game::Game::defaults(&engine::model::Loi),
        }
    };
    // The record of the match just played in `dir`.
    let play = |seats: &referee::games::Seats, dir: &std::path::Path| {
        LOI.play(seats, dir).unwrap();
        arena::GameRecord::load(&dir.join("record.json")).unwrap()
    };
    let asker = build_c(dir, "benches/fixtures/asker.c", "asker", &["-DASKS=1000"]);
    let passive = build_c(dir, "benches/fixtures/asker.c", "passive", &[]);
    let mean = |times: &[Duration]| times.iter().sum::<Duration>() / times.len() as u32;
    println!("{}", report.line());
    for (name, sandbox) in &layers {
        println!("-- {name}");
        for pin in [true, false] {
            let regime = if pin { "pinned" } else { "not pinned" };
            let matches = 20;
            let t = Instant::now();
            for i in 0..matches {
                let record = play(
                    &plan(&passive, pin, sandbox),
                    &dir.join(format!("passive-{i}")),
                );
                assert!(record.faults.is_empty());
            }
            let fixed = t.elapsed() / matches;
            println!(
                "trivial champions (C, `fin` only, {regime}): {:.1} ms a match = {:.1} matches/s, one at a time",
                fixed.as_secs_f64() * 1e3,
                1.0 / fixed.as_secs_f64()
            );
            let t = Instant::now();
            let record = play(&plan(&asker, pin, sandbox), &dir.join("asker-match"));
            let wall = t.elapsed();
            assert!(record.faults.is_empty());
            // The protocol's requests: `fin`, an action on the model, is none.
            let requests: u32 = record
                .callbacks
                .iter()
                .map(|c| c.requests as u32 - u32::from(c.fault.is_none()))
                .sum();
            let per_request = wall.saturating_sub(fixed) / requests;
            let bare_asker = bare_conversation(&asker, pin, record.callbacks.len());
            println!(
                "whole match ({regime}), {requests} requests: {:.2} s, {:.1} µs per request beyond a `fin`-only match \
                 (bare pipe {:.1} µs; same conversation over a bare pipe {:.1} µs): {:.2}x the bare conversation",
                wall.as_secs_f64(),
                us(per_request),
                us(mean(if pin { bare } else { bare_cross })),
                us(bare_asker),
                per_request.as_secs_f64() / bare_asker.as_secs_f64(),
            );
        }
    }
}

/// A plain child and a blocking write + line read; with `poll`, each read is preceded by a
/// `poll` on the pipe, as `Champion::recv` does.
/// The child runs on allowed CPU `child_slot` (the caller is pinned to slot 0).
fn bare_pipe(echo: &PathBuf, poll: bool, child_slot: usize) -> Vec<Duration> {
    let mut child = Command::new(echo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    jail::affinity::pin_process(child.id(), child_slot);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut times = Vec::with_capacity(ROUNDS);
    for i in 0..WARM_UP + ROUNDS {
        let t = Instant::now();
        stdin.write_all(b"ping 12 34\n").unwrap();
        if poll {
            wait_readable(stdout.get_ref());
        }
        line.clear();
        stdout.read_line(&mut line).unwrap();
        if i >= WARM_UP {
            times.push(t.elapsed());
        }
        assert_eq!(line, "ping 12 34\n");
    }
    drop(stdin);
    child.wait().unwrap();
    times
}

/// The conversation of a whole match with `asker` (one line per callback, then a canned
/// answer to each request until `fin`) over a bare blocking pipe, with nothing behind the
/// answers: no jail, engine, record or clock. The mean time per request, spawn included.
fn bare_conversation(asker: &PathBuf, pin: bool, callbacks: usize) -> Duration {
    let pin = pin
        .then(|| jail::affinity::Pin::current_thread(0))
        .flatten();
    let t = Instant::now();
    let mut child = Command::new(asker)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    if pin.is_some() {
        jail::affinity::pin_process(child.id(), 0);
    }
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut requests = 0u32;
    for _ in 0..callbacks {
        stdin.write_all(b"jouer\n").unwrap();
        loop {
            line.clear();
            stdout.read_line(&mut line).unwrap();
            if line == "fin\n" {
                break;
            }
            requests += 1;
            stdin.write_all(b"0\n").unwrap();
        }
    }
    drop(stdin);
    child.wait().unwrap();
    t.elapsed() / requests.max(1)
}

fn champion(spec: &LaunchSpec) -> (Vec<Duration>, Vec<Duration>, Vec<Duration>) {
    let mut c = Champion::spawn(spec).unwrap();
    let long = Duration::from_secs(60);
    let budget = Budget::start(&c, long, long);
    let mut plain = Vec::with_capacity(ROUNDS);
    for i in 0..WARM_UP + ROUNDS {
        let t = Instant::now();
        c.send("ping 12 34", Instant::now() + long).unwrap();
        let line = c.recv(&budget).unwrap();
        if i >= WARM_UP {
            plain.push(t.elapsed());
        }
        assert_eq!(line, "ping 12 34");
    }
    let per_callback_rounds = ROUNDS / 10;
    let mut with_budget = Vec::with_capacity(per_callback_rounds);
    let mut budget_only = Vec::with_capacity(per_callback_rounds);
    for _ in 0..per_callback_rounds {
        let t = Instant::now();
        c.send("ping 12 34", Instant::now() + long).unwrap();
        let b = Budget::start(&c, long, long);
        let line = c.recv(&b).unwrap();
        with_budget.push(t.elapsed());
        assert_eq!(line, "ping 12 34");
        let t = Instant::now();
        let _ = Budget::start(&c, long, long);
        budget_only.push(t.elapsed());
    }
    let report = c.finish(Duration::from_secs(5));
    assert_eq!(report.status.as_deref(), Some("exit 0"));
    (plain, with_budget, budget_only)
}

fn wait_readable(fd: &impl AsRawFd) {
    let mut pfd = nix::libc::pollfd {
        fd: fd.as_raw_fd(),
        events: nix::libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    unsafe { nix::libc::poll(&mut pfd, 1, 60_000) };
}

fn report(name: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let pct = |p: f64| sorted[((sorted.len() as f64 - 1.0) * p).round() as usize];
    let mean = sorted.iter().sum::<Duration>() / sorted.len() as u32;
    println!(
        "{name:<34} n={:<6} p50={:>7.1} µs  p99={:>7.1} µs  mean={:>7.1} µs",
        sorted.len(),
        us(pct(0.5)),
        us(pct(0.99)),
        us(mean)
    );
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
