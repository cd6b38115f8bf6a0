//! A build's files between the champion's folder and the build's tmpfs, through descriptors
//! only: copied in before the build ([`copy_in`]: its regular files, folders and links,
//! read through the folder opened once, never through a link, the results folders under
//! it left out, times kept for `make`), and back after it ([`copy_back`]: the regular files
//! the build made or changed and their folders, never through a link, within a bound, each
//! owned by the folder's owner; a file or link the build removed is removed). Nothing the
//! build writes reaches the real disk but what comes back.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use nix::fcntl::{OFlag, OpenHow, ResolveFlag};
use nix::libc;
use nix::sys::stat::{FileStat, Mode, SFlag};

use super::walk::{self, Folder};

/// What was copied in: the regular files as the tmpfs holds them (inode and change time: a
/// file still so after the build is not copied back), and each file and link with what it
/// is in the folder (device and inode: one the build removed is removed if still that).
#[derive(Default)]
pub(super) struct Copied {
    unchanged: HashSet<(u64, i64, i64)>,
    entries: Vec<(PathBuf, (u64, u64))>,
}

/// What the build may bring back: bytes and entries.
#[derive(Clone, Copy)]
pub(super) struct Bound {
    pub bytes: u64,
    pub entries: u64,
}

fn kind(stat: &FileStat) -> SFlag {
    SFlag::from_bits_truncate(stat.st_mode & SFlag::S_IFMT.bits())
}

/// What a copied file or folder may keep of its mode: no set-id or sticky bit, no write
/// for everyone.
fn kept_mode(stat: &FileStat) -> u32 {
    stat.st_mode & 0o775
}

fn skipped(rel: &Path, skip: &[PathBuf]) -> bool {
    skip.iter().any(|s| rel.starts_with(s))
}

/// Opens the folder `rel` beneath `root` through no link and without leaving its file
/// system (`.` for the root itself).
fn folder_beneath(root: BorrowedFd, rel: &Path) -> io::Result<OwnedFd> {
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    let how = crate::beneath::strictly(
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
    );
    nix::fcntl::openat2(root, rel, how).map_err(io::Error::from)
}

/// The folder holding `rel` beneath `root`, and `rel`'s last name.
fn parent_of<'a>(root: BorrowedFd, rel: &'a Path) -> io::Result<(OwnedFd, &'a std::ffi::OsStr)> {
    let name = rel
        .file_name()
        .ok_or_else(|| io::Error::from_raw_os_error(libc::EINVAL))?;
    let parent = folder_beneath(root, rel.parent().unwrap_or(Path::new("")))?;
    Ok((parent, name))
}

/// Opens the regular file `stat` describes for reading, through its `O_PATH` descriptor's
/// own entry in /proc (the file opened, not a path again).
fn reopen(fd: &OwnedFd, stat: &FileStat) -> io::Result<File> {
    let file = File::open(format!("/proc/self/fd/{}", fd.as_raw_fd()))?;
    let now = nix::sys::stat::fstat(&file).map_err(io::Error::from)?;
    if walk::id(&now) != walk::id(stat) {
        return Err(io::Error::from_raw_os_error(libc::ESTALE));
    }
    Ok(file)
}

/// Creates the file `name` in `parent` (never through a link: `O_EXCL`) with `from`'s
/// bytes, then `owner`, `mode` and `from`'s times (`make` compares them); returns what it
/// is now.
fn write_new(
    parent: &OwnedFd,
    name: &std::ffi::OsStr,
    from: &mut File,
    owner: Option<(u32, u32)>,
    mode: u32,
) -> io::Result<FileStat> {
    let times = nix::sys::stat::fstat(&*from).map_err(io::Error::from)?;
    let flags =
        OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let fd = nix::fcntl::openat(parent, name, flags, Mode::from_bits_truncate(0o600))
        .map_err(io::Error::from)?;
    let mut to = File::from(fd);
    io::copy(from, &mut to)?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::fchown(&to, Some(uid), Some(gid))?;
    }
    nix::sys::stat::fchmod(&to, Mode::from_bits_truncate(mode)).map_err(io::Error::from)?;
    let at = nix::sys::time::TimeSpec::new(times.st_atime, times.st_atime_nsec);
    let modified = nix::sys::time::TimeSpec::new(times.st_mtime, times.st_mtime_nsec);
    nix::sys::stat::futimens(&to, &at, &modified).map_err(io::Error::from)?;
    nix::sys::stat::fstat(&to).map_err(io::Error::from)
}

/// Makes the folder `name` in `parent` with `owner` and `mode` (and room for its owner to
/// fill it).
fn make_folder(
    parent: &OwnedFd,
    name: &std::ffi::OsStr,
    owner: Option<(u32, u32)>,
    mode: u32,
) -> io::Result<()> {
    nix::sys::stat::mkdirat(parent, name, Mode::from_bits_truncate(0o700))
        .map_err(io::Error::from)?;
    let made = folder_beneath(parent.as_fd(), Path::new(name))?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::fchown(&made, Some(uid), Some(gid))?;
    }
    nix::sys::stat::fchmod(&made, Mode::from_bits_truncate(mode | 0o700)).map_err(io::Error::from)
}

/// Says what a copy's error means, `ENOSPC` as the bound it hit.
fn explained(e: io::Error, full: &str) -> String {
    match e.raw_os_error() {
        Some(libc::ENOSPC | libc::EDQUOT) => full.to_string(),
        _ => e.to_string(),
    }
}

/// Copies the folder into the build's tmpfs folder `to`: its regular files, folders and
/// links (a link copied as a link, never followed), each then owned by `owner` (the build's
/// uid, as root); FIFOs, sockets and devices are left out, and so is everything under
/// `skip` (relative paths: results folders). `full` says what a full tmpfs means.
pub(super) fn copy_in(
    from: &Folder,
    to: &OwnedFd,
    skip: &[PathBuf],
    owner: Option<(u32, u32)>,
    full: &str,
) -> Result<Copied, String> {
    let mut copied = Copied::default();
    let mut failed: Option<String> = None;
    let problems = walk::walk(from, false, &mut |fd, stat, rel| {
        if failed.is_some() || skipped(rel, skip) {
            return;
        }
        let done = (|| -> io::Result<()> {
            let (parent, name) = parent_of(to.as_fd(), rel)?;
            match kind(stat) {
                SFlag::S_IFDIR => make_folder(&parent, name, owner, kept_mode(stat)),
                SFlag::S_IFREG => {
                    let mut source = reopen(fd, stat)?;
                    let made = write_new(&parent, name, &mut source, owner, kept_mode(stat))?;
                    copied
                        .unchanged
                        .insert((made.st_ino, made.st_ctime, made.st_ctime_nsec));
                    copied.entries.push((rel.to_path_buf(), walk::id(stat)));
                    Ok(())
                }
                SFlag::S_IFLNK => {
                    let target = nix::fcntl::readlinkat(fd, "").map_err(io::Error::from)?;
                    nix::unistd::symlinkat(target.as_os_str(), &parent, name)
                        .map_err(io::Error::from)?;
                    if let Some((uid, gid)) = owner {
                        let name = std::ffi::CString::new(name.as_encoded_bytes())
                            .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
                        // SAFETY: a valid descriptor and C string.
                        let r = unsafe {
                            libc::fchownat(
                                parent.as_raw_fd(),
                                name.as_ptr(),
                                uid,
                                gid,
                                libc::AT_SYMLINK_NOFOLLOW,
                            )
                        };
                        if r != 0 {
                            return Err(io::Error::last_os_error());
                        }
                    }
                    copied.entries.push((rel.to_path_buf(), walk::id(stat)));
                    Ok(())
                }
                _ => Ok(()),
            }
        })();
        if let Err(e) = done {
            failed = Some(format!(
                "cannot copy {} into the build: {}",
                crate::untrusted::printable_path(rel),
                explained(e, full)
            ));
        }
    });
    match failed.or_else(|| {
        problems
            .into_iter()
            .next()
            .map(|p| format!("cannot read the folder for its build: {p}"))
    }) {
        Some(why) => Err(why),
        None => Ok(copied),
    }
}

/// One entry to bring back.
enum Back {
    Folder {
        rel: PathBuf,
        mode: u32,
    },
    File {
        rel: PathBuf,
        mode: u32,
        id: (u64, u64),
    },
}

/// Copies back into the folder what the build made or changed in its tmpfs folder `built`:
/// every folder it holds (made when missing) and every regular file that is not one
/// `copied` in unchanged, each written to a new file and renamed over its name (a link or
/// file there is replaced, never followed), owned by `owner` (the folder's owner, as root);
/// a file or link `copied` in that the build removed is removed from the folder if it is
/// still the one copied. Links, FIFOs, sockets and devices the build made stay behind
/// (said in the notes returned), and so does everything under `skip`. More than `bound` is
/// refused before anything is written (the folder is then left as it was); an entry that
/// cannot be written is named in the error, the others are copied.
pub(super) fn copy_back(
    built: &Folder,
    into: &Folder,
    copied: &Copied,
    skip: &[PathBuf],
    owner: Option<(u32, u32)>,
    bound: Bound,
) -> Result<Vec<String>, String> {
    let mut back = Vec::new();
    let mut present = HashSet::new();
    let (mut bytes, mut left) = (0u64, 0usize);
    let problems = walk::walk(built, false, &mut |_, stat, rel| {
        if skipped(rel, skip) {
            return;
        }
        let rel = rel.to_path_buf();
        present.insert(rel.clone());
        match kind(stat) {
            SFlag::S_IFDIR => back.push(Back::Folder {
                rel,
                mode: kept_mode(stat),
            }),
            SFlag::S_IFREG
                if copied
                    .unchanged
                    .contains(&(stat.st_ino, stat.st_ctime, stat.st_ctime_nsec)) => {}
            SFlag::S_IFREG => {
                bytes = bytes.saturating_add(stat.st_size as u64);
                back.push(Back::File {
                    rel,
                    mode: kept_mode(stat),
                    id: walk::id(stat),
                })
            }
            _ => left += 1,
        }
    });
    if let Some(problem) = problems.first() {
        return Err(format!("cannot read what the build made: {problem}"));
    }
    if bytes > bound.bytes || back.len() as u64 > bound.entries {
        return Err(format!(
            "the build made {} entries of {} MiB to copy back, more than its bound ({} \
             entries, {} MiB: --disk); nothing was copied back",
            back.len(),
            bytes >> 20,
            bound.entries,
            bound.bytes >> 20
        ));
    }
    let mut failed = Vec::new();
    for (rel, id) in &copied.entries {
        if !present.contains(rel) {
            if let Err(e) = remove(into, rel, *id) {
                failed.push(format!("{}: {e}", crate::untrusted::printable_path(rel)));
            }
        }
    }
    for entry in &back {
        let (rel, done) = match entry {
            Back::Folder { rel, mode } => (rel, bring_folder(into, rel, owner, *mode)),
            Back::File { rel, mode, id } => (rel, bring_file(built, into, rel, *id, owner, *mode)),
        };
        if let Err(e) = done {
            failed.push(format!("{}: {e}", crate::untrusted::printable_path(rel)));
        }
    }
    if !failed.is_empty() {
        let (count, list) = super::listed(failed);
        return Err(format!(
            "cannot copy {count} built entr(ies) back into the folder: {list}"
        ));
    }
    Ok(if left > 0 {
        vec![format!(
            "{left} link(s), FIFO(s), socket(s) or device(s) the build made were not copied \
             back (only regular files and folders are)"
        )]
    } else {
        Vec::new()
    })
}

/// Removes the file or link `rel` from the folder if it is still `id` (gone already: done).
fn remove(into: &Folder, rel: &Path, id: (u64, u64)) -> io::Result<()> {
    let (parent, name) = match parent_of(into.fd.as_fd(), rel) {
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(()),
        other => other?,
    };
    match nix::sys::stat::fstatat(&parent, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(stat) if walk::id(&stat) == id => {
            nix::unistd::unlinkat(&parent, name, nix::unistd::UnlinkatFlags::NoRemoveDir)
                .map_err(io::Error::from)
        }
        _ => Ok(()),
    }
}

/// The folder `rel` in the folder, made when missing; one that is not a folder is refused.
fn bring_folder(into: &Folder, rel: &Path, owner: Option<(u32, u32)>, mode: u32) -> io::Result<()> {
    let (parent, name) = parent_of(into.fd.as_fd(), rel)?;
    match nix::sys::stat::fstatat(&parent, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(stat) if kind(&stat) == SFlag::S_IFDIR => Ok(()),
        Ok(_) => Err(io::Error::other("the folder holds a link or a file under this name, which is never followed or replaced by a folder",
        )),
        Err(nix::errno::Errno::ENOENT) => make_folder(&parent, name, owner, mode),
        Err(e) => Err(e.into()),
    }
}

/// The built file `rel` (still the file `id`) written to a new file beside its name in the
/// folder, then renamed over it.
fn bring_file(
    built: &Folder,
    into: &Folder,
    rel: &Path,
    id: (u64, u64),
    owner: Option<(u32, u32)>,
    mode: u32,
) -> io::Result<()> {
    let (source_parent, name) = parent_of(built.fd.as_fd(), rel)?;
    let how = OpenHow::new()
        .flags(OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC)
        .resolve(ResolveFlag::RESOLVE_BENEATH | ResolveFlag::RESOLVE_NO_SYMLINKS);
    let mut source = File::from(nix::fcntl::openat2(&source_parent, name, how)?);
    let stat = nix::sys::stat::fstat(&source)?;
    if walk::id(&stat) != id {
        return Err(io::Error::from_raw_os_error(libc::ESTALE));
    }
    let (parent, _) = parent_of(into.fd.as_fd(), rel)?;
    let mut temporary = std::ffi::OsString::from(".");
    temporary.push(name);
    temporary.push(".referee-build");
    match nix::unistd::unlinkat(
        &parent,
        temporary.as_os_str(),
        nix::unistd::UnlinkatFlags::NoRemoveDir,
    ) {
        Ok(()) | Err(nix::errno::Errno::ENOENT) => {}
        Err(e) => return Err(e.into()),
    }
    let written = write_new(&parent, &temporary, &mut source, owner, mode).and_then(|_| {
        nix::fcntl::renameat(&parent, temporary.as_os_str(), &parent, name).map_err(io::Error::from)
    });
    if written.is_err() {
        let _ = nix::unistd::unlinkat(
            &parent,
            temporary.as_os_str(),
            nix::unistd::UnlinkatFlags::NoRemoveDir,
        );
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn folder(path: &Path) -> Folder {
        Folder::open(&path.canonicalize().unwrap()).unwrap()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
    }

    const ROOMY: Bound = Bound {
        bytes: 1 << 20,
        entries: 100,
    };

    /// A folder with a file, a program, a folder, a link, a FIFO and a results folder.
    fn source(root: &Path) -> PathBuf {
        let src = root.join("src");
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::create_dir_all(src.join("results")).unwrap();
        std::fs::write(src.join("results/record.json"), "seed").unwrap();
        std::fs::write(src.join("a.c"), "int x;").unwrap();
        std::fs::write(src.join("sub/prog"), "#!/bin/sh").unwrap();
        std::fs::set_permissions(src.join("sub/prog"), PermissionsExt::from_mode(0o4777)).unwrap();
        std::os::unix::fs::symlink("a.c", src.join("link")).unwrap();
        nix::unistd::mkfifo(&src.join("fifo"), Mode::from_bits_truncate(0o600)).unwrap();
        let old = nix::sys::time::TimeSpec::new(1_000_000, 0);
        nix::sys::stat::utimensat(
            nix::fcntl::AT_FDCWD,
            &src.join("a.c"),
            &old,
            &old,
            nix::sys::stat::UtimensatFlags::NoFollowSymlink,
        )
        .unwrap();
        src
    }

    #[test]
    fn a_copy_in_keeps_files_folders_links_and_times_and_leaves_the_rest_out() {
        let tmp = tempfile::tempdir().unwrap();
        let src = source(tmp.path());
        let dst = tmp.path().join("dst");
        std::fs::create_dir(&dst).unwrap();
        let to = folder(&dst);
        // SAFETY: plain id queries.
        let me = unsafe { (libc::getuid(), libc::getgid()) };
        let skip = [PathBuf::from("results")];
        let copied = copy_in(&folder(&src), &to.fd, &skip, Some(me), "full").unwrap();
        assert_eq!(std::fs::read_to_string(dst.join("a.c")).unwrap(), "int x;");
        assert_eq!(
            std::fs::read_to_string(dst.join("sub/prog")).unwrap(),
            "#!/bin/sh"
        );
        assert_eq!(mode(&dst.join("sub/prog")), 0o775);
        assert_eq!(
            mode(&dst.join("sub")),
            mode(&src.join("sub")) & 0o775 | 0o700
        );
        assert_eq!(
            std::fs::read_link(dst.join("link")).unwrap(),
            Path::new("a.c")
        );
        assert!(!dst.join("fifo").exists() && !dst.join("results").exists());
        assert_eq!(
            std::fs::metadata(dst.join("a.c")).unwrap().mtime(),
            1_000_000
        );
        assert_eq!(copied.unchanged.len(), 2);
        assert_eq!(copied.entries.len(), 3);
    }

    #[test]
    fn a_copy_back_brings_what_changed_removes_what_went_and_follows_no_link() {
        let tmp = tempfile::tempdir().unwrap();
        let src = source(tmp.path());
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let built = tmp.path().join("built");
        std::fs::create_dir(&built).unwrap();
        let into = folder(&src);
        let copied = copy_in(
            &into,
            &folder(&built).fd,
            &[PathBuf::from("results")],
            None,
            "",
        )
        .unwrap();
        // The build: a.c unchanged, prog rewritten, link removed, new files and folders, a
        // folder named as the real folder's link to elsewhere, a link, a results file.
        std::fs::write(built.join("sub/prog"), "built").unwrap();
        std::fs::remove_file(built.join("link")).unwrap();
        std::fs::create_dir_all(built.join("out/deep")).unwrap();
        std::fs::write(built.join("out/deep/made"), "made").unwrap();
        std::os::unix::fs::symlink("/etc", built.join("etc")).unwrap();
        std::fs::create_dir(built.join("results")).unwrap();
        std::fs::write(built.join("results/record.json"), "forged").unwrap();
        std::os::unix::fs::symlink(&elsewhere, src.join("escape")).unwrap();
        std::fs::create_dir(built.join("escape")).unwrap();
        std::fs::write(built.join("escape/planted"), "x").unwrap();
        std::fs::write(src.join("a.c"), "the contestant's own edit").unwrap();
        let skip = [PathBuf::from("results")];
        let err = copy_back(&folder(&built), &into, &copied, &skip, None, ROOMY).unwrap_err();
        assert!(err.contains("escape"), "{err}");
        assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none());
        assert_eq!(
            std::fs::read_to_string(src.join("sub/prog")).unwrap(),
            "built"
        );
        assert_eq!(
            std::fs::read_to_string(src.join("out/deep/made")).unwrap(),
            "made"
        );
        assert_eq!(
            std::fs::read_to_string(src.join("a.c")).unwrap(),
            "the contestant's own edit"
        );
        assert!(std::fs::symlink_metadata(src.join("link")).is_err());
        assert!(std::fs::symlink_metadata(src.join("etc")).is_err());
        assert_eq!(
            std::fs::read_to_string(src.join("results/record.json")).unwrap(),
            "seed"
        );
        std::fs::remove_dir_all(built.join("escape")).unwrap();
        let notes = copy_back(&folder(&built), &into, &copied, &skip, None, ROOMY).unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("1 link(s)"), "{notes:?}");
    }

    #[test]
    fn a_copy_back_over_its_bound_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir(&src).unwrap();
        let built = tmp.path().join("built");
        std::fs::create_dir(&built).unwrap();
        std::fs::write(built.join("big"), vec![0u8; 2048]).unwrap();
        std::fs::write(built.join("small"), "x").unwrap();
        let (into, copied) = (folder(&src), Copied::default());
        for bound in [
            Bound {
                bytes: 2048,
                entries: 100,
            },
            Bound {
                bytes: 1 << 20,
                entries: 1,
            },
        ] {
            let err = copy_back(&folder(&built), &into, &copied, &[], None, bound).unwrap_err();
            assert!(err.contains("more than its bound"), "{err}");
            assert!(std::fs::read_dir(&src).unwrap().next().is_none());
        }
        let exact = Bound {
            bytes: 2049,
            entries: 2,
        };
        let notes = copy_back(&folder(&built), &into, &copied, &[], None, exact).unwrap();
        assert_eq!(std::fs::metadata(src.join("big")).unwrap().len(), 2048);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn a_file_replaced_since_the_copy_in_is_not_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir(&src).unwrap();
        std::fs::write(src.join("gone"), "x").unwrap();
        std::fs::write(src.join("kept"), "x").unwrap();
        let built = tmp.path().join("built");
        std::fs::create_dir(&built).unwrap();
        let into = folder(&src);
        let copied = copy_in(&into, &folder(&built).fd, &[], None, "").unwrap();
        std::fs::remove_file(built.join("gone")).unwrap();
        std::fs::remove_file(built.join("kept")).unwrap();
        // Renamed, not removed: the new file cannot take its inode.
        std::fs::rename(src.join("kept"), src.join("kept.old")).unwrap();
        std::fs::write(src.join("kept"), "new").unwrap();
        copy_back(&folder(&built), &into, &copied, &[], None, ROOMY).unwrap();
        assert!(!src.join("gone").exists());
        assert_eq!(std::fs::read_to_string(src.join("kept")).unwrap(), "new");
    }

    #[test]
    fn a_full_copy_says_what_full_means() {
        let full = explained(io::Error::from_raw_os_error(libc::ENOSPC), "raise --disk");
        assert_eq!(full, "raise --disk");
        let other = explained(io::Error::from_raw_os_error(libc::EACCES), "raise --disk");
        assert!(!other.contains("--disk"), "{other}");
    }

    /// The folder holds `alias`, a link to its own folder `inner` (which holds `deep`), and
    /// a file `x`; the build makes folders under both names and files in them: nothing is
    /// written through the link, even to a folder inside, and a folder is never made or
    /// taken where a file is (both named in the error).
    #[test]
    fn no_link_inside_the_folder_is_followed_nor_a_file_taken_for_a_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir_all(src.join("inner/deep")).unwrap();
        std::os::unix::fs::symlink("inner", src.join("alias")).unwrap();
        std::fs::write(src.join("x"), "a file").unwrap();
        let built = tmp.path().join("built");
        std::fs::create_dir(&built).unwrap();
        let into = folder(&src);
        let copied = copy_in(&into, &folder(&built).fd, &[], None, "").unwrap();
        std::fs::remove_file(built.join("alias")).unwrap();
        std::fs::create_dir_all(built.join("alias/deep")).unwrap();
        std::fs::write(built.join("alias/deep/file"), "through").unwrap();
        std::fs::remove_file(built.join("x")).unwrap();
        std::fs::create_dir(built.join("x")).unwrap();
        let err = copy_back(&folder(&built), &into, &copied, &[], None, ROOMY).unwrap_err();
        assert!(!src.join("inner/deep/file").exists(), "{err}");
        assert!(
            err.contains("alias/deep/file") && err.contains("x:"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(src.join("x")).unwrap(), "a file");
    }

    /// A file the build removed whose folder the contestant removed meanwhile is gone
    /// already; one whose folder is now a link to elsewhere is named, and nothing elsewhere
    /// is removed.
    #[test]
    fn a_removal_whose_folder_went_is_done_and_one_through_a_link_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir_all(src.join("went")).unwrap();
        std::fs::create_dir_all(src.join("linked")).unwrap();
        std::fs::write(src.join("went/f"), "x").unwrap();
        std::fs::write(src.join("linked/f"), "x").unwrap();
        let built = tmp.path().join("built");
        std::fs::create_dir(&built).unwrap();
        let into = folder(&src);
        let copied = copy_in(&into, &folder(&built).fd, &[], None, "").unwrap();
        std::fs::remove_dir_all(built.join("went")).unwrap();
        std::fs::remove_dir_all(built.join("linked")).unwrap();
        std::fs::remove_dir_all(src.join("went")).unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::rename(src.join("linked"), &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, src.join("linked")).unwrap();
        let err = copy_back(&folder(&built), &into, &copied, &[], None, ROOMY).unwrap_err();
        assert!(err.contains("linked/f") && !err.contains("went"), "{err}");
        assert!(elsewhere.join("f").exists());
        std::fs::remove_file(src.join("linked")).unwrap();
        copy_back(&folder(&built), &into, &copied, &[], None, ROOMY).unwrap();
    }
}
