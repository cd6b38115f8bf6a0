//! How far a run is, for whoever watches: a bar on a terminal; without one (a cluster's
//! log, a file), a line every [`LINE_EVERY`] (done/total, rate, ETA, faults); and
//! `progress.json` in the tournament's directory, rewritten every [`FILE_EVERY`], which
//! `referee status` reads across shards and machines.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Between two progress lines in a log.
pub const LINE_EVERY: Duration = Duration::from_secs(5);
/// Between two writes of `progress.json`.
pub const FILE_EVERY: Duration = Duration::from_secs(2);
/// The file, in the tournament's directory.
pub const FILE: &str = "progress.json";

/// `progress.json`: what a referee running a tournament (or a shard) last said of it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProgressFile {
    /// Matches of this directory's schedule (of its shard, if sharded).
    pub total: u64,
    /// Matches in its `matches.csv`.
    pub done: u64,
    /// Faults in those matches.
    pub faults: u64,
    /// Matches played by this run, in `elapsed_s` seconds.
    pub played: u64,
    pub elapsed_s: f64,
    /// `running`, `finished`, or `stopped` (interrupted or failed before the end).
    pub state: String,
    /// When it was written, in seconds since the Unix epoch.
    pub updated: u64,
    /// Seconds between two writes while running.
    pub every_s: u64,
    /// The machine and process of the referee.
    pub host: String,
    pub pid: u32,
}

impl ProgressFile {
    /// Matches per second of the run that wrote it.
    pub fn rate(&self) -> f64 {
        if self.elapsed_s > 0.0 {
            self.played as f64 / self.elapsed_s
        } else {
            0.0
        }
    }

    /// Read `<dir>/progress.json`, if there is one (`None` too when it is not the JSON
    /// the referee writes). A link, a FIFO or anything but a regular file in its place, or
    /// one larger than [`crate::run_bounds::PROGRESS`], is an error naming it: it is never
    /// followed, waited on or read whole.
    pub fn load(dir: &Path) -> anyhow::Result<Option<ProgressFile>> {
        let path = dir.join(FILE);
        if path.symlink_metadata().is_err() {
            return Ok(None);
        }
        let bytes = crate::store::read_bytes(&path, crate::run_bounds::PROGRESS)?;
        Ok(serde_json::from_slice(&bytes).ok())
    }
}

/// This machine's name, as `progress.json` records it (empty if unreadable).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// Seconds since the Unix epoch, now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `1h02m`, `3m05s`, `12s`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "?".into();
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The counters the run updates and the reporter reads.
struct Counters {
    total: u64,
    done: AtomicU64,
    faults: AtomicU64,
    played: AtomicU64,
    started: Instant,
    dir: PathBuf,
    finished: AtomicBool,
}

impl Counters {
    fn file(&self, state: &str) -> ProgressFile {
        ProgressFile {
            total: self.total,
            done: self.done.load(Ordering::SeqCst),
            faults: self.faults.load(Ordering::SeqCst),
            played: self.played.load(Ordering::SeqCst),
            elapsed_s: self.started.elapsed().as_secs_f64(),
            state: state.into(),
            updated: now(),
            every_s: FILE_EVERY.as_secs(),
            host: hostname(),
            pid: std::process::id(),
        }
    }

    fn write(&self, state: &str) {
        let bytes = serde_json::to_vec_pretty(&self.file(state)).expect("progress serialises");
        // Progress is for watching: a failed write is no reason to stop a run.
        let _ = crate::store::write_atomic(&self.dir.join(FILE), &bytes);
    }

    /// `progress: 120/400 matches (30%), 3.40 matches/s, ETA 1m22s, faults 3`.
    fn line(&self) -> String {
        let file = self.file("running");
        let rate = file.rate();
        let left = file.total.saturating_sub(file.done);
        let eta = if left == 0 {
            "0s".into()
        } else if rate > 0.0 {
            duration(left as f64 / rate)
        } else {
            "?".into()
        };
        format!(
            "progress: {}/{} matches ({}%), {rate:.2} matches/s, ETA {eta}, faults {}",
            file.done,
            file.total,
            (file.done * 100).checked_div(file.total).unwrap_or(100),
            file.faults
        )
    }
}

/// The reporter of one run.
pub struct Progress {
    counters: Arc<Counters>,
    bar: indicatif::ProgressBar,
    ticker: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts reporting a run of `total` matches in `dir`, `done` of them (with `faults`
    /// faults) already played.
    pub fn start(dir: &Path, total: u64, done: u64, faults: u64) -> Progress {
        Progress::with(dir, total, done, faults, true)
    }

    /// [`Progress::start`] without the bar or the lines: `progress.json` only (a gauntlet
    /// prints its own progress; its `total` is the most it may play).
    pub fn file_only(dir: &Path, total: u64, done: u64, faults: u64) -> Progress {
        Progress::with(dir, total, done, faults, false)
    }

    fn with(dir: &Path, total: u64, done: u64, faults: u64, show: bool) -> Progress {
        let lines = show && !std::io::stderr().is_terminal();
        let counters = Arc::new(Counters {
            total,
            done: AtomicU64::new(done),
            faults: AtomicU64::new(faults),
            played: AtomicU64::new(0),
            started: Instant::now(),
            dir: dir.to_path_buf(),
            finished: AtomicBool::new(false),
        });
        counters.write("running");
        let ticker = {
            let counters = counters.clone();
            std::thread::spawn(move || {
                let mut last_file = Instant::now();
                let mut last_line = Instant::now();
                while !counters.finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(200));
                    if last_file.elapsed() >= FILE_EVERY {
                        counters.write("running");
                        last_file = Instant::now();
                    }
                    if lines && last_line.elapsed() >= LINE_EVERY {
                        eprintln!("{}", counters.line());
                        last_line = Instant::now();
                    }
                }
            })
        };
        Progress {
            bar: match show {
                true => super::progress_bar(total, done),
                false => indicatif::ProgressBar::hidden(),
            },
            counters,
            ticker: Some(ticker),
        }
    }

    /// A match was played with `faults` faults.
    pub fn played(&self, faults: u64) {
        self.counters.played.fetch_add(1, Ordering::SeqCst);
        self.counters.done.fetch_add(1, Ordering::SeqCst);
        let all = self.counters.faults.fetch_add(faults, Ordering::SeqCst) + faults;
        self.bar.set_message(format!("faults {all}"));
        self.bar.inc(1);
    }

    /// The run is over: `finished` when every match is played, else stopped.
    pub fn finish(mut self, finished: bool) {
        self.end(if finished { "finished" } else { "stopped" });
    }

    fn end(&mut self, state: &str) {
        self.counters.finished.store(true, Ordering::SeqCst);
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
            self.bar.finish_and_clear();
            self.counters.write(state);
        }
    }
}

impl Drop for Progress {
    /// A run that ends in an error has stopped.
    fn drop(&mut self) {
        self.end("stopped");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(59.0), "59s");
        assert_eq!(duration(60.0), "1m00s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(3720.0), "1h02m");
        assert_eq!(duration(f64::INFINITY), "?");
    }
}
