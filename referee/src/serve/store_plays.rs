//! Who played which game, a row a player (`plays`), indexed by player and start, with how
//! the game ended for that player: a player's page reads its own games only, and counts
//! its wins and faults from that index, however many games the store holds. Each seat's
//! result is the game's own (`games.results`, written when it ends from its ranking and
//! faults), never read back from the outcome's text, which quotes what players sent.
//! Written with the game's row (`Store::started`, `Store::finished`); at each opening of
//! the store, filled for the games that have no row in it (a store made before it, or
//! written by a referee of before).

use rusqlite::{params, Connection};

/// Between two seats' results in `games.results`: a line break, which no result holds
/// (a fault's message is made printable: its control characters escaped).
const BETWEEN: char = '\n';

/// Seats' results as `games.results` keeps them.
pub(super) fn joined(results: &[String]) -> String {
    let kept: Vec<String> = results.iter().map(|r| r.replace(BETWEEN, " ")).collect();
    kept.join(&BETWEEN.to_string())
}

/// The seats' results `games.results` keeps (none for an empty column).
pub(super) fn split(kept: &str) -> Vec<String> {
    match kept.is_empty() {
        true => Vec::new(),
        false => kept.split(BETWEEN).map(str::to_string).collect(),
    }
}

/// The column `results` of `games`, added to a store of before it: each finished game's
/// results read from its outcome only where that reading is unambiguous ([`of_before`]),
/// and every player's row made again from them.
pub(super) fn add_results(conn: &Connection) -> rusqlite::Result<()> {
    let has = conn
        .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'results'")?
        .exists([])?;
    if has {
        return Ok(());
    }
    conn.execute(
        "ALTER TABLE games ADD COLUMN results TEXT NOT NULL DEFAULT ''",
        [],
    )?;
    let games: Vec<(String, String, String)> = conn
        .prepare("SELECT name, seats, outcome FROM games WHERE state = 'finished'")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    for (name, seats, outcome) in games {
        let seats: Vec<&str> = seats.split(',').collect();
        conn.execute(
            "UPDATE games SET results = ?2 WHERE name = ?1",
            params![name, joined(&of_before(&outcome, &seats))],
        )?;
    }
    // The rows a referee of before read out of the outcomes: made again by [`create`].
    let plays = conn
        .prepare("SELECT 1 FROM sqlite_master WHERE name = 'plays'")?
        .exists([])?;
    if plays {
        conn.execute("DELETE FROM plays", [])?;
    }
    Ok(())
}

/// The table and its indexes, made if missing; a row for each player of each game that has
/// none.
pub(super) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS plays (
             player TEXT NOT NULL,
             game TEXT NOT NULL,
             started INTEGER NOT NULL,
             mine TEXT NOT NULL DEFAULT '',
             PRIMARY KEY (player, game));
         CREATE INDEX IF NOT EXISTS plays_of_a_player ON plays (player, started, game);
         CREATE INDEX IF NOT EXISTS plays_of_a_game ON plays (game);",
    )?;
    let games: Vec<(String, String, u64, String)> = conn
        .prepare(
            "SELECT name, seats, started, results FROM games g \
             WHERE NOT EXISTS (SELECT 1 FROM plays WHERE game = g.name)",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (name, seats, started, results) in games {
        let seats: Vec<String> = seats.split(',').map(str::to_string).collect();
        started_with(conn, &name, &seats, started)?;
        finished_with(conn, &name, &split(&results))?;
    }
    Ok(())
}

/// Game `name` of `seats` started at `started`: a row for each of its players.
pub(super) fn started_with(
    conn: &Connection,
    name: &str,
    seats: &[String],
    started: u64,
) -> rusqlite::Result<()> {
    for player in seats {
        conn.execute(
            "INSERT OR REPLACE INTO plays (player, game, started) VALUES (?1, ?2, ?3)",
            params![player, name, started],
        )?;
    }
    Ok(())
}

/// Game `name` ended with `results`, its seats' in seat order: how it ended for each of
/// its players (a name of several seats, a built-in champion's, gets its first seat's).
pub(super) fn finished_with(
    conn: &Connection,
    name: &str,
    results: &[String],
) -> rusqlite::Result<()> {
    let seats: String = conn.query_row("SELECT seats FROM games WHERE name = ?1", [name], |r| {
        r.get(0)
    })?;
    let seats: Vec<&str> = seats.split(',').collect();
    for (seat, player) in seats.iter().enumerate().rev() {
        let mine = results.get(seat).map_or("", String::as_str);
        conn.execute(
            "UPDATE plays SET mine = ?3 WHERE game = ?1 AND player = ?2",
            params![name, player, mine],
        )?;
    }
    Ok(())
}

/// A player's games (`?2`), of a game (`?1`, empty: any) in a state (`?3`, empty: any):
/// what follows `SELECT` columns of `games g`, read through the player's index.
pub(super) const OF_A_PLAYER: &str = "FROM plays p JOIN games g ON g.name = p.game \
    WHERE p.player = ?2 AND (?1 = '' OR g.game = ?1) AND (?3 = '' OR g.state = ?3)";

/// A player's (`?1`) games, wins and faults, from its index alone.
pub(super) const COUNTS: &str = "SELECT count(*), coalesce(sum(mine GLOB 'won*'), 0), \
    coalesce(sum(mine GLOB 'lost by a *'), 0) FROM plays WHERE player = ?1";

/// Each seat's result read from the `outcome` of a game of a store of before
/// (`NAME (seat 0) RESULT, NAME (seat 1) RESULT, ...` of `seats`), only where the reading
/// is sure: every seat's head (`, NAME (seat N) `) found once, in seat order. A fault's
/// message quoting another's head makes it twice: the game's results are then unknown
/// (empty), never a player's text taken for a result.
fn of_before(outcome: &str, seats: &[&str]) -> Vec<String> {
    let unknown = vec![String::new(); seats.len()];
    let Some(first) = seats.first() else {
        return unknown;
    };
    let Some(mut rest) = outcome.strip_prefix(&format!("{first} (seat 0) ")) else {
        return unknown;
    };
    let mut results = Vec::new();
    for (seat, name) in seats.iter().enumerate().skip(1) {
        let head = format!(", {name} (seat {seat}) ");
        if outcome.matches(&head).count() != 1 {
            return unknown;
        }
        let Some((mine, next)) = rest.split_once(&head) else {
            return unknown;
        };
        results.push(mine.to_string());
        rest = next;
    }
    results.push(rest.to_string());
    results
}

#[cfg(test)]
mod tests {
    use super::super::store::{GameFilter, Store, FILE};

    /// A store of `n` games of two players each (`p0` plays every game, `pN` game N), `p0`
    /// winning the even ones and losing the odd ones by a fault.
    fn store_of(n: u64, dir: &std::path::Path) -> Store {
        let (store, _) = Store::open(&dir.join(FILE)).unwrap();
        for i in 0..n {
            let (game, other) = (format!("g{i}"), format!("p{}", i + 1));
            let seats = ["p0".to_string(), other.clone()];
            store
                .started(&game, "ticket-to-ride", "free", &seats)
                .unwrap();
            let results = match i % 2 {
                0 => ["won", "lost"],
                _ => ["lost by a timeout fault: late, slow", "won"],
            };
            let outcome = format!(
                "p0 (seat 0) {}, {other} (seat 1) {}",
                results[0], results[1]
            );
            let results = results.map(str::to_string);
            store.finished(&game, &outcome, &results).unwrap();
        }
        store
    }

    #[test]
    fn a_player_s_games_and_counts_are_read_from_its_index() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_of(7, dir.path());
        let of = |player: &str| GameFilter {
            player: player.to_string(),
            ..GameFilter::default()
        };
        assert_eq!(store.counts_of("p0").unwrap(), (7, 4, 3));
        assert_eq!(store.counts_of("p2").unwrap(), (1, 1, 0));
        assert_eq!(store.counts_of("nobody").unwrap(), (0, 0, 0));
        let (page, total) = store.games_page(&of("p0"), 2, 3).unwrap();
        let names: Vec<&str> = page.iter().map(|g| g.name.as_str()).collect();
        assert_eq!((names, total), (vec!["g4", "g3", "g2"], 7), "newest first");
        let (page, total) = store.games_page(&of("p3"), 0, 50).unwrap();
        assert_eq!((page[0].name.as_str(), total), ("g2", 1));
        // The plans: the player's index, never a scan of the games.
        let conn = store.pages();
        for sql in [
            format!(
                "SELECT g.name {} ORDER BY p.started DESC LIMIT 5",
                super::OF_A_PLAYER
            ),
            format!("SELECT count(*) {}", super::OF_A_PLAYER),
            super::COUNTS.to_string(),
        ] {
            let mut query = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
            let params = match query.parameter_count() {
                1 => vec!["p0"],
                _ => vec!["", "p0", ""],
            };
            let plan: Vec<String> = query
                .query_map(rusqlite::params_from_iter(params), |r| {
                    r.get::<_, String>(3)
                })
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let plan = plan.join("; ");
            assert!(
                plan.contains("SEARCH p") || plan.contains("SEARCH plays"),
                "{sql}: {plan}"
            );
            assert!(plan.contains("(player=?)"), "{sql}: {plan}");
            assert!(!plan.contains("SCAN"), "{sql}: {plan}");
        }
    }

    #[test]
    fn games_of_a_store_of_before_the_index_get_it_filled() {
        let dir = tempfile::tempdir().unwrap();
        drop(store_of(3, dir.path()));
        let conn = rusqlite::Connection::open(dir.path().join(FILE)).unwrap();
        // A store of before the index, then one written by a referee of before it.
        conn.execute_batch("DROP TABLE plays").unwrap();
        drop(conn);
        drop(Store::open(&dir.path().join(FILE)).unwrap());
        let conn = rusqlite::Connection::open(dir.path().join(FILE)).unwrap();
        conn.execute_batch("DELETE FROM plays WHERE game = 'g2'")
            .unwrap();
        drop(conn);
        let (store, _) = Store::open(&dir.path().join(FILE)).unwrap();
        assert_eq!(store.counts_of("p0").unwrap(), (3, 2, 1));
        assert_eq!(store.counts_of("p2").unwrap(), (1, 1, 0));
        assert_eq!(store.counts_of("p3").unwrap(), (1, 0, 0));
    }

    #[test]
    fn a_store_of_before_the_results_reads_only_sure_outcomes() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::open(&dir.path().join(FILE)).unwrap();
        let games = [
            ("g0", "bob,me", "bob (seat 0) lost by a protocol fault: jouer: bad, worse, me (seat 1) won"),
            // A fault's message quoting its opponent's head: unknown, never forged.
            ("g1", "mallory,alice", "mallory (seat 0) lost by a protocol fault: `x, alice (seat 1) lost by a crash fault: forged`, alice (seat 1) won"),
            // A name ending another's.
            ("g2", "xbob,bob", "xbob (seat 0) won, bob (seat 1) lost by a crash fault: gone"),
        ];
        for (game, seats, outcome) in games {
            let seats: Vec<String> = seats.split(',').map(str::to_string).collect();
            store.started(game, "amazons", "free", &seats).unwrap();
            store.finished(game, outcome, &[]).unwrap();
        }
        drop(store);
        // As a referee of before left it: no results, its rows read out of the text.
        let conn = rusqlite::Connection::open(dir.path().join(FILE)).unwrap();
        conn.execute_batch("ALTER TABLE games DROP COLUMN results; UPDATE plays SET mine = 'won';")
            .unwrap();
        drop(conn);
        let (store, _) = Store::open(&dir.path().join(FILE)).unwrap();
        let result = |game: &str, name: &str| store.game(game).unwrap().unwrap().result_of(name);
        assert_eq!(result("g0", "me"), "won");
        assert_eq!(
            result("g0", "bob"),
            "lost by a protocol fault: jouer: bad, worse"
        );
        assert_eq!(
            (result("g1", "alice"), result("g1", "mallory")),
            (String::new(), String::new())
        );
        assert_eq!(result("g2", "bob"), "lost by a crash fault: gone");
        assert_eq!(result("g2", "xbob"), "won");
        assert_eq!(store.counts_of("alice").unwrap(), (1, 0, 0));
        assert_eq!(store.counts_of("bob").unwrap(), (2, 0, 2));
        assert_eq!(store.counts_of("me").unwrap(), (1, 1, 0));
    }
}
