//! The server's store: players (their names and the hashes of their tokens) and games
//! (who played, when, how each ended) in one SQLite file; the records themselves stay
//! files under the results. A game is written `playing` when it starts and `finished` with
//! its outcome once its record is written, or `failed` with why when the server failed to
//! play it; opening the store marks the games a stopped server left `playing` as
//! `interrupted`, so a restart loses nothing finished. The store's file is in SQLite's WAL
//! mode and the web site's pages read on a read-only connection of their own: a page,
//! however long it reads, never holds the connection the game server writes with (a
//! client's name, a token's check, a tournament's wait), and WAL readers never block it.

use anyhow::Context;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The store's file name under the results, unless `--store` names another.
pub const FILE: &str = "server.sqlite";

/// One game of the store, as `referee serve games` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub name: String,
    /// The game played (`ticket-to-ride`, ...), empty for a game of a store of before.
    pub game: String,
    /// `training`, `free` or `tournament`.
    pub kind: String,
    /// The seats' names, in seat order, comma-separated.
    pub seats: String,
    /// `playing`, `finished`, `interrupted` or `failed` (the server failed to play it: it
    /// counts for no one).
    pub state: String,
    /// How it ended (each seat's outcome), or why it failed; empty while playing. Text for
    /// people: its parts quote the players' lines, so it is never read back.
    pub outcome: String,
    /// Each seat's result, in seat order (`won`, `lost`, `lost by a ... fault: ...`), as
    /// the game gave it when it ended; empty while playing, for a game that failed, or
    /// for a seat whose result a store of before could not tell.
    pub results: Vec<String>,
    /// Seconds since 1970 when it started.
    pub started: u64,
    /// Seconds since 1970 when it ended, if it did.
    pub ended: Option<u64>,
}

/// The store, shared by the connections: the connection the server reads and writes
/// with, and the pages' read-only one.
pub struct Store(Mutex<Connection>, Mutex<Connection>);

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The hash kept of a token (the token itself is never stored).
fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Store {
    /// Opens (or creates) the store at `path`; the games left `playing` by a server that
    /// stopped are marked `interrupted`: their number is given.
    pub fn open(path: &Path) -> anyhow::Result<(Store, usize)> {
        let store = Store::open_only(path)?;
        let interrupted = store
            .lock()
            .execute(
                "UPDATE games SET state = 'interrupted' WHERE state = 'playing'",
                [],
            )
            .with_context(|| format!("cannot write the store {}", path.display()))?;
        store.interrupt_tournaments()?;
        Ok((store, interrupted))
    }

    /// Opens the store without marking anything (for the commands that only read or
    /// register while a server may run on it).
    pub fn open_only(path: &Path) -> anyhow::Result<Store> {
        let mut conn = Connection::open(path).with_context(|| {
            format!(
                "cannot open the store {} (in a folder that exists and is writable)",
                path.display()
            )
        })?;
        conn.busy_timeout(Duration::from_secs(10))?;
        // Readers never block the writer (the pages read while games are written).
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .with_context(|| format!("cannot write the store {}", path.display()))?;
        if !mode.eq_ignore_ascii_case("wal") {
            anyhow::bail!(
                "the store {} cannot be put in WAL mode (it is {mode}): put it on a local disk",
                path.display()
            );
        }
        // The tables made and the columns a store of before lacks added under the write
        // lock: a server and a command opening one store at once never both add a column.
        let schema = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .with_context(|| format!("cannot write the store {}", path.display()))?;
        schema
            .execute_batch(
                "CREATE TABLE IF NOT EXISTS players (
                 name TEXT PRIMARY KEY,
                 token_sha256 TEXT NOT NULL,
                 registered INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS games (
                 name TEXT PRIMARY KEY,
                 kind TEXT NOT NULL,
                 seats TEXT NOT NULL,
                 state TEXT NOT NULL,
                 outcome TEXT NOT NULL DEFAULT '',
                 started INTEGER NOT NULL,
                 ended INTEGER);",
            )
            .with_context(|| {
                format!(
                    "{} is not a store of `referee serve` (another file?)",
                    path.display()
                )
            })?;
        super::tournament_store::create(&schema)?;
        add_games_game(&schema)?;
        super::store_plays::add_results(&schema)?;
        super::store_plays::create(&schema)?;
        schema.execute_batch(
            "CREATE TABLE IF NOT EXISTS comments (
                 game TEXT NOT NULL,
                 player TEXT NOT NULL,
                 said INTEGER NOT NULL,
                 text TEXT NOT NULL);
             CREATE INDEX IF NOT EXISTS comments_of_a_game ON comments (game);
             CREATE INDEX IF NOT EXISTS games_by_start ON games (started, name);",
        )?;
        schema.commit()?;
        let pages = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("cannot read the store {}", path.display()))?;
        pages.busy_timeout(Duration::from_secs(10))?;
        Ok(Store(Mutex::new(conn), Mutex::new(pages)))
    }

    /// The pages' read-only connection (a page waits for another page, never for the
    /// server's writes).
    pub(super) fn pages(&self) -> MutexGuard<'_, Connection> {
        self.1.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Connection> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `name` (or registers it again) with a fresh token, which is returned:
    /// only its hash is kept.
    pub fn register(&self, name: &str) -> anyhow::Result<String> {
        let token = format!("{:032x}", rand::random::<u128>());
        self.lock().execute(
            "INSERT INTO players (name, token_sha256, registered) VALUES (?1, ?2, ?3)
             ON CONFLICT(name) DO UPDATE SET token_sha256 = ?2, registered = ?3",
            params![name, token_hash(&token), now()],
        )?;
        Ok(token)
    }

    /// Whether `name` may play with `token`: a name not registered plays without one; a
    /// registered name needs its token. The refusal is the message for the client.
    pub fn check(&self, name: &str, token: Option<&str>) -> Result<(), String> {
        let kept: Option<String> = self
            .lock()
            .query_row(
                "SELECT token_sha256 FROM players WHERE name = ?1",
                [name],
                |row| row.get(0),
            )
            .optional()
            .map_err(|_| "The server cannot read its store; try again later".to_string())?;
        match (kept, token) {
            (None, _) => Ok(()),
            (Some(_), None) => Err(format!(
                "The name '{name}' is registered: its games need its token (option token=)"
            )),
            (Some(kept), Some(token)) if kept == token_hash(token) => Ok(()),
            (Some(_), Some(_)) => Err(format!("The token is not the one of '{name}'")),
        }
    }

    /// A game of `game` starts.
    pub fn started(
        &self,
        name: &str,
        game: &str,
        kind: &str,
        seats: &[String],
    ) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let started = now();
        tx.execute(
            "INSERT OR REPLACE INTO games (name, game, kind, seats, state, started)
             VALUES (?1, ?2, ?3, ?4, 'playing', ?5)",
            params![name, game, kind, seats.join(","), started],
        )?;
        super::store_plays::started_with(&tx, name, seats, started)?;
        tx.commit()?;
        Ok(())
    }

    /// The comments the players of game `name` sent (`SEND_COMMENT`), each `(player,
    /// text)`, in the order they were said.
    pub fn comments(&self, name: &str, said: &[(String, String)]) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        for (n, (player, text)) in said.iter().enumerate() {
            tx.execute(
                "INSERT INTO comments (game, player, said, text) VALUES (?1, ?2, ?3, ?4)",
                params![name, player, n as i64, text],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The comments of game `name`, `(player, text)` in the order said.
    pub fn comments_of(&self, name: &str) -> anyhow::Result<Vec<(String, String)>> {
        let conn = self.pages();
        let mut query =
            conn.prepare("SELECT player, text FROM comments WHERE game = ?1 ORDER BY said")?;
        let rows = query.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A game ended and its record is written: its `outcome` for people, and each seat's
    /// result (`results`, in seat order), kept on its own.
    pub fn finished(&self, name: &str, outcome: &str, results: &[String]) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE games SET state = 'finished', outcome = ?2, results = ?3, ended = ?4 \
             WHERE name = ?1",
            params![name, outcome, super::store_plays::joined(results), now()],
        )?;
        super::store_plays::finished_with(&tx, name, results)?;
        tx.commit()?;
        Ok(())
    }

    /// A game the server failed to play (`why`): it counts for no one.
    pub fn failed(&self, name: &str, why: &str) -> anyhow::Result<()> {
        self.lock().execute(
            "UPDATE games SET state = 'failed', outcome = ?2, ended = ?3 WHERE name = ?1",
            params![name, why, now()],
        )?;
        Ok(())
    }

    /// The games, oldest first.
    pub fn games(&self) -> anyhow::Result<Vec<GameRow>> {
        let conn = self.lock();
        let mut query = conn.prepare(&format!("{SELECT_GAMES} ORDER BY started, name"))?;
        let rows = query.query_map([], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One page of the games `filter` keeps, newest first: at most `limit` after the first
    /// `offset`; and how many it keeps in all. Only the page's rows are read.
    pub fn games_page(
        &self,
        filter: &GameFilter,
        offset: u64,
        limit: u64,
    ) -> anyhow::Result<(Vec<GameRow>, u64)> {
        let conn = self.pages();
        let kept = params![filter.game, filter.player, filter.state];
        // A player's games through its index (`store_plays`), never a scan of every game.
        let (from, order) = match filter.player.is_empty() {
            true => (
                format!("FROM games g WHERE {KEPT}"),
                "g.started DESC, g.name DESC",
            ),
            false => (
                super::store_plays::OF_A_PLAYER.to_string(),
                "p.started DESC, p.game DESC",
            ),
        };
        let total: u64 = conn.query_row(&format!("SELECT count(*) {from}"), kept, |r| r.get(0))?;
        let mut query = conn.prepare(&format!(
            "SELECT {COLUMNS} {from} ORDER BY {order} LIMIT ?4 OFFSET ?5"
        ))?;
        let rows = query.query_map(
            params![filter.game, filter.player, filter.state, limit, offset],
            game_row,
        )?;
        Ok((rows.collect::<Result<_, _>>()?, total))
    }

    /// The games of `player`, and how many it won and lost by a fault, read from its
    /// index (`store_plays`) alone.
    pub fn counts_of(&self, player: &str) -> anyhow::Result<(u64, u64, u64)> {
        let conn = self.pages();
        Ok(conn.query_row(super::store_plays::COUNTS, [player], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?)
    }

    /// The game `name`, if the store has it.
    pub fn game(&self, name: &str) -> anyhow::Result<Option<GameRow>> {
        let conn = self.pages();
        let mut query = conn.prepare(&format!("{SELECT_GAMES} WHERE name = ?1"))?;
        Ok(query.query_row([name], game_row).optional()?)
    }
}

/// Which games a list shows: of a game, of a player among the seats, in a state (each
/// empty: any).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GameFilter {
    pub game: String,
    pub player: String,
    pub state: String,
}

/// The columns of a [`GameRow`].
const SELECT_GAMES: &str =
    "SELECT name, game, kind, seats, state, outcome, started, ended, results FROM games";
/// The columns of a [`GameRow`] of `games g`.
const COLUMNS: &str =
    "g.name, g.game, g.kind, g.seats, g.state, g.outcome, g.started, g.ended, g.results";
/// The games of `games g` a [`GameFilter`] of no player keeps (`?1` game, `?3` state; `?2`
/// is the empty player).
const KEPT: &str = "(?1 = '' OR g.game = ?1) AND ?2 = '' AND (?3 = '' OR g.state = ?3)";

pub(super) fn game_row(r: &rusqlite::Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        name: r.get(0)?,
        game: r.get(1)?,
        kind: r.get(2)?,
        seats: r.get(3)?,
        state: r.get(4)?,
        outcome: r.get(5)?,
        started: r.get(6)?,
        ended: r.get(7)?,
        results: super::store_plays::split(&r.get::<_, String>(8)?),
    })
}

impl GameRow {
    /// How the game ended for the seat of `name` (its first seat): empty while it is
    /// played, when it counts for no one, or when `name` has no seat in it.
    pub fn result_of(&self, name: &str) -> String {
        self.seats
            .split(',')
            .position(|seat| seat == name)
            .and_then(|seat| self.results.get(seat))
            .cloned()
            .unwrap_or_default()
    }
}

/// The column `game` of the table `games`, added to a store of before it (whose games then
/// name none).
fn add_games_game(conn: &Connection) -> anyhow::Result<()> {
    let has: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'game'")?
        .exists([])?;
    if !has {
        conn.execute(
            "ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT ''",
            [],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_checked_and_only_their_hashes_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(&dir.path().join(FILE)).unwrap();
        assert!(store.check("ann", None).is_ok(), "not registered");
        let token = store.register("ann").unwrap();
        assert!(store.check("ann", Some(&token)).is_ok());
        assert!(store.check("ann", None).unwrap_err().contains("token="));
        assert!(store.check("ann", Some("nope")).is_err());
        let again = store.register("ann").unwrap();
        assert!(store.check("ann", Some(&token)).is_err(), "the old token");
        assert!(store.check("ann", Some(&again)).is_ok());
        let kept: String = store
            .lock()
            .query_row("SELECT token_sha256 FROM players", [], |r| r.get(0))
            .unwrap();
        assert!(!kept.contains(&again));
    }
}
