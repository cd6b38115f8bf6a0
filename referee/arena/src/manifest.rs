//! Where a tournament's champions come from: names on the command line, every entry of a
//! directory, or a manifest file; and the unique short names they get in the results.
//!
//! A manifest has one champion per line, `[name =] champion`, where `champion` is what
//! `referee match` accepts (an executable, a directory holding `champion`, or a built-in
//! bot) and a relative path is taken from the manifest's directory. `#` starts a comment
//! at the start of a line or after a space. A path holding `=`, or `#` after a space, is
//! written in double quotes (a path cannot hold `"`).
//! A champion needing arguments is wrapped in a script, so that the one-line reproduce
//! command of each match stays valid.
//!
//! ```text
//! # finalists.txt
//! alice = alice/            # a directory holding `champion`
//! bob   = bob/run.sh
//! carol = "carol = 2/"      # a path holding `=`
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
        let at = |problem: String| format!("line {}: {problem}", number + 1);
        let Some((name, champion)) = split_line(line).map_err(at)? else {
            continue;
        };
        if name.as_deref().is_some_and(|n| {
            n.contains([',', '"', ' ']) || n.chars().any(jail::untrusted::is_escaped)
        }) {
            return Err(at(
                "a name may not hold spaces, commas, quotes or control characters".into(),
            ));
        }
        let is_bare = builtins.contains(&champion.as_str())
            || Path::new(&champion).is_absolute()
            || base.as_os_str().is_empty();
        let given = if is_bare {
            champion
        } else {
            base.join(champion).display().to_string()
        };
        entries.push(Entry { name, given });
    }
    Ok(entries)
}

/// One line of a manifest as `(name, champion)`, `None` for a blank line or a comment.
/// A quoted champion is taken as written between its quotes, `#` and `=` included.
fn split_line(line: &str) -> Result<Option<(Option<String>, String)>, String> {
    const FORM: &str = "expected `[name =] champion` (a path holding `=`, or `#` after a \
                        space, in double quotes: `name = \"round=2/\"`)";
    // The name ends at the first `=` met before any quote or comment.
    let (name, rest) = match line.find(['=', '"']) {
        Some(i) if line[i..].starts_with('=') && comment(line).is_none_or(|c| i < c) => {
            (Some(line[..i].trim()), &line[i + 1..])
        }
        _ => (None, line),
    };
    let rest = rest.trim_start();
    let (champion, after) = match rest.strip_prefix('"') {
        Some(quoted) => {
            let end = quoted
                .find('"')
                .ok_or_else(|| format!("a quote opened and never closed; {FORM}"))?;
            (&quoted[..end], &quoted[end + 1..])
        }
        None => {
            let end = comment(rest).unwrap_or(rest.len());
            let champion = rest[..end].trim_end();
            if champion.contains(['=', '"']) {
                return Err(format!("`{champion}` holds `=` or a quote; {FORM}"));
            }
            (champion, &rest[end..])
        }
    };
    let after = after.trim_start();
    if !(after.is_empty() || after.starts_with('#')) {
        return Err(format!("`{}` after the champion; {FORM}", after.trim_end()));
    }
    match (name, champion.is_empty()) {
        (None, true) if !rest.starts_with('"') => Ok(None),
        (Some(""), _) | (_, true) => Err(format!("{FORM}, got `{}`", line.trim())),
        (name, false) => Ok(Some((name.map(str::to_string), champion.to_string()))),
    }
}

/// Where the comment of `text` starts: a `#` at its start or after a space (one inside a
/// word is the path's: `round#2/`).
fn comment(text: &str) -> Option<usize> {
    text.char_indices()
        .find(|&(i, c)| {
            c == '#'
                && text[..i]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace)
        })
        .map(|(i, _)| i)
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
/// A name in `reserved` (the game's built-in champions) is left to the champion given by
/// that very name: another one called so grows too (`cpp/greedy`), so that no program
/// passes for a built-in in the results.
///
/// ```
/// use arena::manifest::unique_names;
/// let names = unique_names(
///     &[
///         ("random".into(), "champions/c/random".into()),
///         ("random".into(), "champions/python/random/".into()),
///         ("random".into(), "random".into()),
///         ("greedy".into(), "champions/cpp/greedy".into()),
///     ],
///     &["random", "greedy"],
/// );
/// assert_eq!(names, ["c/random", "python/random", "random", "cpp/greedy"]);
/// ```
pub fn unique_names(champions: &[(String, String)], reserved: &[&str]) -> Vec<String> {
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
    let taken = |i: usize, names: &[String]| {
        reserved.contains(&names[i].as_str()) && champions[i].1 != names[i]
    };
    let mut depth = 1;
    loop {
        let clashing: Vec<usize> = (0..names.len())
            .filter(|&i| names.iter().filter(|n| **n == names[i]).count() > 1 || taken(i, &names))
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

#[cfg(test)]
mod tests {
    use super::*;

    type Split = Result<Option<(Option<String>, String)>, String>;

    fn line(text: &str) -> Split {
        split_line(text)
    }

    /// A line read as `name = champion` (no name: `None`).
    fn read(name: Option<&str>, champion: &str) -> Split {
        Ok(Some((name.map(str::to_string), champion.to_string())))
    }

    #[test]
    fn lines_split_into_a_name_and_a_champion() {
        assert_eq!(line(""), Ok(None));
        assert_eq!(line("   # a comment = \"x\""), Ok(None));
        assert_eq!(line("greedy"), read(None, "greedy"));
        assert_eq!(line("greedy # the bot"), read(None, "greedy"));
        assert_eq!(line(" a = b/c "), read(Some("a"), "b/c"));
        assert_eq!(line("a=b#2/c"), read(Some("a"), "b#2/c"));
        assert_eq!(line("a = b #2/c"), read(Some("a"), "b"));
        assert_eq!(line("a = \"b = c #d\""), read(Some("a"), "b = c #d"));
        assert_eq!(line("\"b=c\" # quoted"), read(None, "b=c"));
        assert_eq!(line("a = \"x\"#"), read(Some("a"), "x"));
    }

    #[test]
    fn a_line_that_cannot_be_read_says_how_to_write_it() {
        for bad in [
            " = greedy",
            "a = ",
            "a = # nothing",
            "a = b = c",
            "a = b=c/d",
            "a = \"b",
            "a = \"b\" c",
            "a = \"\"",
            "a = b\"c",
        ] {
            let error = line(bad).expect_err(bad);
            assert!(error.contains("[name =] champion"), "{bad}: {error}");
        }
    }

    #[test]
    fn a_relative_path_is_the_manifests_and_a_builtin_stays_bare() {
        let entries = parse(
            "x = a b/c\nrandom\n/abs/p\n",
            Path::new("base"),
            &["random"],
        );
        let given: Vec<String> = entries.unwrap().into_iter().map(|e| e.given).collect();
        assert_eq!(given, ["base/a b/c", "random", "/abs/p"]);
        let error = parse("ok\na b = c\n", Path::new(""), &[]).unwrap_err();
        assert!(
            error.starts_with("line 2: ") && error.contains("spaces"),
            "{error}"
        );
    }
}
