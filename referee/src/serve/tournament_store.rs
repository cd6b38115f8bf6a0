//! The store's tournaments: table `tournaments` (each one's game, plan, game options, state and
//! winner, its most members and the secret seed of its seeding, drawn at its start),
//! `tournament_players` (who joined), `tournament_games` (its games, whose rows are in
//! `games`, noted as each starts) and `tournament_going_on` (who went on from each phase
//! of a knockout, for its bracket). A tournament is `open` (registered players join) when created,
//! `starting` once the organiser starts it, `playing` once a server took it, then
//! `finished`; one a server left `playing` when it stopped is marked `interrupted`.

use super::store::Store;
use super::tournament_plan::{Format, Plan};
use rusqlite::{params, Connection, OptionalExtension};

/// Creates the tables if the store has none.
pub fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS tournaments (
             name TEXT PRIMARY KEY,
             format TEXT NOT NULL,
             seats INTEGER NOT NULL,
             rounds INTEGER NOT NULL,
             pool INTEGER NOT NULL,
             qualify INTEGER NOT NULL,
             advance INTEGER NOT NULL,
             map TEXT NOT NULL,
             timeout INTEGER NOT NULL,
             state TEXT NOT NULL,
             winner TEXT NOT NULL DEFAULT '',
             created INTEGER NOT NULL,
             ended INTEGER);
         CREATE TABLE IF NOT EXISTS tournament_players (
             tournament TEXT NOT NULL,
             player TEXT NOT NULL,
             joined INTEGER NOT NULL,
             rank INTEGER,
             points INTEGER,
             PRIMARY KEY (tournament, player));
         CREATE TABLE IF NOT EXISTS tournament_games (
             tournament TEXT NOT NULL,
             game TEXT NOT NULL,
             phase TEXT NOT NULL,
             PRIMARY KEY (tournament, game));
         CREATE TABLE IF NOT EXISTS tournament_going_on (
             tournament TEXT NOT NULL,
             phase TEXT NOT NULL,
             player TEXT NOT NULL,
             PRIMARY KEY (tournament, phase, player));",
    )?;
    // Columns a store of before lacks.
    for (column, kind) in [
        ("max_players", "INTEGER NOT NULL DEFAULT 64"),
        ("seed", "INTEGER"),
        // A store of before played Ticket to Ride only, one game a knockout meeting.
        ("game", "TEXT NOT NULL DEFAULT 'ticket-to-ride'"),
        ("best_of", "INTEGER NOT NULL DEFAULT 1"),
    ] {
        let has: bool = conn.query_row(
            "SELECT COUNT(*) > 0 FROM pragma_table_info('tournaments') WHERE name = ?1",
            [column],
            |r| r.get(0),
        )?;
        if !has {
            conn.execute_batch(&format!(
                "ALTER TABLE tournaments ADD COLUMN {column} {kind}"
            ))?;
        }
    }
    Ok(())
}

/// A tournament as the store has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub name: String,
    /// Its game's name (`ticket-to-ride`, `amazons`, `little-town`, `loi`).
    pub game: String,
    pub plan: Plan,
    /// The board of its games (`usa`, `small`).
    pub map: String,
    /// Each turn's wall clock, seconds.
    pub timeout: u32,
    /// `open`, `starting`, `playing`, `finished` or `interrupted`.
    pub state: String,
    pub winner: String,
    /// Its players in the order they joined.
    pub players: Vec<String>,
    /// The most players it takes.
    pub max_players: usize,
    /// The secret seed of its seeding, drawn when it starts.
    pub seed: Option<u64>,
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Creates tournament `name` (`open`); refused if the name is taken.
    pub fn create_tournament(
        &self,
        name: &str,
        game: &str,
        plan: &Plan,
        map: &str,
        timeout: u32,
        max_players: usize,
    ) -> anyhow::Result<()> {
        let created = self.lock().execute(
            "INSERT OR IGNORE INTO tournaments
                 (name, format, seats, rounds, pool, qualify, advance, map, timeout, state, created,
                  max_players, game, best_of)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'open', ?10, ?11, ?12, ?13)",
            params![
                name,
                plan.format.name(),
                plan.seats,
                plan.rounds,
                plan.pool,
                plan.qualify,
                plan.advance,
                map,
                timeout,
                now(),
                max_players,
                game,
                plan.best_of
            ],
        )?;
        anyhow::ensure!(
            created == 1,
            "a tournament {name} exists already in this store: choose another name"
        );
        Ok(())
    }

    /// Tournament `name`, with its players, read on the server's connection (what the
    /// server decides on: a join, a start, a member's turn clock; the pages read theirs on
    /// their own, `tournament_reads.rs`).
    pub fn tournament(&self, name: &str) -> anyhow::Result<Option<TournamentRow>> {
        tournament_on(&self.lock(), name)
    }
}

/// Tournament `name`, with its players, read on `conn`.
pub(super) fn tournament_on(
    conn: &Connection,
    name: &str,
) -> anyhow::Result<Option<TournamentRow>> {
    let row = conn
        .query_row(
            "SELECT format, seats, rounds, pool, qualify, advance, map, timeout, state, winner,
                        max_players, seed, game, best_of
                 FROM tournaments WHERE name = ?1",
            [name],
            |r| {
                let format: String = r.get(0)?;
                Ok((
                    format,
                    Plan {
                        format: Format::League,
                        seats: r.get(1)?,
                        rounds: r.get(2)?,
                        pool: r.get(3)?,
                        qualify: r.get(4)?,
                        advance: r.get(5)?,
                        best_of: r.get(13)?,
                    },
                    r.get::<_, String>(6)?,
                    r.get::<_, u32>(7)?,
                    r.get::<_, String>(8)?,
                    r.get::<_, String>(9)?,
                    r.get::<_, usize>(10)?,
                    r.get::<_, Option<i64>>(11)?,
                    r.get::<_, String>(12)?,
                ))
            },
        )
        .optional()?;
    let Some((format, mut plan, map, timeout, state, winner, max_players, seed, game)) = row else {
        return Ok(None);
    };
    plan.format = Format::parse(&format).map_err(anyhow::Error::msg)?;
    let mut query = conn.prepare(
        "SELECT player FROM tournament_players WHERE tournament = ?1 ORDER BY joined, rowid",
    )?;
    let players = query
        .query_map([name], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(Some(TournamentRow {
        name: name.to_string(),
        game,
        plan,
        map,
        timeout,
        state,
        winner,
        players,
        max_players,
        // SQLite's integers are signed: the seed's bits kept as they are.
        seed: seed.map(|s| s as u64),
    }))
}

impl Store {
    /// The tournaments' names, oldest first.
    pub fn tournaments(&self) -> anyhow::Result<Vec<String>> {
        let conn = self.pages();
        let mut query = conn.prepare("SELECT name FROM tournaments ORDER BY created, name")?;
        let names = query.query_map([], |r| r.get(0))?;
        Ok(names.collect::<Result<_, _>>()?)
    }

    /// `player` (whose token was checked) joins `tournament` (or is in it already): only a
    /// registered name, while it is open and not full. The refusal is the client's message.
    pub fn join(&self, tournament: &str, player: &str) -> Result<(), String> {
        let unreadable = |_| "The server cannot read its store; try again later".to_string();
        let row = self.tournament(tournament).map_err(unreadable)?;
        let Some(row) = row else {
            return Err(format!("The tournament '{tournament}' doesn't exist"));
        };
        let registered: bool = self
            .lock()
            .query_row(
                "SELECT COUNT(*) > 0 FROM players WHERE name = ?1",
                [player],
                |r| r.get(0),
            )
            .map_err(|_| "The server cannot read its store; try again later".to_string())?;
        if !registered {
            return Err(format!(
                "The tournament '{tournament}' takes registered names only: ask its organiser \
                 to register '{player}', then join with its token (option token=)"
            ));
        }
        let member = row.players.iter().any(|p| p == player);
        match row.state.as_str() {
            "open" if !member && row.players.len() >= row.max_players => Err(format!(
                "The tournament '{tournament}' is full ({} players)",
                row.max_players
            )),
            "open" if !member => {
                self.lock()
                    .execute(
                        "INSERT OR IGNORE INTO tournament_players (tournament, player, joined)
                         VALUES (?1, ?2, ?3)",
                        params![tournament, player, now()],
                    )
                    .map_err(|_| "The server cannot write its store; try again later")?;
                Ok(())
            }
            "open" | "starting" | "playing" if member => Ok(()),
            "starting" | "playing" => {
                Err(format!("The tournament '{tournament}' has already began."))
            }
            _ => Err(format!("The tournament '{tournament}' is over")),
        }
    }

    /// The organiser takes `player` out of `tournament` while it is open.
    pub fn remove_member(&self, tournament: &str, player: &str) -> anyhow::Result<()> {
        let Some(row) = self.tournament(tournament)? else {
            anyhow::bail!(
                "no tournament {tournament} in this store (referee serve tournament list)"
            );
        };
        anyhow::ensure!(
            row.state == "open",
            "the tournament {tournament} is {}: members are removed while it is open",
            row.state
        );
        let removed = self.lock().execute(
            "DELETE FROM tournament_players WHERE tournament = ?1 AND player = ?2",
            [tournament, player],
        )?;
        anyhow::ensure!(
            removed == 1,
            "{player} is not a member of {tournament} (members: {})",
            row.players.join(", ")
        );
        Ok(())
    }

    /// The organiser starts `tournament`: `open` becomes `starting`, which a running server
    /// takes. What is wrong, if anything.
    pub fn start_tournament(&self, tournament: &str) -> anyhow::Result<usize> {
        let Some(row) = self.tournament(tournament)? else {
            anyhow::bail!(
                "no tournament {tournament} in this store (referee serve tournament list)"
            );
        };
        anyhow::ensure!(
            row.state == "open",
            "the tournament {tournament} is {} already: only an open one starts",
            row.state
        );
        anyhow::ensure!(
            row.players.len() >= row.plan.fewest_players(),
            "the tournament {tournament} has {} player(s) and needs {} at least: wait for more \
             to join (WAIT_GAME TOURNAMENT {tournament})",
            row.players.len(),
            row.plan.fewest_players()
        );
        row.plan
            .check_size(row.players.len())
            .map_err(|why| anyhow::anyhow!("the tournament {tournament} cannot start: {why}"))?;
        // The seeding's secret draw, kept in the store.
        self.lock().execute(
            "UPDATE tournaments SET state = 'starting', seed = ?2 WHERE name = ?1 AND state = 'open'",
            params![tournament, rand::random::<u64>() as i64],
        )?;
        Ok(row.players.len())
    }

    /// The tournaments started and not yet taken by a server, now `playing`: this server's.
    pub fn take_started(&self) -> anyhow::Result<Vec<TournamentRow>> {
        let names: Vec<String> = {
            let conn = self.lock();
            let mut query = conn.prepare(
                "UPDATE tournaments SET state = 'playing' WHERE state = 'starting' RETURNING name",
            )?;
            let names = query.query_map([], |r| r.get(0))?;
            names.collect::<Result<_, _>>()?
        };
        let mut taken = Vec::new();
        for name in names {
            taken.extend(self.tournament(&name)?);
        }
        Ok(taken)
    }

    /// Game `game` is one of `tournament`'s, in `phase`.
    pub fn tournament_game(&self, tournament: &str, game: &str, phase: &str) -> anyhow::Result<()> {
        self.lock().execute(
            "INSERT OR REPLACE INTO tournament_games (tournament, game, phase) VALUES (?1, ?2, ?3)",
            params![tournament, game, phase],
        )?;
        Ok(())
    }

    /// `tournament`'s games (name, phase), in the order they were noted.
    pub fn tournament_games(&self, tournament: &str) -> anyhow::Result<Vec<(String, String)>> {
        let conn = self.pages();
        let mut query = conn.prepare(
            "SELECT game, phase FROM tournament_games WHERE tournament = ?1 ORDER BY rowid",
        )?;
        let rows = query.query_map([tournament], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// `players` of `tournament` went on from `phase` (the pools' qualified, a knockout
    /// round's top ones, the final's winner).
    pub fn went_on(&self, tournament: &str, phase: &str, players: &[&str]) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        for player in players {
            tx.execute(
                "INSERT OR IGNORE INTO tournament_going_on (tournament, phase, player)
                 VALUES (?1, ?2, ?3)",
                params![tournament, phase, player],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Who went on from each phase of `tournament`: (phase, player).
    pub fn going_on(&self, tournament: &str) -> anyhow::Result<Vec<(String, String)>> {
        let conn = self.pages();
        let mut query = conn.prepare(
            "SELECT phase, player FROM tournament_going_on WHERE tournament = ?1 ORDER BY rowid",
        )?;
        let rows = query.query_map([tournament], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// `tournament` is over, won by `winner`, with its standings (rank, player, points).
    pub fn finish_tournament(
        &self,
        tournament: &str,
        winner: &str,
        standings: &[(usize, String, u64)],
    ) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        for (rank, player, points) in standings {
            tx.execute(
                "UPDATE tournament_players SET rank = ?3, points = ?4
                 WHERE tournament = ?1 AND player = ?2",
                params![tournament, player, rank, points],
            )?;
        }
        tx.execute(
            "UPDATE tournaments SET state = 'finished', winner = ?2, ended = ?3 WHERE name = ?1",
            params![tournament, winner, now()],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// `tournament`'s standings once it is finished: (rank, player, points), best first,
    /// its winner first of those ranked with it (the better seed of the draw).
    pub fn tournament_standings(
        &self,
        tournament: &str,
    ) -> anyhow::Result<Vec<(usize, String, u64)>> {
        let conn = self.pages();
        let mut query = conn.prepare(
            "SELECT rank, player, points FROM tournament_players
             WHERE tournament = ?1 AND rank IS NOT NULL
             ORDER BY rank,
                      player <> (SELECT winner FROM tournaments WHERE name = ?1),
                      player",
        )?;
        let rows = query.query_map([tournament], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The tournaments a stopped server left `playing` are `interrupted`.
    pub(super) fn interrupt_tournaments(&self) -> anyhow::Result<()> {
        self.lock().execute(
            "UPDATE tournaments SET state = 'interrupted' WHERE state = 'playing'",
            [],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_is_joined_while_open_then_started_and_taken_once() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(&dir.path().join(super::super::store::FILE)).unwrap();
        let plan = Plan {
            format: Format::League,
            seats: 2,
            rounds: 1,
            pool: 4,
            qualify: 2,
            advance: 1,
            best_of: 3,
        };
        store
            .create_tournament("cup", "amazons", &plan, "small", 10, 3)
            .unwrap();
        assert!(store
            .create_tournament("cup", "amazons", &plan, "small", 10, 3)
            .is_err());
        for name in ["ann", "bob", "cid", "dan"] {
            store.register(name).unwrap();
        }
        assert!(store
            .join("cup", "eve")
            .unwrap_err()
            .contains("registered names only"));
        assert!(store
            .join("nope", "ann")
            .unwrap_err()
            .contains("doesn't exist"));
        store.join("cup", "ann").unwrap();
        assert!(store
            .start_tournament("cup")
            .unwrap_err()
            .to_string()
            .contains("needs 2"));
        store.join("cup", "bob").unwrap();
        store.join("cup", "ann").unwrap();
        store.join("cup", "cid").unwrap();
        assert!(store.join("cup", "dan").unwrap_err().contains("is full"));
        store.remove_member("cup", "cid").unwrap();
        assert!(store.remove_member("cup", "cid").is_err());
        assert_eq!(store.start_tournament("cup").unwrap(), 2);
        assert!(store.remove_member("cup", "bob").is_err(), "started");
        assert!(store
            .join("cup", "dan")
            .unwrap_err()
            .contains("already began"));
        assert!(store.join("cup", "bob").is_ok(), "a member comes back");
        let taken = store.take_started().unwrap();
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].players, ["ann", "bob"]);
        assert_eq!(taken[0].plan, plan);
        assert_eq!(taken[0].game, "amazons");
        assert!(
            taken[0].seed.is_some(),
            "the seeding's seed drawn at the start"
        );
        assert!(store.take_started().unwrap().is_empty(), "taken once");
        store.interrupt_tournaments().unwrap();
        assert_eq!(
            store.tournament("cup").unwrap().unwrap().state,
            "interrupted"
        );
        assert!(store.join("cup", "bob").unwrap_err().contains("is over"));
    }
}
