//! The server's rates: the games one source starts in a minute (`--games-per-minute`), so
//! that one machine cannot fill the disk with records nor the machine with bots; and the
//! log's lines of refusals and connections, at most [`LINES`] a source in [`WINDOW`], the
//! rest summed up in one line, so that a client refused or connecting in a loop cannot
//! fill the disk with the log.

use super::address::Source;
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The span over which a source's games are counted.
pub const MINUTE: Duration = Duration::from_secs(60);
/// The games a minute of one source unless the command line says otherwise.
pub const GAMES_PER_MINUTE: u32 = 60;
/// The refusal lines written in a window; the window.
pub const LINES: u32 = 10;
pub const WINDOW: Duration = Duration::from_secs(10);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// When each source started its games of the last minute.
pub struct Games {
    per_minute: u32,
    started: Mutex<HashMap<Source, VecDeque<Instant>>>,
}

impl Games {
    pub fn new(per_minute: u32) -> Games {
        Games {
            per_minute,
            started: Mutex::default(),
        }
    }

    /// Counts a game `source` starts at `now`, or the refusal for its client when it
    /// started `per_minute` games in the minute before.
    pub fn start(&self, source: Source, now: Instant) -> Result<(), String> {
        let mut started = lock(&self.started);
        let recent = |t: &Instant| now.saturating_duration_since(*t) < MINUTE;
        // Sources idle for a minute are forgotten (the map stays as small as the sources
        // of the last minute).
        if started.len() > 64 {
            started.retain(|_, times| times.back().is_some_and(recent));
        }
        let times = started.entry(source).or_default();
        while times.front().is_some_and(|t| !recent(t)) {
            times.pop_front();
        }
        if times.len() >= self.per_minute as usize {
            let wait = times
                .front()
                .map_or(MINUTE, |t| MINUTE - now.saturating_duration_since(*t));
            return Err(format!(
                "Too many games from your machine (at most {} a minute); try again in {} s",
                self.per_minute,
                wait.as_secs().max(1)
            ));
        }
        times.push_back(now);
        Ok(())
    }
}

/// Lines of the log of one kind (refusals, connections): at most [`LINES`] of a source
/// in its [`WINDOW`], the rest summed up in one line when its next window begins (or its
/// window is forgotten), so that a client refused, or connecting, in a loop cannot fill
/// the disk with the log, nor keep another source's lines out.
pub struct Lines {
    /// What the lines are, for the summing-up line (`refusal`, `connection`).
    what: &'static str,
    windows: Mutex<HashMap<Source, Window>>,
}

/// One source's current window.
struct Window {
    start: Instant,
    written: u32,
    left_out: u64,
}

impl Lines {
    pub fn new(what: &'static str) -> Lines {
        Lines {
            what,
            windows: Mutex::default(),
        }
    }

    /// Writes `line` of `source` in the log, unless [`LINES`] of its were written in its
    /// window; whether it was written.
    pub fn say(&self, source: Source, line: &str) -> bool {
        let (lines, written) = self.lines(source, line, Instant::now());
        for line in lines {
            println!("{line}");
        }
        written
    }

    /// The lines to write for `line` of `source` at `now` (it, or not), and whether it is
    /// among them; before it, the lines that sum up the windows that ended leaving lines
    /// out (the source's own, or any once more than 64 sources are kept).
    fn lines(&self, source: Source, line: &str, now: Instant) -> (Vec<String>, bool) {
        let mut windows = lock(&self.windows);
        let mut out = Vec::new();
        let ended = |w: &Window| now.saturating_duration_since(w.start) >= WINDOW;
        let mut sum_up = |source: &Source, w: &Window| {
            if w.left_out > 0 {
                out.push(format!(
                    "{} more {} line{} of {source} left out (at most {LINES} every {} s)",
                    w.left_out,
                    self.what,
                    if w.left_out == 1 { "" } else { "s" },
                    WINDOW.as_secs()
                ));
            }
        };
        if windows.get(&source).is_some_and(ended) {
            if let Some(w) = windows.remove(&source) {
                sum_up(&source, &w);
            }
        }
        if windows.len() > 64 {
            windows.retain(|s, w| {
                let keep = !ended(&*w);
                if !keep {
                    sum_up(s, &*w);
                }
                keep
            });
        }
        let w = windows.entry(source).or_insert(Window {
            start: now,
            written: 0,
            left_out: 0,
        });
        let written = w.written < LINES;
        match written {
            true => {
                w.written += 1;
                out.push(line.to_string());
            }
            false => w.left_out += 1,
        }
        (out, written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_starts_its_games_of_a_minute_and_no_more() {
        let games = Games::new(2);
        let t = Instant::now();
        let me = Source::Loopback;
        let other = Source::V4([192, 0, 2, 1].into());
        assert!(games.start(me, t).is_ok());
        assert!(games.start(me, t + Duration::from_secs(1)).is_ok());
        let why = games.start(me, t + Duration::from_secs(2)).unwrap_err();
        assert!(
            why.contains("(at most 2 a minute); try again in 58 s"),
            "{why}"
        );
        assert!(games.start(other, t + Duration::from_secs(2)).is_ok());
        assert!(
            games.start(me, t + MINUTE).is_ok(),
            "the first one is a minute old"
        );
        assert!(games.start(me, t + MINUTE).is_err());
    }

    #[test]
    fn lines_of_a_source_past_the_bound_are_summed_up() {
        let refusals = Lines::new("refusal");
        let t = Instant::now();
        let me = Source::Loopback;
        let said: Vec<String> = (0..25)
            .flat_map(|i| refusals.lines(me, &format!("refused {i}"), t).0)
            .collect();
        assert_eq!(said.len(), LINES as usize);
        assert_eq!(said.last().unwrap(), "refused 9");
        assert!(!refusals.lines(me, "refused 25", t).1);
        let other = Source::V4([192, 0, 2, 1].into());
        assert_eq!(
            refusals.lines(other, "another's", t),
            (vec!["another's".to_string()], true),
            "one source never keeps another's lines out"
        );
        let next = refusals.lines(me, "refused 26", t + WINDOW);
        assert_eq!(
            next.0,
            [
                "16 more refusal lines of loopback left out (at most 10 every 10 s)",
                "refused 26"
            ]
        );
        assert_eq!(
            refusals.lines(me, "refused 27", t + WINDOW * 3).0,
            ["refused 27"]
        );
    }

    #[test]
    fn a_forgotten_source_s_lines_left_out_are_summed_up() {
        let lines = Lines::new("connection");
        let t = Instant::now();
        let me = Source::V4([192, 0, 2, 1].into());
        for i in 0..=LINES {
            lines.lines(me, &format!("line {i}"), t);
        }
        let mut said = Vec::new();
        for i in 0..65u32 {
            let other = Source::V4(i.into());
            said.extend(lines.lines(other, "other", t + WINDOW).0);
        }
        assert!(
            said.contains(
                &"1 more connection line of 192.0.2.1 left out (at most 10 every 10 s)".into()
            ),
            "{said:?}"
        );
    }
}
