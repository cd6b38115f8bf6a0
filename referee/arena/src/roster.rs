//! Champions as the user names them: a path to an executable, a directory holding a
//! `champion` executable, a built-in bot name, or `human` (a person at the terminal, for
//! single matches). Resolved and checked once, with errors that name the fix.

use anyhow::{bail, Context};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A champion ready to be launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChampionSpec {
    /// Short name for tables: the file or directory name, or the bot name, as a
    /// [`jail::untrusted::label`].
    pub name: String,
    /// What the user wrote (kept for reproduce commands).
    pub given: String,
    /// The executable to start.
    pub program: PathBuf,
    /// Its arguments (empty but for built-in bots).
    pub args: Vec<String>,
    /// `builtin:<name>` or the executable's absolute path (for a champion played from a
    /// run's snapshot, the path it was copied from).
    pub path: String,
    /// SHA-256 of the executable (hex); for built-ins, of the referee binary.
    pub sha256: String,
    /// SHA-256 of everything the champion runs from (hex, [`identity_of`]): its folder and
    /// the kit beside it for a folder champion, its file otherwise. A tournament refuses
    /// to resume with a champion whose identity changed. For a champion played from a
    /// run's snapshot, the snapshot's hash (`crate::snapshot`).
    pub identity: String,
    /// The run's copy of its files it plays from (tournaments and gauntlets), if any.
    pub snapshot: Option<crate::snapshot::Snapshot>,
}

/// The champion name of a seat played by a person at the terminal.
pub const HUMAN: &str = "human";

/// The recorded path of a seat played by a person.
pub const HUMAN_PATH: &str = "builtin:human";

/// The recorded path of a seat played by a program connected to `referee serve`:
/// `remote:<name it gave>`, with no hash (nothing the referee could run again).
pub const REMOTE_PREFIX: &str = "remote:";

/// Whether a champion's `path` names one of the referee's built-in champions (or the
/// human seat): its code is the referee's release, whatever the SHA-256 of the referee's
/// binary that ran it.
pub fn is_builtin(path: &str) -> bool {
    path.starts_with("builtin:")
}

impl ChampionSpec {
    /// Whether a person plays this seat (`human`): no process is started for it.
    pub fn is_human(&self) -> bool {
        self.path == HUMAN_PATH
    }

    /// Whether a program connected to the game server plays this seat: no process either.
    pub fn is_remote(&self) -> bool {
        self.path.starts_with(REMOTE_PREFIX)
    }
}

/// Every champion `given`, each by `resolve`; when some cannot be had, the error names
/// each of them (the first alone keeps its own error), not only the first.
pub fn resolve_all<'a>(
    given: impl IntoIterator<Item = &'a str>,
    resolve: impl Fn(&str) -> anyhow::Result<ChampionSpec>,
) -> anyhow::Result<Vec<ChampionSpec>> {
    let (mut found, mut failed) = (Vec::new(), Vec::new());
    for g in given {
        match resolve(g) {
            Ok(champion) => found.push(champion),
            Err(e) => failed.push(e),
        }
    }
    match failed.len() {
        0 => Ok(found),
        1 => Err(failed.remove(0)),
        n => Err(anyhow::anyhow!(
            "{n} champions cannot play: {}",
            failed
                .iter()
                .map(|e| format!("{e:#}"))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

/// The champions of `champions` that are one program under several names (the same
/// [`ChampionSpec::identity`]: identical files), each group in the order given; built-ins
/// apart (one against itself is told apart by its role, as in a gauntlet).
pub fn same_programs(champions: &[ChampionSpec]) -> Vec<Vec<&ChampionSpec>> {
    let mut groups: Vec<Vec<&ChampionSpec>> = Vec::new();
    for c in champions.iter().filter(|c| !is_builtin(&c.path)) {
        match groups.iter_mut().find(|g| g[0].identity == c.identity) {
            Some(group) => group.push(c),
            None => groups.push(vec![c]),
        }
    }
    groups.retain(|g| g.len() > 1);
    groups
}

/// Resolve what the user wrote for a champion of a game whose built-in champions are
/// `builtins`, run as the referee with `bot_args` and the name.
pub fn resolve_for(
    given: &str,
    builtins: &[&str],
    bot_args: &[&str],
) -> anyhow::Result<ChampionSpec> {
    let path = Path::new(given);
    let human = given == HUMAN;
    if !path.exists() && (human || builtins.contains(&given)) {
        let exe = std::env::current_exe().context("cannot find the referee's own executable")?;
        // Hashed once per process (built-ins are named in every match of a tournament).
        static OWN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sha256 = match OWN.get() {
            Some(sha) => sha.clone(),
            None => OWN
                .get_or_init(|| sha256_of(&exe).unwrap_or_default())
                .clone(),
        };
        if human {
            // No process: the referee itself reads the person's moves.
            return Ok(ChampionSpec {
                name: HUMAN.to_string(),
                given: given.to_string(),
                identity: format!("{HUMAN_PATH}:{}", env!("CARGO_PKG_VERSION")),
                sha256,
                program: exe,
                args: Vec::new(),
                path: HUMAN_PATH.to_string(),
                snapshot: None,
            });
        }
        return Ok(ChampionSpec {
            name: given.to_string(),
            given: given.to_string(),
            // The bot's code is the referee's release, not every rebuild of its binary.
            identity: format!("builtin:{given}:{}", env!("CARGO_PKG_VERSION")),
            sha256,
            program: exe,
            args: bot_args
                .iter()
                .map(|a| a.to_string())
                .chain([given.to_string()])
                .collect(),
            path: format!("builtin:{given}"),
            snapshot: None,
        });
    }
    let executable = if path.is_dir() {
        path.join("champion")
    } else {
        path.to_path_buf()
    };
    if !executable.exists() {
        let hint = if path.is_dir() {
            format!("a champion directory must hold an executable named `champion` (build it first: `referee build {given}`)")
        } else {
            format!(
                "check the path, or use a built-in champion: {}, or `{HUMAN}` to play the \
                 seat yourself",
                builtins.join(", ")
            )
        };
        bail!(
            "champion `{given}`: {} does not exist; {hint}",
            executable.display()
        );
    }
    let metadata = std::fs::metadata(&executable)
        .with_context(|| format!("champion `{given}`: cannot read it"))?;
    if !metadata.is_file() {
        bail!("champion `{given}`: {} is not a file", executable.display());
    }
    if metadata.permissions().mode() & 0o111 == 0 {
        bail!(
            "champion `{given}`: {} is not executable; fix: chmod +x {}",
            executable.display(),
            executable.display()
        );
    }
    let program = executable
        .canonicalize()
        .with_context(|| format!("champion `{given}`: cannot resolve its path"))?;
    if let Some(source) = changed_after_build(&program) {
        eprintln!(
            "note: champion `{}`: {} was changed after its `champion` was built, which is \
             what plays: rebuild it first (`referee build {}`)",
            jail::untrusted::printable(given),
            jail::untrusted::printable_path(&source),
            jail::untrusted::printable(given)
        );
    }
    Ok(ChampionSpec {
        // A label for tables: a file name may hold ESC or start like a spreadsheet formula.
        name: jail::untrusted::label(&raw_name(given)),
        given: given.to_string(),
        identity: identity_of(&program)
            .with_context(|| format!("champion `{given}`: cannot read its files"))?,
        sha256: sha256_of(&program)?,
        path: program.display().to_string(),
        program,
        args: Vec::new(),
        snapshot: None,
    })
}

/// The name a champion given as `given` goes by before it is shown
/// ([`jail::untrusted::label`]): the name of its file or folder, links followed; what was
/// given when it is no file (a built-in's name).
pub fn raw_name(given: &str) -> String {
    Path::new(given)
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| given.to_string())
}

/// Source files of a compiled language, whose change needs a build before it plays.
const COMPILED_SOURCES: [&str; 14] = [
    "c", "h", "cc", "cpp", "cxx", "hh", "hpp", "java", "cs", "ml", "mli", "hs", "pas", "pp",
];

/// For a folder champion (its `program` named `champion`), a source file of a compiled
/// language beside it that changed after `program` was built: the copied sample edited and
/// not rebuilt, whose match would play the old program.
pub fn changed_after_build(program: &Path) -> Option<std::path::PathBuf> {
    if program.file_name()? != "champion" {
        return None;
    }
    let built = std::fs::metadata(program).ok()?.modified().ok()?;
    std::fs::read_dir(program.parent()?)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| COMPILED_SOURCES.contains(&e))
        })
        .filter(|path| {
            std::fs::metadata(path)
                .and_then(|m| m.modified())
                .is_ok_and(|changed| changed > built)
        })
        .min()
}

/// SHA-256 of the file at `path` (hex), read as a stream: a file larger than
/// [`MAX_IDENTITY_BYTES`] is refused, naming it and the bound, without being read.
pub(crate) fn sha256_of(path: &Path) -> anyhow::Result<String> {
    let mut hasher = Sha256::new();
    stream_file(&mut hasher, path)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Feeds the bytes of the regular file at `path` to `hasher`, a buffer at a time (a
/// champion's file is never held whole in memory), refusing one larger than
/// [`MAX_IDENTITY_BYTES`] before reading it and never waiting on a FIFO put in its place.
fn stream_file(hasher: &mut Sha256, path: &Path) -> anyhow::Result<()> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(meta.is_file(), "{} is not a regular file", path.display());
    anyhow::ensure!(
        meta.len() <= MAX_IDENTITY_BYTES,
        "{} is larger than {} MiB ({} MiB): a champion's files are at most {} MiB, what it \
         runs from; move its data out of it",
        path.display(),
        MAX_IDENTITY_BYTES >> 20,
        meta.len() >> 20,
        MAX_IDENTITY_BYTES >> 20
    );
    let copied = std::io::copy(&mut file.take(meta.len()), hasher)
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(
        copied == meta.len(),
        "{} changed while it was read",
        path.display()
    );
    Ok(())
}

/// Most files hashed for a champion's identity (a folder beyond that is refused).
pub(crate) const MAX_IDENTITY_FILES: usize = 100_000;

/// The identity of the champion whose executable is `program`, as runs started before
/// snapshots (`crate::snapshot`) stored it, and as they still resume: for a folder champion (an
/// executable named `champion`), SHA-256 over its folder and the `kit` folder beside it
/// (what its jail shows it: every Python champion of the kit has the same launcher, and
/// what differs is `prologin.py` beside it); for a single file, over that file. Each entry
/// counts with its path relative to its folder, its kind, its executable bit and its
/// contents (a symbolic link by its target), in path order.
pub fn identity_of(program: &Path) -> anyhow::Result<String> {
    let in_folder = program.file_name().is_some_and(|n| n == "champion");
    let mut hasher = Sha256::new();
    match program.parent() {
        Some(dir) if in_folder => {
            hash_tree(&mut hasher, dir, "champion")?;
            let kit = dir.parent().map(|p| p.join("kit"));
            if let Some(kit) = kit.filter(|k| k.is_dir() && k != dir) {
                hash_tree(&mut hasher, &kit, "kit")?;
            }
        }
        _ => {
            hasher.update(b"file\0");
            stream_file(&mut hasher, program)?;
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Feeds every entry under `root` to `hasher`, under `label`.
fn hash_tree(hasher: &mut Sha256, root: &Path, label: &str) -> anyhow::Result<()> {
    let mut entries = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?
        {
            let path = entry?.path();
            let meta = std::fs::symlink_metadata(&path)?;
            if meta.is_dir() {
                stack.push(path.clone());
            }
            entries.push((path, meta));
            anyhow::ensure!(
                entries.len() <= MAX_IDENTITY_FILES,
                "{} holds more than {MAX_IDENTITY_FILES} files",
                root.display()
            );
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut bytes_left = MAX_IDENTITY_BYTES;
    for (path, meta) in entries {
        let rel = path.strip_prefix(root).unwrap_or(&path);
        hasher.update(label.as_bytes());
        hasher.update(b"/");
        hasher.update(rel.as_os_str().as_encoded_bytes());
        hasher.update(b"\0");
        if meta.is_dir() {
            hasher.update(b"d");
        } else if meta.file_type().is_symlink() {
            hasher.update(b"l");
            hasher.update(std::fs::read_link(&path)?.as_os_str().as_encoded_bytes());
        } else if meta.is_file() {
            let exec = meta.permissions().mode() & 0o111 != 0;
            hasher.update(if exec { b"x" } else { b"f" });
            bytes_left = hash_file(hasher, &path, bytes_left, root)?;
        } else {
            // A FIFO, socket or device: never opened (a FIFO would wait for a writer).
            hasher.update(b"p");
        }
        hasher.update(b"\0");
    }
    Ok(())
}

/// Most bytes read for a champion's identity (a folder beyond that is refused): the
/// snapshot's bound.
const MAX_IDENTITY_BYTES: u64 = 512 << 20;

/// Feeds the regular file at `path` to `hasher` (its length, then its bytes), reading it
/// without following a link nor waiting on a FIFO put in its place, and at most
/// `bytes_left`: what is left after it.
fn hash_file(
    hasher: &mut Sha256,
    path: &Path,
    bytes_left: u64,
    root: &Path,
) -> anyhow::Result<u64> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let meta = file.metadata()?;
    anyhow::ensure!(
        meta.is_file(),
        "{} is no longer a regular file",
        path.display()
    );
    anyhow::ensure!(
        meta.len() <= bytes_left,
        "the files of {} are larger than {} MiB: a champion's folder holds what it runs \
         from; move the rest (build leftovers, data) out of it",
        root.display(),
        MAX_IDENTITY_BYTES >> 20
    );
    hasher.update(meta.len().to_le_bytes());
    let copied = std::io::copy(&mut file.take(meta.len()), hasher)
        .with_context(|| format!("cannot read {}", path.display()))?;
    anyhow::ensure!(
        copied == meta.len(),
        "{} changed while it was read",
        path.display()
    );
    Ok(bytes_left - meta.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO in a champion's folder is named, never opened (the referee hung on it), and a
    /// sparse file past the bound is refused without being read (it took gigabytes).
    #[test]
    fn an_identity_never_waits_on_a_fifo_nor_reads_a_huge_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        std::fs::write(dir.join("champion"), "#!/bin/sh\n").unwrap();
        let plain = identity_of(&dir.join("champion")).unwrap();
        nix::unistd::mkfifo(&dir.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let with_fifo = identity_of(&dir.join("champion")).unwrap();
        assert_ne!(plain, with_fifo);
        let huge = std::fs::File::create(dir.join("data.bin")).unwrap();
        huge.set_len(MAX_IDENTITY_BYTES + 1).unwrap();
        let err = identity_of(&dir.join("champion")).unwrap_err();
        assert!(
            format!("{err:#}").contains("larger than 512 MiB"),
            "{err:#}"
        );
    }
}
