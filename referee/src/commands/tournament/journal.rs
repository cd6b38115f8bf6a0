//! The journal of a tournament's matches (`auth::journal`, beside the key) as a run uses
//! it: begun with a new run; with `--resume`, read back, a match it says was played whose
//! folder and row are gone refused (never played again), the matches found in the results
//! that it lacks noted; and checked by `merge` for each shard.

use crate::auth::journal::{self, Played, Step};
use crate::auth::{Journal, RunKey};
use crate::commands::Failure;
use crate::schedule::Shard;
use anyhow::anyhow;
use jail::untrusted::printable_path;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// The journal's name for `shard` (or the whole run).
fn part(shard: Option<Shard>) -> String {
    shard.map_or("all".to_string(), |s| {
        format!("shard-{}-of-{}", s.index, s.count)
    })
}

/// The journal of a new run of `key` (its key file `key_file`), empty.
pub(crate) fn begin(
    key_file: &Path,
    key: &RunKey,
    shard: Option<Shard>,
) -> Result<Arc<Journal>, Failure> {
    let path = Journal::beside(key_file, key, &part(shard));
    if path.exists() {
        eprintln!(
            "note: the journal {} of an earlier run of this name, seed and key (its results \
             removed) is begun again",
            printable_path(&path)
        );
    }
    Ok(Arc::new(
        Journal::create(&path, key).map_err(Failure::from)?,
    ))
}

/// The journal of run `key` resumed in `dir`, whose matches `done` are in its results (rows
/// checked against their seals). Refused: a match the journal says finished that `done`
/// lacks. The matches of `done` the journal lacks (the referee killed between a seal and its
/// line; every one in a run begun before journals, said once) are noted in it.
pub(crate) fn resume(
    key_file: &Path,
    key: &RunKey,
    shard: Option<Shard>,
    dir: &Path,
    done: &HashSet<u64>,
) -> Result<Arc<Journal>, Failure> {
    let path = Journal::beside(key_file, key, &part(shard));
    let usage = |e: anyhow::Error| Failure::usage(anyhow!("--resume: {e:#}"));
    let (journal, played) = match Journal::resume(&path, key).map_err(usage)? {
        Some(found) => found,
        None => {
            eprintln!(
                "note: no journal of the matches played beside the key (begun now, {}): the \
                 {} match(es) in {} are taken as played (a run begun before journals)",
                printable_path(&path),
                done.len(),
                printable_path(dir)
            );
            (
                Journal::create(&path, key).map_err(usage)?,
                Played::default(),
            )
        }
    };
    refuse_gaps(&played, done, journal.path(), dir, shard, "resuming")?;
    if !played.abandoned.is_empty() {
        eprintln!(
            "the journal says {} match(es) were begun and not finished (abandoned at a stop, \
             or failed): {}",
            played.abandoned.len(),
            listed(played.abandoned.iter().map(|(id, n)| match n {
                1 => id.to_string(),
                n => format!("{id} ({n} times)"),
            }))
        );
    }
    let mut unnoted: Vec<u64> = done
        .iter()
        .copied()
        .filter(|id| !played.finished.contains(id))
        .collect();
    unnoted.sort_unstable();
    for id in unnoted {
        journal.note(Step::End, id).map_err(Failure::from)?;
    }
    Ok(Arc::new(journal))
}

/// `merge`: the journal of shard `shard` of run `key` (beside `key_file`) against the matches
/// whose rows its folder `dir` holds; without a journal (a shard played under another copy of
/// the key, or begun before journals), a warning.
pub(crate) fn check_shard(
    key_file: &Path,
    key: &RunKey,
    shard: Shard,
    dir: &Path,
    present: &HashSet<u64>,
) -> Result<(), Failure> {
    let path = Journal::beside(key_file, key, &part(Some(shard)));
    match journal::read(&path, key).map_err(Failure::usage)? {
        Some((played, _, _)) => refuse_gaps(&played, present, &path, dir, Some(shard), "merging"),
        None => {
            eprintln!(
                "warning: shard {}/{} has no journal beside the key ({}): a match deleted from \
                 it could not be told; a shard played with another copy of the key keeps its \
                 journal beside that copy: put it here to have it checked",
                shard.index,
                shard.count,
                printable_path(&path)
            );
            Ok(())
        }
    }
}

/// Refuses the matches `played` says finished that `present` lacks and whose folder in
/// `dir` has no seal either (a row alone dropped is put back by a resume, and a merge calls
/// its shard incomplete). A link or a file in place of such a match's folder is refused
/// first, as a link (`run_files`): whoever put it there can write the results, and the
/// operator removes it before anything else.
fn refuse_gaps(
    played: &Played,
    present: &HashSet<u64>,
    journal: &Path,
    dir: &Path,
    shard: Option<Shard>,
    doing: &str,
) -> Result<(), Failure> {
    let mut gone = Vec::new();
    for &id in played.finished.iter().filter(|id| !present.contains(id)) {
        if !is_sealed(&crate::tournament::Runner::match_dir(dir, id))? {
            gone.push(id);
        }
    }
    if gone.is_empty() {
        return Ok(());
    }
    Err(Failure::usage(anyhow!(
        "{} match(es) of {}{} were played, as the run's journal {} says, but their folder \
         (matches/<id>) and row are gone: {} (deleted, perhaps to have them played again for \
         another result, or lost with a disk); {doing} would count them as never played. \
         Restore those folders from a backup of the results (with --resume, a row comes back \
         from its match's seal), or start the run again (remove {} or give another --name)",
        gone.len(),
        printable_path(dir),
        shard.map_or(String::new(), |s| format!(
            " (shard {}/{})",
            s.index, s.count
        )),
        printable_path(journal),
        listed(gone.iter().map(u64::to_string)),
        printable_path(dir)
    )))
}

/// Whether the match folder `path` holds a seal (anything under its name: what it is, the
/// checks of rows against seals say). The folder is opened without following a link: a
/// link or a file in its place is refused, naming it.
fn is_sealed(path: &Path) -> Result<bool, Failure> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        _ => {}
    }
    let folder = crate::run_files::Folder::of_match(path, false)?;
    Ok(std::fs::symlink_metadata(folder.pinned().join(crate::auth::SEAL)).is_ok())
}

/// The first ten of `items`, and how many more.
fn listed(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    let mut text = items
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > 10 {
        text.push_str(&format!(" and {} more", items.len() - 10));
    }
    text
}
