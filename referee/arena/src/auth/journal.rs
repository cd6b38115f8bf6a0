//! The journal of a run's matches, kept beside its key file (out of the results folder, out
//! of reach of whoever writes the results): one line a match started and one a match
//! finished, each MAC'd under the run's key and chained to the line before it. A seal proves
//! what a match folder holds; the journal proves which matches were played, so that a match
//! whose folder and row were deleted (to have a lost match played again for another result,
//! a re-roll) is refused by `--resume` and `merge`, naming it, rather than played again.
//!
//! One journal per run and shard: `<key file>.<16 hexadecimal digits>.journal`, the digits a
//! MAC of the shard under the run's key (which binds the run's kind, name and seed), so that
//! the shards of one tournament sharing a key keep apart journals and a run moved to another
//! folder finds its own.

use super::RunKey;
use anyhow::Context;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The longest line a journal holds: `start`, an id, a MAC and spaces.
const LINE: usize = 128;

/// What a journal line says of its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Its champions are about to start.
    Start,
    /// It was played: its record and seal are written, its row comes next.
    End,
}

impl Step {
    fn word(self) -> &'static str {
        match self {
            Step::Start => "start",
            Step::End => "end",
        }
    }
}

/// What a journal says was played, read back and verified.
#[derive(Debug, Default)]
pub struct Played {
    /// The matches it says finished.
    pub finished: BTreeSet<u64>,
    /// The matches started more often than they finished (abandoned at a stop, or failed),
    /// with how many times more.
    pub abandoned: BTreeMap<u64, u32>,
}

/// A run's journal open for appending (shared by the run's worker threads).
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    key: RunKey,
    /// The file, and the MAC of its last line (empty before the first).
    tail: Mutex<(File, String)>,
}

impl Journal {
    /// Where the journal of the run of `key`, shard `part` (`all`, `shard-1-of-2`), is kept
    /// when its key file is `key_file`.
    pub fn beside(key_file: &Path, key: &RunKey, part: &str) -> PathBuf {
        let digits = key.tag(&[b"journal name", part.as_bytes()]);
        let mut name = key_file.as_os_str().to_owned();
        name.push(format!(".{}.journal", &digits[..16]));
        PathBuf::from(name)
    }

    /// A new run's journal at `path`, empty (one of an earlier run of the same name, seed
    /// and key, whose results were removed to start it again, is replaced).
    pub fn create(path: &Path, key: &RunKey) -> anyhow::Result<Journal> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(path)
            .with_context(|| cannot_write(path))?;
        Ok(Journal::of(path, key, file, String::new()))
    }

    /// The journal at `path` of a run to resume, verified, open for appending, with what it
    /// says was played; `None` if there is none (a run started before journals). A last line
    /// cut short (the referee killed while writing it) is dropped.
    pub fn resume(path: &Path, key: &RunKey) -> anyhow::Result<Option<(Journal, Played)>> {
        let Some((played, last, complete)) = read(path, key)? else {
            return Ok(None);
        };
        let file = options().open(path).with_context(|| cannot_write(path))?;
        file.set_len(complete).with_context(|| cannot_write(path))?;
        Ok(Some((Journal::of(path, key, file, last), played)))
    }

    fn of(path: &Path, key: &RunKey, file: File, last: String) -> Journal {
        Journal {
            path: path.to_path_buf(),
            key: key.clone(),
            tail: Mutex::new((file, last)),
        }
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends that match `id` took `step`.
    pub fn note(&self, step: Step, id: u64) -> anyhow::Result<()> {
        let mut tail = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        let tag = line_tag(&self.key, &tail.1, step, id);
        let line = format!("{} {id} {tag}\n", step.word());
        tail.0
            .write_all(line.as_bytes())
            .with_context(|| cannot_write(&self.path))?;
        tail.1 = tag;
        Ok(())
    }
}

/// Reads and verifies the journal at `path` under `key`: what it says was played, the MAC of
/// its last complete line and the length of its complete lines; `None` if there is none.
pub fn read(path: &Path, key: &RunKey) -> anyhow::Result<Option<(Played, String, u64)>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)
    {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        other => other.with_context(|| format!("cannot read the journal {}", path.display()))?,
    };
    let mut reader = BufReader::new(file);
    let (mut played, mut last, mut complete) = (Played::default(), String::new(), 0u64);
    for number in 1.. {
        let mut line = Vec::new();
        (&mut reader)
            .take(LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read the journal {}", path.display()))?;
        if line.last() != Some(&b'\n') {
            // The end, or a line cut short by a kill: what follows the last newline counts
            // for nothing (unless it is too long to be a line the referee wrote).
            if line.len() <= LINE {
                break;
            }
        }
        let parsed = std::str::from_utf8(&line)
            .ok()
            .and_then(|l| parse(l.trim_end_matches('\n')));
        let Some((step, id, tag)) = parsed.filter(|(step, id, tag)| {
            super::parse_hex(tag).is_some() && line_tag(key, &last, *step, *id) == *tag
        }) else {
            anyhow::bail!(
                "the journal {} line {number} is not one the referee wrote after the line \
                 before it for this run (edited, cut, or another run's): it says which \
                 matches were played, so the run cannot be trusted to go on; restore it from \
                 a backup, or start the run again",
                path.display()
            );
        };
        match step {
            Step::Start => *played.abandoned.entry(id).or_default() += 1,
            Step::End => {
                if let Some(n) = played.abandoned.get_mut(&id) {
                    *n -= 1;
                    if *n == 0 {
                        played.abandoned.remove(&id);
                    }
                }
                played.finished.insert(id);
            }
        }
        last = tag.to_string();
        complete += line.len() as u64;
    }
    Ok(Some((played, last, complete)))
}

fn parse(line: &str) -> Option<(Step, u64, &str)> {
    let mut words = line.split(' ');
    let step = match words.next()? {
        "start" => Step::Start,
        "end" => Step::End,
        _ => return None,
    };
    let id = words.next()?.parse().ok()?;
    let tag = words.next()?;
    words.next().is_none().then_some((step, id, tag))
}

/// The MAC of a line saying that match `id` took `step`, after the line whose MAC is `last`.
fn line_tag(key: &RunKey, last: &str, step: Step, id: u64) -> String {
    key.tag(&[
        b"journal",
        last.as_bytes(),
        step.word().as_bytes(),
        &id.to_le_bytes(),
    ])
}

/// Opening for appending, created if missing (the owner's alone), never through a link.
fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW);
    options
}

fn cannot_write(path: &Path) -> String {
    format!(
        "cannot write the journal of the matches played {} (it is kept beside the run's key, \
         out of reach of whoever writes the results: the referee must be able to write that \
         folder)",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::MasterKey;

    fn key() -> RunKey {
        RunKey::of(&MasterKey::random(), "tournament", "t", 1)
    }

    /// What is noted reads back; a match started twice and finished once was abandoned
    /// once; a line cut short by a kill is dropped and the journal goes on after the last
    /// complete one.
    #[test]
    fn a_journal_reads_back_what_was_noted_and_drops_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let (key, path) = (key(), dir.path().join("j"));
        let journal = Journal::create(&path, &key).unwrap();
        for (step, id) in [(Step::Start, 3), (Step::Start, 4), (Step::End, 4)] {
            journal.note(step, id).unwrap();
        }
        journal.note(Step::Start, 3).unwrap();
        drop(journal);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"end 3 ab").unwrap();
        let (journal, played) = Journal::resume(&path, &key).unwrap().unwrap();
        assert_eq!(played.finished, BTreeSet::from([4]));
        assert_eq!(played.abandoned, BTreeMap::from([(3, 2)]));
        journal.note(Step::End, 3).unwrap();
        let (played, _, _) = read(&path, &key).unwrap().unwrap();
        assert_eq!(played.finished, BTreeSet::from([3, 4]));
        assert_eq!(played.abandoned, BTreeMap::from([(3, 1)]));
    }

    /// A line removed, edited or moved, or the journal of another run, is refused, naming
    /// its line; a missing journal is none.
    #[test]
    fn a_journal_edited_or_of_another_run_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (key, path) = (key(), dir.path().join("j"));
        let journal = Journal::create(&path, &key).unwrap();
        for id in 0..3 {
            journal.note(Step::Start, id).unwrap();
            journal.note(Step::End, id).unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let refused = |text: String, line: usize, key: &RunKey| {
            std::fs::write(&path, text).unwrap();
            let err = format!("{:#}", read(&path, key).unwrap_err());
            assert!(err.contains(&format!("line {line} is not one")), "{err}");
        };
        let without = |skip: usize| {
            let kept: Vec<&str> = (0..lines.len())
                .filter(|&i| i != skip)
                .map(|i| lines[i])
                .collect();
            kept.join("\n") + "\n"
        };
        refused(without(3), 4, &key);
        refused(text.replacen("end 1", "end 2", 1), 4, &key);
        refused(text.clone(), 1, &self::key());
        assert!(read(&dir.path().join("none"), &key).unwrap().is_none());
        assert!(Journal::resume(&dir.path().join("none"), &key)
            .unwrap()
            .is_none());
    }

    /// Shards keep apart journals beside their key; runs of other names, seeds or keys too.
    #[test]
    fn each_run_and_shard_has_its_own_journal() {
        let master = MasterKey::random();
        let file = Path::new("/keys/run.key");
        let of = |name: &str, seed: u64, part: &str| {
            Journal::beside(file, &RunKey::of(&master, "tournament", name, seed), part)
        };
        let all = of("t", 1, "all");
        assert!(all.to_string_lossy().starts_with("/keys/run.key."));
        assert!(all.to_string_lossy().ends_with(".journal"));
        for other in [
            of("t", 1, "shard-1-of-2"),
            of("u", 1, "all"),
            of("t", 2, "all"),
        ] {
            assert_ne!(other, all);
        }
        assert_eq!(of("t", 1, "all"), all);
    }
}
