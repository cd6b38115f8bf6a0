//! A run's copies of its champions: each champion's files copied once at the start of a
//! tournament or gauntlet into `<run>/snapshots/<sha256>/` (content-addressed, files
//! read-only, shared by every seat and match that plays that champion), what every match
//! and every resume plays, and the check before each start that tells the operator's
//! trouble (a snapshot gone or unreadable) from a champion's own.
//!
//! Never copied: the referee's results (a folder named `results`, or holding
//! `tournament.json`, `gauntlet.json`, `record.json` or `matches.csv`: their seeds are
//! hidden setups), links that leave the folder, FIFOs, sockets and devices; each is named
//! once. A link to a file inside the folder is copied as that file, a link to a folder
//! inside it is kept as a relative link. The copy is bounded ([`MAX_FILES`],
//! [`MAX_BYTES`]).
//!
//! The referee copies as root, from a folder its contestant may change while it reads: every
//! folder is listed and every file opened beneath the champion's folder, opened once
//! (`openat2` with `RESOLVE_BENEATH`), so that a folder swapped for a link to elsewhere
//! during the copy is refused by the kernel, never followed.

use crate::roster::ChampionSpec;
use crate::untrusted::printable;
use anyhow::{bail, Context};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

/// The folder of a run that holds its snapshots.
pub const DIR: &str = "snapshots";

/// Most entries copied for one champion (a folder beyond that is refused).
pub const MAX_FILES: usize = crate::roster::MAX_IDENTITY_FILES;

/// Most bytes copied for one champion (a folder beyond that is refused).
pub const MAX_BYTES: u64 = 512 << 20;

/// Files whose presence makes a folder one of the referee's results.
const RESULTS_FILES: &[&str] = &[
    "tournament.json",
    "gauntlet.json",
    "record.json",
    "matches.csv",
];

/// Where a champion of a run plays from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// `<run>/snapshots/<sha256>`: what its jail shows.
    pub root: PathBuf,
    /// Its program relative to `<run>/snapshots` (`<sha256>/champion`), as stored.
    pub relative: String,
    /// The program it was taken from (the operator's files).
    pub origin: PathBuf,
}

/// The folder a champion's `program` runs from (a program named `champion`), or `None`
/// for a single-file champion: what its jail shows it.
fn folder_of(program: &Path) -> Option<&Path> {
    program
        .parent()
        .filter(|_| program.file_name().is_some_and(|n| n == "champion"))
}

/// What one entry of a snapshot is.
enum Item {
    Dir,
    /// A file to copy from `source`.
    File {
        source: PathBuf,
        exec: bool,
    },
    /// A link to a folder inside the champion's, as a relative target.
    Link(PathBuf),
}

/// What a snapshot holds, in path order, and what was left out (each said once).
struct Plan {
    entries: Vec<(PathBuf, Item)>,
    left_out: Vec<String>,
    /// The champion's folder, opened once, and its canonical path (`None`: a single file).
    root: Option<(std::os::fd::OwnedFd, PathBuf)>,
}

/// Opens `rel` (relative to `root`, the champion's folder) without leaving it, whatever
/// links or renamed folders lie on the way, and without following a last link or waiting on
/// a FIFO.
fn open_beneath(
    root: &std::os::fd::OwnedFd,
    rel: &Path,
    folder: bool,
) -> std::io::Result<std::fs::File> {
    use nix::fcntl::{OFlag, OpenHow, ResolveFlag};
    let mut flags = OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK;
    if folder {
        flags |= OFlag::O_DIRECTORY;
    }
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    let how = OpenHow::new()
        .flags(flags)
        .resolve(ResolveFlag::RESOLVE_BENEATH | ResolveFlag::RESOLVE_NO_MAGICLINKS);
    let fd = nix::fcntl::openat2(root, rel, how).map_err(std::io::Error::from)?;
    Ok(std::fs::File::from(fd))
}

/// The entries of the folder `rel` beneath `root`, listed through a descriptor of it.
fn list_beneath(root: &std::os::fd::OwnedFd, rel: &Path) -> std::io::Result<std::fs::ReadDir> {
    use std::os::fd::AsRawFd;
    let dir = open_beneath(root, rel, true)?;
    // The descriptor's own entry in /proc names the folder opened, not a path again.
    let listed = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()));
    drop(dir);
    listed
}

/// The entries of the champion whose program is `program`: its folder's, or its file.
fn plan(program: &Path, keep_out: Option<&Path>) -> anyhow::Result<Plan> {
    let Some(root) = folder_of(program) else {
        let name = program.file_name().context("a program has a file name")?;
        let meta = std::fs::metadata(program)
            .with_context(|| format!("cannot read {}", program.display()))?;
        let exec = meta.permissions().mode() & 0o111 != 0;
        return Ok(Plan {
            entries: vec![(
                PathBuf::from(name),
                Item::File {
                    source: program.to_path_buf(),
                    exec,
                },
            )],
            left_out: Vec::new(),
            root: None,
        });
    };
    let canonical = root
        .canonicalize()
        .with_context(|| format!("cannot read {}", root.display()))?;
    let root_fd: std::os::fd::OwnedFd = std::fs::File::open(&canonical)
        .with_context(|| format!("cannot read {}", root.display()))?
        .into();
    let keep_out = keep_out.and_then(|p| p.canonicalize().ok());
    let mut plan = Plan {
        entries: Vec::new(),
        left_out: Vec::new(),
        root: None,
    };
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        for entry in list_beneath(&root_fd, &rel)
            .with_context(|| format!("cannot list {}", dir.display()))?
        {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            let rel = rel.join(entry.file_name());
            let path = root.join(&rel);
            let meta = std::fs::symlink_metadata(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let shown = rel.display().to_string();
            if meta.is_dir() {
                let results = entry.file_name() == "results"
                    || RESULTS_FILES.iter().any(|f| path.join(f).exists())
                    || keep_out
                        .as_deref()
                        .is_some_and(|k| path.canonicalize().is_ok_and(|p| p == k));
                if results {
                    plan.left_out.push(format!(
                        "{shown}/ (the referee's results: their seeds are hidden setups)"
                    ));
                    continue;
                }
                stack.push(rel.clone());
                plan.entries.push((rel, Item::Dir));
            } else if meta.file_type().is_symlink() {
                match std::fs::canonicalize(&path) {
                    Ok(target) if target.starts_with(&canonical) => {
                        let inside = target.strip_prefix(&canonical).unwrap_or(&target);
                        let target_meta = std::fs::metadata(&target)
                            .with_context(|| format!("cannot read {}", target.display()))?;
                        if target_meta.is_dir() {
                            let up = rel.components().count().saturating_sub(1);
                            let mut link: PathBuf = std::iter::repeat_n(Component::ParentDir, up)
                                .map(|c| c.as_os_str())
                                .collect();
                            link.push(inside);
                            if link.as_os_str().is_empty() {
                                link.push(".");
                            }
                            plan.entries.push((rel, Item::Link(link)));
                        } else if target_meta.is_file() {
                            let exec = target_meta.permissions().mode() & 0o111 != 0;
                            plan.entries.push((
                                rel,
                                Item::File {
                                    source: target,
                                    exec,
                                },
                            ));
                        } else {
                            plan.left_out
                                .push(format!("{shown} (a link to a FIFO, socket or device)"));
                        }
                    }
                    _ => {
                        let target = std::fs::read_link(&path).unwrap_or_default();
                        plan.left_out.push(format!(
                            "{shown} -> {} (a link that leaves the folder, or leads nowhere)",
                            target.display()
                        ));
                    }
                }
            } else if meta.is_file() {
                let exec = meta.permissions().mode() & 0o111 != 0;
                // Its path under the canonical folder: read beneath it.
                let source = canonical.join(&rel);
                plan.entries.push((rel, Item::File { source, exec }));
            } else {
                plan.left_out
                    .push(format!("{shown} (a FIFO, socket or device)"));
            }
            if plan.entries.len() > MAX_FILES {
                bail!(
                    "{} holds more than {MAX_FILES} files: a champion's folder holds what it \
                     runs from; move the rest out of it",
                    root.display()
                );
            }
        }
    }
    plan.entries.sort_by(|a, b| a.0.cmp(&b.0));
    plan.root = Some((root_fd, canonical));
    Ok(plan)
}

/// Feeds `plan` to a hash, copying each entry under `into` when given, and returns the
/// hash (hex). Every byte hashed is a byte copied: the snapshot is what its name says.
fn hash_and_copy(plan: &Plan, into: Option<&Path>) -> anyhow::Result<String> {
    let mut hasher = Sha256::new();
    let mut bytes_left = MAX_BYTES;
    for (rel, item) in &plan.entries {
        hasher.update(rel.as_os_str().as_encoded_bytes());
        hasher.update(b"\0");
        let dest = into.map(|d| d.join(rel));
        match item {
            Item::Dir => {
                hasher.update(b"d");
                if let Some(dest) = &dest {
                    std::fs::create_dir(dest)
                        .with_context(|| format!("cannot create {}", dest.display()))?;
                    set_mode(dest, 0o755)?;
                }
            }
            Item::Link(target) => {
                hasher.update(b"l");
                hasher.update(target.as_os_str().as_encoded_bytes());
                if let Some(dest) = &dest {
                    std::os::unix::fs::symlink(target, dest)
                        .with_context(|| format!("cannot create {}", dest.display()))?;
                }
            }
            Item::File { source, exec } => {
                let file = match &plan.root {
                    Some((root, canonical)) => {
                        let inside = source.strip_prefix(canonical).unwrap_or(source);
                        open_beneath(root, inside, false)
                    }
                    None => std::fs::OpenOptions::new()
                        .read(true)
                        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
                        .open(source),
                }
                .with_context(|| format!("cannot read {}", source.display()))?;
                anyhow::ensure!(
                    file.metadata()?.is_file(),
                    "{} is no longer a regular file",
                    source.display()
                );
                let mut content = Vec::new();
                file.take(bytes_left + 1)
                    .read_to_end(&mut content)
                    .with_context(|| format!("cannot read {}", source.display()))?;
                if content.len() as u64 > bytes_left {
                    bail!(
                        "the champion's files are larger than {} MiB: a champion's folder \
                         holds what it runs from; move the rest (build leftovers, data) out \
                         of it",
                        MAX_BYTES >> 20
                    );
                }
                bytes_left -= content.len() as u64;
                hasher.update(if *exec { b"x" } else { b"f" });
                hasher.update((content.len() as u64).to_le_bytes());
                hasher.update(&content);
                if let Some(dest) = &dest {
                    std::fs::write(dest, &content)
                        .with_context(|| format!("cannot write {}", dest.display()))?;
                    set_mode(dest, if *exec { 0o555 } else { 0o444 })?;
                }
            }
        }
        hasher.update(b"\0");
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn set_mode(path: &Path, mode: u32) -> anyhow::Result<()> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", path.display()))
}

/// The hash of the files the champion whose program is `program` runs from, as a
/// snapshot of them would be named (nothing is copied).
pub fn hash_of(program: &Path) -> anyhow::Result<String> {
    hash_and_copy(&plan(program, None)?, None)
}

/// The hash of the installed kits (`/kits/<language>` in a jail): with the champions'
/// snapshots, the identity of what a run plays, recorded once per run.
pub fn kits_hash() -> anyhow::Result<String> {
    let mut hasher = Sha256::new();
    for (language, dir) in crate::sandbox::bundled_kits_by_language() {
        hasher.update(language.as_bytes());
        hasher.update(b"\0");
        // A kit is a folder: hashed as a folder champion's (its `champion` need not exist).
        let tree = hash_and_copy(&plan(&dir.join("champion"), None)?, None)
            .with_context(|| format!("the installed kit {}", dir.display()))?;
        hasher.update(tree.as_bytes());
    }
    Ok(hex(&hasher.finalize()))
}

/// Copies the files of `champion` (a program, not a built-in) into `<run>/snapshots/`
/// once, and makes it play from there: its program, path, SHA-256 and identity become
/// the snapshot's. Says on stderr what was left out. Nothing of `keep_out` (the run's own
/// folder, if inside the champion's) is copied.
pub fn take(champion: &mut ChampionSpec, run: &Path) -> anyhow::Result<()> {
    let origin = champion.program.clone();
    let plan = plan(&origin, Some(run))
        .with_context(|| format!("champion `{}`: cannot snapshot its files", champion.name))?;
    for left in &plan.left_out {
        eprintln!(
            "champion `{}`: left out of its snapshot: {}",
            printable(&champion.name),
            printable(left)
        );
    }
    let (hash, root) = store(&plan, run)
        .with_context(|| format!("champion `{}`: cannot snapshot its files", champion.name))?;
    let program_name = origin.file_name().context("a program has a file name")?;
    let relative = format!("{hash}/{}", program_name.to_string_lossy());
    play_from(
        champion,
        Snapshot {
            root,
            relative,
            origin,
        },
        hash,
    )
}

/// Copies what `plan` holds into `<run>/snapshots/<hash>` (unless that snapshot is there
/// already: the same files, shared); returns the hash and that folder.
fn store(plan: &Plan, run: &Path) -> anyhow::Result<(String, PathBuf)> {
    let dir = run.join(DIR);
    // Opened through no link (`run_files`), and then used through its descriptor: a link
    // planted in its place by a writer of the results would have the copy (and its modes)
    // land elsewhere.
    std::fs::create_dir_all(run).with_context(|| format!("cannot create {}", run.display()))?;
    let folder = crate::run_files::Folder::of_file(&dir).and_then(|(run, _)| run.child(DIR))?;
    let pinned = folder.pinned();
    set_mode(&pinned, 0o755)?;
    let temp = tempfile::Builder::new()
        .prefix(".new-")
        .tempdir_in(&pinned)
        .with_context(|| format!("cannot create a folder in {}", dir.display()))?;
    let hash = hash_and_copy(plan, Some(temp.path()))?;
    if pinned.join(&hash).exists() {
        drop(temp);
    } else {
        set_mode(temp.path(), 0o755)?;
        std::fs::rename(temp.keep(), pinned.join(&hash))
            .with_context(|| format!("cannot create {}", dir.join(&hash).display()))?;
    }
    Ok((hash.clone(), dir.join(hash)))
}

/// Makes `champion` play from `snapshot`, whose hash is `hash`. Its records name the
/// program it was taken from (as a match played from those files names it, so that the
/// reproduce command's record is the same) with the SHA-256 of the copy that ran.
fn play_from(champion: &mut ChampionSpec, snapshot: Snapshot, hash: String) -> anyhow::Result<()> {
    let program = snapshot
        .root
        .parent()
        .unwrap_or(&snapshot.root)
        .join(&snapshot.relative);
    champion.sha256 = crate::roster::sha256_of(&program)?;
    champion.path = snapshot.origin.display().to_string();
    champion.program = program;
    champion.identity = hash;
    champion.snapshot = Some(snapshot);
    Ok(())
}

/// The champion `name` (given as `given`, taken from `origin`) of a run in `run` that
/// stored its snapshot as `relative` (`<sha256>/<program>`): played from that snapshot,
/// checked to be whole. When its own files changed since (or are gone), says so once.
pub fn resume(
    run: &Path,
    relative: &str,
    name: &str,
    given: &str,
    origin: &str,
) -> anyhow::Result<ChampionSpec> {
    let (hash, program_name) = relative
        .split_once('/')
        .filter(|(h, p)| h.len() == 64 && !p.is_empty() && !p.contains('/'))
        .with_context(|| format!("`{}` is not a snapshot's program", printable(relative)))?;
    let root = run.join(DIR).join(hash);
    let program = root.join(program_name);
    let now = hash_of(Path::new(origin));
    if !root.exists() && now.as_deref().ok() == Some(hash) {
        // Gone (the run's folder copied without it, or deleted), but the champion's own
        // files are still the same: the same snapshot, taken again.
        store(&plan(Path::new(origin), Some(run))?, run)?;
        eprintln!(
            "champion `{}`: its snapshot {} was missing; taken again from its files, which \
             are still those of the run's start",
            printable(name),
            root.display()
        );
    }
    let found = hash_of(&program).with_context(|| {
        format!(
            "the snapshot of champion `{}` ({}) cannot be read",
            printable(name),
            root.display()
        )
    })?;
    anyhow::ensure!(
        found == hash,
        "the snapshot of champion `{}` ({}) was changed since the run started (its files \
         hash to {found}): restore it, or start a new run under another name",
        printable(name),
        root.display()
    );
    if now.as_deref().ok() != Some(hash) {
        eprintln!(
            "champion `{}`: its files ({}) {} since the run started; the run goes on with \
             the snapshot taken then ({}); to play the new version, start a new run under \
             another name",
            printable(name),
            printable(given),
            if now.is_err() { "are gone" } else { "changed" },
            root.display()
        );
    }
    let mut champion = ChampionSpec {
        name: name.to_string(),
        given: given.to_string(),
        program: PathBuf::new(),
        args: Vec::new(),
        path: String::new(),
        sha256: String::new(),
        identity: String::new(),
        snapshot: None,
    };
    play_from(
        &mut champion,
        Snapshot {
            root,
            relative: relative.to_string(),
            origin: PathBuf::from(origin),
        },
        hash.to_string(),
    )?;
    Ok(champion)
}

/// Whether `champion` can still be started from its snapshot, if it has one: the snapshot
/// is there, every folder of it readable and searchable, every file readable, its program
/// executable, by anyone (the jail's uid). An error names the snapshot and the fix: the
/// champion passed the pre-run check from these files, so this is the operator's to fix,
/// never the champion's loss.
pub fn ready(champion: &ChampionSpec) -> anyhow::Result<()> {
    let Some(snapshot) = &champion.snapshot else {
        return Ok(());
    };
    let problem = unreadable(&snapshot.root, &champion.program);
    match problem {
        None => Ok(()),
        Some(problem) => Err(operator_problem(champion, &problem)),
    }
}

/// The error of a champion of a run that cannot be started from its snapshot for a reason
/// outside it (`why`): the run stops, its match counts nothing.
pub fn operator_problem(champion: &ChampionSpec, why: &str) -> anyhow::Error {
    let root = champion
        .snapshot
        .as_ref()
        .map_or(String::new(), |s| s.root.display().to_string());
    anyhow::anyhow!(
        "champion `{}` cannot be started from its snapshot {}: {}; it passed the pre-run \
         check from these files, so this is not its fault and its match counts nothing: fix \
         it (a snapshot made unreadable: `chmod -R a+rX {}`; one that is gone is taken \
         again by the resume if the champion's files are still the same, else start a new \
         run), then resume the run",
        printable(&champion.name),
        printable(&root),
        printable(why),
        printable(&root)
    )
}

/// What keeps the snapshot at `root` from being read by a jail, if anything.
fn unreadable(root: &Path, program: &Path) -> Option<String> {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let meta = match std::fs::symlink_metadata(&dir) {
            Ok(meta) => meta,
            Err(e) => return Some(format!("{}: {e}", dir.display())),
        };
        if !meta.is_dir() || meta.permissions().mode() & 0o555 != 0o555 {
            return Some(format!(
                "{} is not a folder that everyone may read (mode {:o})",
                dir.display(),
                meta.permissions().mode() & 0o7777
            ));
        }
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => return Some(format!("cannot list {}: {e}", dir.display())),
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                return Some(format!("cannot read {}", path.display()));
            };
            let mode = meta.permissions().mode();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() && mode & 0o444 != 0o444 {
                return Some(format!(
                    "{} is not readable by everyone (mode {:o})",
                    path.display(),
                    mode & 0o7777
                ));
            }
        }
    }
    match std::fs::metadata(program) {
        Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o555 == 0o555 => None,
        Ok(meta) => Some(format!(
            "its program {} is not a file everyone may run (mode {:o})",
            program.display(),
            meta.permissions().mode() & 0o7777
        )),
        Err(e) => Some(format!("its program {}: {e}", program.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn champion(program: &Path) -> ChampionSpec {
        ChampionSpec {
            name: "c".into(),
            given: program.display().to_string(),
            program: program.to_path_buf(),
            args: Vec::new(),
            path: program.display().to_string(),
            sha256: String::new(),
            identity: String::new(),
            snapshot: None,
        }
    }

    /// A folder of the champion swapped for a link to elsewhere between the listing and the
    /// copy (a contestant racing the referee, which copies as root): the copy is refused,
    /// and nothing of elsewhere is read.
    #[test]
    fn a_folder_swapped_for_a_link_during_the_copy_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("me");
        std::fs::create_dir_all(folder.join("zzz")).unwrap();
        std::fs::write(folder.join("zzz/secret"), "mine").unwrap();
        std::fs::write(folder.join("champion"), "#!/bin/sh\n").unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("secret"), "TOP SECRET").unwrap();
        let planned = plan(&folder.join("champion"), None).unwrap();
        std::fs::remove_dir_all(folder.join("zzz")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, folder.join("zzz")).unwrap();
        let into = tmp.path().join("copy");
        std::fs::create_dir(&into).unwrap();
        let err = hash_and_copy(&planned, Some(&into)).unwrap_err();
        assert!(format!("{err:#}").contains("zzz/secret"), "{err:#}");
        let copied = std::fs::read_to_string(into.join("zzz/secret")).unwrap_or_default();
        assert!(!copied.contains("SECRET"), "{copied}");
    }

    /// A folder champion's snapshot holds its files read-only, a link inside as the file
    /// it names, and none of: results, a link out, a FIFO; its name is its hash, and
    /// hashing the snapshot again gives that name.
    #[test]
    fn a_snapshot_holds_the_champion_and_nothing_else() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("me");
        std::fs::create_dir_all(folder.join("results/t")).unwrap();
        std::fs::write(folder.join("results/t/tournament.json"), "{}").unwrap();
        std::fs::create_dir_all(folder.join("old")).unwrap();
        std::fs::write(folder.join("old/matches.csv"), "").unwrap();
        std::fs::create_dir_all(folder.join("lib")).unwrap();
        std::fs::write(folder.join("lib/a.py"), "print(1)").unwrap();
        std::fs::write(folder.join("champion"), "#!/bin/sh\n").unwrap();
        set_mode(&folder.join("champion"), 0o700).unwrap();
        std::os::unix::fs::symlink("lib/a.py", folder.join("b.py")).unwrap();
        std::os::unix::fs::symlink("lib", folder.join("lib2")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", folder.join("passwd")).unwrap();
        nix::unistd::mkfifo(&folder.join("fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let run = tmp.path().join("run");
        let mut c = champion(&folder.join("champion"));
        take(&mut c, &run).unwrap();
        let snapshot = c.snapshot.clone().unwrap();
        assert_eq!(snapshot.root, run.join(DIR).join(&c.identity));
        let mut names: Vec<String> = std::fs::read_dir(&snapshot.root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["b.py", "champion", "lib", "lib2"]);
        assert_eq!(
            std::fs::read_to_string(snapshot.root.join("b.py")).unwrap(),
            "print(1)"
        );
        assert_eq!(
            std::fs::read_link(snapshot.root.join("lib2")).unwrap(),
            Path::new("lib")
        );
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&snapshot.root.join("champion")), 0o555);
        assert_eq!(mode(&snapshot.root.join("lib/a.py")), 0o444);
        assert_eq!(hash_of(&c.program).unwrap(), c.identity);
        assert_eq!(hash_of(&folder.join("champion")).unwrap(), c.identity);
        ready(&c).unwrap();
        set_mode(&snapshot.root.join("lib"), 0o700).unwrap();
        let err = ready(&c).unwrap_err().to_string();
        assert!(err.contains("not a folder that everyone may read"), "{err}");
    }

    /// A folder over the size cap is refused, naming the cap.
    #[test]
    fn a_folder_too_large_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("big");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("champion"), "x").unwrap();
        let file = std::fs::File::create(folder.join("data")).unwrap();
        file.set_len(MAX_BYTES + 1).unwrap();
        let mut c = champion(&folder.join("champion"));
        let err = format!("{:#}", take(&mut c, &tmp.path().join("run")).unwrap_err());
        assert!(err.contains("larger than 512 MiB"), "{err}");
    }
}
