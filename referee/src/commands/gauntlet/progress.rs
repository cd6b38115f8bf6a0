//! A gauntlet's progress on stderr, with the running estimate of the paired difference and
//! its interval: on a terminal, a bar of pairs; otherwise (a log), one line every
//! `--progress-every` seconds and one at the decision.

use crate::gauntlet::Estimate;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub(super) struct Progress {
    bar: Option<ProgressBar>,
    every: Duration,
    started: Instant,
    /// When the last line was printed (no terminal).
    last: Instant,
}

/// `24 pairs: +0.35 points a match [+0.12, +0.58]` (`0 pairs: none complete yet`).
pub(super) fn estimate_text(e: &Estimate) -> String {
    if e.n == 0 {
        return "0 pairs: none complete yet".into();
    }
    format!(
        "{} pairs: {:+.2} points a match [{:+.2}, {:+.2}]",
        e.n, e.mean, e.low, e.high
    )
}

/// The bar's message: `20/1000 pairs  +1.10 points a match [+0.65, +1.55]`. The count is
/// in the message with its estimate, so that one call changes both.
fn message(e: &Estimate, max_pairs: u64) -> String {
    let text = estimate_text(e);
    let estimate = text.split_once(": ").map_or(text.as_str(), |(_, t)| t);
    format!("{}/{max_pairs} pairs  {estimate}", e.n)
}

impl Progress {
    /// Progress of a gauntlet of at most `max_pairs` pairs, `done` the estimate of those
    /// complete already.
    pub(super) fn new(max_pairs: u64, done: &Estimate, every: f64) -> Progress {
        let now = Instant::now();
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(max_pairs).with_style(
                ProgressStyle::with_template("{bar:30} {msg}  {elapsed}")
                    .expect("a valid template"),
            );
            bar.set_message(message(done, max_pairs));
            bar.set_position(done.n as u64);
            bar
        });
        Progress {
            bar,
            // More seconds than a Duration holds (`--progress-every 1e20`): never.
            every: Duration::try_from_secs_f64(every).unwrap_or(Duration::MAX),
            started: now,
            last: now,
        }
    }

    /// A match ended: `e` is the estimate of the complete pairs, `played` the matches this
    /// run played; `decided` when the test has just decided (a line then, whatever the time).
    pub(super) fn update(&mut self, e: &Estimate, played: u64, decided: bool) {
        let text = estimate_text(e);
        match &self.bar {
            Some(bar) => {
                bar.set_message(message(e, bar.length().unwrap_or_default()));
                bar.set_position(e.n as u64);
            }
            None => {
                let now = Instant::now();
                if decided || now.duration_since(self.last) >= self.every {
                    self.last = now;
                    eprintln!(
                        "{text}; {played} matches played in {:.1} s",
                        now.duration_since(self.started).as_secs_f64()
                    );
                }
            }
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
