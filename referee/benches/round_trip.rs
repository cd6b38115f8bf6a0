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

use referee::champion::{Budget, Champion, LaunchSpec};

const WARM_UP: usize = 1_000;
const ROUNDS: usize = 100_000;

fn main() {
    let dir = std::env::temp_dir().join(format!("referee-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let echo = build_echo(&dir);

    // Both ends on one CPU, then on two: the two regimes of a wake-up.
    let pin = referee::affinity::Pin::current_thread(0);
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

/// A whole match of three askers through `MatchPlan::run`: the referee's cost per request
/// against the bare pipe of the same run; then matches per second with champions that only
/// answer `fin`.
fn whole_matches(dir: &std::path::Path, bare: &[Duration], bare_cross: &[Duration]) {
    use referee::run_match::MatchPlan;
    let plan = |program: &PathBuf, pin: bool| {
        let spec = referee::roster::resolve(program.to_str().unwrap()).unwrap();
        MatchPlan {
            seed: 1,
            monuments: None,
            first_player: None,
            champions: [spec.clone(), spec.clone(), spec],
            time: Default::default(),
            limits: Default::default(),
            pin,
            full_log: false,
        }
    };
    let asker = build_c(dir, "benches/fixtures/asker.c", "asker", &["-DASKS=1000"]);
    let mean = |times: &[Duration]| times.iter().sum::<Duration>() / times.len() as u32;
    for pin in [true, false] {
        let bare_mean = mean(if pin { bare } else { bare_cross });
        let t = Instant::now();
        let record = plan(&asker, pin).run(&dir.join("asker-match")).unwrap();
        let wall = t.elapsed();
        assert!(record.faults.is_empty());
        let requests: usize = record.callbacks.iter().map(|c| c.requests as usize).sum();
        let per_request = wall / requests as u32;
        println!(
            "whole match ({}), {requests} requests: {:.2} s, {:.1} µs per request (bare pipe on {} mean {:.1} µs)",
            if pin { "pinned to one CPU" } else { "not pinned" },
            wall.as_secs_f64(),
            us(per_request),
            if pin { "one CPU" } else { "two CPUs" },
            us(bare_mean),
        );
    }
    let passive = build_c(dir, "benches/fixtures/asker.c", "passive", &[]);
    let matches = 20;
    for pin in [true, false] {
        let t = Instant::now();
        for i in 0..matches {
            let record = plan(&passive, pin)
                .run(&dir.join(format!("passive-{i}")))
                .unwrap();
            assert!(record.faults.is_empty());
        }
        let wall = t.elapsed();
        println!(
            "trivial champions (C, `fin` only, {}): {matches} matches in {:.2} s = {:.1} matches/s, one at a time",
            if pin { "pinned" } else { "not pinned" },
            wall.as_secs_f64(),
            matches as f64 / wall.as_secs_f64()
        );
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
    referee::affinity::pin_process(child.id(), child_slot);
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
