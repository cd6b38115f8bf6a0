//! A tournament's `index.html` and what it links to, for any game (the game only as a
//! [`Game`]: its replay pages and where their faults are), two or three seats, a run,
//! a resumed run or shards merged:
//!
//! - `index.html` leads with the leaderboard (each champion linked to its page), then the
//!   pairwise matrix, the points by seat and every match: replay link first, the champions,
//!   scores, points, faults linked to the faulty step of the replay, links to the record and
//!   the stderr files; sortable by any column and filtered by a name (`assets/index.js`);
//! - `champions/<name>.html`, one page per champion: its leaderboard row, its matches and
//!   results, its faults (each linked to the faulty step), its stderr files;
//! - each match's `replay.html`, written from its record (never kept from the folder), its
//!   `<nav id="match-nav">` holding links back to the index and to the previous and next
//!   match (rewritten when they change, `nav.rs`).
//!
//! The page is made of what the CSV files say (read by their header names) and the files
//! found beside them: `matches/<id>/` in the tournament directory or in its shards'.

mod champion_page;
mod columns;
mod index_page;
mod nav;
pub(crate) mod pages;
pub mod tables;

use crate::games::{FaultStep, Game};
use anyhow::Context;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tables::{canonical, link, Match, Table};

/// Where a tournament's files are, beyond its own directory.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Directories holding `matches/<id>/` and `check/` (its shards', for merged results),
    /// searched after the tournament's own directory.
    pub roots: Vec<PathBuf>,
    /// The champions in the order of the pre-run check's `check/<i>.stderr`, when known.
    pub check_order: Option<Vec<String>>,
}

/// A match and what the pages show of its files.
pub struct Entry<'a> {
    pub m: &'a Match,
    /// Its directory, linked from the tournament directory (`matches/5`).
    pub href: Option<String>,
    /// Its faults with their steps (only for matches with a fault).
    pub faults: Vec<FaultStep>,
    /// Per seat, the size of its `seat<N>.stderr`, if the file is there.
    pub stderr: Vec<Option<u64>>,
    /// Why its replay page could not be written, if it could not.
    pub replay_error: Option<String>,
}

/// Writes `index.html`, the champions' pages and every match's replay page (missing ones
/// made from the record; the links of existing ones brought up to date) for the
/// tournament directory `dir`.
pub fn write(dir: &Path, game: &dyn Game, layout: &Layout) -> anyhow::Result<()> {
    let base = canonical(dir);
    let read = |file: &str| Table::read(&base.join(file));
    let (leaderboard, pairwise, seats, matches) = (
        read("leaderboard.csv")?,
        read("pairwise.csv")?,
        read("seats.csv")?,
        read("matches.csv")?,
    );
    anyhow::ensure!(
        leaderboard.is_some() || pairwise.is_some() || matches.is_some(),
        "{} holds none of leaderboard.csv, pairwise.csv, matches.csv: write the results first \
         (referee tournament, or referee merge)",
        dir.display()
    );
    let mut roots = vec![base.clone()];
    for root in &layout.roots {
        let root = canonical(root);
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    let mut list = matches
        .as_ref()
        .map(|t| tables::matches(t, &roots))
        .unwrap_or_default();
    list.sort_by_key(|m| m.id);
    let mut entries: Vec<Entry> = list.iter().map(|m| entry(m, &base)).collect();
    write_replays(&base, game, &mut entries);
    let names = champions(leaderboard.as_ref(), &list);
    let pages: HashMap<String, String> = names
        .iter()
        .zip(file_names(&names))
        .map(|(n, f)| (n.clone(), format!("champions/{f}")))
        .collect();
    let title = base
        .file_name()
        .map_or_else(|| "tournament".into(), |n| n.to_string_lossy().into_owned());
    if !names.is_empty() {
        let folder = base.join("champions");
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    for name in &names {
        let check = check_stderr(layout, &roots, name).map(|p| link(&base, &p));
        let html = champion_page::render(&champion_page::Champion {
            name,
            tournament: &title,
            game,
            leaderboard: leaderboard.as_ref(),
            entries: &entries,
            pages: &pages,
            check: check.as_deref(),
        })?;
        let path = base.join(&pages[name]);
        crate::store::write_atomic(&path, html.as_bytes())?;
    }
    let html = index_page::render(&index_page::Index {
        title: &title,
        game,
        leaderboard: leaderboard.as_ref(),
        pairwise: pairwise.as_ref(),
        seats: seats.as_ref(),
        entries: &entries,
        pages: &pages,
    })?;
    let path = base.join("index.html");
    crate::store::write_atomic(&path, html.as_bytes())
}

/// What the pages show of match `m`'s files (its faults come with its replay page).
fn entry<'a>(m: &'a Match, base: &Path) -> Entry<'a> {
    let dir = m.dir.as_deref().map(canonical);
    let stderr = (0..m.seats.len())
        .map(|s| {
            let file = dir.as_ref()?.join(format!("seat{s}.stderr"));
            std::fs::metadata(file).ok().map(|meta| meta.len())
        })
        .collect();
    Entry {
        m,
        href: dir.as_deref().map(|d| link(base, d)),
        faults: Vec::new(),
        stderr,
        replay_error: None,
    }
}

/// Writes each match's replay page, made from its record (one already there is replaced),
/// with its links to the index and its neighbours; a page that cannot be made is noted in
/// its entry. Each match's faults with their steps come from the game (its record).
/// The pages are made on every core (each match's own files only); what each gives back
/// is put in its entry in the matches' order, so the output does not depend on which
/// finished first.
fn write_replays(base: &Path, game: &dyn Game, entries: &mut [Entry]) {
    use rayon::prelude::*;
    let with: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].href.is_some())
        .collect();
    let index = base.join("index.html");
    let shared: &[Entry] = entries;
    let made: Vec<(Vec<FaultStep>, Option<String>)> = with
        .par_iter()
        .enumerate()
        .map(|(k, &i)| replay(base, &index, game, shared, &with, k, i))
        .collect();
    for (&i, (faults, error)) in with.iter().zip(made) {
        entries[i].faults = faults;
        entries[i].replay_error = error;
    }
}

/// The replay page of `entries[with[k]]` (the `k`-th match with a directory), written;
/// its faults with their steps and, if the page could not be written, why.
fn replay(
    base: &Path,
    index: &Path,
    game: &dyn Game,
    entries: &[Entry],
    with: &[usize],
    k: usize,
    i: usize,
) -> (Vec<FaultStep>, Option<String>) {
    let dir = base.join(entries[i].href.as_deref().unwrap_or_default());
    let dir = canonical(&dir);
    let neighbour = |j: Option<&usize>| {
        j.map(|&j| {
            let other = canonical(&base.join(entries[j].href.as_deref().unwrap_or_default()));
            (
                entries[j].m.id,
                format!("{}/replay.html", link(&dir, &other)),
            )
        })
    };
    let place = nav::Place {
        index: &link(&dir, index),
        id: entries[i].m.id,
        prev: neighbour(k.checked_sub(1).and_then(|p| with.get(p))),
        next: neighbour(with.get(k + 1)),
        position: k + 1,
        count: with.len(),
    };
    // Always made again from the record, never kept from the folder: a page found
    // there may have been put there by someone who can write the results.
    let path = dir.join("replay.html");
    let page = game.replay_page(&dir).map_err(|e| format!("{e:#}"));
    let faults = match entries[i].m.has_fault() {
        false => Vec::new(),
        true => game.fault_steps(&dir).unwrap_or_default(),
    };
    let links = nav::links(&place);
    let result = page.and_then(|page| {
        let page = nav::splice(&page, &links).unwrap_or(page);
        crate::store::write_atomic(&path, page.as_bytes()).map_err(|e| format!("{e:#}"))
    });
    (faults, result.err())
}

/// The champions: the leaderboard's in its order, then any other of the matches.
fn champions(leaderboard: Option<&Table>, matches: &[Match]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if let Some(t) = leaderboard {
        for row in &t.rows {
            let name = t.cell(row, "champion");
            if !name.is_empty() && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    for m in matches {
        for s in &m.seats {
            if !s.champion.is_empty() && !names.contains(&s.champion) {
                names.push(s.champion.clone());
            }
        }
    }
    names
}

/// A file name for each champion's page: its name where it is made of letters, digits,
/// `-`, `_` and `.` (and does not start with `.`), otherwise those characters kept, the
/// others as `_`, and a hash of the name; unique in the list.
pub fn file_names(names: &[String]) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    names
        .iter()
        .map(|name| {
            let safe: String = name
                .chars()
                .take(60)
                .enumerate()
                .map(|(i, c)| match c {
                    'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' => c,
                    '.' if i > 0 => c,
                    _ => '_',
                })
                .collect();
            let mut file = if safe == *name && !name.is_empty() {
                safe
            } else {
                format!("{safe}-{:08x}", fnv(name))
            };
            let stem = file.clone();
            let mut n = 2;
            while !taken.insert(file.to_lowercase()) {
                file = format!("{stem}-{n}");
                n += 1;
            }
            format!("{file}.html")
        })
        .collect()
}

/// FNV-1a, 32 bits: a short stable hash for file names.
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The pre-run check's stderr file of `name`, when the check's order is known.
fn check_stderr(layout: &Layout, roots: &[PathBuf], name: &str) -> Option<PathBuf> {
    let i = layout
        .check_order
        .as_ref()?
        .iter()
        .position(|n| n == name)?;
    roots
        .iter()
        .map(|r| r.join("check").join(format!("{i}.stderr")))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_names_are_the_champion_s_when_safe_and_unique_otherwise() {
        let names: Vec<String> = ["greedy", "a b", "a_b", "<x>", ".hidden", "Greedy", ""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let files = file_names(&names);
        assert_eq!(files[0], "greedy.html");
        assert_eq!(files[1], format!("a_b-{:08x}.html", fnv("a b")));
        assert_eq!(files[2], "a_b.html");
        assert_eq!(files[3], format!("_x_-{:08x}.html", fnv("<x>")));
        assert_eq!(files[4], format!("_hidden-{:08x}.html", fnv(".hidden")));
        // Case-insensitive file systems: `Greedy` is not `greedy`'s file.
        assert_eq!(files[5], "Greedy-2.html");
        assert_eq!(files[6], format!("-{:08x}.html", fnv("")));
        assert_eq!(fnv(""), 0x811c_9dc5);
        assert_eq!(fnv("a"), 0xe40c_292c);
    }
}
