//! The server's event channel for its web site: the games in play (each with its record so
//! far, told by the arena after every callback: `arena::watch`), the tournaments' changes,
//! and a version that every change (a game started, a callback played, a game ended, a
//! tournament's change) increases, which the pages' event streams wait on. Fed by `serve/session.rs` (`started`, `watching`, `ended`); read
//! by the site (`serve/web/`). Nothing is kept while no site is served (`--web`).

use crate::serve::games::Served;
use arena::GameRecord;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A game in play, as the site shows it.
#[derive(Clone)]
pub struct Live {
    pub game: Served,
    /// The record at the end of the last callback played; `None` before the first.
    pub record: Option<Arc<GameRecord>>,
    /// The hub's version when this game last changed.
    pub version: u64,
}

#[derive(Default)]
struct State {
    version: u64,
    live: HashMap<String, Live>,
    /// The games that ended, with the version of their end (the last 1,000).
    ended: Vec<(String, u64)>,
    /// Each tournament's version of its last change (a game started or ended, who went on).
    tournaments: HashMap<String, u64>,
}

/// The event channel (one a server).
#[derive(Default)]
pub struct Hub {
    serving: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
}

/// The games that ended kept for the pages' streams; older ones are only in the store.
const ENDED_KEPT: usize = 1_000;

impl Hub {
    /// Turns the hub on: a site is served.
    pub fn serve(&self) {
        self.serving.store(true, Ordering::SeqCst);
    }

    fn is_serving(&self) -> bool {
        self.serving.load(Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn change(&self, f: impl FnOnce(&mut State, u64)) {
        if !self.is_serving() {
            return;
        }
        let mut state = self.lock();
        state.version += 1;
        let version = state.version;
        f(&mut state, version);
        drop(state);
        self.changed.notify_all();
    }

    /// Game `name` of `game` starts.
    pub fn started(&self, name: &str, game: Served) {
        self.change(|s, version| {
            s.live.insert(
                name.to_string(),
                Live {
                    game,
                    record: None,
                    version,
                },
            );
        });
    }

    /// Plays `play` (the match of game `name`) with the hub told its record after each
    /// callback (the session ends the game for the site, played or failed).
    pub fn watching<R>(
        self: &Arc<Self>,
        name: &str,
        play: impl FnOnce() -> anyhow::Result<R>,
    ) -> anyhow::Result<R> {
        if !self.is_serving() {
            return play();
        }
        let hub = Arc::clone(self);
        let game = name.to_string();
        arena::watch::watching(move |record| hub.moved(&game, record), play)
    }

    fn moved(&self, name: &str, record: &GameRecord) {
        let record = Arc::new(record.clone());
        self.change(|s, version| {
            if let Some(live) = s.live.get_mut(name) {
                live.record = Some(record);
                live.version = version;
            }
        });
    }

    /// Game `name` ended (its record written and the store told).
    pub fn ended(&self, name: &str) {
        self.change(|s, version| {
            s.live.remove(name);
            s.ended.push((name.to_string(), version));
            if s.ended.len() > ENDED_KEPT {
                s.ended.remove(0);
            }
        });
    }

    /// Tournament `name` changed: one of its games started or ended, or a phase's players
    /// went on (its page fetches its standings and bracket again).
    pub fn tournament_changed(&self, name: &str) {
        self.change(|s, version| {
            s.tournaments.insert(name.to_string(), version);
        });
    }

    /// Whether tournament `name` changed since version `seen`.
    pub fn tournament_news(&self, name: &str, seen: u64) -> bool {
        self.lock().tournaments.get(name).is_some_and(|&v| v > seen)
    }

    /// The game `name` if it is in play.
    pub fn live(&self, name: &str) -> Option<Live> {
        self.lock().live.get(name).cloned()
    }

    /// The version now.
    pub fn version(&self) -> u64 {
        self.lock().version
    }

    /// Waits until the version passes `seen` or `until` comes; the version then.
    pub fn wait(&self, seen: u64, until: Instant) -> u64 {
        let mut state = self.lock();
        while state.version <= seen {
            let left = until.saturating_duration_since(Instant::now());
            if left == Duration::ZERO {
                break;
            }
            state = match self.changed.wait_timeout(state, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
        state.version
    }

    /// What became of game `name` since version `seen`: `Some(true)` it ended,
    /// `Some(false)` it changed (or started), `None` nothing.
    pub fn news(&self, name: &str, seen: u64) -> Option<bool> {
        let state = self.lock();
        if let Some(live) = state.live.get(name) {
            return (live.version > seen).then_some(false);
        }
        state
            .ended
            .iter()
            .any(|(n, v)| n == name && *v > seen)
            .then_some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_s_news_follow_its_start_and_end_and_nothing_is_kept_unserved() {
        let hub = Hub::default();
        hub.started("g", Served::TICKET);
        assert!(hub.live("g").is_none(), "no site: nothing kept");
        hub.serve();
        hub.started("g", Served::TICKET);
        let seen = hub.version();
        assert_eq!(hub.news("g", seen), None);
        assert_eq!(hub.news("g", 0), Some(false));
        hub.ended("g");
        assert_eq!(hub.news("g", seen), Some(true));
        assert!(hub.live("g").is_none());
        assert_eq!(hub.wait(seen, Instant::now()), seen + 1);
        let seen = hub.version();
        assert!(!hub.tournament_news("cup", 0));
        hub.tournament_changed("cup");
        assert!(hub.tournament_news("cup", seen));
        assert!(!hub.tournament_news("cup", hub.version()));
    }
}
