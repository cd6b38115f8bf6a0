//! The organiser's key files: where a run's key is kept by default (one per results folder,
//! in the user's state directory, never in the results), creating one (random, mode 0600, in
//! directories of mode 0700, atomically so that shards starting at once share it), and
//! reading one back (refused if it is not a key, or if anyone but its owner could read or
//! replace it).

use super::MasterKey;
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The environment variable naming the key file, when no flag does.
pub const ENV: &str = "REFEREE_KEY";

/// `$XDG_STATE_HOME` (or `~/.local/state`) `/prologin-referee/keys`.
fn keys_dir() -> anyhow::Result<PathBuf> {
    let state = jail::state::base()
        .context("neither XDG_STATE_HOME nor HOME is set to an absolute directory")?;
    Ok(state.join("prologin-referee/keys"))
}

/// `top` as an absolute path without symbolic links, even if it does not exist yet (its
/// parent must).
fn absolute(top: &Path) -> anyhow::Result<PathBuf> {
    let parent = folder_of(top);
    let parent = std::fs::canonicalize(parent)
        .with_context(|| format!("cannot find {}", parent.display()))?;
    Ok(match top.file_name() {
        Some(name) => parent.join(name),
        None => parent,
    })
}

/// The folder holding `path`: its parent, or `.` for a bare file name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Links the key written at `temp` into place at `path`. A key already there is no error:
/// another referee (a shard started at the same time) linked its own first, and both then
/// read that one.
fn link_into_place(temp: &Path, path: &Path) -> anyhow::Result<()> {
    match std::fs::hard_link(temp, path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            Err(e).with_context(|| format!("cannot create {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// The default key file of the run whose folder is `top` (`results/<name>`, which its
/// shards share): `<state>/prologin-referee/keys/<digest>.key`, the digest being of the
/// folder's absolute path.
pub fn default_path(top: &Path) -> anyhow::Result<PathBuf> {
    let top = absolute(top)?;
    let digest = Sha256::digest(top.as_os_str().as_encoded_bytes());
    Ok(keys_dir()?.join(format!("{}.key", crate::parts::hex(&digest[..16]))))
}

/// Refuses a key file inside `results`: whoever writes the results could read or replace it.
pub fn check_outside(path: &Path, results: &Path) -> anyhow::Result<()> {
    let (Ok(key), Ok(results)) = (absolute(path), std::fs::canonicalize(results)) else {
        return Ok(());
    };
    anyhow::ensure!(
        !key.starts_with(&results),
        "the key file {} is inside the results folder {}: whoever can write the results could \
         read or replace it; keep it elsewhere (the default is in your state directory)",
        path.display(),
        results.display()
    );
    Ok(())
}

/// Reads the key file `path`: a regular file of the user running the referee, that no one
/// else may read or write, holding a key.
pub fn read(path: &Path) -> anyhow::Result<MasterKey> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read the key file {}", path.display()))?;
    let meta = file.metadata()?;
    anyhow::ensure!(
        meta.is_file(),
        "the key file {} is not a regular file",
        path.display()
    );
    // SAFETY: no arguments; it cannot fail.
    let me = unsafe { nix::libc::geteuid() };
    anyhow::ensure!(
        meta.uid() == me,
        "the key file {} belongs to uid {}, not to you (uid {me}): someone else could have \
         written it; use your own",
        path.display(),
        meta.uid()
    );
    anyhow::ensure!(
        meta.mode() & 0o077 == 0,
        "the key file {} may be read or written by others (mode {:o}): `chmod 600` it, and \
         treat the results it signed as suspect if others could read it",
        path.display(),
        meta.mode() & 0o777
    );
    let mut text = String::new();
    file.take(1024)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read the key file {}", path.display()))?;
    MasterKey::from_text(&text).with_context(|| {
        format!(
            "{} is not a key file (64 hexadecimal digits, as the referee writes it)",
            path.display()
        )
    })
}

/// Reads the key file `path`, or creates it with a fresh key (its directories with mode
/// 0700) if there is none. Two referees creating it at once (shards starting together)
/// end with the same key: it is written aside, then linked into place, which only one wins.
pub fn read_or_create(path: &Path) -> anyhow::Result<MasterKey> {
    if path.exists() {
        return read(path);
    }
    let parent = folder_of(path);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let name = path
        .file_name()
        .context("a key file name")?
        .to_string_lossy();
    let temp = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> anyhow::Result<()> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temp)
            .with_context(|| format!("cannot create {}", temp.display()))?;
        file.write_all(MasterKey::random().to_text().as_bytes())?;
        file.sync_all()?;
        link_into_place(&temp, path)
    })();
    let _ = std::fs::remove_file(&temp);
    written?;
    read(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_created_key_is_private_and_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/run.key");
        let key = read_or_create(&path).unwrap();
        let again = read_or_create(&path).unwrap();
        assert_eq!(key.to_text(), again.to_text());
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&dir.path().join("a/b")), 0o700);
        assert_eq!(
            std::fs::read_dir(dir.path().join("a/b")).unwrap().count(),
            1
        );
    }

    #[test]
    fn a_key_others_may_read_or_that_is_no_key_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.key");
        read_or_create(&path).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let err = format!("{:#}", read(&path).unwrap_err());
        assert!(
            err.contains("mode 640") && err.contains("chmod 600"),
            "{err}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::write(&path, "not a key").unwrap();
        let err = format!("{:#}", read(&path).unwrap_err());
        assert!(err.contains("is not a key file"), "{err}");
    }

    #[test]
    fn a_key_inside_the_results_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("results");
        std::fs::create_dir_all(&results).unwrap();
        let err = check_outside(&results.join("k.key"), &results).unwrap_err();
        assert!(
            format!("{err}").contains("inside the results folder"),
            "{err}"
        );
        check_outside(&dir.path().join("k.key"), &results).unwrap();
    }

    /// A bare file name is the file of that name in the current folder (`--key run.key`).
    #[test]
    fn a_bare_name_is_in_the_current_folder() {
        let here = std::env::current_dir().unwrap().canonicalize().unwrap();
        assert_eq!(
            absolute(Path::new("run.key")).unwrap(),
            here.join("run.key")
        );
        assert_eq!(
            default_path(Path::new("results")).unwrap(),
            default_path(&here.join("results")).unwrap()
        );
    }

    /// Of two referees creating one key file at once, the one that links second reads the
    /// first one's key; any other failure to link is an error naming the file.
    #[test]
    fn a_key_linked_second_keeps_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.key");
        let first = read_or_create(&path).unwrap();
        let temp = dir.path().join("second.tmp");
        std::fs::write(&temp, MasterKey::random().to_text()).unwrap();
        link_into_place(&temp, &path).unwrap();
        assert_eq!(read(&path).unwrap().to_text(), first.to_text());
        let gone = dir.path().join("gone/run.key");
        let err = link_into_place(&temp, &gone).unwrap_err();
        assert!(format!("{err}").contains("cannot create"), "{err}");
        assert_eq!(folder_of(Path::new("run.key")), Path::new("."));
        assert_eq!(folder_of(Path::new("keys/run.key")), Path::new("keys"));
    }
}
