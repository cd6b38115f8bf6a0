//! The organiser's token: what the site's forms (start a game, create or start a
//! tournament) must carry to act. One file, `organiser.token` in the store's folder, made
//! by the server at its first start (or by `referee serve token`), mode 0600, refused if
//! anyone but its owner could read or replace it. The server never prints it nor shows it
//! on a page; the organiser reads it with `referee serve token` on the server's machine.

use anyhow::Context;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use subtle::ConstantTimeEq;

/// The token file's name, in the store's folder.
pub const FILE: &str = "organiser.token";

/// The token file of the store `store`.
pub fn path(store: &Path) -> PathBuf {
    match store.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(FILE),
        _ => PathBuf::from(FILE),
    }
}

/// A new token: 128 random bits, 32 hexadecimal digits.
fn fresh() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// The token of `file`, made first if there is none (`again`: a new one replaces it).
pub fn ensure(file: &Path, again: bool) -> anyhow::Result<String> {
    if again {
        // A new file beside, then renamed over the old: the old token stops working.
        let temp = file.with_extension("token.new");
        let _ = std::fs::remove_file(&temp);
        write_new(&temp)?;
        std::fs::rename(&temp, file)
            .with_context(|| format!("cannot replace {}", file.display()))?;
        return read(file);
    }
    match write_new(file) {
        Ok(()) => {}
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::AlreadyExists) => {}
        Err(e) => return Err(e),
    }
    read(file)
}

/// Writes a fresh token into the new file `file` (mode 0600, never through a link).
fn write_new(file: &Path) -> anyhow::Result<()> {
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => anyhow::Error::new(e),
            _ => anyhow::Error::new(e).context(format!("cannot create {}", file.display())),
        })?;
    out.write_all(format!("{}\n", fresh()).as_bytes())
        .and_then(|()| out.sync_all())
        .with_context(|| format!("cannot write {}", file.display()))
}

/// The token of `file`: a regular file of the user running the server that no one else
/// may read or write, holding 32 hexadecimal digits.
pub fn read(file: &Path) -> anyhow::Result<String> {
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(file)
        .with_context(|| format!("cannot read the organiser's token {}", file.display()))?;
    let meta = opened.metadata()?;
    anyhow::ensure!(
        meta.is_file(),
        "the organiser's token {} is not a regular file",
        file.display()
    );
    // SAFETY: no arguments; it cannot fail.
    let me = unsafe { nix::libc::geteuid() };
    anyhow::ensure!(
        meta.uid() == me,
        "the organiser's token {} belongs to uid {}, not to the server's user (uid {me}): \
         remove it, the server makes another",
        file.display(),
        meta.uid()
    );
    anyhow::ensure!(
        meta.mode() & 0o077 == 0,
        "the organiser's token {} may be read or written by others (mode {:o}): `chmod 600` \
         it, or remove it and make a new one (referee serve token)",
        file.display(),
        meta.mode() & 0o777
    );
    let mut text = String::new();
    opened
        .take(256)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let token = text.trim();
    anyhow::ensure!(
        token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{} is not an organiser's token (32 hexadecimal digits): remove it, the server makes \
         another",
        file.display()
    );
    Ok(token.to_string())
}

/// Whether `given` is the token of `file` (read again: a new token works at once). Their
/// digests (of one length, whatever was given) are compared in constant time, so the time
/// taken tells nothing of the token.
pub fn is_organiser(file: &Path, given: &str) -> bool {
    let Ok(token) = read(file) else { return false };
    let (token, given) = (
        Sha256::digest(token.as_bytes()),
        Sha256::digest(given.trim().as_bytes()),
    );
    token.as_slice().ct_eq(given.as_slice()).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_token_is_made_once_kept_private_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = path(&dir.path().join("server.sqlite"));
        assert_eq!(file, dir.path().join(FILE));
        let token = ensure(&file, false).unwrap();
        assert_eq!(token.len(), 32);
        assert_eq!(ensure(&file, false).unwrap(), token, "made once");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(is_organiser(&file, &token));
        assert!(!is_organiser(&file, ""));
        assert!(!is_organiser(&file, &token[1..]));
        let new = ensure(&file, true).unwrap();
        assert_ne!(new, token);
        assert!(!is_organiser(&file, &token), "the old one stops working");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = read(&file).unwrap_err().to_string();
        assert!(refused.contains("chmod 600"), "{refused}");
        assert!(
            !is_organiser(&file, &new),
            "a token others read acts no more"
        );
    }
}
