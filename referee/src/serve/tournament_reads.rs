//! The tournaments as the site's pages read them: on the store's read-only connection (a
//! page, however many visitors ask it, never holds the connection the game server writes
//! and decides with), each page in a few queries whatever the number of tournaments or
//! games: the list in one, a tournament's page in four, the organiser's open ones in one.

use super::store::{game_row, GameRow, Store};
use super::tournament_store::{tournament_on, TournamentRow};

/// A tournament as the list of tournaments shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Listed {
    pub name: String,
    /// Its format's name (`league`, ...).
    pub format: String,
    pub state: String,
    pub players: usize,
    pub games: usize,
    pub winner: String,
}

/// What a tournament's page reads of the store.
pub struct Read {
    pub tournament: TournamentRow,
    /// Who went on from each phase: (phase, player), in the order noted.
    pub going_on: Vec<(String, String)>,
    /// Its games, each with its phase, in the order they started.
    pub games: Vec<(String, GameRow)>,
}

impl Store {
    /// Every tournament, newest first, with its numbers of members and of games: one query.
    pub fn tournaments_listed(&self) -> anyhow::Result<Vec<Listed>> {
        let conn = self.pages();
        let mut query = conn.prepare(
            "SELECT name, format, state, winner,
                 (SELECT count(*) FROM tournament_players p WHERE p.tournament = t.name),
                 (SELECT count(*) FROM tournament_games g WHERE g.tournament = t.name)
             FROM tournaments t ORDER BY created DESC, name DESC",
        )?;
        let rows = query.query_map([], |r| {
            Ok(Listed {
                name: r.get(0)?,
                format: r.get(1)?,
                state: r.get(2)?,
                winner: r.get(3)?,
                players: r.get(4)?,
                games: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The open tournaments' names (those members join), oldest first: one query.
    pub fn open_tournaments(&self) -> anyhow::Result<Vec<String>> {
        let conn = self.pages();
        let mut query = conn
            .prepare("SELECT name FROM tournaments WHERE state = 'open' ORDER BY created, name")?;
        let names = query.query_map([], |r| r.get(0))?;
        Ok(names.collect::<Result<_, _>>()?)
    }

    /// Tournament `name` as its page shows it, if the store has it: its row and members,
    /// who went on, its games' rows (joined, not one query a game).
    pub fn tournament_read(&self, name: &str) -> anyhow::Result<Option<Read>> {
        let conn = self.pages();
        let Some(tournament) = tournament_on(&conn, name)? else {
            return Ok(None);
        };
        let mut query = conn.prepare(
            "SELECT phase, player FROM tournament_going_on WHERE tournament = ?1 ORDER BY rowid",
        )?;
        let going_on = query
            .query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        // The columns of a game's row (`store.rs`'s `game_row`, its seats' results the
        // ninth), then its phase.
        let mut query = conn.prepare(
            "SELECT g.name, g.game, g.kind, g.seats, g.state, g.outcome, g.started, g.ended,
                 g.results, t.phase
             FROM tournament_games t JOIN games g ON g.name = t.game
             WHERE t.tournament = ?1 ORDER BY t.rowid",
        )?;
        let games = query
            .query_map([name], |r| Ok((r.get(9)?, game_row(r)?)))?
            .collect::<Result<_, _>>()?;
        Ok(Some(Read {
            tournament,
            going_on,
            games,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::tournament_plan::{Format, Plan};

    #[test]
    fn the_pages_read_while_the_server_holds_its_connection() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(&dir.path().join(super::super::store::FILE)).unwrap();
        let plan = Plan {
            format: Format::League,
            seats: 2,
            rounds: 1,
            pool: 4,
            qualify: 2,
            advance: 1,
            best_of: 1,
        };
        store
            .create_tournament("cup", "ticket-to-ride", &plan, "usa", 10, 64)
            .unwrap();
        store.register("ann").unwrap();
        store.join("cup", "ann").unwrap();
        store
            .started(
                "g1",
                "ticket-to-ride",
                "tournament",
                &["ann".into(), "bob".into()],
            )
            .unwrap();
        store.tournament_game("cup", "g1", "league").unwrap();
        let (told, heard) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            // The server's connection held (a long write, say): every page reads on.
            let held = store.lock();
            s.spawn(|| {
                let listed = store.tournaments_listed().unwrap();
                let open = store.open_tournaments().unwrap();
                let read = store.tournament_read("cup").unwrap().unwrap();
                let _ = told.send((listed, open, read.tournament.players, read.games.len()));
            });
            let read = heard.recv_timeout(std::time::Duration::from_secs(60));
            drop(held);
            let (listed, open, players, games) = read.expect("the pages read on their own");
            assert_eq!(listed.len(), 1);
            assert_eq!((listed[0].players, listed[0].games), (1, 1));
            assert_eq!(open, ["cup"]);
            assert_eq!((players, games), (vec!["ann".to_string()], 1));
        });
    }
}
