//! The results index of 1,000 matches (`index.html`, the champions' pages and every
//! match's `replay.html`, each made again from its record): written with one thread (the
//! one-after-another loop it was) and with every core, in the same run, and the two
//! outputs compared byte for byte (the order of the pages does not depend on the threads).
//!
//! Run: `cargo bench -p referee --bench index_write`

use referee::view::index;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MATCHES: usize = 1_000;
const RUNS: usize = 3;

fn main() {
    let dir = std::env::temp_dir().join(format!("referee-bench-index-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = thousand(&dir);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = best(&t, 1);
    let one_page = std::fs::read(t.join("matches/999/replay.html")).unwrap();
    let one_index = std::fs::read(t.join("index.html")).unwrap();
    let all = best(&t, cores);
    assert_eq!(
        std::fs::read(t.join("matches/999/replay.html")).unwrap(),
        one_page
    );
    assert_eq!(std::fs::read(t.join("index.html")).unwrap(), one_index);
    println!(
        "index::write, {MATCHES} matches, best of {RUNS}: 1 thread {:.0} ms, {cores} threads \
         {:.0} ms: {:.2}x (same bytes)",
        one.as_secs_f64() * 1e3,
        all.as_secs_f64() * 1e3,
        one.as_secs_f64() / all.as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The fastest of [`RUNS`] writes of the index of `t` on a pool of `threads`.
fn best(t: &Path, threads: usize) -> Duration {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            pool.install(|| {
                index::write(t, &referee::games::loi_play::LOI, &index::Layout::default())
            })
            .unwrap();
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// A tournament of three champions played once (a few matches), its rows and match
/// directories copied until it has [`MATCHES`] of them.
fn thousand(dir: &Path) -> PathBuf {
    let builder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions/shell/builder.sh");
    let status = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["tournament", "random", "greedy"])
        .arg(&builder)
        .args(["--rounds", "2", "--seed", "5", "--name", "t", "--results"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let t = dir.join("t");
    let csv = std::fs::read_to_string(t.join("matches.csv")).unwrap();
    let mut lines = csv.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    let played: Vec<&str> = lines.collect();
    for id in 0..MATCHES {
        let (_, rest) = played[id % played.len()].split_once(',').unwrap();
        out.push_str(&format!("{id},{rest}\n"));
        if id >= played.len() {
            let to = t.join(format!("matches/{id}"));
            std::fs::create_dir_all(&to).unwrap();
            let from = t.join(format!("matches/{}", id % played.len()));
            for file in std::fs::read_dir(&from).unwrap() {
                let file = file.unwrap();
                std::fs::copy(file.path(), to.join(file.file_name())).unwrap();
            }
        }
    }
    std::fs::write(t.join("matches.csv"), out).unwrap();
    t
}
