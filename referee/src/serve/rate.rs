//! The server's rates: the games one source starts in a minute (`--games-per-minute`), so
//! that one machine cannot fill the disk with records nor the machine with bots; and the
//! log's refusal lines, at most [`LINES`] in [`WINDOW`], the rest summed up in one line,
//! so that a client refused in a loop cannot fill the disk with the log.

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

/// The refusal lines of the current window.
#[derive(Default)]
pub struct Refusals(Mutex<Window>);

#[derive(Default)]
struct Window {
    start: Option<Instant>,
    written: u32,
    left_out: u64,
}

impl Refusals {
    /// Writes the refusal `line` in the log, unless [`LINES`] were written in the window.
    pub fn say(&self, line: &str) {
        for line in self.lines(line, Instant::now()) {
            println!("{line}");
        }
    }

    /// The lines to write for the refusal `line` at `now`: it, or nothing; first, when a
    /// window begins after one that left lines out, the line that counts them.
    fn lines(&self, line: &str, now: Instant) -> Vec<String> {
        let mut w = lock(&self.0);
        let mut out = Vec::new();
        if w.start
            .is_none_or(|s| now.saturating_duration_since(s) >= WINDOW)
        {
            if w.left_out > 0 {
                out.push(format!(
                    "{} more refusal line{} left out (at most {LINES} every {} s)",
                    w.left_out,
                    if w.left_out == 1 { "" } else { "s" },
                    WINDOW.as_secs()
                ));
            }
            *w = Window {
                start: Some(now),
                ..Window::default()
            };
        }
        if w.written < LINES {
            w.written += 1;
            out.push(line.to_string());
        } else {
            w.left_out += 1;
        }
        out
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
    fn refusal_lines_past_the_bound_are_summed_up() {
        let refusals = Refusals::default();
        let t = Instant::now();
        let said: Vec<String> = (0..25)
            .flat_map(|i| refusals.lines(&format!("refused {i}"), t))
            .collect();
        assert_eq!(said.len(), LINES as usize);
        assert_eq!(said.last().unwrap(), "refused 9");
        let next = refusals.lines("refused 25", t + WINDOW);
        assert_eq!(
            next,
            [
                "15 more refusal lines left out (at most 10 every 10 s)",
                "refused 25"
            ]
        );
        assert_eq!(refusals.lines("refused 26", t + WINDOW * 3), ["refused 26"]);
    }
}
