//! A run's copies of its champions: each champion's files copied once at the start of a
//! tournament or gauntlet into `<run>/snapshots/<sha256>/` (content-addressed, files
//! read-only, shared by every seat and match that plays that champion), what every match
//! and every resume plays, and the check before each start that tells the operator's
//! trouble (a snapshot gone, unreadable or changed) from a champion's own.
//!
//! Never copied: the referee's results (a folder named `results`, or holding
//! `tournament.json`, `gauntlet.json`, `record.json` or `matches.csv`: their seeds are
//! hidden setups), links that leave the folder, FIFOs, sockets and devices; each is named
//! once. A link to a file inside the folder is copied as that file, a link to a folder
//! inside it is kept as a relative link. The copy is bounded ([`MAX_FILES`],
//! [`MAX_BYTES`]).
//!
//! The referee copies as root, from a folder its contestant may change while it reads: the
//! folder is opened once, by the canonical path the roster checked and through no link
//! (a folder swapped for a link to elsewhere since is refused), and everything is listed,
//! looked at, hashed and copied through that descriptor (`jail::beneath`), so what is
//! hashed is what is copied; nothing the folder's owner may not read is copied, and the
//! copied program must be the one the roster saw. Before each start the snapshot is hashed
//! again, owned by the referee's user and writable by it alone, and must still be what its
//! name says.

use crate::parts::hex;
use crate::roster::ChampionSpec;
use anyhow::{bail, Context};
use jail::beneath;
use jail::untrusted::printable;
use sha2::{Digest, Sha256};
use std::io::{Read, Seek, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use unchanged::Identity;

mod unchanged;

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
    /// Each entry's own digest when it was checked, in path order: what names the file
    /// that changed when the snapshot no longer hashes to its name.
    pub entries: Vec<(PathBuf, String)>,
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
    /// A regular file, at `inside` beneath the plan's folder (a single file: itself).
    File {
        inside: PathBuf,
        exec: bool,
    },
    /// A link to a folder inside the champion's, as a relative target.
    Link(PathBuf),
}

/// Where a plan's entries are read from, opened once.
enum Source {
    Folder(OwnedFd),
    File(std::fs::File),
}

/// What a snapshot holds, in path order, and what was left out (each said once).
struct Plan {
    entries: Vec<(PathBuf, Item)>,
    left_out: Vec<String>,
    /// The champion's folder or single file, opened once: everything is read through it.
    source: Source,
    /// Who owns it: a copy holds nothing that this user may not read.
    owner: u32,
    /// Its path, for messages.
    shown: PathBuf,
}

/// Opens the top of the files of `program` (its folder, or itself), by its path as given,
/// through no link when `strict`.
fn open_source(program: &Path, strict: bool) -> anyhow::Result<(Source, PathBuf)> {
    let (path, folder) = match folder_of(program) {
        Some(dir) => (dir, true),
        None => (program, false),
    };
    let fd = beneath::open_top(path, folder, strict).map_err(|e| {
        if beneath::is_link_refused(&e, path) {
            anyhow::anyhow!(
                "{} is no longer what the referee checked: a link was put in its place (or in \
                 the place of a folder above it) since; the snapshot copies only what was \
                 checked: leave the champion's files as they are while a run starts",
                path.display()
            )
        } else {
            anyhow::Error::new(e).context(format!("cannot read {}", path.display()))
        }
    })?;
    let source = if folder {
        Source::Folder(fd)
    } else {
        Source::File(std::fs::File::from(fd))
    };
    Ok((source, path.to_path_buf()))
}

/// The entries of the champion whose program is `program`: its folder's, or its file.
/// With `strict`, `program` is the canonical path the roster checked, and no link may lie
/// on it now.
fn plan(program: &Path, keep_out: Option<&Path>, strict: bool) -> anyhow::Result<Plan> {
    let (source, shown) = open_source(program, strict)?;
    let root_fd = match source {
        Source::File(file) => {
            let meta = file
                .metadata()
                .with_context(|| format!("cannot read {}", shown.display()))?;
            anyhow::ensure!(meta.is_file(), "{} is not a regular file", shown.display());
            let name = program.file_name().context("a program has a file name")?;
            return Ok(Plan {
                entries: vec![(
                    PathBuf::from(name),
                    Item::File {
                        inside: PathBuf::new(),
                        exec: meta.permissions().mode() & 0o111 != 0,
                    },
                )],
                left_out: Vec::new(),
                owner: meta.uid(),
                source: Source::File(file),
                shown,
            });
        }
        Source::Folder(fd) => fd,
    };
    let keep_out = keep_out
        .and_then(|p| std::fs::metadata(p).ok())
        .map(|m| (m.dev(), m.ino()));
    let owner = std::fs::File::from(root_fd.try_clone()?)
        .metadata()
        .with_context(|| format!("cannot read {}", shown.display()))?
        .uid();
    let mut plan = Plan {
        entries: Vec::new(),
        left_out: Vec::new(),
        owner,
        source: Source::Folder(root_fd),
        shown: shown.clone(),
    };
    let Source::Folder(root_fd) = &plan.source else {
        unreachable!("a folder's plan")
    };
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = shown.join(&rel);
        let (listed, meta) = beneath::list(root_fd, &rel)
            .with_context(|| format!("cannot list {}", dir.display()))?;
        check_readable(owner, &meta, &dir)?;
        for entry in listed {
            let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
            let rel = rel.join(entry.file_name());
            let path = shown.join(&rel);
            let meta = beneath::stat(root_fd, &rel)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let shown_rel = rel.display().to_string();
            if meta.is_dir() {
                let results = entry.file_name() == "results"
                    || RESULTS_FILES
                        .iter()
                        .any(|f| beneath::stat(root_fd, &rel.join(f)).is_ok())
                    || keep_out.is_some_and(|k| k == (meta.dev(), meta.ino()));
                if results {
                    plan.left_out.push(format!(
                        "{shown_rel}/ (the referee's results: their seeds are hidden setups)"
                    ));
                    continue;
                }
                stack.push(rel.clone());
                plan.entries.push((rel, Item::Dir));
            } else if meta.file_type().is_symlink() {
                match beneath::link_inside(root_fd, &rel) {
                    Some((inside, target_meta)) if target_meta.is_dir() => {
                        let up = rel.components().count().saturating_sub(1);
                        let mut link: PathBuf = std::iter::repeat_n(Component::ParentDir, up)
                            .map(|c| c.as_os_str())
                            .collect();
                        link.push(inside);
                        if link.as_os_str().is_empty() {
                            link.push(".");
                        }
                        plan.entries.push((rel, Item::Link(link)));
                    }
                    Some((inside, target_meta)) if target_meta.is_file() => {
                        let exec = target_meta.permissions().mode() & 0o111 != 0;
                        plan.entries.push((rel, Item::File { inside, exec }));
                    }
                    Some(_) => plan
                        .left_out
                        .push(format!("{shown_rel} (a link to a FIFO, socket or device)")),
                    None => {
                        let target = std::fs::read_link(&path).unwrap_or_default();
                        plan.left_out.push(format!(
                            "{shown_rel} -> {} (a link that leaves the folder, or leads nowhere)",
                            target.display()
                        ));
                    }
                }
            } else if meta.is_file() {
                let exec = meta.permissions().mode() & 0o111 != 0;
                plan.entries
                    .push((rel.clone(), Item::File { inside: rel, exec }));
            } else {
                plan.left_out
                    .push(format!("{shown_rel} (a FIFO, socket or device)"));
            }
            if plan.entries.len() > MAX_FILES {
                bail!(
                    "{} holds more than {MAX_FILES} files: a champion's folder holds what it \
                     runs from; move the rest out of it",
                    shown.display()
                );
            }
        }
    }
    plan.entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(plan)
}

/// Refuses to copy what `owner` (who owns the champion's files) may not read: as root the
/// referee reads anything, and the copy is readable by everyone.
fn check_readable(owner: u32, meta: &std::fs::Metadata, path: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        beneath::readable_by(owner, meta),
        "{} is not readable by the owner of the champion's files (uid {owner}; it is uid {}'s, \
         mode {:o}): a snapshot copies only what the champion's owner may read; give it to \
         them or make it readable by everyone (`chmod a+r`), or move it out of the folder",
        path.display(),
        meta.uid(),
        meta.mode() & 0o7777
    );
    Ok(())
}

/// What hashing a plan gave: the hash (hex) and, when asked for, each entry's own digest,
/// in path order.
#[derive(Debug)]
struct Hashed {
    hash: String,
    entries: Vec<(PathBuf, String)>,
}

/// Feeds `bytes` to the whole hash and, when kept, to the entry's.
fn feed(whole: &mut Sha256, entry: &mut Option<Sha256>, bytes: &[u8]) {
    whole.update(bytes);
    if let Some(entry) = entry {
        entry.update(bytes);
    }
}

/// Feeds `plan` to a hash, copying each entry under `into` when given, and returns the
/// hash (hex) with each entry's digest when `each`. Every byte hashed is a byte copied,
/// read once through the descriptor the plan opened: the snapshot is what its name says.
fn hash_and_copy(plan: &Plan, into: Option<&Path>, each: bool) -> anyhow::Result<Hashed> {
    let mut whole = Sha256::new();
    let mut entries = Vec::with_capacity(plan.entries.len());
    let mut bytes_left = MAX_BYTES;
    for (rel, item) in &plan.entries {
        let mut entry = each.then(Sha256::new);
        feed(&mut whole, &mut entry, rel.as_os_str().as_encoded_bytes());
        feed(&mut whole, &mut entry, b"\0");
        let dest = into.map(|d| d.join(rel));
        match item {
            Item::Dir => {
                feed(&mut whole, &mut entry, b"d");
                if let Some(dest) = &dest {
                    std::fs::create_dir(dest)
                        .with_context(|| format!("cannot create {}", dest.display()))?;
                    set_mode(dest, 0o755)?;
                }
            }
            Item::Link(target) => {
                feed(&mut whole, &mut entry, b"l");
                feed(
                    &mut whole,
                    &mut entry,
                    target.as_os_str().as_encoded_bytes(),
                );
                if let Some(dest) = &dest {
                    std::os::unix::fs::symlink(target, dest)
                        .with_context(|| format!("cannot create {}", dest.display()))?;
                }
            }
            Item::File { inside, exec } => {
                let source = plan.shown.join(inside);
                let mut file = match &plan.source {
                    Source::Folder(root) => beneath::open(root, inside, false),
                    Source::File(file) => file.try_clone().and_then(|mut f| {
                        f.rewind()?;
                        Ok(f)
                    }),
                }
                .with_context(|| format!("cannot read {}", source.display()))?;
                let meta = file
                    .metadata()
                    .with_context(|| format!("cannot read {}", source.display()))?;
                anyhow::ensure!(
                    meta.is_file(),
                    "{} is no longer a regular file",
                    source.display()
                );
                if into.is_some() {
                    check_readable(plan.owner, &meta, &source)?;
                }
                if meta.len() > bytes_left {
                    bail!(
                        "the champion's files are larger than {} MiB: a champion's folder \
                         holds what it runs from; move the rest (build leftovers, data) out \
                         of it",
                        MAX_BYTES >> 20
                    );
                }
                feed(&mut whole, &mut entry, if *exec { b"x" } else { b"f" });
                feed(&mut whole, &mut entry, &meta.len().to_le_bytes());
                let mut out = match &dest {
                    Some(dest) => Some(
                        std::fs::File::create(dest)
                            .with_context(|| format!("cannot write {}", dest.display()))?,
                    ),
                    None => None,
                };
                let mut buffer = vec![0u8; 64 << 10];
                let mut read = 0u64;
                while read < meta.len() {
                    let want = buffer.len().min((meta.len() - read) as usize);
                    let n = file
                        .read(&mut buffer[..want])
                        .with_context(|| format!("cannot read {}", source.display()))?;
                    if n == 0 {
                        break;
                    }
                    feed(&mut whole, &mut entry, &buffer[..n]);
                    if let (Some(out), Some(dest)) = (&mut out, &dest) {
                        out.write_all(&buffer[..n])
                            .with_context(|| format!("cannot write {}", dest.display()))?;
                    }
                    read += n as u64;
                }
                anyhow::ensure!(
                    read == meta.len(),
                    "{} changed while it was read",
                    source.display()
                );
                bytes_left -= meta.len();
                if let Some(dest) = &dest {
                    drop(out);
                    set_mode(dest, if *exec { 0o555 } else { 0o444 })?;
                }
            }
        }
        feed(&mut whole, &mut entry, b"\0");
        if let Some(entry) = entry {
            entries.push((rel.clone(), hex(&entry.finalize())));
        }
    }
    Ok(Hashed {
        hash: hex(&whole.finalize()),
        entries,
    })
}

fn set_mode(path: &Path, mode: u32) -> anyhow::Result<()> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", path.display()))
}

/// The hash of the files the champion whose program is `program` runs from, as a
/// snapshot of them would be named (nothing is copied). `program` is the canonical path
/// the referee resolved: a link on it now is refused.
pub fn hash_of(program: &Path) -> anyhow::Result<String> {
    Ok(hash_and_copy(&plan(program, None, true)?, None, false)?.hash)
}

/// The installed kits (`/kits/<language>` in a jail) a run plays with, recorded once per
/// run beside the champions' snapshots: each kit's hash by its name ([`KitsIdentity::Each`],
/// written since a referee may gain kits, a new game's, without changing a run's), or, in
/// runs started before, one hash of them all ([`KitsIdentity::Whole`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum KitsIdentity {
    Whole(String),
    Each(std::collections::BTreeMap<String, String>),
}

/// The kits no referee that wrote one hash of them all had (Ticket to Ride's and Little
/// Town's came with the hash of each): left out of that hash when a run of before resumes.
const KITS_SINCE_EACH: [&str; 2] = ["ticket-", "little-town-"];

/// The hash of one installed kit's files.
pub fn kit_hash(dir: &Path) -> anyhow::Result<String> {
    // A kit is a folder: hashed as a folder champion's (its `champion` need not exist).
    // The operator's files, found by a path that may hold links.
    Ok(plan(&dir.join("champion"), None, false)
        .and_then(|plan| hash_and_copy(&plan, None, false))
        .with_context(|| format!("the installed kit {}", dir.display()))?
        .hash)
}

/// The installed kits now, each kit's hash by its name.
pub fn kits_identity() -> anyhow::Result<KitsIdentity> {
    let mut each = std::collections::BTreeMap::new();
    for (language, dir) in &jail::kits::installed().by_language {
        each.insert(language.clone(), kit_hash(dir)?);
    }
    Ok(KitsIdentity::Each(each))
}

/// Why the installed kits now would make a run started with `stored` play otherwise (a
/// kit it had changed or gone; one added since is no concern), or `None`.
pub fn kits_differ(stored: &KitsIdentity) -> anyhow::Result<Option<String>> {
    let installed = &jail::kits::installed().by_language;
    match stored {
        KitsIdentity::Each(kits) => {
            for (language, hash) in kits {
                match installed.iter().find(|(l, _)| l == language) {
                    None => return Ok(Some(format!("the kit `{language}` is gone"))),
                    Some((_, dir)) if kit_hash(dir)? != *hash => {
                        return Ok(Some(format!("the kit `{language}` changed")))
                    }
                    Some(_) => {}
                }
            }
            Ok(None)
        }
        KitsIdentity::Whole(whole) => {
            Ok((kits_whole_hash()? != *whole).then(|| "a kit changed".to_string()))
        }
    }
}

/// The one hash of all the kits installed now, as a referee of before wrote it in a run
/// (before the hash of each kit; the kits it did not have left out).
pub fn kits_whole_hash() -> anyhow::Result<String> {
    let mut hasher = Sha256::new();
    let then = jail::kits::installed()
        .by_language
        .iter()
        .filter(|(l, _)| !KITS_SINCE_EACH.iter().any(|p| l.starts_with(p)));
    for (language, dir) in then {
        hasher.update(language.as_bytes());
        hasher.update(b"\0");
        hasher.update(kit_hash(dir)?.as_bytes());
    }
    Ok(hex(&hasher.finalize()))
}

/// Copies the files of `champion` (a program, not a built-in) into `<run>/snapshots/`
/// once, and makes it play from there: its program, path, SHA-256 and identity become
/// the snapshot's. Says on stderr what was left out. Nothing of `keep_out` (the run's own
/// folder, if inside the champion's) is copied. The copied program must be the one the
/// roster checked (`champion.sha256`).
pub fn take(champion: &mut ChampionSpec, run: &Path) -> anyhow::Result<()> {
    let origin = champion.program.clone();
    let checked = champion.sha256.clone();
    let plan = plan(&origin, Some(run), true)
        .with_context(|| format!("champion `{}`: cannot snapshot its files", champion.name))?;
    for left in &plan.left_out {
        eprintln!(
            "champion `{}`: left out of its snapshot: {}",
            printable(&champion.name),
            printable(left)
        );
    }
    let (hashed, root) = store(&plan, run)
        .with_context(|| format!("champion `{}`: cannot snapshot its files", champion.name))?;
    let program_name = origin.file_name().context("a program has a file name")?;
    let relative = format!("{}/{}", hashed.hash, program_name.to_string_lossy());
    play_from(
        champion,
        Snapshot {
            root,
            relative,
            origin: origin.clone(),
            entries: hashed.entries,
        },
        hashed.hash,
    )?;
    anyhow::ensure!(
        checked.is_empty() || champion.sha256 == checked,
        "champion `{}`: its program {} changed between the referee's check of it and its \
         snapshot (SHA-256 {checked} then, {} in the copy): leave the champion's files as \
         they are while a run starts, then start it again",
        printable(&champion.name),
        origin.display(),
        champion.sha256
    );
    Ok(())
}

/// Copies what `plan` holds into `<run>/snapshots/<hash>` (unless that snapshot is there
/// already: the same files, shared); returns what hashing it gave and that folder.
fn store(plan: &Plan, run: &Path) -> anyhow::Result<(Hashed, PathBuf)> {
    let dir = run.join(DIR);
    // Opened through no link (`run_files`), and then used through its descriptor: a link
    // planted in its place by a writer of the results would have the copy (and its modes)
    // land elsewhere.
    crate::run_files::make_folder(run)?;
    let folder = crate::run_files::Folder::of_file(&dir).and_then(|(run, _)| run.child(DIR))?;
    let pinned = folder.pinned();
    set_mode(&pinned, 0o755)?;
    let temp = tempfile::Builder::new()
        .prefix(".new-")
        .tempdir_in(&pinned)
        .with_context(|| format!("cannot create a folder in {}", dir.display()))?;
    let hashed = hash_and_copy(plan, Some(temp.path()), true)?;
    let hash = hashed.hash.clone();
    if pinned.join(&hash).exists() {
        drop(temp);
    } else {
        set_mode(temp.path(), 0o755)?;
        std::fs::rename(temp.keep(), pinned.join(&hash))
            .with_context(|| format!("cannot create {}", dir.join(&hash).display()))?;
    }
    Ok((hashed, dir.join(hash)))
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
        store(&plan(Path::new(origin), Some(run), true)?, run)?;
        eprintln!(
            "champion `{}`: its snapshot {} was missing; taken again from its files, which \
             are still those of the run's start",
            printable(name),
            root.display()
        );
    }
    let found = plan(&program, None, false)
        .and_then(|plan| hash_and_copy(&plan, None, true))
        .with_context(|| {
            format!(
                "the snapshot of champion `{}` ({}) cannot be read",
                printable(name),
                root.display()
            )
        })?;
    anyhow::ensure!(
        found.hash == hash,
        "the snapshot of champion `{}` ({}) was changed since the run started (its files \
         hash to {}): restore it, or start a new run under another name",
        printable(name),
        root.display(),
        found.hash
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
            entries: found.entries,
        },
        hash.to_string(),
    )?;
    Ok(champion)
}

/// Whether `champion` can still be started from its snapshot, if it has one: the snapshot
/// is there, every folder of it readable and searchable, every file readable, its program
/// executable, by anyone (the jail's uid); and it is still what it was when checked: owned
/// by the referee's user and writable by it alone (its folder of snapshots too), and
/// hashing, through one descriptor of it, to its name. An error names the snapshot (and
/// the file that changed) and the fix: the champion passed the pre-run check from these
/// files, so this is the operator's to fix, never the champion's loss.
///
/// Returns the device and inode of what it checked (the snapshot's folder, or its single
/// file), for the jail to bind only that (`None` without a snapshot).
pub fn ready(champion: &ChampionSpec) -> anyhow::Result<Option<(u64, u64)>> {
    startable(champion).map_err(|problem| operator_problem(champion, &problem))
}

/// [`ready`]'s check, what keeps the snapshot from being started as the error (for the
/// pre-run check, which says it in its own words).
pub fn startable(champion: &ChampionSpec) -> Result<Option<(u64, u64)>, String> {
    let Some(snapshot) = &champion.snapshot else {
        return Ok(None);
    };
    // A folder or file made unreadable first: its message names the mode and the fix,
    // where opening the program as a user would only say "Permission denied".
    if let Some(problem) = unreadable(&snapshot.root, &champion.program) {
        return Err(problem);
    }
    // The jail opens the program by its whole path: one the system cannot open (longer
    // than PATH_MAX, under a results folder that deep) keeps every start from it.
    let whole = std::path::absolute(&champion.program).map_err(|e| e.to_string())?;
    if let Err(e) = std::fs::File::open(&whole) {
        return Err(format!(
            "cannot open its program by its whole path {}: {e}",
            whole.display()
        ));
    }
    changed(snapshot).map(Some)
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
         it (a snapshot made unreadable: `chmod -R a+rX {}`; one that is gone, or changed \
         and then removed, is taken again by the resume if the champion's files are still \
         the same, else start a new run), then resume the run",
        printable(&champion.name),
        printable(&root),
        printable(why),
        printable(&root)
    )
}

/// What makes the snapshot no longer the one checked, if anything (else the device and
/// inode of its folder or file, as checked): an entry (or the
/// folder of snapshots) not owned by the referee's user or writable by another, or its
/// files not hashing to its name (the first entry that differs named).
fn changed(snapshot: &Snapshot) -> Result<(u64, u64), String> {
    // SAFETY: no arguments.
    let me = unsafe { nix::libc::geteuid() };
    let guarded = |path: &Path, meta: &std::fs::Metadata| -> Option<String> {
        let writable = !meta.file_type().is_symlink() && meta.mode() & 0o022 != 0;
        (meta.uid() != me || writable).then(|| {
            format!(
                "{} is uid {}'s with mode {:o}: a snapshot must be the referee's user's \
                 (uid {me}) and writable by it alone, so that nobody changes it between its \
                 check and its start",
                path.display(),
                meta.uid(),
                meta.mode() & 0o7777
            )
        })
    };
    let parent = snapshot.root.parent().unwrap_or(&snapshot.root);
    let program = parent.join(&snapshot.relative);
    let plan = match plan(&program, None, false) {
        Ok(plan) => plan,
        Err(e) => return Err(format!("{e:#}")),
    };
    // What was checked: the descriptor every read below goes through.
    let top = match &plan.source {
        Source::Folder(root) => {
            std::fs::File::from(root.try_clone().map_err(|e| e.to_string())?).metadata()
        }
        Source::File(file) => file.metadata(),
    };
    let checked = top
        .map(|m| (m.dev(), m.ino()))
        .map_err(|e| format!("cannot read {}: {e}", snapshot.root.display()))?;
    // The folder of snapshots, the snapshot's folder, then each entry (a single file: the
    // program, through the descriptor the hash reads).
    let mut looked = Vec::new();
    for folder in [parent, snapshot.root.as_path()] {
        looked.push((folder.to_path_buf(), std::fs::symlink_metadata(folder)));
    }
    match &plan.source {
        Source::Folder(root) => {
            for (rel, _) in &plan.entries {
                looked.push((snapshot.root.join(rel), beneath::stat(root, rel)));
            }
        }
        Source::File(file) => looked.push((program.clone(), file.metadata())),
    }
    let mut identity = Vec::with_capacity(looked.len());
    for (path, meta) in looked {
        let problem = match meta {
            Ok(meta) => {
                identity.push(Identity::of(&path, &meta));
                guarded(&path, &meta)
            }
            Err(e) => Some(format!("cannot read {}: {e}", path.display())),
        };
        if let Some(problem) = problem {
            return Err(problem);
        }
    }
    if unchanged::since_hashed(&snapshot.root, &identity) {
        return Ok(checked);
    }
    let hashed = match hash_and_copy(&plan, None, false) {
        Ok(hashed) => hashed,
        Err(e) => return Err(format!("{e:#}")),
    };
    let name = snapshot
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if hashed.hash == name {
        unchanged::hashed(&snapshot.root, identity);
        return Ok(checked);
    }
    // Hashed again, entry by entry, to name what differs.
    let each = hashed_each(&program).map(|h| h.entries).unwrap_or_default();
    let was: std::collections::BTreeMap<_, _> = snapshot.entries.iter().cloned().collect();
    let now: std::collections::BTreeMap<_, _> = each.into_iter().collect();
    let differs = was
        .keys()
        .chain(now.keys())
        .find(|rel| was.get(*rel) != now.get(*rel))
        .map_or_else(
            || "an entry".to_string(),
            |rel| snapshot.root.join(rel).display().to_string(),
        );
    Err(format!(
        "{differs} changed since the snapshot was checked (its files hash to {}, not to its \
         name): the run plays only the files it checked",
        hashed.hash
    ))
}

/// The snapshot whose program is `program` hashed entry by entry.
fn hashed_each(program: &Path) -> anyhow::Result<Hashed> {
    hash_and_copy(&plan(program, None, false)?, None, true)
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
        let planned = plan(&folder.join("champion"), None, true).unwrap();
        std::fs::remove_dir_all(folder.join("zzz")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, folder.join("zzz")).unwrap();
        let into = tmp.path().join("copy");
        std::fs::create_dir(&into).unwrap();
        let err = hash_and_copy(&planned, Some(&into), true).unwrap_err();
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

    /// A snapshot changed after its check (a file rewritten), or made writable by others,
    /// is not ready to start, naming the file; put back as it was, it is.
    #[test]
    fn a_snapshot_changed_or_writable_by_others_is_not_ready() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("me");
        std::fs::create_dir_all(folder.join("lib")).unwrap();
        std::fs::write(folder.join("lib/a.py"), "print(1)").unwrap();
        std::fs::write(folder.join("champion"), "#!/bin/sh\n").unwrap();
        set_mode(&folder.join("champion"), 0o755).unwrap();
        let mut c = champion(&folder.join("champion"));
        take(&mut c, &tmp.path().join("run")).unwrap();
        ready(&c).unwrap();
        let root = c.snapshot.clone().unwrap().root;
        let file = root.join("lib/a.py");
        set_mode(&file, 0o644).unwrap();
        std::fs::write(&file, "print(2)").unwrap();
        set_mode(&file, 0o444).unwrap();
        let err = ready(&c).unwrap_err().to_string();
        let want = format!("{} changed since the snapshot was checked", file.display());
        assert!(err.contains(&want), "{err}");
        set_mode(&file, 0o644).unwrap();
        std::fs::write(&file, "print(1)").unwrap();
        set_mode(&file, 0o444).unwrap();
        ready(&c).unwrap();
        set_mode(&root.join("lib"), 0o777).unwrap();
        let err = ready(&c).unwrap_err().to_string();
        assert!(err.contains("writable by it alone"), "{err}");
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
