//! What a champion must never see of the referee's outputs, though they may lie inside its
//! own folder (a run started from there): the output folders of this run, named by the
//! command that plays ([`hide`]), and the results of older runs found in the champion's
//! folder (`masks_for`): records and `tournament.json` hold seeds, hence every match's
//! hidden setup when a seed is used again. Each is hidden behind an empty read-only tmpfs in
//! the champion's jail ([`super::View::masks`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Files only the referee writes: a folder holding one is a results folder (a match's
/// `record.json`, a run's `tournament.json`, `gauntlet.json` or `matches.csv`).
const RESULT_FILES: &[&str] = &[
    "record.json",
    "tournament.json",
    "gauntlet.json",
    "matches.csv",
];

/// Most entries looked at in one champion's folder: past them it is refused (a champion's
/// folder holds its program and its data, not a file system).
const MAX_ENTRIES: usize = 200_000;

/// The folders [`hide`] and [`hide_root`] named: (path, whether it is a root).
fn registry() -> &'static Mutex<Vec<(PathBuf, bool)>> {
    static HIDDEN: OnceLock<Mutex<Vec<(PathBuf, bool)>>> = OnceLock::new();
    HIDDEN.get_or_init(|| Mutex::new(Vec::new()))
}

fn register(dir: &Path, root: bool) {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut hidden = registry().lock().unwrap_or_else(|e| e.into_inner());
    if !hidden.contains(&(dir.clone(), root)) {
        hidden.push((dir, root));
    }
}

/// Hides `dir`, an output folder of this run (a match's, a tournament's or a gauntlet's),
/// from every champion started from now on whose folder holds it; a champion whose folder
/// it is cannot start. It need not exist yet: it is looked up at each start.
pub fn hide(dir: &Path) {
    register(dir, false);
}

/// Hides `dir`, the folder holding this run's output folder and maybe older ones (the
/// results folder), from every champion started from now on whose folder holds it. Unlike
/// [`hide`], it may be a champion's own folder: then the output folders in it are hidden.
pub fn hide_root(dir: &Path) {
    register(dir, true);
}

/// The folders to hide inside `champion` (a folder, canonical): this run's output folders
/// under it, `extra` (the match's own folder) and the results of older runs found in it,
/// parents first. `Err` when an output folder is the champion's folder itself (it would
/// read the records and the opponents' live stderr), or when the folder is too large to
/// look through.
pub(crate) fn masks_for(champion: &Path, extra: Option<&Path>) -> Result<Vec<PathBuf>, String> {
    let named = registry().lock().unwrap_or_else(|e| e.into_inner()).clone();
    let extra = extra.map(|dir| (dir.to_path_buf(), false));
    let mut masks = Vec::new();
    for (dir, root) in named.into_iter().chain(extra) {
        let Ok(dir) = dir.canonicalize() else {
            continue;
        };
        if dir == champion && !root {
            return Err(format!(
                "the results are written into the champion's own folder `{}`: it would read \
                 them (records, seeds, its opponents' stderr); write them into another folder",
                champion.display()
            ));
        }
        if dir.starts_with(champion) && dir != champion {
            masks.push(dir);
        }
    }
    masks.extend(older_results(champion)?);
    Ok(outermost(masks))
}

/// The paths of `masks` that no other one holds, sorted (parents before children).
fn outermost(mut masks: Vec<PathBuf>) -> Vec<PathBuf> {
    masks.sort();
    masks.dedup();
    let mut kept: Vec<PathBuf> = Vec::new();
    for mask in masks {
        if !kept.iter().any(|k| mask.starts_with(k)) {
            kept.push(mask);
        }
    }
    kept
}

/// The results folders of older runs in `champion`, looked for once per folder and
/// process (a run's own outputs are named by [`hide`]; another run writing into the same
/// champion's folder meanwhile is not seen).
fn older_results(champion: &Path) -> Result<Vec<PathBuf>, String> {
    type Found = HashMap<PathBuf, Result<Vec<PathBuf>, String>>;
    static FOUND: OnceLock<Mutex<Found>> = OnceLock::new();
    let mut found = FOUND
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    found
        .entry(champion.to_path_buf())
        .or_insert_with(|| {
            let mut seen = 0;
            let mut masks = Vec::new();
            find_results(champion, champion, &mut seen, &mut masks).map(|_| masks)
        })
        .clone()
}

/// Looks through `dir` (not following links) for results folders, into `masks`. Returns
/// whether `dir` holds nothing but results folders (and run locks), so that its parent
/// hides it whole rather than each of them (`results/matches/<id>`: one mask, not one per
/// match).
fn find_results(
    champion: &Path,
    dir: &Path,
    seen: &mut usize,
    masks: &mut Vec<PathBuf>,
) -> Result<bool, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    let mut folders = Vec::new();
    let mut only_results = true;
    for entry in entries.flatten() {
        *seen += 1;
        if *seen > MAX_ENTRIES {
            return Err(format!(
                "its folder `{}` holds more than {MAX_ENTRIES} files: too many to look \
                 through for results of older runs (which it must not read); keep only the \
                 champion's own files there",
                champion.display()
            ));
        }
        let name = entry.file_name();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir {
            if RESULT_FILES.iter().any(|f| name == *f) && dir != champion {
                masks.push(dir.to_path_buf());
                return Ok(true);
            }
            let lock = name
                .to_str()
                .is_some_and(|n| n.starts_with('.') && n.ends_with(".lock"));
            only_results &= lock;
            continue;
        }
        folders.push(entry.path());
    }
    let before = masks.len();
    for folder in &folders {
        only_results &= find_results(champion, folder, seen, masks)?;
    }
    if only_results && !folders.is_empty() && dir != champion {
        masks.truncate(before);
        masks.push(dir.to_path_buf());
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }

    #[test]
    fn older_results_are_found_and_grouped() {
        let root = tempfile::tempdir().unwrap();
        let champion = root.path().canonicalize().unwrap();
        touch(&champion.join("champion"));
        touch(&champion.join("src/main.c"));
        touch(&champion.join("results/matches/1-a-b/record.json"));
        touch(&champion.join("results/matches/2-a-b/record.json"));
        touch(&champion.join("results/.club.lock"));
        touch(&champion.join("results/club/tournament.json"));
        touch(&champion.join("results/club/matches/0/record.json"));
        touch(&champion.join("data/old/gauntlet.json"));
        touch(&champion.join("data/book.txt"));
        let mut seen = 0;
        let mut masks = Vec::new();
        find_results(&champion, &champion, &mut seen, &mut masks).unwrap();
        assert_eq!(
            outermost(masks),
            vec![champion.join("data/old"), champion.join("results")]
        );
    }

    #[test]
    fn a_results_file_beside_the_program_is_the_champions_own() {
        let root = tempfile::tempdir().unwrap();
        let champion = root.path().canonicalize().unwrap();
        touch(&champion.join("record.json"));
        let mut seen = 0;
        let mut masks = Vec::new();
        find_results(&champion, &champion, &mut seen, &mut masks).unwrap();
        assert!(masks.is_empty());
    }

    #[test]
    fn nested_masks_keep_the_outer_one() {
        let masks = outermost(vec![
            PathBuf::from("/c/results/club"),
            PathBuf::from("/c/results"),
            PathBuf::from("/c/resultsx"),
        ]);
        assert_eq!(
            masks,
            vec![PathBuf::from("/c/results"), PathBuf::from("/c/resultsx")]
        );
    }

    /// A folder of lock files only is no results folder, and a results folder holding
    /// anything else is hidden by its results folders, not whole.
    #[test]
    fn only_results_and_locks_hide_a_folder_whole() {
        let root = tempfile::tempdir().unwrap();
        let champion = root.path().canonicalize().unwrap();
        touch(&champion.join("locks/.a.lock"));
        touch(&champion.join("results/.notes"));
        touch(&champion.join("results/one/record.json"));
        touch(&champion.join("results/two/matches.csv"));
        let mut seen = 0;
        let mut masks = Vec::new();
        find_results(&champion, &champion, &mut seen, &mut masks).unwrap();
        assert_eq!(seen, 8);
        assert_eq!(
            outermost(masks),
            vec![champion.join("results/one"), champion.join("results/two")]
        );
    }

    /// The entries looked at are counted across the walk: up to `MAX_ENTRIES` the folder is
    /// looked through, past them it is refused, saying what to do.
    #[test]
    fn a_folder_past_the_limit_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let champion = root.path().canonicalize().unwrap();
        touch(&champion.join("a"));
        touch(&champion.join("b"));
        let mut masks = Vec::new();
        let mut seen = MAX_ENTRIES - 2;
        find_results(&champion, &champion, &mut seen, &mut masks).unwrap();
        assert_eq!(seen, MAX_ENTRIES);
        let mut seen = MAX_ENTRIES - 1;
        let err = find_results(&champion, &champion, &mut seen, &mut masks).unwrap_err();
        assert!(
            err.contains("holds more than 200000 files") && err.contains("keep only"),
            "{err}"
        );
    }

    /// What a champion's jail hides: this run's output folders inside its folder (the
    /// outermost of nested ones), a results root inside it, the match's own folder and older
    /// results found there; nothing outside it, nothing that does not exist. Its own folder
    /// is refused as an output folder, not as the results root.
    #[test]
    fn a_runs_outputs_inside_the_champion_are_hidden_and_never_its_whole_folder() {
        let root = tempfile::tempdir().unwrap();
        let base = root.path().canonicalize().unwrap();
        let champion = base.join("champion");
        for dir in ["out/matches/1", "root", "match", "src"] {
            std::fs::create_dir_all(champion.join(dir)).unwrap();
        }
        std::fs::create_dir_all(base.join("elsewhere")).unwrap();
        touch(&champion.join("old/tournament.json"));
        hide(&champion.join("out"));
        hide(&champion.join("out/matches/1"));
        hide(&champion.join("out"));
        hide(&base.join("elsewhere"));
        hide(&champion.join("later"));
        hide_root(&champion.join("root"));
        hide_root(&champion);
        assert_eq!(
            masks_for(&champion, Some(&champion.join("match"))).unwrap(),
            ["match", "old", "out", "root"].map(|d| champion.join(d))
        );
        let err = masks_for(&champion, Some(&champion)).unwrap_err();
        assert!(err.contains("the champion's own folder"), "{err}");
        let other = base.join("other");
        std::fs::create_dir_all(&other).unwrap();
        hide(&other);
        let err = masks_for(&other, None).unwrap_err();
        assert!(err.contains("write them into another folder"), "{err}");
    }
}
