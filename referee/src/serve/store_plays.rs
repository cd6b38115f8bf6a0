//! Who played which game, a row a player (`plays`), indexed by player and start, with how
//! the game ended for that player: a player's page reads its own games only, and counts
//! its wins and faults from that index, however many games the store holds. Written with
//! the game's row (`Store::started`, `Store::finished`); at each opening of the store,
//! filled for the games that have no row in it (a store made before it, or written by a
//! referee of before).

use rusqlite::{params, Connection};

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
            "SELECT name, seats, started, outcome FROM games g \
             WHERE NOT EXISTS (SELECT 1 FROM plays WHERE game = g.name)",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (name, seats, started, outcome) in games {
        let seats: Vec<String> = seats.split(',').map(str::to_string).collect();
        started_with(conn, &name, &seats, started)?;
        finished_with(conn, &name, &outcome)?;
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

/// Game `name` ended with `outcome`: how it ended for each of its players.
pub(super) fn finished_with(conn: &Connection, name: &str, outcome: &str) -> rusqlite::Result<()> {
    let players: Vec<String> = conn
        .prepare("SELECT player FROM plays WHERE game = ?1")?
        .query_map([name], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for player in players {
        conn.execute(
            "UPDATE plays SET mine = ?3 WHERE game = ?1 AND player = ?2",
            params![name, player, outcome_of(outcome, &player)],
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

/// How a game's `outcome` (the store's: `NAME (seat N) won, NAME (seat M) lost by a ...`)
/// ended for `name`; empty while it is played, or when it counts for no one.
pub fn outcome_of(outcome: &str, name: &str) -> String {
    let head = format!("{name} (seat ");
    let Some(at) = outcome.find(&head) else {
        return String::new();
    };
    let rest = &outcome[at..];
    let rest = rest.split_once(") ").map_or("", |(_, r)| r);
    // Up to the next seat's part (`, other (seat `), whatever the fault's message holds.
    let end = rest
        .match_indices(", ")
        .map(|(i, _)| i)
        .find(|&i| {
            let next = &rest[i + 2..];
            next.split_once(" (seat ").is_some_and(|(n, _)| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        })
        .unwrap_or(rest.len());
    rest[..end].to_string()
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
            let outcome = match i % 2 {
                0 => format!("p0 (seat 0) won, {other} (seat 1) lost"),
                _ => format!("p0 (seat 0) lost by a timeout: late, slow, {other} (seat 1) won"),
            };
            store.finished(&game, &outcome).unwrap();
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
    fn a_player_s_outcome_is_its_part_of_the_game_s() {
        let outcome = "bob (seat 0) lost by a protocol fault: jouer: bad, worse, me (seat 1) won";
        assert_eq!(super::outcome_of(outcome, "me"), "won");
        assert_eq!(
            super::outcome_of(outcome, "bob"),
            "lost by a protocol fault: jouer: bad, worse"
        );
        assert_eq!(super::outcome_of(outcome, "ann"), "");
    }
}
