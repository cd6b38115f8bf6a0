//! The server's open files: the soft `RLIMIT_NOFILE` raised to the hard one at start, a
//! number of connections the limit cannot hold refused before listening (a server past its
//! limit fails every `accept` with "too many open files"), and the files of the games
//! counted apart from the connections': a game the files left cannot hold is refused
//! with a message to its players, before any of its files is opened, so that the
//! connections `--max-connections` promises are never the ones refused.

use nix::sys::resource::{getrlimit, Resource};
use std::sync::Mutex;

/// Open files counted for one connection: its socket, and the second handle on it that
/// the names keep to see it closed.
pub const PER_CONNECTION: u64 = 2;
/// Open files the server keeps besides its connections and games (listener, store, logs).
pub const RESERVE: u64 = 64;
/// Open files of a game besides its seats: its folder, record and logs.
pub const PER_GAME: u64 = 8;
/// Open files of each built-in champion a game runs: its pipes, process handle, jail.
pub const PER_BOT: u64 = 16;

/// The open files of a game of `bots` built-in champions (its clients' sockets are their
/// connections').
pub fn of_game(bots: usize) -> u64 {
    PER_GAME + PER_BOT * bots as u64
}

/// The open files the games may hold: what the limit leaves besides the connections.
pub struct Budget {
    free: Mutex<u64>,
}

impl Budget {
    /// The budget of a server of `max_connections` under the limit in force.
    pub fn new(max_connections: u32) -> Budget {
        let limit = getrlimit(Resource::RLIMIT_NOFILE).map_or(0, |(soft, _)| soft);
        Budget::of(limit, max_connections)
    }

    /// The budget of a server of `max_connections` under `limit` open files.
    pub fn of(limit: u64, max_connections: u32) -> Budget {
        let free = limit.saturating_sub(connections(max_connections));
        Budget {
            free: Mutex::new(free),
        }
    }

    fn free(&self) -> std::sync::MutexGuard<'_, u64> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the files of a game of `bots` built-in champions until the [`Taken`] is
    /// dropped, or the refusal for its players.
    pub fn take(&self, bots: usize) -> Result<Taken<'_>, String> {
        let files = of_game(bots);
        let mut free = self.free();
        if *free < files {
            return Err(
                "The server plays too many games at once (its open files are all \
                        taken): this game is not played; try again later"
                    .to_string(),
            );
        }
        *free -= files;
        Ok(Taken {
            budget: self,
            files,
        })
    }
}

impl Budget {
    /// Takes `files` for as long as the server runs (the web site's connections), or says
    /// that too few are left for them and one training game.
    pub fn keep(&self, files: u64, what: &str) -> anyhow::Result<()> {
        let mut free = self.free();
        if *free < files + of_game(1) {
            anyhow::bail!(
                "{what} need {files} open files and the limit leaves {} besides the game \
                 port's connections: raise it (ulimit -Hn, or LimitNOFILE= of a service) or \
                 serve fewer connections",
                free.saturating_sub(of_game(1))
            );
        }
        *free -= files;
        Ok(())
    }
}

/// The files of a game, given back when dropped (its end, or its thread's panic).
pub struct Taken<'a> {
    budget: &'a Budget,
    files: u64,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        *self.budget.free() += self.files;
    }
}

/// The open files of `max_connections` connections and the server's own.
fn connections(max_connections: u32) -> u64 {
    u64::from(max_connections) * PER_CONNECTION + RESERVE
}

/// Too few open files for the connections asked: what they need, the limit, and the
/// most connections it holds (the command line names its flag with them).
#[derive(Debug, PartialEq, Eq)]
pub struct TooFewFiles {
    pub max_connections: u32,
    pub needed: u64,
    pub limit: u64,
    pub fits: u64,
}

impl std::fmt::Display for TooFewFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} connections need {} open files and the limit is {} (the hard limit of open \
             files, RLIMIT_NOFILE): raise it (ulimit -Hn, or LimitNOFILE= of a service) or \
             serve {} connections or fewer",
            self.max_connections, self.needed, self.limit, self.fits
        )
    }
}

impl std::error::Error for TooFewFiles {}

/// Raises the soft limit of open files to the hard one; the limit now in force, or why
/// `max_connections` cannot be served under it.
pub fn raise_for(max_connections: u32) -> anyhow::Result<u64> {
    let limit = jail::raise_open_files();
    check(max_connections, limit)?;
    // The walks of the games' champions keep none of what the connections and a game need.
    jail::usage::leave_open_files(connections(max_connections) + of_game(1));
    Ok(limit)
}

/// Whether `limit` open files hold `max_connections` and one training game.
pub fn check(max_connections: u32, limit: u64) -> Result<(), TooFewFiles> {
    let needed = connections(max_connections) + of_game(1);
    if needed <= limit {
        return Ok(());
    }
    Err(TooFewFiles {
        max_connections,
        needed,
        limit,
        fits: limit.saturating_sub(RESERVE + of_game(1)) / PER_CONNECTION,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_too_low_names_the_bound_that_fits() {
        assert!(check(1024, 2136).is_ok());
        let why = check(1024, 256).unwrap_err();
        assert_eq!((why.needed, why.fits), (2136, 84), "{why}");
        assert!(
            why.to_string().contains("serve 84 connections or fewer"),
            "{why}"
        );
        assert_eq!(check(1, 0).unwrap_err().fits, 0);
    }

    #[test]
    fn games_take_the_files_the_connections_leave() {
        // 4 connections (8 files) and the reserve leave 2 training games of 24 files.
        let budget = Budget::of(RESERVE + 8 + 2 * of_game(1) + 3, 4);
        let one = budget.take(1).unwrap();
        let two = budget.take(1).unwrap();
        let why = budget.take(1).err().unwrap();
        assert!(why.contains("too many games at once"), "{why}");
        drop(one);
        assert!(budget.take(1).is_ok(), "a game's files given back");
        drop(two);
        assert!(budget.take(3).is_err(), "a game of three bots needs 56");
    }
}
