//! Where a tournament's champions come from: names on the command line, every entry of a
//! directory, or a manifest file; and the unique short names they get in the results.
//!
//! A manifest has one champion per line, `[name =] champion`, where `champion` is what
//! `referee match` accepts (an executable, a directory holding `champion`, or a built-in
//! bot) and a relative path is taken from the manifest's directory. `#` starts a comment.
//! A champion needing arguments is wrapped in a script, so that the one-line reproduce
//! command of each match stays valid.
//!
//! ```text
//! # finalists.txt
//! alice = alice/            # a directory holding `champion`
//! bob   = bob/run.sh
//! greedy                    # a built-in bot
//! ```

use anyhow::{bail, Context};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A champion as listed: an optional display name and what `roster::resolve` takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: Option<String>,
    pub given: String,
}

/// Parse a manifest; `base` is the manifest's directory.
pub fn parse(text: &str, base: &Path, builtins: &[&str]) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (name, champion) = match line.split_once('=') {
            Some((name, champion)) => (Some(name.trim().to_string()), champion.trim()),
            None => (None, line),
        };
        if champion.is_empty() || name.as_deref() == Some("") {
            return Err(format!(
                "line {}: expected `[name =] champion`, got `{line}`",
                number + 1
            ));
        }
        if name.as_deref().is_some_and(|n| n.contains([',', '"', ' '])) {
            return Err(format!(
                "line {}: a name may not hold spaces, commas or quotes",
                number + 1
            ));
        }
        let is_bare = builtins.contains(&champion)
            || Path::new(champion).is_absolute()
            || base.as_os_str().is_empty();
        let given = if is_bare {
            champion.to_string()
        } else {
            base.join(champion).display().to_string()
        };
        entries.push(Entry { name, given });
    }
    Ok(entries)
}

/// Read a manifest file.
pub fn read(path: &Path, builtins: &[&str]) -> anyhow::Result<Vec<Entry>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new(""));
    parse(&text, base, builtins).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Every champion of a directory, by name: executables and directories holding an
/// executable `champion`. Returns them and the entries skipped (hidden ones are ignored).
pub fn scan(dir: &Path) -> anyhow::Result<(Vec<Entry>, Vec<String>)> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    let is_executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let (mut entries, mut skipped) = (Vec::new(), Vec::new());
    for name in names {
        let path = dir.join(&name);
        if is_executable(&path) || (path.is_dir() && is_executable(&path.join("champion"))) {
            entries.push(Entry {
                name: None,
                given: path.display().to_string(),
            });
        } else {
            skipped.push(path.display().to_string());
        }
    }
    if entries.is_empty() {
        bail!("no champion in {}", dir.display());
    }
    Ok((entries, skipped))
}

/// Unique short names: a name shared by several champions grows path components of what
/// was given, from the right, until it is unique (`c/random`, `python/random`, `random`).
///
/// ```
/// use referee::manifest::unique_names;
/// let names = unique_names(&[
///     ("random".into(), "champions/c/random".into()),
///     ("random".into(), "champions/python/random/".into()),
///     ("random".into(), "random".into()),
///     ("greedy".into(), "greedy".into()),
/// ]);
/// assert_eq!(names, ["c/random", "python/random", "random", "greedy"]);
/// ```
pub fn unique_names(champions: &[(String, String)]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = champions
        .iter()
        .map(|(_, given)| {
            given
                .split('/')
                .filter(|p| !p.is_empty() && *p != ".")
                .collect()
        })
        .collect();
    let mut names: Vec<String> = champions.iter().map(|(name, _)| name.clone()).collect();
    let mut depth = 1;
    loop {
        let clashing: Vec<usize> = (0..names.len())
            .filter(|&i| names.iter().filter(|n| **n == names[i]).count() > 1)
            .collect();
        if clashing.is_empty() || depth > 64 {
            return names;
        }
        depth += 1;
        for i in clashing {
            let p = &parts[i];
            if p.len() >= depth {
                names[i] = p[p.len() - depth..].join("/");
            }
        }
    }
}
