//! Which key file a run uses (`--key FILE`, else `REFEREE_KEY`, else the default one of its
//! results folder: `auth::key_file`), and what a resume or a merge does without one: a run
//! started before results were authenticated goes on with a warning; an authenticated one
//! without its key, or a key given for a run whose MACs are gone, is refused.

use super::Failure;
use crate::auth::{self, key_file, MasterKey};
use anyhow::anyhow;
use std::path::{Path, PathBuf};

/// Where a run's key file is, and who said so.
#[derive(Debug)]
pub(crate) struct KeyPlace {
    pub path: PathBuf,
    /// `--key FILE`, `REFEREE_KEY=FILE`, or `None` for the default.
    given: Option<&'static str>,
}

impl KeyPlace {
    /// The key file of the run whose folder is `top` (`results/<name>`, its shards' parent):
    /// `flag`, else `$REFEREE_KEY`, else the default; refused inside `results`.
    pub fn of(flag: Option<&Path>, top: &Path, results: &Path) -> Result<KeyPlace, Failure> {
        let place = if let Some(path) = flag {
            KeyPlace {
                path: path.to_path_buf(),
                given: Some("--key FILE"),
            }
        } else if let Some(path) = std::env::var_os(key_file::ENV).filter(|v| !v.is_empty()) {
            KeyPlace {
                path: path.into(),
                given: Some("REFEREE_KEY=FILE"),
            }
        } else {
            let path = key_file::default_path(top).map_err(|e| {
                Failure::usage(anyhow!(
                    "no place for the key that authenticates the results ({e:#}): give a key \
                     file with --key FILE or REFEREE_KEY=FILE (created if missing)"
                ))
            })?;
            KeyPlace { path, given: None }
        };
        key_file::check_outside(&place.path, results).map_err(Failure::usage)?;
        Ok(place)
    }

    /// The key of a new run: read, or created if the file is missing.
    pub fn open(&self) -> Result<MasterKey, Failure> {
        key_file::read_or_create(&self.path).map_err(|e| self.failure(e))
    }

    fn failure(&self, e: anyhow::Error) -> Failure {
        Failure::usage(anyhow!(
            "{e:#}; the key {}",
            match self.given {
                Some(how) => format!("was given by {how}"),
                None => "is this results folder's default; give another with --key FILE or \
                         REFEREE_KEY=FILE"
                    .to_string(),
            }
        ))
    }

    /// The key of an existing run whose descriptions are `files` (its `tournament.json`, or
    /// each shard's): `None` for a run started before results were authenticated, said
    /// once on stderr. Refused: an authenticated run without its key, and a key for a run
    /// without MACs (they were removed: no falling back to "unauthenticated").
    pub fn existing(&self, files: &[PathBuf]) -> Result<Option<MasterKey>, Failure> {
        let authenticated: Vec<bool> = files.iter().map(|f| auth::is_authenticated(f)).collect();
        let found = self.given.is_some() || self.path.exists();
        if found {
            let key = key_file::read(&self.path).map_err(|e| self.failure(e))?;
            if let Some((file, _)) = files.iter().zip(&authenticated).find(|(_, a)| !**a) {
                return Err(Failure::usage(anyhow!(
                    "{} has no MAC ({} is missing, and so is every match's) although its \
                     key exists ({}): its MACs were removed, or it is another run put in \
                     this one's place; restore the files the referee wrote. A run started \
                     before results were authenticated has no key: resume or merge it \
                     without --key and REFEREE_KEY",
                    file.display(),
                    auth::mac_path(file).display(),
                    self.path.display()
                )));
            }
            return Ok(Some(key));
        }
        if let Some((file, _)) = files.iter().zip(&authenticated).find(|(_, a)| **a) {
            return Err(Failure::usage(anyhow!(
                "{} is authenticated, but its key is not at {} (this results folder's \
                 default): give its key file with --key FILE or REFEREE_KEY=FILE",
                file.display(),
                self.path.display()
            )));
        }
        let dirs: Vec<String> = files
            .iter()
            .map(|f| {
                let dir = f.parent().unwrap_or(Path::new("."));
                jail::untrusted::printable_path(dir)
            })
            .collect();
        eprintln!(
            "warning: {} not authenticated (started before results were signed with a key): \
             {} rows and records are checked against each other, not against a key",
            match dirs.as_slice() {
                [one] => format!("{one} is"),
                many => format!("{} are", many.join(", ")),
            },
            if dirs.len() == 1 { "its" } else { "their" }
        );
        Ok(None)
    }
}
