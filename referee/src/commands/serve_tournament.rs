//! `referee serve tournament new|start|remove|list`: the organiser's commands, on the
//! server's store (the server running or not): a tournament is created open, registered
//! players join it over the protocol, and `start` hands it to the running server
//! (docs/server.md).

use super::Failure;
use crate::cli::TournamentAction;
use crate::serve::request::{self, MAX_TIMEOUT};
use crate::serve::store::Store;
use crate::serve::tournament_plan::{Format, Plan};
use std::path::Path;

/// Runs the tournament command `action` on the store `store` (in `results` by default).
pub fn run(results: &Path, store: &Path, action: &TournamentAction) -> Result<(), Failure> {
    let usage = |e: String| Failure::usage(anyhow::anyhow!(e));
    match action {
        TournamentAction::New {
            name,
            format,
            seats,
            rounds,
            pool,
            qualify,
            advance,
            map,
            timeout,
            max_players,
        } => {
            request::client_name(&format!("CLIENT_NAME {name}")).map_err(|why| {
                usage(format!(
                    "tournament {name:?}: {}",
                    why.replace("The name", "the name")
                ))
            })?;
            let plan = Plan {
                format: Format::parse(format).map_err(|e| usage(format!("--format: {e}")))?,
                seats: *seats,
                rounds: *rounds,
                pool: *pool,
                qualify: *qualify,
                advance: advance.unwrap_or(Plan::default_advance(*seats)),
            };
            plan.check(2..=5)
                .map_err(|(flag, what)| usage(format!("--{flag} {what}")))?;
            if !(2..=1000).contains(max_players) {
                return Err(usage(format!(
                    "--max-players {max_players}: give 2 to 1000"
                )));
            }
            plan.check_size(*max_players).map_err(|why| {
                usage(format!(
                    "--max-players {max_players}: {why}: give fewer players (--max-players), \
                     seats (--seats) or rounds (--rounds), or pools (--format pools-knockout)"
                ))
            })?;
            let map = match map.to_ascii_lowercase().as_str() {
                "usa" => "usa",
                "small" => "small",
                _ => return Err(usage(format!("--map {map:?}: give USA or small"))),
            };
            if !(1..=MAX_TIMEOUT).contains(timeout) {
                return Err(usage(format!(
                    "--timeout {timeout}: seconds from 1 to {MAX_TIMEOUT}"
                )));
            }
            std::fs::create_dir_all(results).map_err(|e| {
                usage(format!(
                    "cannot create {} (--results): {e}",
                    results.display()
                ))
            })?;
            Store::open_only(store)
                .and_then(|s| s.create_tournament(name, &plan, map, *timeout, *max_players))
                .map_err(Failure::usage)?;
            println!(
                "tournament {name} created ({}, at most {max_players} players): registered \
                 players join with WAIT_GAME TOURNAMENT {name} token=<token> (referee serve \
                 register NAME gives a name its token); start it with referee serve \
                 tournament start {name}",
                plan.format.name()
            );
            Ok(())
        }
        TournamentAction::Start { name } => {
            let players = existing(store)?
                .start_tournament(name)
                .map_err(Failure::usage)?;
            println!(
                "tournament {name} starts with {players} players: the running server plays it"
            );
            Ok(())
        }
        TournamentAction::Remove { name, player } => {
            existing(store)?
                .remove_member(name, player)
                .map_err(Failure::usage)?;
            println!("{player} is no longer a member of tournament {name}");
            Ok(())
        }
        TournamentAction::List => {
            let store = existing(store)?;
            let names = store.tournaments().map_err(Failure::usage)?;
            for name in names {
                let Some(t) = store.tournament(&name).map_err(Failure::usage)? else {
                    continue;
                };
                let games = store.tournament_games(&name).map_err(Failure::usage)?;
                let standings: Vec<String> = store
                    .tournament_standings(&name)
                    .map_err(Failure::usage)?
                    .iter()
                    .map(|(rank, player, points)| format!("{rank}.{player}:{points}"))
                    .collect();
                // The seed is shown once the tournament is over (secret while it plays).
                let seed = match (t.state.as_str(), t.seed) {
                    ("finished" | "interrupted", Some(seed)) => format!(" seed={seed}"),
                    _ => String::new(),
                };
                println!(
                    "{name} {} {} [{}] winner={} games={}{seed} standings={}",
                    t.plan.format.name(),
                    t.state,
                    t.players.join(","),
                    t.winner,
                    games.len(),
                    standings.join(",")
                );
            }
            Ok(())
        }
    }
}

/// The store at `path`, which must exist.
fn existing(path: &Path) -> Result<Store, Failure> {
    if !path.exists() {
        return Err(Failure::usage(anyhow::anyhow!(
            "no store at {} (the server's --results or --store)",
            path.display()
        )));
    }
    Store::open_only(path).map_err(Failure::usage)
}
