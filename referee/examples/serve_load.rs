//! The game server's load test (referee/BENCHMARKS.md, "Game server under load"): starts
//! `referee serve` on loopback and, at once, `--idle` clients that name themselves and
//! wait, `--playing` that play a training game each against `PLAY_RANDOM` (the latency of
//! every `PLAY_MOVE` measured), and hostile ones: clients sending their name a byte a
//! second, garbage, disconnecting mid-game, one asking a game and never reading. Samples
//! the server's memory (RSS, threads) while it runs, then checks that nothing crashed and
//! no finished game was lost: every game a client saw end is `finished` in the store with
//! its record. Bounded in count (the flags) and time (`--seconds`, the whole run).
//!
//! ```text
//! cargo build -p referee && cargo run -p referee --example serve_load -- \
//!     --referee target/debug/referee --idle 1000 --playing 200
//! ```

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    referee: PathBuf,
    idle: usize,
    playing: usize,
    slow: usize,
    garbage: usize,
    leavers: usize,
    seconds: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        referee: PathBuf::from("target/debug/referee"),
        idle: 1000,
        playing: 200,
        slow: 10,
        garbage: 20,
        leavers: 20,
        seconds: 600,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let n = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("{flag} takes a number, got {value:?}"))
        };
        match flag.as_str() {
            "--referee" => a.referee = PathBuf::from(&value),
            "--idle" => a.idle = n()?,
            "--playing" => a.playing = n()?,
            "--slow" => a.slow = n()?,
            "--garbage" => a.garbage = n()?,
            "--leavers" => a.leavers = n()?,
            "--seconds" => a.seconds = n()? as u64,
            _ => return Err(format!("unknown flag {flag} (--referee --idle --playing --slow --garbage --leavers --seconds)")),
        }
    }
    Ok(a)
}

/// A client of the subject's protocol, line framed.
struct Client(TcpStream);

impl Client {
    fn connect(port: u16, deadline: Instant) -> std::io::Result<Client> {
        let s = TcpStream::connect(("127.0.0.1", port))?;
        s.set_read_timeout(Some(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_secs(1)),
        ))?;
        Ok(Client(s))
    }

    fn recv(&mut self) -> std::io::Result<String> {
        let mut head = [0u8; 6];
        self.0.read_exact(&mut head)?;
        let n: usize = std::str::from_utf8(&head)
            .ok()
            .and_then(|h| h.parse().ok())
            .ok_or_else(|| std::io::Error::other("bad frame"))?;
        let mut body = vec![0u8; n];
        self.0.read_exact(&mut body)?;
        Ok(String::from_utf8_lossy(&body).into_owned())
    }

    fn cmd(&mut self, c: &str) -> std::io::Result<String> {
        self.0.write_all(format!("{c}\n").as_bytes())?;
        self.recv()
    }

    fn ok(&mut self, c: &str) -> std::io::Result<()> {
        match self.cmd(c)? {
            a if a == "OK" => Ok(()),
            a => Err(std::io::Error::other(format!("{c}: {a}"))),
        }
    }
}

/// What the clients saw.
#[derive(Default)]
struct Seen {
    /// Games a client played to their end.
    finished: Mutex<Vec<String>>,
    /// Latency of each PLAY_MOVE, microseconds.
    moves: Mutex<Vec<u64>>,
    errors: Mutex<Vec<String>>,
    idle_connected: AtomicU64,
}

/// A training game on the small board, played as the subject's first programs do; with
/// `leave`, the connection is closed after the first move. The game's name.
fn training(c: &mut Client, name: &str, leave: bool, seen: &Seen) -> std::io::Result<String> {
    c.ok(&format!("CLIENT_NAME {name}"))?;
    c.ok("WAIT_GAME TRAINING PLAY_RANDOM map=small timeout=60")?;
    let game = c.recv()?;
    c.recv()?;
    c.ok("GET_GAME_DATA")?;
    c.recv()?;
    let mut mine = c.recv()? == "0";
    let mut turns = 0;
    let play = |c: &mut Client, m: &str| -> std::io::Result<i32> {
        let t = Instant::now();
        c.ok(&format!("PLAY_MOVE {m}"))?;
        c.recv()?;
        let code = c.recv()?.parse().unwrap_or(0);
        seen.moves
            .lock()
            .unwrap()
            .push(t.elapsed().as_micros() as u64);
        Ok(code)
    };
    loop {
        if mine {
            let moves: &[&str] = if turns == 0 {
                &["4", "5 1 1 0"]
            } else {
                &["2", "2"]
            };
            for m in moves {
                if play(c, m)? != 0 {
                    return Ok(game);
                }
                if leave {
                    return Ok(String::new());
                }
            }
            turns += 1;
            mine = false;
        } else {
            c.ok("GET_MOVE")?;
            let m = c.recv()?;
            let msg = c.recv()?;
            if c.recv()? != "0" {
                return Ok(game);
            }
            let again = m.starts_with('4')
                || ((m.starts_with('2') || m.starts_with('3')) && msg.starts_with('1'));
            mine = !again;
        }
    }
}

/// The server's resident memory (KiB) and threads, from /proc.
fn sample(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("Threads:")?))
}

fn start_server(referee: &Path, results: &Path, clients: usize) -> Result<(Child, u16), String> {
    let max = (2 * clients + 64).to_string();
    let mut child = Command::new(referee)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--max-connections",
            &max,
            "--per-address",
            &(clients + 32).to_string(),
            "--results",
        ])
        .arg(results)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e} (--referee)", referee.display()))?;
    let mut out = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while out.read(&mut byte).map_err(|e| e.to_string())? == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&line).into_owned();
    let port = line
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or(format!("the server said {line:?}, not where it listens"))?;
    // Its log drained (a full pipe would block it).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    Ok((child, port))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("serve_load: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let a = args()?;
    let dir = tempfile_dir()?;
    let results = dir.join("results");
    let total = a.idle + a.playing + a.slow + a.garbage + a.leavers + 1;
    let (mut server, port) = start_server(&a.referee, &results, total)?;
    let pid = server.id();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(a.seconds);
    let seen = Arc::new(Seen::default());
    let stop = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(Mutex::new((0u64, 0u64)));
    let sampler = {
        let (stop, peak) = (Arc::clone(&stop), Arc::clone(&peak));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Some((rss, threads)) = sample(pid) {
                    let mut p = peak.lock().unwrap();
                    *p = (p.0.max(rss), p.1.max(threads));
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    let spawn = |f: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(f)
            .unwrap()
    };
    let mut threads = Vec::new();
    // Idle clients: connected and named; they hold on until the players are done.
    let release = Arc::new(AtomicBool::new(false));
    for i in 0..a.idle {
        let (seen, release) = (Arc::clone(&seen), Arc::clone(&release));
        threads.push(spawn(Box::new(move || {
            let Ok(mut c) = Client::connect(port, deadline) else {
                seen.errors
                    .lock()
                    .unwrap()
                    .push(format!("idle{i}: no connection"));
                return;
            };
            match c.ok(&format!("CLIENT_NAME idle{i}")) {
                Ok(()) => {
                    seen.idle_connected.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => seen.errors.lock().unwrap().push(format!("idle{i}: {e}")),
            }
            while !release.load(Ordering::Relaxed) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(200));
            }
        })));
    }
    // Wait until they all are connected before the games start: 1,000 at once.
    while seen.idle_connected.load(Ordering::Relaxed) + (seen.errors.lock().unwrap().len() as u64)
        < a.idle as u64
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let connected_at_once = seen.idle_connected.load(Ordering::Relaxed);
    let games_start = Instant::now();
    let mut players = Vec::new();
    for i in 0..a.playing + a.leavers {
        let seen = Arc::clone(&seen);
        let leave = i >= a.playing;
        players.push(spawn(Box::new(move || {
            let name = format!("{}{i}", if leave { "leaver" } else { "player" });
            let played = Client::connect(port, deadline)
                .and_then(|mut c| training(&mut c, &name, leave, &seen));
            match played {
                Ok(game) if !game.is_empty() => seen.finished.lock().unwrap().push(game),
                Ok(_) => {}
                Err(e) => seen.errors.lock().unwrap().push(format!("{name}: {e}")),
            }
        })));
    }
    for i in 0..a.slow {
        threads.push(spawn(Box::new(move || {
            let Ok(mut c) = Client::connect(port, deadline) else {
                return;
            };
            for b in format!("CLIENT_NAME slow{i}\n").bytes() {
                if c.0.write_all(&[b]).is_err() || Instant::now() > deadline {
                    return;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            let _ = c.recv();
        })));
    }
    for i in 0..a.garbage {
        threads.push(spawn(Box::new(move || {
            let Ok(mut c) = Client::connect(port, deadline) else {
                return;
            };
            let junk: Vec<u8> = (0..4096u32)
                .map(|k| (k.wrapping_mul(2654435761).wrapping_add(i as u32) >> 13) as u8)
                .collect();
            let _ = c.0.write_all(&junk);
            let _ = c.recv();
        })));
    }
    // One that asks a game and never reads what the server sends.
    threads.push(spawn(Box::new(move || {
        let Ok(mut c) = Client::connect(port, deadline) else {
            return;
        };
        let _ =
            c.0.write_all(b"CLIENT_NAME deaf\nWAIT_GAME TRAINING PLAY_RANDOM map=small\n");
        for _ in 0..100_000 {
            if c.0.write_all(b"DISP_GAME\n").is_err() || Instant::now() > deadline {
                break;
            }
        }
    })));
    for p in players {
        let _ = p.join();
    }
    let games_took = games_start.elapsed();
    release.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    stop.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    let alive = server.try_wait().map_err(|e| e.to_string())?.is_none();
    // The store and the records: every game a client saw end is finished, its record there.
    let listed = Command::new(&a.referee)
        .args(["serve", "--results"])
        .arg(&results)
        .arg("games")
        .output()
        .map_err(|e| e.to_string())?;
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    let finished = seen.finished.lock().unwrap().clone();
    let lost: Vec<&String> = finished
        .iter()
        .filter(|g| {
            !listed
                .lines()
                .any(|l| l.starts_with(g.as_str()) && l.contains(" finished "))
                || !results.join(g.as_str()).join("record.json").exists()
        })
        .collect();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let mut moves = seen.moves.lock().unwrap().clone();
    moves.sort();
    let pct = |p: f64| {
        moves
            .get(((moves.len() as f64 * p) as usize).min(moves.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    let (rss, threads_peak) = *peak.lock().unwrap();
    let errors = seen.errors.lock().unwrap();
    println!(
        "clients connected at once (idle, named): {connected_at_once} of {}",
        a.idle
    );
    println!(
        "training games played to their end: {} of {} (and {} left mid-game)",
        finished.len(),
        a.playing,
        a.leavers
    );
    println!(
        "games per second: {:.2} ({} in {:.1} s)",
        finished.len() as f64 / games_took.as_secs_f64(),
        finished.len(),
        games_took.as_secs_f64()
    );
    println!(
        "PLAY_MOVE latency: n={} p50={} µs p99={} µs max={} µs",
        moves.len(),
        pct(0.5),
        pct(0.99),
        moves.last().copied().unwrap_or(0)
    );
    println!(
        "server peak RSS: {} MiB, peak threads: {threads_peak}",
        rss / 1024
    );
    println!(
        "server alive at the end: {alive}; finished games missing from the store or records: {}",
        lost.len()
    );
    println!("client errors: {}", errors.len());
    for e in errors.iter().take(5) {
        println!("  {e}");
    }
    if !alive || !lost.is_empty() || finished.len() < a.playing {
        return Err("the server crashed, lost a finished game or did not finish every game".into());
    }
    Ok(())
}

/// A fresh directory under the system's temporary one, removed at the end.
fn tempfile_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("serve-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
