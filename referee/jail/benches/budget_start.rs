//! What starting a callback's budget costs (`Budget::start`) for a champion without the
//! jail, whose budget reads its process tree in `/proc` (a jailed champion's budget starts
//! from the count its freeze took, with no system call). The champion is `cat`: one
//! process, one thread, as most champions are.
//!
//! `cargo bench -p jail --bench budget_start` times 10,000 starts (p50 and mean) and, as
//! their limit, the two reads of `/proc` any walk of a one-process tree makes; then, in the
//! same run, each read alone and the floors below them: a bare system call (`getppid`) and
//! the one call that gives a process's CPU without `/proc` (`clock_gettime` on its CPU
//! clock, which leaves out the children it reaped: the budget counts them). With
//! `-- fixed N` it does N starts untimed, for a count that a loaded machine does not
//! change: the system calls of a start, `strace -c -f <bench binary> fixed N` for two
//! values of N (the difference over the difference of N). (Callgrind cannot run it: the
//! champion's spawn is refused under valgrind.)

use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use jail::champion::{Budget, Champion, LaunchSpec};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fixed = args.iter().position(|a| a == "fixed").map(|at| {
        args.get(at + 1)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1000)
    });
    let dir = std::env::temp_dir().join(format!("jail-bench-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory in the temporary directory");
    let spec = LaunchSpec::new("/bin/cat", dir.join("scratch"), dir.join("stderr.txt"));
    let champion = Champion::spawn(&spec).expect("cat starts");
    match fixed {
        Some(n) => println!("{n} budget starts, check {:?}", starts(&champion, n)),
        None => timed(&champion),
    }
    let report = champion.finish(Duration::from_secs(5));
    assert_eq!(report.status.as_deref(), Some("exit 0"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `n` budget starts; the CPU they found (so that none is optimised away).
#[inline(never)] // a function of its own, for `--toggle-collect`
fn starts(champion: &Champion, n: usize) -> Duration {
    let long = Duration::from_secs(60);
    (0..n)
        .map(|_| Budget::start(champion, long, long).cpu_measured(champion))
        .sum()
}

fn timed(champion: &Champion) {
    let long = Duration::from_secs(60);
    for _ in 0..1000 {
        Budget::start(champion, long, long);
    }
    let mut times: Vec<Duration> = (0..10_000)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(Budget::start(champion, long, long));
            t.elapsed()
        })
        .collect();
    report(
        "Budget::start, one-process champion without the jail",
        &mut times,
    );
    // The limit: the two reads any walk of a one-process tree makes (its `stat`, its
    // `children`), from files kept open, with nothing parsed.
    let pid = champion.pid();
    let stat = std::fs::File::open(format!("/proc/{pid}/stat")).expect("the champion's stat");
    let children = std::fs::File::open(format!("/proc/{pid}/task/{pid}/children"))
        .expect("the champion's children file");
    let mut buf = [0u8; 4096];
    let mut times: Vec<Duration> = (0..10_000)
        .map(|_| {
            let t = Instant::now();
            let a = stat.read_at(&mut buf, 0).expect("stat read");
            let b = children.read_at(&mut buf, 0).expect("children read");
            std::hint::black_box(a + b);
            t.elapsed()
        })
        .collect();
    report("limit: two preads (stat, children)", &mut times);
    let time = |what: &str, call: &mut dyn FnMut() -> usize| {
        let mut times: Vec<Duration> = (0..10_000)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(call());
                t.elapsed()
            })
            .collect();
        report(what, &mut times);
    };
    time("  of which: pread of stat", &mut || {
        stat.read_at(&mut buf, 0).expect("stat read")
    });
    time("  of which: pread of children", &mut || {
        children.read_at(&mut buf, 0).expect("children read")
    });
    time("floor: a bare system call (getppid)", &mut || {
        // SAFETY: getppid takes nothing and cannot fail.
        unsafe { nix::libc::getppid() as usize }
    });
    let mut clock: nix::libc::clockid_t = 0;
    // SAFETY: `clock` is a valid place for the clock id; the pid is the champion's, alive.
    let found = unsafe { nix::libc::clock_getcpuclockid(pid as i32, &mut clock) };
    assert_eq!(found, 0, "the champion's CPU clock");
    time("other source: clock_gettime on its CPU clock", &mut || {
        let mut now = nix::libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `now` is a valid place for the time; `clock` is the champion's CPU clock.
        unsafe { nix::libc::clock_gettime(clock, &mut now) };
        now.tv_nsec as usize
    });
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "{what:<54} n={} p50={:.1} µs mean={:.1} µs",
        times.len(),
        times[times.len() / 2].as_secs_f64() * 1e6,
        mean.as_secs_f64() * 1e6
    );
}
