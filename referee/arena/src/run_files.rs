//! The files of a run's folder, opened beneath it and never through a symbolic link:
//! whoever can write a results folder (another user of a shared file system) must not
//! turn the referee's writes, as root, into writes elsewhere. A [`Folder`] is a directory
//! opened without following a link (`O_NOFOLLOW`, by its descriptor from then on); every
//! file of a run is opened by [`Folder::open_file`], a single name beneath that
//! descriptor, again without following a link, and created fresh (`O_EXCL`) when written.
//! Read, it must be a regular file (a FIFO is refused, never waited on) and is read up to
//! the bound of its kind ([`Folder::read`], `run_bounds`).

use crate::run_bounds::Bound;
use anyhow::Context;
use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::stat::Mode;
use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// How [`Folder::open_file`] opens a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reading a regular file (never waiting on a FIFO put in its place).
    Read,
    /// A new file, for writing: one already there (a link too) is an error.
    Create,
    /// Reading and appending, created if missing (`matches.csv`).
    Append,
}

/// A directory of a run, opened without following a symbolic link.
#[derive(Debug)]
pub struct Folder {
    path: PathBuf,
    fd: OwnedFd,
}

/// What to tell whoever finds a link or a file where the referee expects its folder.
const NOT_A_FOLDER: &str = "is not a folder but a symbolic link (or a file) in its place: \
    the referee follows no link in a results folder (someone who can write the results \
    could send its writes anywhere); remove it and run again, or, for a folder you named, \
    give the folder it points to";

impl Folder {
    /// The folder `name` in this one, created if missing; a link in its place is refused.
    pub fn child(&self, name: &str) -> anyhow::Result<Folder> {
        let path = self.path.join(name);
        match nix::sys::stat::mkdirat(self.fd.as_fd(), name, Mode::from_bits_truncate(0o755)) {
            Ok(()) | Err(Errno::EEXIST) => {}
            Err(e) => return Err(no_place(&path, e.into())),
        }
        self.existing_child(name)
    }

    /// The folder `name` in this one, which must exist; a link in its place is refused.
    pub fn existing_child(&self, name: &str) -> anyhow::Result<Folder> {
        let path = match self.path == Path::new(".") {
            true => PathBuf::from(name),
            false => self.path.join(name),
        };
        let fd = nix::fcntl::openat(self.fd.as_fd(), name, dir_flags(), Mode::empty())
            .map_err(|e| not_a_folder(&path, e))?;
        Ok(Folder { path, fd })
    }

    /// The folder of a match, `<run>/matches/<name>` (`path`): `matches` and the match's
    /// folder opened without following a link, the run's folder followed (the operator's);
    /// a match folder named by the operator (`--out DIR`) has only its last component
    /// opened so. Created if missing when `create`.
    pub fn of_match(path: &Path, create: bool) -> anyhow::Result<Folder> {
        // A file where the folder is to be made (`--out FILE`): the user's to fix. A link
        // there is refused below, as anywhere in a run.
        if create && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
            return Err(NoPlace(format!(
                "cannot create the folder {0}: {0} is a file, not a folder; name a folder \
                 for the match (it is made if missing), or move that file away",
                path.display()
            ))
            .into());
        }
        // A folder named without a last name (`--out .`, `..`): the operator's, by its
        // real name.
        let named;
        let path = match path.file_name() {
            Some(_) => path,
            None => {
                named = path
                    .canonicalize()
                    .with_context(|| format!("cannot find {}", path.display()))?;
                named.as_path()
            }
        };
        let mut names = Vec::new();
        let mut run = path;
        // `matches` is the referee's; any other folder above `--out DIR` the operator's.
        let depth = match path.parent().and_then(Path::file_name) {
            Some(parent) if parent == "matches" => 2,
            _ => 1,
        };
        while names.len() < depth {
            match (run.file_name(), run.parent()) {
                (Some(name), Some(parent)) => {
                    let name = name
                        .to_str()
                        .with_context(|| format!("{} is not a UTF-8 path", path.display()))?;
                    names.push(name);
                    run = parent;
                }
                _ => break,
            }
        }
        anyhow::ensure!(!names.is_empty(), "{} has no folder name", path.display());
        let run = if run.as_os_str().is_empty() {
            Path::new(".")
        } else {
            run
        };
        let mut folder = match create {
            true => {
                // Named as asked (`--out DIR`): the folder that failed is on its way.
                make_folder(run)?;
                Folder::at(run)?
            }
            false => Folder::at(run)?,
        };
        for name in names.iter().rev() {
            folder = match create {
                true => folder.child(name)?,
                false => folder.existing_child(name)?,
            };
        }
        Ok(folder)
    }

    /// The existing folder `path`, followed as given (the operator's).
    fn at(path: &Path) -> anyhow::Result<Folder> {
        let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC;
        let fd = nix::fcntl::open(path, flags, Mode::empty())
            .map_err(|e| anyhow::anyhow!("cannot open the folder {}: {e}", path.display()))?;
        Ok(Folder {
            path: path.to_path_buf(),
            fd,
        })
    }

    /// [`Folder::of_match`], with every file a match writes removed first (each
    /// [`is_match_file`], links themselves, never what they point to): a folder left
    /// there (by a match abandoned, or by someone who can write the results) holds no file
    /// of an earlier match, and no link the match's files would be written through. Other
    /// files are left (`--out DIR` may be a folder of the operator's); a folder under one
    /// of those names is refused, naming it.
    pub fn fresh_match(path: &Path) -> anyhow::Result<Folder> {
        let folder = Folder::of_match(path, true)?;
        folder.clear_match_files()?;
        Ok(folder)
    }

    /// The folder holding the file `path`, and the file's name: a match's folder as
    /// [`Folder::of_match`] opens it, any other (the run's folder, its `check`) without
    /// following a link in its last component.
    pub fn of_file(path: &Path) -> anyhow::Result<(Folder, String)> {
        let (name, parent) = split(path)?;
        let name = name.to_str().context("a results file's name is UTF-8")?;
        let in_match = parent.parent().and_then(Path::file_name) == Some(OsStr::new("matches"));
        let folder = match in_match {
            true => Folder::of_match(parent, false)?,
            false => {
                let fd = nix::fcntl::open(parent, dir_flags(), Mode::empty())
                    .map_err(|e| not_a_folder(parent, e))?;
                Folder {
                    path: parent.to_path_buf(),
                    fd,
                }
            }
        };
        Ok((folder, name.to_string()))
    }

    /// Where this folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path that names this folder, the one opened, as long as it lives, whatever is
    /// put at its path since (`/proc/self/fd/<descriptor>`): for code that takes paths.
    pub fn pinned(&self) -> PathBuf {
        Path::new("/proc/self/fd").join(self.fd.as_raw_fd().to_string())
    }

    /// Opens the file `name` of this folder as `access` says: the one way the referee
    /// opens a file of a run. A link in its place is refused, naming it; so is anything
    /// but a regular file when reading.
    pub fn open_file(&self, name: &str, access: Access) -> anyhow::Result<File> {
        let path = self.path.join(name);
        anyhow::ensure!(
            !name.is_empty() && !name.contains('/') && name != "." && name != "..",
            "{} is not a file name of a results folder",
            path.display()
        );
        let flags = OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        let flags = match access {
            Access::Read => flags | OFlag::O_RDONLY | OFlag::O_NONBLOCK,
            Access::Create => flags | OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL,
            Access::Append => {
                flags | OFlag::O_RDWR | OFlag::O_CREAT | OFlag::O_APPEND | OFlag::O_NONBLOCK
            }
        };
        let fd = nix::fcntl::openat(
            self.fd.as_fd(),
            name,
            flags,
            Mode::from_bits_truncate(0o644),
        )
        .map_err(|e| match e {
            Errno::ELOOP => anyhow::anyhow!(
                "{} is a symbolic link, made by someone who can write the results: the \
                     referee follows no link in a results folder; remove it and run again",
                path.display()
            ),
            Errno::EEXIST => anyhow::anyhow!(
                "cannot create {}: something is already there; remove it and run again",
                path.display()
            ),
            e if access == Access::Read => {
                anyhow::anyhow!("cannot read {}: {e}", path.display())
            }
            e => anyhow::anyhow!("cannot create {}: {e}", path.display()),
        })?;
        let file = File::from(fd);
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?;
        anyhow::ensure!(
            meta.is_file(),
            "{} is not a regular file (a FIFO, a device or a directory in its place): restore \
             the file the referee wrote",
            path.display()
        );
        Ok(file)
    }

    /// The bytes of the file `name` of this folder, a regular file of at most `bound`
    /// bytes: a larger one is refused before it is read, naming its size and the bound.
    pub fn read(&self, name: &str, bound: Bound) -> anyhow::Result<Vec<u8>> {
        let path = self.path.join(name);
        read_within(self.open_file(name, Access::Read)?, &path, bound)
    }

    /// Removes the file `name` (a link itself, never what it points to), if there.
    pub fn remove(&self, name: &str) -> anyhow::Result<()> {
        match nix::unistd::unlinkat(
            self.fd.as_fd(),
            name,
            nix::unistd::UnlinkatFlags::NoRemoveDir,
        ) {
            Ok(()) | Err(Errno::ENOENT) => Ok(()),
            Err(e) => Err(anyhow::anyhow!(
                "cannot remove {}: {e}",
                self.path.join(name).display()
            )),
        }
    }

    /// Renames the file `from` of this folder to `to`, replacing a file (or a link) there.
    pub fn rename(&self, from: &str, to: &str) -> anyhow::Result<()> {
        nix::fcntl::renameat(self.fd.as_fd(), from, self.fd.as_fd(), to).map_err(|e| {
            anyhow::anyhow!(
                "cannot rename {} to {}: {e}",
                self.path.join(from).display(),
                self.path.join(to).display()
            )
        })
    }

    /// Removes the files of this folder that a match writes (a link itself, never what it
    /// points to); a folder under such a name is refused, naming it.
    fn clear_match_files(&self) -> anyhow::Result<()> {
        // Listed through its descriptor: the folder opened, not whatever its path is now.
        let names: Vec<std::ffi::OsString> = std::fs::read_dir(self.pinned())
            .with_context(|| format!("cannot list {}", self.path.display()))?
            .map(|entry| entry.map(|e| e.file_name()))
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot list {}", self.path.display()))?;
        for name in names
            .iter()
            .filter_map(|n| n.to_str())
            .filter(|n| is_match_file(n))
        {
            let path = self.path.join(name);
            match nix::unistd::unlinkat(
                self.fd.as_fd(),
                name,
                nix::unistd::UnlinkatFlags::NoRemoveDir,
            ) {
                Ok(()) | Err(Errno::ENOENT) => {}
                Err(Errno::EISDIR) => anyhow::bail!(
                    "{} is a folder where a match writes a file: a match's files are removed \
                     from its folder before it plays; remove it and run again",
                    path.display()
                ),
                Err(e) => anyhow::bail!("cannot remove {}: {e}", path.display()),
            }
        }
        Ok(())
    }
}

/// Whether `name` is a file that a match writes into its folder: its record, its seal,
/// its full log, its replay page, a seat's stderr, or the temporary file of one of them.
pub fn is_match_file(name: &str) -> bool {
    let name = name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(".tmp"))
        .unwrap_or(name);
    let seat = name
        .strip_prefix("seat")
        .and_then(|n| n.strip_suffix(".stderr"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    seat || ["record.json", "mac", "requests.log.gz", "replay.html"].contains(&name)
}

/// The bytes of `file` (opened from `path`), at most `bound`: its size is checked before
/// it is read, and again after (a file that grows meanwhile is refused too).
pub fn read_within(file: File, path: &Path, bound: Bound) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let size = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    bound.check(path, size)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(bound.max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    bound.check(path, bytes.len() as u64)?;
    Ok(bytes)
}

fn dir_flags() -> OFlag {
    OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC
}

/// The last component of `path` and what leads to it.
fn split(path: &Path) -> anyhow::Result<(&OsStr, &Path)> {
    let name = path
        .file_name()
        .with_context(|| format!("{} has no file name", path.display()))?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Ok((name, parent))
}

fn not_a_folder(path: &Path, e: Errno) -> anyhow::Error {
    match e {
        Errno::ELOOP | Errno::ENOTDIR => anyhow::anyhow!("{} {NOT_A_FOLDER}", path.display()),
        e => anyhow::anyhow!("cannot open the folder {}: {e}", path.display()),
    }
}

/// The folder where results go cannot be had, for a reason whoever named it fixes: a file
/// in its place or on its way, a place they may not write (a link planted in a run's
/// folder is no such input: whoever can write the results put it there). Bad input, not a
/// failure of the referee (`commands::Failure` gives it exit code 2); the message says
/// what to change.
#[derive(Debug)]
pub struct NoPlace(pub String);

impl std::fmt::Display for NoPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoPlace {}

/// Makes the folder `path` and those above it, as `std::fs::create_dir_all`; a file in
/// the way or a place the user may not write is a [`NoPlace`] naming the fix.
pub fn make_folder(path: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(path).map_err(|e| no_place(path, e))
}

/// `e`, met making the folder `path`, as a [`NoPlace`] when the user can fix it.
fn no_place(path: &Path, e: std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind::{
        AlreadyExists, NotADirectory, NotFound, PermissionDenied, ReadOnlyFilesystem,
    };
    match e.kind() {
        AlreadyExists | NotADirectory => {
            // The first of its ancestors that is there and is no folder (a link to one is
            // followed, as the operator's own path).
            let blocker = path
                .ancestors()
                .filter(|a| !a.as_os_str().is_empty())
                .find(|a| a.exists() && !a.is_dir())
                .unwrap_or(path);
            NoPlace(format!(
                "cannot create the folder {}: {} is a file, not a folder; name a folder for \
                 the results (it is made if missing), or move that file away",
                path.display(),
                blocker.display()
            ))
            .into()
        }
        // Not found while making it: a file system where nothing can be made (`/proc`).
        PermissionDenied | ReadOnlyFilesystem | NotFound => NoPlace(format!(
            "cannot create the folder {}: {e}; name a folder you can write",
            path.display()
        ))
        .into(),
        _ => anyhow::Error::new(e).context(format!("cannot create {}", path.display())),
    }
}

#[cfg(test)]
mod edges;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A link in the place of a match's folder, or of `matches`, is refused naming it, and
    /// nothing is written where it points.
    #[test]
    fn a_linked_match_folder_is_refused_and_nothing_is_written_through_it() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(elsewhere.join("3")).unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir_all(run.join("matches")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, run.join("matches/3")).unwrap();
        let err = format!(
            "{:#}",
            Folder::fresh_match(&run.join("matches/3")).unwrap_err()
        );
        assert!(
            err.contains(&format!(
                "{} is not a folder",
                run.join("matches/3").display()
            )),
            "{err}"
        );
        std::fs::remove_file(run.join("matches/3")).unwrap();
        std::fs::remove_dir(run.join("matches")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, run.join("matches")).unwrap();
        let err = format!(
            "{:#}",
            Folder::fresh_match(&run.join("matches/3")).unwrap_err()
        );
        assert!(err.contains("matches is not a folder"), "{err}");
        assert_eq!(std::fs::read_dir(elsewhere.join("3")).unwrap().count(), 0);
    }

    /// A match's folder left with links in it loses the files a match writes (the links,
    /// their targets untouched) and its files are created fresh; other files stay; a
    /// folder under a match file's name is refused, naming it.
    #[test]
    fn a_left_match_folder_loses_its_match_files_without_following_its_links() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let folder = dir.path().join("run/matches/3");
        std::fs::create_dir_all(&folder).unwrap();
        std::os::unix::fs::symlink(&victim, folder.join("seat0.stderr")).unwrap();
        std::os::unix::fs::symlink(&victim, folder.join(".mac.tmp")).unwrap();
        std::fs::write(folder.join("notes.txt"), "the operator's").unwrap();
        let fresh = Folder::fresh_match(&folder).unwrap();
        let left: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["notes.txt"]);
        fresh
            .open_file("seat0.stderr", Access::Create)
            .unwrap()
            .write_all(b"mine")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let mut text = String::new();
        fresh
            .open_file("seat0.stderr", Access::Read)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "mine");
        std::fs::create_dir(folder.join("record.json")).unwrap();
        let err = format!("{:#}", Folder::fresh_match(&folder).unwrap_err());
        assert!(
            err.contains(&format!(
                "{} is a folder",
                folder.join("record.json").display()
            )),
            "{err}"
        );
    }

    /// A link read as a results file is refused, naming it.
    #[test]
    fn a_linked_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret"), "x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), dir.path().join("mac")).unwrap();
        let (folder, name) = Folder::of_file(&dir.path().join("mac")).unwrap();
        let err = format!("{:#}", folder.open_file(&name, Access::Read).unwrap_err());
        assert!(err.contains("mac is a symbolic link"), "{err}");
    }
}
