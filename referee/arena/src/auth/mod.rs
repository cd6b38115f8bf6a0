//! The results of a run authenticated with the organiser's key, so that whoever can write a
//! results folder (a shared cluster filesystem) but not read that key cannot make a resume
//! or a merge count a row or a record the referee did not write.
//!
//! Every MAC is HMAC-SHA256 under a [`RunKey`]: the organiser's key ([`key_file`]) bound to
//! the run (its kind, name and seed), so that a file of another tournament, even one of the
//! same key, does not verify. Over the exact bytes of each file, and for a match also bound
//! to its id (a record moved to another match does not verify):
//!
//! - `tournament.json.mac` (`gauntlet.json.mac`) beside the run's description;
//! - `matches/<id>/mac` beside a match's record: the record's MAC, its row's MAC, and the
//!   row itself (so that a row dropped from `matches.csv` is put back, never played again:
//!   [`Seal::row`]).
//!
//! A file that does not verify is refused, naming it and what to do; a MAC missing from an
//! authenticated run is refused (no falling back to "unauthenticated"). What the MACs cannot
//! prove, which matches were played (a match whose folder and row are both gone leaves
//! nothing to verify), the run's [`journal`] beside its key does.

pub mod journal;
pub mod key_file;
mod restore;

pub use journal::Journal;
pub use restore::restore_rows;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::path::{Path, PathBuf};

type HmacSha256 = Hmac<Sha256>;

/// The start of every MAC's message: its purpose and the format's version.
const DOMAIN: &[u8] = b"prologin-referee results MAC v1";

/// The organiser's secret: 32 random bytes from the operating system, kept in a file out of
/// the results folder and of every jail ([`key_file`]).
#[derive(Clone)]
pub struct MasterKey([u8; 32]);

impl MasterKey {
    /// A fresh key from the operating system's random source.
    pub fn random() -> MasterKey {
        MasterKey(rand::random())
    }

    /// The key as its file holds it: 64 lowercase hexadecimal digits and a newline.
    pub fn to_text(&self) -> String {
        format!("{}\n", crate::parts::hex(&self.0))
    }

    /// A key file's text, if it is one (surrounding whitespace aside).
    pub fn from_text(text: &str) -> Option<MasterKey> {
        parse_hex(text.trim()).map(MasterKey)
    }
}

impl std::fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MasterKey(..)")
    }
}

/// The MAC key of one run: the organiser's key bound to the run's kind (`tournament`,
/// `gauntlet`), name and seed. Every shard of a tournament has the same one.
#[derive(Clone)]
pub struct RunKey([u8; 32]);

impl std::fmt::Debug for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunKey(..)")
    }
}

/// The fields of a message, each preceded by its length (so that no two lists of fields
/// give the same bytes).
fn message(mac: &mut HmacSha256, fields: &[&[u8]]) {
    mac.update(DOMAIN);
    for field in fields {
        mac.update(&(field.len() as u64).to_le_bytes());
        mac.update(field);
    }
}

fn hmac_of(key: &[u8], fields: &[&[u8]]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    message(&mut mac, fields);
    mac
}

fn parse_hex(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

impl RunKey {
    /// The key of the run of `kind` named `name` with seed `seed` under `master`.
    pub fn of(master: &MasterKey, kind: &str, name: &str, seed: u64) -> RunKey {
        let seed = seed.to_le_bytes();
        let mac = hmac_of(
            &master.0,
            &[b"run", kind.as_bytes(), name.as_bytes(), &seed],
        );
        RunKey(mac.finalize().into_bytes().into())
    }

    fn mac(&self, fields: &[&[u8]]) -> HmacSha256 {
        hmac_of(&self.0, fields)
    }

    fn tag(&self, fields: &[&[u8]]) -> String {
        crate::parts::hex(&self.mac(fields).finalize().into_bytes())
    }

    /// Whether `tag` (hexadecimal) is the MAC of `fields`, compared in constant time.
    fn verifies(&self, fields: &[&[u8]], tag: &str) -> bool {
        parse_hex(tag).is_some_and(|t| self.mac(fields).verify_slice(&t).is_ok())
    }

    /// Writes `<file>.mac`, the MAC of `bytes`, the content of the run's description `file`
    /// (`tournament.json`, `gauntlet.json`), before the file itself is written: a crash in
    /// between leaves no description without its MAC.
    pub fn seal_description(&self, file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        let tag = self.tag(&[b"description", file_name(file).as_bytes(), bytes]);
        crate::store::write_atomic(&mac_path(file), format!("{tag}\n").as_bytes())
    }

    /// Checks `bytes`, read from the run's description `file`, against `<file>.mac`.
    pub fn verify_description(&self, file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        let path = mac_path(file);
        let tag = read_mac_file(&path, file)?;
        anyhow::ensure!(
            self.verifies(
                &[b"description", file_name(file).as_bytes(), bytes],
                tag.trim()
            ),
            "{} does not match its MAC ({}): it is not the file the referee wrote for this \
             run (edited, or from another run); restore the file the referee wrote",
            file.display(),
            path.display()
        );
        Ok(())
    }

    /// Writes the seal of match `id` (`mac` in its directory `dir`): the MAC of its
    /// `record.json` as it is on disk, and the MAC and bytes of its `row` of `matches.csv`.
    /// Written before the row is appended, so that a row is never without its seal.
    pub fn seal_match(&self, dir: &Path, id: u64, row: &[u8]) -> anyhow::Result<()> {
        let record = crate::store::read_bytes(&dir.join("record.json"), crate::run_bounds::RECORD)?;
        let id = id.to_le_bytes();
        let mut text = format!(
            "record {}\nrow {}\n",
            self.tag(&[b"record", &id, &record]),
            self.tag(&[b"row", &id, row])
        )
        .into_bytes();
        text.extend_from_slice(row);
        crate::store::write_match_file(&dir.join(SEAL), &text)
    }

    /// The seal of match `id` in its directory `dir`, its row's MAC checked (its record's
    /// is checked by [`Seal::verify_record`]). `None` if the directory has no seal.
    pub fn seal(&self, dir: &Path, id: u64) -> anyhow::Result<Option<Seal>> {
        let path = dir.join(SEAL);
        if !path.exists() {
            return Ok(None);
        }
        let bytes = crate::store::read_bytes(&path, crate::run_bounds::SEAL)?;
        let seal = Seal::parse(&bytes).ok_or_else(|| {
            anyhow::anyhow!(
                "{} is not a match's seal as the referee writes it; restore the file the \
                 referee wrote",
                path.display()
            )
        })?;
        anyhow::ensure!(
            self.verifies(&[b"row", &id.to_le_bytes(), &seal.row], &seal.row_mac),
            "{} does not verify for match {id} of this run (edited, or moved from another \
             match or run); restore the file the referee wrote",
            path.display()
        );
        Ok(Some(Seal { path, id, ..seal }))
    }
}

/// The name of a match's seal in its directory.
pub const SEAL: &str = "mac";

/// A match's seal, read back: its row (checked) and its record's MAC.
#[derive(Debug)]
pub struct Seal {
    path: PathBuf,
    id: u64,
    record_mac: String,
    row_mac: String,
    /// The row of `matches.csv` the referee wrote for the match, with its newline.
    pub row: Vec<u8>,
}

impl Seal {
    fn parse(bytes: &[u8]) -> Option<Seal> {
        let mut parts = bytes.splitn(3, |&b| b == b'\n');
        let record = std::str::from_utf8(parts.next()?)
            .ok()?
            .strip_prefix("record ")?;
        let row_mac = std::str::from_utf8(parts.next()?)
            .ok()?
            .strip_prefix("row ")?;
        let row = parts.next()?.to_vec();
        let one_line = row.iter().position(|&b| b == b'\n') == Some(row.len().checked_sub(1)?);
        one_line.then(|| Seal {
            path: PathBuf::new(),
            id: 0,
            record_mac: record.to_string(),
            row_mac: row_mac.to_string(),
            row,
        })
    }

    /// Checks the record `bytes` (its match's `record.json`) against the seal, under `key`.
    pub fn verify_record(&self, key: &RunKey, record: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        anyhow::ensure!(
            key.verifies(
                &[b"record", &self.id.to_le_bytes(), bytes],
                &self.record_mac
            ),
            "{} does not match its MAC ({}): it is not the record the referee wrote for match \
             {} of this run (edited, or moved from another match or run)",
            record.display(),
            self.path.display(),
            self.id
        );
        Ok(())
    }
}

/// Reads the run's description `file` (`tournament.json`, `gauntlet.json`) with `parse`;
/// under `master`, checks its bytes against its MAC with the run key of its `identity`
/// (the run's kind, name and seed), which it returns with it.
pub fn read_description<T>(
    file: &Path,
    master: Option<&MasterKey>,
    parse: impl FnOnce(&[u8]) -> anyhow::Result<T>,
    identity: impl FnOnce(&T) -> (&'static str, String, u64),
) -> anyhow::Result<(T, Option<RunKey>)> {
    let bytes = crate::store::read_bytes(file, crate::run_bounds::DESCRIPTION)?;
    let description = parse(&bytes)?;
    let Some(master) = master else {
        return Ok((description, None));
    };
    let (kind, name, seed) = identity(&description);
    let key = RunKey::of(master, kind, &name, seed);
    key.verify_description(file, &bytes)?;
    Ok((description, Some(key)))
}

/// `<file>.mac`.
pub fn mac_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".mac");
    PathBuf::from(name)
}

fn file_name(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The text of the MAC file `path` of `file`, or an error saying that it is missing.
fn read_mac_file(path: &Path, file: &Path) -> anyhow::Result<String> {
    if !path.exists() {
        anyhow::bail!(
            "{} is missing: this run is authenticated, so {} must carry its MAC (it was \
             removed, or the file is another run's); restore it",
            path.display(),
            file.display()
        );
    }
    crate::store::read_text(path, crate::run_bounds::MAC)
}

/// Whether the run whose description is `file` was authenticated: its MAC file, or a
/// match's seal in `matches/` beside it, exists.
pub fn is_authenticated(file: &Path) -> bool {
    if mac_path(file).exists() {
        return true;
    }
    let matches = file.with_file_name("matches");
    std::fs::read_dir(matches)
        .is_ok_and(|entries| entries.flatten().any(|e| e.path().join(SEAL).exists()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> RunKey {
        RunKey::of(&MasterKey([7; 32]), "tournament", "final", 2009)
    }

    /// A run's key depends on every part of the run's identity and on the organiser's key.
    #[test]
    fn a_run_key_is_bound_to_the_run() {
        let tag = |k: RunKey| k.tag(&[b"x"]);
        let base = tag(key());
        let master = MasterKey([7; 32]);
        for other in [
            RunKey::of(&MasterKey([8; 32]), "tournament", "final", 2009),
            RunKey::of(&master, "gauntlet", "final", 2009),
            RunKey::of(&master, "tournament", "final2", 2009),
            RunKey::of(&master, "tournament", "final", 2010),
        ] {
            assert_ne!(tag(other), base);
        }
        assert_eq!(tag(key()), base);
    }

    /// Fields are length-prefixed: moving a byte from one field to the next changes the MAC.
    #[test]
    fn fields_do_not_run_into_each_other() {
        assert_ne!(key().tag(&[b"ab", b"c"]), key().tag(&[b"a", b"bc"]));
        assert!(key().verifies(&[b"a"], &key().tag(&[b"a"])));
        assert!(!key().verifies(&[b"a"], &key().tag(&[b"b"])));
        assert!(!key().verifies(&[b"a"], "not hex"));
    }

    #[test]
    fn a_key_reads_back_from_its_text() {
        let k = MasterKey::random();
        let back = MasterKey::from_text(&k.to_text()).unwrap();
        assert_eq!(back.0, k.0);
        assert!(MasterKey::from_text("abc").is_none());
        assert!(MasterKey::from_text(&"zz".repeat(32)).is_none());
    }

    /// A seal verifies for its match only; a record edited or moved to another id does not.
    #[test]
    fn a_seal_verifies_its_row_and_record_for_its_match_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("record.json"), b"{\"a\":1}").unwrap();
        key().seal_match(dir.path(), 4, b"4,1,2\n").unwrap();
        let seal = key().seal(dir.path(), 4).unwrap().unwrap();
        assert_eq!(seal.row, b"4,1,2\n");
        let record = dir.path().join("record.json");
        seal.verify_record(&key(), &record, b"{\"a\":1}").unwrap();
        let err = seal
            .verify_record(&key(), &record, b"{\"a\":2}")
            .unwrap_err();
        assert!(format!("{err}").contains("does not match its MAC"), "{err}");
        let named = format!("({})", dir.path().join(SEAL).display());
        assert!(
            format!("{err}").contains(&named),
            "not naming its seal: {err}"
        );
        let err = key().seal(dir.path(), 5).unwrap_err();
        assert!(
            format!("{err}").contains("does not verify for match 5"),
            "{err}"
        );
        let other = RunKey::of(&MasterKey([7; 32]), "tournament", "final", 1);
        assert!(other.seal(dir.path(), 4).is_err());
    }

    /// A key's debug form (an error's context, a log) never shows its bytes.
    #[test]
    fn a_key_never_prints_its_bytes() {
        assert_eq!(format!("{:?}", MasterKey([7; 32])), "MasterKey(..)");
        assert_eq!(format!("{:?}", key()), "RunKey(..)");
    }

    /// A description's MAC is bound to its file's name: the same bytes under the other
    /// kind's name, its MAC copied beside them, do not verify.
    #[test]
    fn a_description_verifies_under_its_own_name_only() {
        let dir = tempfile::tempdir().unwrap();
        let tournament = dir.path().join("tournament.json");
        let gauntlet = dir.path().join("gauntlet.json");
        key().seal_description(&tournament, b"{}").unwrap();
        key().verify_description(&tournament, b"{}").unwrap();
        std::fs::copy(mac_path(&tournament), mac_path(&gauntlet)).unwrap();
        let err = key().verify_description(&gauntlet, b"{}").unwrap_err();
        assert!(format!("{err}").contains("does not match its MAC"), "{err}");
    }
}
