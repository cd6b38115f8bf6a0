//! The results of a tournament directory (or of merged shards): the sorted `matches.csv`,
//! `leaderboard.csv`, `pairwise.csv` and `seats.csv` beside it, and with `--html` the `index.html`.

use crate::confidence::{self, Confidence};
use crate::export::{leaderboard_csv, pairwise_csv, seats_csv};
use crate::games::Game;
use crate::schedule::Shard;
use crate::standings::Standings;
use crate::store;
use crate::tournament::TournamentSpec;
use std::path::{Path, PathBuf};

/// Sort `sources` (the `matches.csv` of the whole tournament or of its shards, each with
/// its shard) into `<dir>/matches.csv`, write the tables next to it; returns the number of
/// rows, the standings and how sure they are; with `html`, also `index.html` and every match's
/// `replay.html`; and how sure the standings are. A row that is not one of `spec`'s matches as it writes them
/// ([`TournamentSpec::check_row`]: edited, or of another tournament) is refused, with the
/// fix.
pub fn write(
    sources: &[(PathBuf, Option<Shard>)],
    dir: &Path,
    spec: &TournamentSpec,
    html: bool,
    game: &dyn Game,
) -> anyhow::Result<(u64, Standings, Confidence)> {
    let mut standings = Standings::with_champions(
        game.points(),
        spec.champions.iter().map(|c| c.name.as_str()),
    );
    let schedule = spec
        .schedule(game.seats())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let paths: Vec<PathBuf> = sources.iter().map(|(p, _)| p.clone()).collect();
    let rows = store::write_sorted(
        &paths,
        game.seats(),
        &dir.join("matches.csv"),
        |row, first_player, source| {
            spec.check_row(row, first_player, &schedule, sources[source].1, game)
                .map_err(|e| format!("{e}; {}", EDITED_ROW_FIX))?;
            standings.add(row);
            Ok(())
        },
    )?;
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
        // The matches' directories are beside each source (the shards', when merged); the
        // pre-run check numbered its stderr files in the champions' order, which is the
        // schedule's when none was excluded.
        let layout = crate::view::index::Layout {
            roots: sources
                .iter()
                .filter_map(|(p, _)| p.parent().map(Path::to_path_buf))
                .collect(),
            check_order: spec
                .excluded
                .is_empty()
                .then(|| spec.champions.iter().map(|c| c.name.clone()).collect()),
        };
        crate::view::index::write(dir, game, &layout)?;
    }
    Ok((rows, standings, confidence))
}

/// What to do about a row of `matches.csv` that the tournament did not write.
pub const EDITED_ROW_FIX: &str = "this row is not one the tournament wrote (the file was \
    edited, or comes from another tournament): restore the file the referee wrote, or delete \
    the row and run --resume to play that match again";

/// Checks every row of `sources` (each with its shard) against `spec`, as [`write()`] does,
/// before anything is written: an error names the file, the line and the fix.
pub fn check_sources(
    sources: &[(PathBuf, Option<Shard>)],
    spec: &TournamentSpec,
    game: &dyn Game,
) -> anyhow::Result<()> {
    let schedule = spec
        .schedule(game.seats())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for (path, shard) in sources {
        let mut number = 1;
        store::read_rows(path, game.seats(), |(row, first_player), _, _| {
            number += 1;
            spec.check_row(&row, first_player, &schedule, *shard, game)
                .map_err(|e| {
                    anyhow::anyhow!("{} line {number}: {e}; {EDITED_ROW_FIX}", path.display())
                })
        })?;
    }
    Ok(())
}
