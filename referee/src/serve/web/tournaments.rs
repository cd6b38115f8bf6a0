//! The tournaments' pages: the list, and each tournament's page: its plan, state and
//! members, its standings (its `leaderboard.csv`, written by the server as each game ends,
//! shown as a tournament's index shows it: the same points, intervals and ratings), the
//! bracket of a knockout (each phase's games, who went on) and its games, each linked to
//! its page; why its winner is first (the final's first, or, among players ranked first
//! together, the better seed of the draw). The page's parts are fetched again when its stream says the tournament
//! changed (`stream::tournament`).

use super::pages::rendered;
use super::respond;
use crate::serve::tournament_plan::Format;
use crate::serve::tournament_reads::Read;
use crate::serve::tournament_store::TournamentRow;
use crate::serve::Server;
use crate::view::index::pages::csv_table;
use crate::view::index::tables::Table;
use crate::view::templates::render;
use serde::Serialize;
use tiny_http::Request;

/// `/tournaments`: every tournament of the store, newest first (one query).
pub fn list(request: Request, server: &Server) {
    let page = server
        .store
        .tournaments_listed()
        .and_then(|listed| render("web/tournaments.html", minijinja::context! { listed }));
    rendered(request, server, page);
}

/// One player of a game of the tournament.
#[derive(Serialize)]
struct Seat {
    name: String,
    /// How the game ended for it (`won`, `lost`, `lost by a crash fault: ...`), empty
    /// while it is played.
    outcome: String,
    /// Whether it went on from this game's phase (a knockout's).
    went_on: bool,
}

/// A game of the tournament.
#[derive(Serialize)]
struct Played {
    name: String,
    phase: String,
    state: String,
    seats: Vec<Seat>,
}

/// A phase of a knockout's bracket (its games are those of `Shown::games` in it; the
/// pools' are listed with every game, the bracket shows who qualified).
#[derive(Serialize)]
struct Phase {
    name: String,
    /// Went on from this phase without a game (one alone in its group), or qualified from
    /// the pools.
    unplayed: Vec<String>,
    /// The players who went on from it (empty while it is played).
    went_on: Vec<String>,
}

/// What the tournament's page shows.
#[derive(Serialize)]
struct Shown {
    name: String,
    format: &'static str,
    knockout: bool,
    state: String,
    winner: String,
    /// Why the winner is first, when the standings alone do not say it.
    winner_why: String,
    plan: Vec<(&'static str, String)>,
    players: Vec<String>,
    games: Vec<Played>,
    bracket: Vec<Phase>,
    leaderboard: Option<crate::view::index::pages::CsvTable>,
    confidence: bool,
}

/// The plan as words, for the page's head.
fn plan_words(t: &TournamentRow) -> Vec<(&'static str, String)> {
    let p = &t.plan;
    let mut words = vec![
        ("game", t.game.clone()),
        ("seats a game", p.seats.to_string()),
    ];
    if t.game == crate::serve::request::DEFAULT_GAME {
        words.push(("board", t.map.clone()));
    }
    words.extend([
        ("seconds a turn", t.timeout.to_string()),
        ("most players", t.max_players.to_string()),
    ]);
    if p.format != Format::League {
        words.push(("games a knockout meeting (best of)", p.best_of.to_string()));
    }
    match p.format {
        Format::League => words.push(("rounds", p.rounds.to_string())),
        Format::PoolsKnockout => {
            words.push(("players a pool", p.pool.to_string()));
            words.push(("rounds in a pool", p.rounds.to_string()));
            words.push(("going on from a pool", p.qualify.to_string()));
            words.push(("going on from a game", p.advance.to_string()));
        }
        Format::SingleElimination => words.push(("going on from a game", p.advance.to_string())),
    }
    words
}

fn shown(server: &Server, read: Read) -> anyhow::Result<Shown> {
    let Read {
        tournament: t,
        going_on,
        games: rows,
    } = read;
    let went =
        |phase: &str, player: &str| going_on.iter().any(|(ph, p)| ph == phase && p == player);
    let mut games = Vec::new();
    for (phase, row) in rows {
        let seats = row
            .seats
            .split(',')
            .enumerate()
            .map(|(seat, name)| Seat {
                outcome: row.results.get(seat).cloned().unwrap_or_default(),
                went_on: went(&phase, name),
                name: name.to_string(),
            })
            .collect();
        games.push(Played {
            name: row.name,
            phase,
            state: row.state,
            seats,
        });
    }
    let knockout = t.plan.format != Format::League;
    let mut bracket: Vec<Phase> = Vec::new();
    if knockout {
        // The phases in the order they were played: their games', then those of which only
        // who went on is known.
        let mut names: Vec<&str> = games.iter().map(|g| g.phase.as_str()).collect();
        names.extend(going_on.iter().map(|(ph, _)| ph.as_str()));
        let mut seen = Vec::new();
        for name in names {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let in_games = |p: &str| {
                games
                    .iter()
                    .any(|g| g.phase == name && g.seats.iter().any(|s| s.name == p))
            };
            let went_on: Vec<String> = going_on
                .iter()
                .filter(|(ph, _)| ph == name)
                .map(|(_, p)| p.clone())
                .collect();
            bracket.push(Phase {
                name: name.to_string(),
                unplayed: went_on
                    .iter()
                    .filter(|p| name == "pools" || !in_games(p))
                    .cloned()
                    .collect(),
                went_on,
            });
        }
    }
    let file = server
        .results
        .join("tournaments")
        .join(&t.name)
        .join("leaderboard.csv");
    let table = Table::read(&file)?;
    let player = |name: &str| Some(format!("/player/{name}"));
    let winner_why = match t.plan.format {
        _ if t.winner.is_empty() => String::new(),
        Format::League => {
            let standings = server.store.tournament_standings(&t.name)?;
            tied_first(&t.winner, &standings)
        }
        _ => "the first of the final".to_string(),
    };
    Ok(Shown {
        winner_why,
        format: t.plan.format.name(),
        knockout,
        plan: plan_words(&t),
        confidence: table
            .as_ref()
            .is_some_and(|t| t.column("p_ahead_of_next").is_some()),
        leaderboard: table.as_ref().map(|t| csv_table("leaderboard", t, &player)),
        name: t.name,
        state: t.state,
        winner: t.winner,
        players: t.players,
        games,
        bracket,
    })
}

/// Why the winner of a league is first, if others share its rank in the `standings`
/// (rank, player, points): ranked first together, the better seed of the tournament's draw
/// goes first. Empty when it is first alone.
fn tied_first(winner: &str, standings: &[(usize, String, u64)]) -> String {
    let Some((rank, _, points)) = standings.iter().find(|(_, p, _)| p == winner) else {
        return String::new();
    };
    let tied: Vec<&str> = standings
        .iter()
        .filter(|(r, p, _)| r == rank && p != winner)
        .map(|(_, p, _)| p.as_str())
        .collect();
    match tied.is_empty() {
        true => String::new(),
        false => format!(
            "ranked {rank} with {} ({points} point{} and equal on every tie-break of the \
             standings): the better seed of the tournament's draw goes first",
            tied.join(", "),
            if *points == 1 { "" } else { "s" }
        ),
    }
}

/// The tournament `name` as its page reads it, if the store has it.
fn stored(server: &Server, name: &str) -> Option<Read> {
    if !super::is_name(name) {
        return None;
    }
    server.store.tournament_read(name).ok().flatten()
}

/// `/tournament/NAME` (`parts_only`: its parts that change, for its script).
pub fn page(request: Request, server: &Server, name: &str, parts_only: bool) {
    let Some(t) = stored(server, name) else {
        return respond::error(request, 404, "No such tournament on this server");
    };
    let page = shown(server, t).and_then(|t| {
        render(
            if parts_only {
                "web/tournament_parts.html"
            } else {
                "web/tournament.html"
            },
            minijinja::context! { t },
        )
    });
    rendered(request, server, page);
}

#[cfg(test)]
mod tests {
    use super::tied_first;

    #[test]
    fn a_winner_ranked_first_with_others_is_said_first_by_the_draw() {
        let standings = [
            (1, "ann".to_string(), 2),
            (1, "bob".to_string(), 2),
            (3, "cid".to_string(), 0),
        ];
        let why = tied_first("bob", &standings);
        assert!(why.starts_with("ranked 1 with ann (2 points"), "{why}");
        assert!(why.contains("better seed"), "{why}");
        assert_eq!(tied_first("cid", &standings), "");
        let one = [(1, "ann".to_string(), 1), (1, "bob".to_string(), 1)];
        assert!(tied_first("ann", &one).starts_with("ranked 1 with bob (1 point and"));
        assert_eq!(tied_first("ann", &standings[..1]), "");
    }
}
