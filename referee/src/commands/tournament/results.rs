//! The results of a tournament directory (or of merged shards): the sorted `matches.csv`,
//! `leaderboard.csv`, `pairwise.csv` and `seats.csv` beside it, and with `--html` the `index.html`.

use crate::cli::words::ScheduleProblem;
use crate::export::matches_csv::same_row;
use crate::export::{leaderboard_csv, pairwise_csv, seats_csv};
use crate::games::Game;
use crate::schedule::Shard;
use crate::standings::{MatchRow, Standings};
use crate::store;
use crate::tournament::TournamentSpec;
use arena::confidence::{self, Confidence};
use std::path::{Path, PathBuf};

/// A `matches.csv` read once: every row checked is a row kept here, and what is written
/// comes from these rows, never from the file read again (one swapped meanwhile changes
/// nothing).
pub struct Source {
    pub path: PathBuf,
    /// Its shard, when it is a shard's.
    pub shard: Option<Shard>,
    /// Its complete rows in file order.
    pub rows: Vec<store::Row>,
}

/// Reads each of `files` (a `matches.csv` of a game of `seats` seats, with its shard) once,
/// bounded (`run_bounds`).
pub fn load(files: &[(PathBuf, Option<Shard>)], seats: usize) -> anyhow::Result<Vec<Source>> {
    files
        .iter()
        .map(|(path, shard)| {
            Ok(Source {
                path: path.clone(),
                shard: *shard,
                rows: store::load_rows(path, seats)?,
            })
        })
        .collect()
}

/// Sorts the rows of `sources` (the `matches.csv` of the whole tournament or of its shards,
/// read once by [`load`]) into `<dir>/matches.csv`, writes the tables next to it; returns
/// the number of rows, the standings and how sure they are; with `html`, also `index.html`
/// and every match's `replay.html`. A row that is not one of `spec`'s matches as it writes
/// them ([`TournamentSpec::check_row`]: edited, or of another tournament), or under the
/// run's key not the one its seal holds, is refused, with the fix, before anything is
/// written.
pub fn write(
    sources: &[Source],
    dir: &Path,
    spec: &TournamentSpec,
    html: bool,
    game: &dyn Game,
    auth: Option<&crate::auth::RunKey>,
) -> anyhow::Result<(u64, Standings, Confidence)> {
    let seats = spec.seat_count(game).map_err(anyhow::Error::msg)?;
    let mut standings = Standings::with_champions(
        game.points(),
        seats,
        spec.champions.iter().map(|c| c.name.as_str()),
    );
    let schedule = spec
        .schedule(seats)
        .map_err(|e| anyhow::anyhow!("{}", ScheduleProblem(e)))?;
    // Each row checked on every core (its seal is a file to read); the first refused in
    // the files' order is the one named, whatever finished first.
    let rows: Vec<_> = sources
        .iter()
        .flat_map(|source| {
            (2u64..)
                .zip(&source.rows)
                .map(move |(n, row)| (source, n, row))
        })
        .collect();
    {
        use rayon::prelude::*;
        let refused = rows
            .par_iter()
            .map(|&(source, number, row)| {
                spec.check_row(&row.row, row.first_player, &schedule, source.shard, game)
                    .map_err(|e| format!("{e}; {}", EDITED_ROW_FIX))
                    .and_then(|()| match auth {
                        Some(key) => sealed_row(key, &source.path, &row.row, &row.line),
                        None => Ok(()),
                    })
                    .map_err(|e| anyhow::anyhow!("{} line {number}: {e}", source.path.display()))
            })
            .find_first(Result::is_err);
        if let Some(refused) = refused {
            refused?;
        }
    }
    let mut lines: Vec<(u64, &Path, &[u8])> = Vec::new();
    for (source, _, row) in rows {
        standings.add(&row.row);
        lines.push((row.row.id, &source.path, &row.line));
    }
    lines.sort_by_key(|(id, _, _)| *id);
    if let Some(pair) = lines.windows(2).find(|w| w[0].0 == w[1].0) {
        anyhow::bail!(
            "match {} appears twice ({} and {})",
            pair[0].0,
            pair[0].1.display(),
            pair[1].1.display()
        );
    }
    store::write_lines(
        &dir.join("matches.csv"),
        seats,
        lines.iter().map(|(_, _, line)| *line),
    )?;
    let rows = lines.len() as u64;
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
                .filter_map(|s| s.path.parent().map(Path::to_path_buf))
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

/// Under the run's key, the row `line` of match `id` in the file `path` must be the one its
/// match's seal holds: the standings are made of the very bytes that are checked, so a file
/// swapped after an earlier check (`merge`, `--resume`) gives nothing.
pub(crate) fn sealed_row(
    key: &crate::auth::RunKey,
    path: &Path,
    row: &MatchRow,
    line: &[u8],
) -> Result<(), String> {
    let id = row.id;
    let root = path.parent().unwrap_or(Path::new("."));
    let dir = crate::tournament::Runner::match_dir(root, id);
    match key.seal(&dir, id) {
        Ok(Some(seal)) if same_row(&seal.row, line, row.seats()) => Ok(()),
        Ok(Some(_)) => Err(format!(
            "the row of match {id} is not the one the referee wrote (its seal {} holds that \
             one); {UNRECORDED_ROW_FIX}",
            jail::untrusted::printable_path(&dir.join(crate::auth::SEAL))
        )),
        Ok(None) => Err(format!(
            "{} is missing: this run is authenticated, so every match it played has its seal; \
             {UNRECORDED_ROW_FIX}",
            jail::untrusted::printable_path(&dir.join(crate::auth::SEAL))
        )),
        Err(e) => Err(format!("{e:#}")),
    }
}

/// What to do about a row of `matches.csv` that the tournament did not write.
pub const EDITED_ROW_FIX: &str = "this row is not one the tournament wrote (the file was \
    edited, or comes from another tournament): restore the file the referee wrote, or delete \
    the row and run --resume (which puts back the row the referee wrote, from its match's \
    seal, or plays the match again)";

/// [`load`], each row checked as it is read against `spec`, as [`write()`] does (one of its
/// matches, of its shard, as the referee writes it), and that no match appears twice: the
/// first row refused stops the reading, its error naming the file, the line and the fix.
/// So at most one row per match of the schedule is ever held, whatever the file's size (a
/// shard's file of one genuine row repeated to the size bound is refused at its second).
pub fn load_checked(
    files: &[(PathBuf, Option<Shard>)],
    spec: &TournamentSpec,
    game: &dyn Game,
) -> anyhow::Result<Vec<Source>> {
    let seats = spec.seat_count(game).map_err(anyhow::Error::msg)?;
    let schedule = spec
        .schedule(seats)
        .map_err(|e| anyhow::anyhow!("{}", ScheduleProblem(e)))?;
    let mut seen = std::collections::HashSet::new();
    let mut sources = Vec::new();
    for (path, shard) in files {
        let mut rows = Vec::new();
        let mut number = 1;
        store::read_rows(path, seats, |(row, first_player), _, line| {
            number += 1;
            spec.check_row(&row, first_player, &schedule, *shard, game)
                .and_then(|()| match seen.insert(row.id) {
                    true => Ok(()),
                    false => Err(format!("match {} appears twice", row.id)),
                })
                .map_err(|e| {
                    anyhow::anyhow!("{} line {number}: {e}; {EDITED_ROW_FIX}", path.display())
                })?;
            rows.push(store::Row {
                row,
                first_player,
                line: line.to_vec(),
            });
            Ok(())
        })?;
        sources.push(Source {
            path: path.clone(),
            shard: *shard,
            rows,
        });
    }
    Ok(sources)
}

/// A visitor of [`each_row`].
type RowVisit<'a, 'b> =
    dyn FnMut(&'a Source, usize, &'a MatchRow, u8, &'a [u8]) -> anyhow::Result<()> + 'b;

/// Calls `visit` with every row of `sources` in file order: its source, its line number,
/// the row, its `first_player` and its exact bytes.
fn each_row<'a>(sources: &'a [Source], visit: &mut RowVisit<'a, '_>) -> anyhow::Result<()> {
    for source in sources {
        for (number, row) in (2..).zip(&source.rows) {
            visit(source, number, &row.row, row.first_player, &row.line)?;
        }
    }
    Ok(())
}

/// Checks every row of `sources` against the record of its match (in `matches/<id>/`
/// beside its file), that record first checked against what `spec` plays (the seed, its
/// setup, each seat's champion and seed, the time allowances) and played again through the
/// rules ([`Game::recorded_row`]): a row must say what its record says, field for field
/// (all but the wall time; the command up to the environment of the referee that wrote it).
/// `merge` (shards may come from other machines) and
/// `--resume` run it: a row edited with scores and points that agree, or a record edited
/// to match, is refused, naming the file, the line, the field and the fix. The records are
/// read in parallel (one replay each, a few milliseconds). Under the run's key `auth`, each
/// row and record must also be the one its match's seal authenticates.
pub fn check_records(
    sources: &[Source],
    spec: &TournamentSpec,
    game: &dyn Game,
    auth: Option<&crate::auth::RunKey>,
) -> anyhow::Result<()> {
    let seats = spec.seat_count(game).map_err(anyhow::Error::msg)?;
    let schedule = spec
        .schedule(seats)
        .map_err(|e| anyhow::anyhow!("{}", ScheduleProblem(e)))?;
    let stored = crate::games::stored_limits(&spec.limits)
        .map_err(|e| anyhow::anyhow!("tournament.json: {e}"))?;
    let options = spec
        .options(game)
        .map_err(|e| anyhow::anyhow!("tournament.json: {e}"))?;
    check_records_with(sources, game, auth, |id| {
        crate::games::Expected::of(spec, &schedule, &stored, &options, id)
    })
}

/// [`check_records`] for any run (a tournament's, a gauntlet's): the rows of `sources`
/// against the records beside them, each first checked against what `expected` says its
/// match is played with, and under the run's key `auth` against its match's seal.
pub fn check_records_with(
    sources: &[Source],
    game: &dyn Game,
    auth: Option<&crate::auth::RunKey>,
    expected: impl Fn(u64) -> anyhow::Result<crate::games::Expected> + Sync,
) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let mut rows = Vec::new();
    each_row(sources, &mut |source, number, row, first_player, line| {
        let path = &source.path;
        let root = path.parent().unwrap_or(Path::new("."));
        let dir = crate::tournament::Runner::match_dir(root, row.id);
        rows.push((path, number, dir, row, first_player, line));
        Ok(())
    })?;
    let wrong = rows
        .par_iter()
        .map(|(path, number, dir, row, first_player, line)| {
            // The record's seal first, then the row against the record (which names the
            // field), then against the seal (what no record gives: the wall time).
            let seal = auth.map(|key| sealed(key, dir, row.id)).transpose();
            let recorded = seal.and_then(|seal| {
                let played = expected(row.id).and_then(|e| game.recorded_row(dir, &e))?;
                Ok((played, seal))
            });
            let problem = match recorded {
                Err(e) => match torn(dir, auth.is_some()) {
                    // Not an edit, most likely: a crash while the referee wrote it.
                    Some(torn) => {
                        return Err(anyhow::anyhow!(
                            "{} line {number}: match {}: {torn}; {TORN_FIX}",
                            path.display(),
                            row.id
                        ))
                    }
                    None => format!("match {}: {e:#}", row.id),
                },
                Ok((recorded, seal)) => match differing_field(row, *first_player, &recorded) {
                    None => match seal.filter(|s| !same_row(&s.row, line, row.seats())) {
                        None => return Ok(()),
                        Some(_) => format!(
                            "the row of match {} is not the one the referee wrote (its seal \
                             {} holds that one)",
                            row.id,
                            jail::untrusted::printable_path(&dir.join(crate::auth::SEAL))
                        ),
                    },
                    Some((name, said, recorded)) => format!(
                        "match {} says {name} {said}, its record {} says {recorded}",
                        row.id,
                        jail::untrusted::printable_path(&dir.join("record.json"))
                    ),
                },
            };
            Err(anyhow::anyhow!(
                "{} line {number}: {problem}; {UNRECORDED_ROW_FIX}",
                path.display()
            ))
        })
        .find_first(Result::is_err);
    wrong.unwrap_or(Ok(()))
}

/// The seal of match `id` in `dir` under the run's key, its record checked against it: a
/// record the referee did not write for this match of this run (edited, moved from another
/// match or run), or a seal removed, is refused.
fn sealed(key: &crate::auth::RunKey, dir: &Path, id: u64) -> anyhow::Result<crate::auth::Seal> {
    let seal = key.seal(dir, id)?.ok_or_else(|| {
        anyhow::anyhow!(
            "{} is missing: this run is authenticated, so every match it played has its seal \
             (it was removed, or the match comes from elsewhere)",
            jail::untrusted::printable_path(&dir.join(crate::auth::SEAL))
        )
    })?;
    let record = dir.join("record.json");
    seal.verify_record(
        key,
        &record,
        &store::read_bytes(&record, crate::run_bounds::RECORD)?,
    )?;
    Ok(seal)
}

/// The file of a match's folder `dir` that is missing or empty behind its row (its record,
/// or under a key its seal), as a crash while the referee wrote them leaves it (records
/// and seals are not synced to the disk: the row may reach it before them): "its record
/// matches/3/record.json is empty", or `None`.
fn torn(dir: &Path, sealed: bool) -> Option<String> {
    let record = dir.join("record.json");
    let seal = dir.join(crate::auth::SEAL);
    let files = [("record", record)]
        .into_iter()
        .chain(sealed.then_some(("seal", seal)));
    files.into_iter().find_map(|(what, file)| {
        let state = match std::fs::symlink_metadata(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "missing",
            Ok(meta) if meta.is_file() && meta.len() == 0 => "empty",
            _ => return None,
        };
        Some(format!(
            "its {what} {} is {state}",
            jail::untrusted::printable_path(&file)
        ))
    })
}

/// What to do about a row whose record or seal is missing or empty (`torn`).
pub const TORN_FIX: &str = "the referee probably stopped while writing it (killed, or the \
    machine lost power: records are not synced to the disk before their row), rather than \
    someone editing the files: delete that row from matches.csv and the match's directory \
    (matches/<id>), then run again with --resume (the tournament, its shard or the \
    gauntlet) to play that match again";

/// What to do about a row that its record does not bear out.
pub const UNRECORDED_ROW_FIX: &str = "the row or its record is not what the referee wrote \
    (edited, or from another run): restore the files the referee wrote, or delete the row \
    and the match's directory (matches/<id>) and run again with --resume (the tournament, \
    its shard or the gauntlet) to play that match again";

/// The first field in which `row` (with `first_player`) and the row a record gives differ:
/// its name, the row's value, the record's (for the command, the one this referee writes
/// for the match it records). The wall time and the id are not in a record's row.
fn differing_field(
    row: &MatchRow,
    first_player: u8,
    recorded: &crate::games::Played,
) -> Option<(&'static str, String, String)> {
    let r = &recorded.row;
    // The field of the row read back and of the record's.
    let of = |f: fn(&MatchRow) -> String| (f(row), f(r));
    let fields = [
        ("seed", of(|x| x.seed.to_string())),
        (
            "first_player",
            (first_player.to_string(), recorded.first_player.to_string()),
        ),
        ("champions", of(|x| format!("{:?}", x.champions))),
        ("places", of(|x| format!("{:?}", x.places))),
        ("scores", scores(row, r)),
        ("points", of(|x| format!("{:?}", x.points))),
        ("faults", of(|x| faults(&x.faults))),
        ("calls", of(|x| format!("{:?}", x.calls))),
        ("cpu_us", of(|x| format!("{:?}", x.cpu_us))),
        ("max_cpu_us", of(|x| format!("{:?}", x.max_cpu_us))),
        ("digest", of(|x| x.digest.clone())),
    ];
    // The command may differ by the environment of the referee that wrote it.
    let command = (row.reproduce.clone(), r.reproduce.clone());
    let same_command = crate::cli::words::same_command(&row.reproduce, &recorded.command);
    fields
        .into_iter()
        .find(|(_, (said, recorded))| said != recorded)
        .or_else(|| (!same_command).then_some(("reproduce", command)))
        .map(|(name, (said, recorded))| {
            let printable = |s: &str| jail::untrusted::printable(s).into_owned();
            (name, printable(&said), printable(&recorded))
        })
}

/// The scores of `row` and of the record's row `recorded`: the record's as results schema 3
/// wrote them when `row` says those (a row of a run of before, migrated, kept the scores it
/// was written with).
fn scores(row: &MatchRow, recorded: &MatchRow) -> (String, String) {
    let then = crate::export::matches_csv::schema3_scores(&recorded.places, &recorded.scores);
    let recorded = match row.scores == then {
        true => then,
        false => recorded.scores.clone(),
    };
    (format!("{:?}", row.scores), format!("{recorded:?}"))
}

/// The faults of a row's seats as `matches.csv` writes them (empty for none).
fn faults(faults: &[Option<jail::fault::FaultKind>]) -> String {
    let names: Vec<&str> = faults.iter().map(|f| f.map_or("", |k| k.name())).collect();
    format!("{names:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Played;
    use jail::fault::FaultKind;

    fn row() -> MatchRow {
        MatchRow {
            id: 4,
            seed: 77,
            champions: vec!["a".into(), "b".into(), "c".into()],
            places: vec![1, 2, 3],
            scores: vec![300, 200, 100],
            points: vec![3, 1, 0],
            faults: vec![None, Some(FaultKind::Timeout), None],
            calls: vec![30, 29, 30],
            cpu_us: vec![1000, 2000, 3000],
            max_cpu_us: vec![100, 200, 300],
            duration_ms: 900,
            digest: "00ff".into(),
            reproduce: "referee match a b c --seed 77".into(),
        }
    }

    /// Every field a record gives is compared, and only those: the wall time and the id
    /// are the runner's.
    #[test]
    fn a_row_differs_from_its_record_by_the_first_field_that_does() {
        let recorded = Played {
            row: MatchRow {
                id: 0,
                duration_ms: 0,
                ..row()
            },
            first_player: 2,
            command: crate::cli::command_line::CommandLine {
                env: Vec::new(),
                args: ["referee", "match", "a", "b", "c", "--seed", "77"]
                    .map(String::from)
                    .to_vec(),
            },
        };
        assert_eq!(differing_field(&row(), 2, &recorded), None);
        assert_eq!(
            differing_field(&row(), 1, &recorded),
            Some(("first_player", "1".into(), "2".into()))
        );
        type Edit = fn(&mut MatchRow);
        let edits: [(&str, Edit, &str); 11] = [
            ("seed", |r| r.seed = 78, "78"),
            (
                "champions",
                |r| r.champions[2] = "d\u{1b}".into(),
                r#"["a", "b", "d\u{1b}"]"#,
            ),
            ("places", |r| r.places.swap(0, 1), "[2, 1, 3]"),
            ("scores", |r| r.scores.swap(0, 1), "[200, 300, 100]"),
            ("points", |r| r.points.swap(0, 1), "[1, 3, 0]"),
            (
                "faults",
                |r| r.faults[0] = Some(FaultKind::Crash),
                r#"["crash", "timeout", ""]"#,
            ),
            ("calls", |r| r.calls[1] = 30, "[30, 30, 30]"),
            ("cpu_us", |r| r.cpu_us[0] = 1, "[1, 2000, 3000]"),
            ("max_cpu_us", |r| r.max_cpu_us[2] = 3, "[100, 200, 3]"),
            ("digest", |r| r.digest = "ff00".into(), "ff00"),
            (
                "reproduce",
                |r| r.reproduce.push_str("; rm -rf ~"),
                "referee match a b c --seed 77; rm -rf ~",
            ),
        ];
        for (field, edit, said) in edits {
            let mut edited = row();
            edit(&mut edited);
            let (name, row_says, _) = differing_field(&edited, 2, &recorded)
                .unwrap_or_else(|| panic!("{field}: no difference found"));
            assert_eq!((name, row_says.as_str()), (field, said));
        }
        // A row of results schema 3 (a run of before) says the scores of then: those of a
        // seat placed below another with more points lowered below it.
        let faulted = |scores: Vec<i32>| MatchRow {
            places: vec![3, 1, 2],
            scores,
            ..recorded.row.clone()
        };
        let recorded = Played {
            row: faulted(vec![300, 200, 100]),
            ..recorded
        };
        assert_eq!(
            differing_field(&faulted(vec![99, 200, 100]), 2, &recorded),
            None
        );
        assert_eq!(
            differing_field(&faulted(vec![98, 200, 100]), 2, &recorded),
            Some(("scores", "[98, 200, 100]".into(), "[300, 200, 100]".into()))
        );
    }
}
