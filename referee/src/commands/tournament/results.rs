//! The results of a tournament directory (or of merged shards): the sorted `matches.csv`,
//! `leaderboard.csv`, `pairwise.csv` and `seats.csv` beside it, and with `--html` the `index.html`.

use crate::confidence::{self, Confidence};
use crate::export::{leaderboard_csv, pairwise_csv, seats_csv};
use crate::games::Game;
use crate::standings::Standings;
use crate::store;
use crate::tournament::TournamentSpec;
use std::path::{Path, PathBuf};

/// Sort `sources` into `<dir>/matches.csv`, write the tables next to it; returns the number
/// of rows, the standings and how sure they are; with `html`, also `index.html` and every match's
/// `replay.html`.
pub fn write(
    sources: &[PathBuf],
    dir: &Path,
    spec: &TournamentSpec,
    html: bool,
    game: &dyn Game,
) -> anyhow::Result<(u64, Standings, Confidence)> {
    let mut standings = Standings::with_champions(
        game.points(),
        spec.champions.iter().map(|c| c.name.as_str()),
    );
    let rows = store::write_sorted(sources, game.seats(), &dir.join("matches.csv"), |row| {
        standings.add(row)
    })?;
    let confidence = confidence::compute(&standings, spec.seed);
    store::write_atomic(
        &dir.join("leaderboard.csv"),
        &leaderboard_csv::render(&standings, &confidence),
    )?;
    store::write_atomic(&dir.join("pairwise.csv"), &pairwise_csv::render(&standings))?;
    store::write_atomic(
        &dir.join("seats.csv"),
        &seats_csv::render(&confidence, standings.outcomes.len() as u64),
    )?;
    if html {
        crate::view::html::tournament_index(dir, game)?;
    }
    Ok((rows, standings, confidence))
}
