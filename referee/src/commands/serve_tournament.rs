//! `referee serve tournament new|start|remove|list`: the organiser's commands, on the
//! server's store (the server running or not): a tournament is created open, registered
//! players join it over the protocol, and `start` hands it to the running server
//! (docs/server.md).

use super::Failure;
use crate::cli::TournamentAction;
use crate::serve::store::Store;
use crate::serve::tournament_new::{NewTournament, Refused};
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
            best_of,
            map,
            timeout,
            max_players,
            game,
        } => {
            let new = NewTournament {
                name,
                game: game
                    .as_deref()
                    .unwrap_or(crate::serve::request::DEFAULT_GAME),
                format,
                seats: *seats,
                rounds: *rounds,
                pool: *pool,
                qualify: *qualify,
                advance: *advance,
                best_of: *best_of,
                map,
                timeout: *timeout,
                max_players: *max_players,
            };
            let refused = |refused| match refused {
                Refused::Value("name", why) => usage(format!("tournament {name:?}: {why}")),
                Refused::Value(flag, why) => usage(format!("--{flag} {why}")),
                Refused::Store(e) => Failure::usage(e),
            };
            new.check().map_err(refused)?;
            std::fs::create_dir_all(results).map_err(|e| {
                usage(format!(
                    "cannot create {} (--results): {e}",
                    results.display()
                ))
            })?;
            let store = Store::open_only(store).map_err(Failure::usage)?;
            let plan = new.create(&store).map_err(refused)?;
            println!(
                "tournament {name} created ({}, {}, {} seats a game, at most {max_players} \
                 players): registered players join with WAIT_GAME TOURNAMENT {name} \
                 token=<token> (referee serve register NAME gives a name its token); start it \
                 with referee serve tournament start {name}",
                new.game,
                plan.format.name(),
                plan.seats
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
                    "{name} {} {} [{}] game={} winner={} games={}{seed} standings={}",
                    t.plan.format.name(),
                    t.state,
                    t.players.join(","),
                    t.game,
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
