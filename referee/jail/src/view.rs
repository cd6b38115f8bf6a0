//! The file system a jailed champion sees, built by its init in a fresh mount namespace:
//! a read-only tmpfs root holding read-only binds of the system directories (for a build,
//! also the compilers' data kept outside them, `BUILD_SYSTEM`), the
//! champion's own files at [`CHAMPION_DIR`], the kits the operator installed under
//! [`KITS_DIR`] (never a folder a contestant controls), a fresh `/proc` (its machine-wide
//! counters hidden, [`crate::proc_masks`]), a minimal `/dev`,
//! and a private size-limited tmpfs at `/tmp` (its home, scratch and temporary directory).
//! Nothing else of the host exists inside: not the operator's files, the referee, the
//! results (a results folder under the champion's own is hidden, [`View::masks`]) or the
//! other champions.
//!
//! The champion's files are bound from what the referee checked, never from a path looked
//! up again: the init opens the path through no link in its own mount namespace and binds
//! it only when it is the file the referee checked ([`View::checked`], its device and
//! inode); one swapped meanwhile stops the jail, named. A build ([`View::build`]) binds no
//! host file writable: its `/champion` and `/tmp` are one tmpfs of [`View::disk`] bytes and
//! [`View::inodes`] files, which the referee fills through a descriptor the init hands it
//! (`View::enter`) and reads back once the build is over.
//!
//! The steps follow bubblewrap: a staging tmpfs is mounted on `/tmp` and pivoted into, so
//! that the host tree stays reachable at `/oldroot` while the new root is filled, then the
//! new root is pivoted into and the old one detached.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use nix::libc;
use serde::{Deserialize, Serialize};

/// Where the champion's own files are, inside.
pub const CHAMPION_DIR: &str = "/champion";
/// The variable of the referee's environment that makes [`View::remount`] true (for tests).
pub const REMOUNT_VARIABLE: &str = "REFEREE_JAIL_REMOUNT";
/// The variable of the referee's environment that makes [`View::proc_subset`] false, as
/// on a kernel that refuses `subset=pid` (for tests of the masks).
pub const PROC_MASKED_VARIABLE: &str = "REFEREE_JAIL_PROC_MASKED";

/// Where the bundled kits are, inside: `/kits/<language>`.
pub const KITS_DIR: &str = "/kits";
/// The champion's home, scratch and temporary directory, inside.
pub const SCRATCH_DIR: &str = "/tmp";

/// System directories bound read-only when they exist (a symlink is recreated as such).
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];
/// Folders outside [`SYSTEM`] that a compiler needs, bound read-only for a build only (the
/// built program never reads them): Debian's GHC keeps its package database in
/// `/var/lib/ghc` (`/usr/lib/ghc/package.conf.d` is a link to it), without which `ghc`
/// finds not even `base`.
pub(crate) const BUILD_SYSTEM: &[&str] = &["/var/lib/ghc"];
/// Devices bound into the minimal `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// What to show one champion.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct View {
    /// The champion's own files on the host: its folder, or its program alone.
    pub champion: PathBuf,
    /// Whether `champion` is a folder (read on the host: inside, the host is gone).
    pub champion_is_dir: bool,
    /// The device and inode the referee checked `champion` to be: the init binds it only
    /// when the path, opened through no link inside, is still that file.
    pub checked: (u64, u64),
    /// A build (`referee build`): `/champion` and `/tmp` are one tmpfs of `disk` bytes and
    /// `inodes` files, filled by the referee (`champion` is not bound at all).
    pub build: bool,
    /// Bundled kits: (language, host folder).
    pub kits: Vec<(String, PathBuf)>,
    /// Host paths inside `champion` to hide behind an empty read-only tmpfs (results
    /// folders kept under a champion's folder), parents before their children.
    pub masks: Vec<PathBuf>,
    /// Size of the `/tmp` tmpfs, in bytes (for a build, of `/champion` and `/tmp` together).
    pub disk: u64,
    /// Files and folders of a build's tmpfs, at most.
    pub inodes: u64,
    /// Owner of `/tmp` (the champion's uid and gid, as seen from the mount namespace).
    pub owner: (u32, u32),
    /// Make mounts read-only by a remount, as on kernels before 5.12 (no
    /// `mount_setattr`), even where `mount_setattr` exists: [`REMOUNT_VARIABLE`] set, so
    /// that the tests run that path too.
    pub remount: bool,
    /// Whether `/proc` is mounted with `subset=pid` (the processes' own directories only:
    /// no file that counts for the whole machine); else every file, with
    /// [`crate::proc_masks::MASKED`] covered one by one (kernels before 5.8).
    pub proc_subset: bool,
}

impl View {
    /// The path inside the jail of a host path under the champion's files.
    pub fn inside(&self, host: &Path) -> Option<PathBuf> {
        if self.champion_is_dir {
            let rel = host.strip_prefix(&self.champion).ok()?;
            Some(Path::new(CHAMPION_DIR).join(rel))
        } else if host == self.champion {
            Some(Path::new(CHAMPION_DIR).join(host.file_name()?))
        } else {
            None
        }
    }

    /// Builds the view and makes it the root of the calling process, which must be alone
    /// in a new mount namespace, and in a new PID namespace (for `/proc`). For a build,
    /// returns a descriptor of its tmpfs (holding `champion` and `tmp`), for the referee.
    pub(crate) fn enter(&self) -> Result<Option<OwnedFd>, String> {
        let at = |what: &str, e: io::Error| format!("{what}: {e}");
        mount(None, "/", None, libc::MS_REC | libc::MS_PRIVATE, None)
            .map_err(|e| at("making / private", e))?;
        mount(
            Some("tmpfs"),
            "/tmp",
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some("mode=0755,size=1m"),
        )
        .map_err(|e| at("staging tmpfs on /tmp", e))?;
        for dir in ["/tmp/newroot", "/tmp/oldroot"] {
            mkdir(dir).map_err(|e| at(dir, e))?;
        }
        mount(
            Some("tmpfs"),
            "/tmp/newroot",
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some("mode=0755,size=1m,nr_inodes=4096"),
        )
        .map_err(|e| at("root tmpfs", e))?;
        pivot_root("/tmp", "/tmp/oldroot").map_err(|e| at("first pivot_root", e))?;
        chdir("/").map_err(|e| at("chdir /", e))?;
        let build = self.fill()?;
        chdir("/newroot").map_err(|e| at("chdir /newroot", e))?;
        pivot_root(".", ".").map_err(|e| at("second pivot_root", e))?;
        umount_detach(".").map_err(|e| at("detaching the host tree", e))?;
        chdir("/").map_err(|e| at("chdir /", e))?;
        set_readonly("/", false, self.remount).map_err(|e| at("read-only root", e))?;
        Ok(build)
    }

    /// Fills `/newroot` from the host tree at `/oldroot`; a build's tmpfs, for a build.
    fn fill(&self) -> Result<Option<OwnedFd>, String> {
        let ctx = |what: String| move |e: io::Error| format!("{what}: {e}");
        for dir in SYSTEM {
            let src = format!("/oldroot{dir}");
            let dst = format!("/newroot{dir}");
            match std::fs::symlink_metadata(&src) {
                Ok(m) if m.file_type().is_symlink() => {
                    let target = std::fs::read_link(&src).map_err(ctx(src.clone()))?;
                    std::os::unix::fs::symlink(target, &dst).map_err(ctx(dst.clone()))?;
                }
                Ok(m) if m.is_dir() => {
                    bind_readonly(Path::new(&src), &dst, true, self.remount).map_err(ctx(dst))?
                }
                _ => {}
            }
        }
        if self.build {
            for dir in BUILD_SYSTEM {
                let src = format!("/oldroot{dir}");
                if !Path::new(&src).is_dir() {
                    continue;
                }
                let dst = format!("/newroot{dir}");
                std::fs::create_dir_all(&dst).map_err(ctx(dst.clone()))?;
                bind_readonly(Path::new(&src), &dst, true, self.remount).map_err(ctx(dst))?;
            }
        }
        let root = Path::new("/oldroot");
        let host = |p: &Path| root.join(p.strip_prefix("/").unwrap_or(p));
        let build = if self.build {
            Some(self.fill_build().map_err(ctx("the build's tmpfs".into()))?)
        } else {
            self.bind_champion()?;
            None
        };
        if !self.kits.is_empty() {
            mkdir("/newroot/kits").map_err(ctx("/newroot/kits".into()))?;
            for (language, dir) in &self.kits {
                let dst = format!("/newroot/kits/{language}");
                bind_readonly(&host(dir), &dst, true, self.remount)
                    .map_err(ctx(format!("the bundled kit {}", dir.display())))?;
            }
        }
        let proc_dir = "/newroot/proc";
        mkdir(proc_dir).map_err(ctx(proc_dir.into()))?;
        mount(
            Some("proc"),
            proc_dir,
            Some("proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            self.proc_subset.then_some("subset=pid"),
        )
        .map_err(ctx(if self.proc_subset {
            "a fresh /proc with subset=pid".into()
        } else {
            "a fresh /proc".into()
        }))?;
        if !self.proc_subset {
            // The staging root's own file: it stays behind its binds once that root is gone.
            crate::proc_masks::mask(proc_dir, "/proc-empty", |empty, target| {
                bind_readonly(empty, target, false, self.remount)
            })?;
        }
        self.fill_dev().map_err(ctx("the minimal /dev".into()))?;
        if build.is_some() {
            return Ok(build);
        }
        let scratch = "/newroot/tmp";
        mkdir(scratch).map_err(ctx(scratch.into()))?;
        let (uid, gid) = self.owner;
        let options = format!(
            "mode=0700,uid={uid},gid={gid},size={},nr_inodes={}",
            self.disk.max(4096),
            INODES
        );
        mount(
            Some("tmpfs"),
            scratch,
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(&options),
        )
        .map_err(ctx(format!("the scratch tmpfs ({options})")))?;
        Ok(None)
    }

    /// Binds the champion's own files (its folder or its program), read-only, from what the
    /// referee checked, and hides the results folders under them.
    fn bind_champion(&self) -> Result<(), String> {
        let ctx = |what: String| move |e: io::Error| format!("{what}: {e}");
        let host =
            Path::new("/oldroot").join(self.champion.strip_prefix("/").unwrap_or(&self.champion));
        let checked = open_checked(&host, self.champion_is_dir, self.checked)
            .map_err(|e| format!("{}: {e}", crate::untrusted::printable_path(&self.champion)))?;
        // The descriptor's own entry in the host's /proc names the file opened, not a path.
        let source = PathBuf::from(format!("/oldroot/proc/self/fd/{}", checked.as_raw_fd()));
        if !self.champion_is_dir {
            mkdir(CHAMPION_DIR_NEW).map_err(ctx(CHAMPION_DIR_NEW.into()))?;
            let name = self.champion.file_name().unwrap_or_default();
            let dst = Path::new(CHAMPION_DIR_NEW).join(name);
            touch(&dst).map_err(ctx(dst.display().to_string()))?;
            return bind_readonly(&source, &dst.to_string_lossy(), false, self.remount)
                .map_err(ctx(format!("the champion {}", self.champion.display())));
        }
        bind_readonly(&source, CHAMPION_DIR_NEW, true, self.remount).map_err(ctx(format!(
            "the champion's folder {}",
            self.champion.display()
        )))?;
        for mask in &self.masks {
            let Ok(rel) = mask.strip_prefix(&self.champion) else {
                continue;
            };
            let dst = Path::new(CHAMPION_DIR_NEW).join(rel);
            if dst.is_dir() {
                mount(
                    Some("tmpfs"),
                    &dst.to_string_lossy(),
                    Some("tmpfs"),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_RDONLY,
                    Some("size=4k,nr_inodes=1"),
                )
                .map_err(ctx(format!("hiding {}", mask.display())))?;
            }
        }
        Ok(())
    }

    /// A build's tmpfs, out of the new root: its `champion` folder bound writable at
    /// `/champion` and its `tmp` at `/tmp` (both the build's uid's, nothing of the host);
    /// returns a descriptor of it, which the referee fills and reads back.
    fn fill_build(&self) -> io::Result<OwnedFd> {
        let top = "/build";
        mkdir(top)?;
        let options = format!(
            "mode=0755,size={},nr_inodes={}",
            self.disk.max(4096),
            self.inodes.max(16)
        );
        mount(
            Some("tmpfs"),
            top,
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(&options),
        )?;
        let (uid, gid) = self.owner;
        for (dir, mode, inside) in [
            ("champion", 0o755, CHAMPION_DIR_NEW),
            ("tmp", 0o700, "/newroot/tmp"),
        ] {
            let path = format!("{top}/{dir}");
            std::fs::DirBuilder::new().mode(mode).create(&path)?;
            std::os::unix::fs::chown(&path, Some(uid), Some(gid))?;
            bind_writable(Path::new(&path), inside, self.remount)?;
        }
        std::fs::File::open(top).map(OwnedFd::from)
    }

    fn fill_dev(&self) -> io::Result<()> {
        let dev = "/newroot/dev";
        mkdir(dev)?;
        mount(
            Some("tmpfs"),
            dev,
            Some("tmpfs"),
            libc::MS_NOSUID | libc::MS_NOEXEC,
            Some("mode=0755,size=64k,nr_inodes=64"),
        )?;
        for name in DEVICES {
            let dst = format!("{dev}/{name}");
            touch(Path::new(&dst))?;
            mount(
                Some(&format!("/oldroot/dev/{name}")),
                &dst,
                None,
                libc::MS_BIND,
                None,
            )?;
            // Read-only (its data still flows: a device is not written through its mount),
            // so that no jail changes the host node's times, which every jail sees.
            set_device_readonly(&dst, self.remount)?;
        }
        for (name, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
            ("shm", SCRATCH_DIR),
        ] {
            std::os::unix::fs::symlink(target, format!("{dev}/{name}"))?;
        }
        set_readonly(dev, false, self.remount)
    }
}

/// Opens `host` (a folder when `folder`) through no link, and checks that it is the file
/// `checked` (device, inode) that the referee checked: a file swapped since is refused.
fn open_checked(host: &Path, folder: bool, checked: (u64, u64)) -> io::Result<OwnedFd> {
    use nix::fcntl::{OFlag, OpenHow, ResolveFlag};
    let mut flags = OFlag::O_PATH | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW;
    if folder {
        flags |= OFlag::O_DIRECTORY;
    }
    let how = OpenHow::new()
        .flags(flags)
        .resolve(ResolveFlag::RESOLVE_NO_SYMLINKS | ResolveFlag::RESOLVE_NO_MAGICLINKS);
    let fd = nix::fcntl::openat2(nix::fcntl::AT_FDCWD, host, how).map_err(|e| {
        io::Error::other(format!("cannot open it through no link ({e}): was it replaced by a link since the referee checked it?"),
        )
    })?;
    let stat = nix::sys::stat::fstat(&fd).map_err(io::Error::from)?;
    if (stat.st_dev, stat.st_ino) != checked {
        return Err(io::Error::other(format!(
            "it is no longer what the referee checked (device {} inode {}, not {} {}): it \
                 was replaced since, so its jail is not started",
            stat.st_dev, stat.st_ino, checked.0, checked.1
        )));
    }
    Ok(fd)
}

/// Inodes of the scratch tmpfs: enough for any honest champion, few enough that a
/// directory bomb ends quickly (it is freed with the mount namespace anyway).
const INODES: u64 = 65_536;
const CHAMPION_DIR_NEW: &str = "/newroot/champion";

fn cstr(s: &str) -> io::Result<CString> {
    CString::new(s).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn check(r: libc::c_int) -> io::Result<()> {
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn mount(
    source: Option<&str>,
    target: &str,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> io::Result<()> {
    let source = source.map(cstr).transpose()?;
    let target = cstr(target)?;
    let fstype = fstype.map(cstr).transpose()?;
    let data = data.map(cstr).transpose()?;
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: every pointer is a valid C string or null.
    check(unsafe {
        libc::mount(
            ptr(&source),
            target.as_ptr(),
            ptr(&fstype),
            flags,
            ptr(&data).cast(),
        )
    })
}

fn mkdir(path: &str) -> io::Result<()> {
    std::fs::create_dir(path)
}

fn touch(path: &Path) -> io::Result<()> {
    std::fs::File::create(path).map(drop)
}

fn chdir(path: &str) -> io::Result<()> {
    std::env::set_current_dir(path)
}

fn pivot_root(new_root: &str, put_old: &str) -> io::Result<()> {
    let (a, b) = (cstr(new_root)?, cstr(put_old)?);
    // SAFETY: two valid C strings.
    let r = unsafe { libc::syscall(libc::SYS_pivot_root, a.as_ptr(), b.as_ptr()) };
    check(r as libc::c_int)
}

fn umount_detach(path: &str) -> io::Result<()> {
    let p = cstr(path)?;
    // SAFETY: a valid C string.
    check(unsafe { libc::umount2(p.as_ptr(), libc::MNT_DETACH) })
}

/// Binds `src` on `dst` (created), read-only, no setuid, no devices; `recursive` for a
/// folder and everything mounted under it (`remount`: see [`set_readonly`]).
fn bind_readonly(src: &Path, dst: &str, recursive: bool, remount: bool) -> io::Result<()> {
    if recursive && !Path::new(dst).exists() {
        mkdir(dst)?;
    }
    let src = src.as_os_str().as_bytes();
    let src = std::str::from_utf8(src).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    let rec = if recursive { libc::MS_REC } else { 0 };
    mount(Some(src), dst, None, libc::MS_BIND | rec, None)?;
    set_readonly(dst, recursive, remount)
}

/// Binds the folder `src` on `dst` (created) with everything mounted under it, writable but
/// with no setuid and no devices (what a build writes must not gain privileges on the host).
fn bind_writable(src: &Path, dst: &str, remount: bool) -> io::Result<()> {
    mkdir(dst)?;
    let src = src.as_os_str().as_bytes();
    let src = std::str::from_utf8(src).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    mount(Some(src), dst, None, libc::MS_BIND | libc::MS_REC, None)?;
    set_flags(dst, true, remount, false)
}

/// Adds read-only, nosuid and nodev to the mount at `path` (and, `recursive`, the mounts
/// under it). `mount_setattr` only adds flags, so the flags a user namespace locks (such
/// as `noexec` of the source) are kept; older kernels get a remount with those flags read
/// back with `statvfs` (and every kernel, with `remount`: [`View::remount`]).
fn set_readonly(path: &str, recursive: bool, remount: bool) -> io::Result<()> {
    set_flags(path, recursive, remount, true)
}

/// Adds read-only and nosuid, not nodev, to the bind of a device node at `path`: reads and
/// writes of the device still work, its inode (times, mode) is no jail's to change.
fn set_device_readonly(path: &str, remount: bool) -> io::Result<()> {
    set_mount_flags(path, false, remount, true, false)
}

/// Adds nosuid and nodev (and read-only when `readonly`) to the mount at `path`: see
/// [`set_readonly`].
fn set_flags(path: &str, recursive: bool, remount: bool, readonly: bool) -> io::Result<()> {
    set_mount_flags(path, recursive, remount, readonly, true)
}

/// Adds nosuid (and read-only when `readonly`, nodev when `nodev`) to the mount at `path`.
fn set_mount_flags(
    path: &str,
    recursive: bool,
    remount: bool,
    readonly: bool,
    nodev: bool,
) -> io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const MOUNT_ATTR_NOSUID: u64 = 0x2;
    const MOUNT_ATTR_NODEV: u64 = 0x4;
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let p = cstr(path)?;
    let rdonly = if readonly { MOUNT_ATTR_RDONLY } else { 0 };
    let no_devices = if nodev { MOUNT_ATTR_NODEV } else { 0 };
    let attr = MountAttr {
        attr_set: rdonly | MOUNT_ATTR_NOSUID | no_devices,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    let flags = if recursive { AT_RECURSIVE } else { 0 };
    if !remount {
        // SAFETY: a valid C string and a mount_attr of the size given.
        let r = unsafe {
            libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                p.as_ptr(),
                flags,
                &attr as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            )
        };
        if r == 0 {
            return Ok(());
        }
        if io::Error::last_os_error().raw_os_error() != Some(libc::ENOSYS) {
            return Err(io::Error::last_os_error());
        }
    }
    let vfs = nix::sys::statvfs::statvfs(path).map_err(io::Error::from)?;
    let kept = vfs.flags().bits() as libc::c_ulong
        & (libc::MS_NOEXEC | libc::MS_NOATIME | libc::MS_NODIRATIME | libc::MS_RELATIME);
    let rdonly = if readonly { libc::MS_RDONLY } else { 0 };
    let no_devices = if nodev { libc::MS_NODEV } else { 0 };
    mount(
        None,
        path,
        None,
        libc::MS_REMOUNT | libc::MS_BIND | rdonly | libc::MS_NOSUID | no_devices | kept,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(champion: &str) -> View {
        View {
            champion: PathBuf::from(champion),
            champion_is_dir: Path::new(champion).is_dir(),
            checked: (0, 0),
            build: false,
            kits: Vec::new(),
            masks: Vec::new(),
            disk: 1 << 20,
            inodes: 0,
            owner: (0, 0),
            remount: false,
            proc_subset: false,
        }
    }

    #[test]
    fn a_folder_champion_is_seen_at_champion() {
        let dir = std::env::temp_dir();
        let v = view(dir.to_str().unwrap());
        assert_eq!(
            v.inside(&dir.join("champion")),
            Some(PathBuf::from("/champion/champion"))
        );
        assert_eq!(v.inside(Path::new("/elsewhere/x")), None);
    }

    #[test]
    fn a_single_file_champion_is_seen_alone() {
        let v = view("/nonexistent/dir/bot.sh");
        assert_eq!(
            v.inside(Path::new("/nonexistent/dir/bot.sh")),
            Some(PathBuf::from("/champion/bot.sh"))
        );
        assert_eq!(v.inside(Path::new("/nonexistent/dir/other.sh")), None);
    }
}
