//! Champions as the user names them: a path to an executable, a directory holding a
//! `champion` executable, or a built-in bot name. Resolved and checked once, with errors
//! that name the fix.

use anyhow::{bail, Context};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A champion ready to be launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChampionSpec {
    /// Short name for tables: the file or directory name, or the bot name, as a
    /// [`crate::untrusted::label`].
    pub name: String,
    /// What the user wrote (kept for reproduce commands).
    pub given: String,
    /// The executable to start.
    pub program: PathBuf,
    /// Its arguments (empty but for built-in bots).
    pub args: Vec<String>,
    /// `builtin:<name>` or the executable's absolute path.
    pub path: String,
    /// SHA-256 of the executable (hex); for built-ins, of the referee binary.
    pub sha256: String,
}

/// Resolve what the user wrote for a champion.
pub fn resolve(given: &str) -> anyhow::Result<ChampionSpec> {
    let path = Path::new(given);
    if !path.exists() && engine::bots::NAMES.contains(&given) {
        let exe = std::env::current_exe().context("cannot find the referee's own executable")?;
        return Ok(ChampionSpec {
            name: given.to_string(),
            given: given.to_string(),
            sha256: sha256_of(&exe)?,
            program: exe,
            args: vec!["bot".to_string(), given.to_string()],
            path: format!("builtin:{given}"),
        });
    }
    let executable = if path.is_dir() {
        path.join("champion")
    } else {
        path.to_path_buf()
    };
    if !executable.exists() {
        let hint = if path.is_dir() {
            format!("a champion directory must hold an executable named `champion` (build it first, e.g. `make -C {given}`)")
        } else {
            format!(
                "check the path, or use a built-in champion: {}",
                engine::bots::NAMES.join(", ")
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
    // A label for tables: a file name may hold ESC or start like a spreadsheet formula.
    let name = path
        .canonicalize()
        .ok()
        .and_then(|p| {
            p.file_name()
                .map(|n| crate::untrusted::label(&n.to_string_lossy()))
        })
        .unwrap_or_else(|| crate::untrusted::label(given));
    Ok(ChampionSpec {
        name,
        given: given.to_string(),
        sha256: sha256_of(&program)?,
        path: program.display().to_string(),
        program,
        args: Vec::new(),
    })
}

fn sha256_of(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
