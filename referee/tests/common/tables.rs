//! The result files of a run read back for assertions: CSV tables as rows of
//! `column -> value` (with or without the columns that measure time), and the count of
//! matches played in a results directory; and a match taken out of a run, deleted as an
//! attacker who writes the results does it, or forgotten as a kill leaves it (the run's
//! journal beside its key cut too).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A row of a CSV file: `column -> value`.
pub type Row = BTreeMap<String, String>;

/// Every row of the CSV file at `path`, every column.
pub fn table(path: &Path) -> Vec<Row> {
    read(path, |_| true)
}

/// Every row of the CSV file at `path`, without the columns that measure time (they
/// differ between two runs of the same tournament).
pub fn untimed(path: &Path) -> Vec<Row> {
    use referee::export::{leaderboard_csv, matches_csv};
    read(path, |h| {
        !matches_csv::is_timing(h) && !leaderboard_csv::TIMING_COLUMNS.contains(&h)
    })
}

/// `matches.csv`, `leaderboard.csv` and `pairwise.csv` of a results directory, untimed:
/// what two runs of one tournament must agree on.
pub fn untimed_tables(dir: &Path) -> Vec<Vec<Row>> {
    ["matches.csv", "leaderboard.csv", "pairwise.csv"]
        .map(|f| untimed(&dir.join(f)))
        .to_vec()
}

/// How many matches `dir/matches.csv` holds (0 when there is none yet).
pub fn played(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("matches.csv"))
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// Deletes match `id`'s folder and its row of `run/matches.csv`, as someone who can write
/// the results (not the key) would to have a lost match played again (a re-roll): the
/// run's journal beside its key still says it was played.
pub fn delete_match(run: &Path, id: &str) {
    std::fs::remove_dir_all(run.join("matches").join(id)).unwrap();
    let csv = std::fs::read_to_string(run.join("matches.csv")).unwrap();
    let kept: Vec<&str> = csv
        .lines()
        .filter(|l| !l.starts_with(&format!("{id},")))
        .collect();
    std::fs::write(run.join("matches.csv"), kept.join("\n") + "\n").unwrap();
}

/// Forgets match `id` of `run`, whose key file is `key`, as if the referee had been killed
/// while it played: its row and folder gone ([`delete_match`]), and the run's journal cut
/// before the line saying it ended ([`cut_journal`]).
pub fn forget_match(run: &Path, id: &str, key: &Path) {
    delete_match(run, id);
    cut_journal(key, &[id]);
}

/// Forgets the last match of the keyless run `t` (its key the default one of its folder)
/// as [`forget_match`] does: its id, and the rows left.
pub fn forget_last_match(t: &Path) -> (String, usize) {
    let text = std::fs::read_to_string(t.join("matches.csv")).unwrap();
    let id = text.lines().last().unwrap().split(',').next().unwrap();
    let key = super::default_key(t);
    forget_match(t, id, &key);
    (id.to_string(), played(t))
}

/// The journals beside the key file `key` (one a run and shard), sorted.
pub fn journals(key: &Path) -> Vec<PathBuf> {
    let name = key.file_name().unwrap().to_string_lossy().to_string();
    let mut found: Vec<PathBuf> = std::fs::read_dir(key.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let file = p.file_name().unwrap().to_string_lossy();
            file.starts_with(&format!("{name}.")) && file.ends_with(".journal")
        })
        .collect();
    found.sort();
    found
}

/// Copies the key file `from` to `to` (mode 0600) with the journals beside it: the copy
/// of a run's results then resumes under its own journal, never the original's.
pub fn copy_key(from: &Path, to: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let [name, new] = [from, to].map(|k| k.file_name().unwrap().to_string_lossy().to_string());
    std::fs::copy(from, to).unwrap();
    for journal in journals(from) {
        let file = journal.file_name().unwrap().to_string_lossy().to_string();
        let copy = to.with_file_name(file.replacen(&name, &new, 1));
        std::fs::copy(&journal, &copy).unwrap();
    }
    for file in std::iter::once(to.to_path_buf()).chain(journals(to)) {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

/// Cuts the journal beside `key` that says the matches `ids` ended before the first of
/// those lines, as a kill while they played leaves it (the matches that ended after are
/// then found in the results and noted again by the resume). A journal must say each
/// ended: a keyed run notes every match it plays.
pub fn cut_journal(key: &Path, ids: &[&str]) {
    let ends = |text: &str| -> Option<usize> {
        let at = ids.iter().map(|id| {
            let line = format!("end {id} ");
            text.match_indices(&line)
                .map(|(at, _)| at)
                .find(|&at| at == 0 || text.as_bytes()[at - 1] == b'\n')
        });
        at.collect::<Option<Vec<usize>>>()?.into_iter().min()
    };
    let cut = journals(key).into_iter().find_map(|journal| {
        let at = ends(&std::fs::read_to_string(&journal).unwrap())?;
        Some((journal, at))
    });
    let (journal, at) = cut.unwrap_or_else(|| {
        panic!(
            "no journal beside {} says matches {ids:?} ended: {:?}",
            key.display(),
            journals(key)
        )
    });
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(journal)
        .unwrap();
    file.set_len(at as u64).unwrap();
}

fn read(path: &Path, keep: impl Fn(&str) -> bool) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .zip(r.unwrap().iter())
                .filter(|(h, _)| keep(h))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}
