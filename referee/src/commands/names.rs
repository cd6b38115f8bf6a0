//! The names champions are shown under, one rule for `match`, `tournament` and `gauntlet`:
//! told apart from each other, and shown as they are or refused naming the fix.

use crate::commands::{alike, Failure};
use crate::roster::ChampionSpec;
use anyhow::anyhow;
use arena::manifest;
use jail::untrusted::{label, printable};

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// Names `champions` as every table and file of the results shows them: `chosen[i]` (a
/// manifest's `name = path`) as chosen, else the name of its file or folder, grown by the
/// path components that tell it apart from the others (`manifest::unique_names`, a name in
/// `builtins` the built-in's alone; one champion in two seats keeps its name), made a
/// [`label`]. Refuses, naming the champion and the fix: a chosen name that a built-in or
/// another champion bears; a name that cannot be shown as it is (a control or
/// bidirectional character, shown escaped as `\x1b`, would read as the name of a file
/// called with those very characters); a name holding what shows as nothing or as another
/// blank than the space, or a space at either end ([`alike::unseen`]); two champions that
/// would be shown alike (a name starting like a formula is shown after `_`) or read alike
/// ([`alike::read_alike`]: one name after Unicode's compatibility normalisation). `chosen`
/// is empty for a command that takes no manifest (a match, a gauntlet): its fix is then
/// renaming the file.
pub(crate) fn name_all(
    champions: &mut [ChampionSpec],
    chosen: &[Option<String>],
    builtins: &[&str],
) -> Result<(), Failure> {
    let raw: Vec<(String, String)> = champions
        .iter()
        .zip(chosen.iter().chain(std::iter::repeat(&None)))
        .map(|(c, chosen)| {
            let name = match (chosen, crate::roster::is_builtin(&c.path)) {
                (Some(name), _) => name.clone(),
                (None, true) => c.name.clone(),
                (None, false) => crate::roster::raw_name(&c.given),
            };
            (name, c.given.clone())
        })
        .collect();
    let names = manifest::unique_names(&raw, builtins);
    // A chosen name stays as chosen: one that a built-in or another champion bears is
    // refused, never changed behind the organiser's back.
    for ((champion, chosen), name) in champions.iter().zip(chosen).zip(&names) {
        let Some(chosen) = chosen else { continue };
        if chosen != name {
            let bearer = match builtins.contains(&chosen.as_str()) {
                true => "a built-in champion",
                false => "another champion",
            };
            return Err(usage(format!(
                "the manifest calls `{}` `{}`, the name of {bearer}: give it a name of its own \
                 (`other-name = {}`)",
                printable(&champion.given),
                printable(chosen),
                printable(&champion.given)
            )));
        }
    }
    // The fix where the command takes a manifest, which names a champion apart from its file.
    let in_manifest = |what: &str, given: &str| match chosen.is_empty() {
        true => String::new(),
        false => format!(", or name {what} in a manifest (`{given}`, with --manifest)"),
    };
    for (champion, name) in champions.iter().zip(&names) {
        if let Some(c) = name.chars().find(|&c| jail::untrusted::is_escaped(c)) {
            return Err(usage(format!(
                "champion `{}` would be named `{}` in the results, which holds U+{:04X}, a \
                 control or bidirectional character: shown escaped, it would read as another \
                 name; rename its file or folder to printable text{}",
                printable(&champion.given),
                printable(name),
                u32::from(c),
                in_manifest("it", &format!("its-name = {}", printable(&champion.given)))
            )));
        }
    }
    for (champion, name) in champions.iter().zip(&names) {
        if let Some(unseen) = alike::unseen(name) {
            return Err(usage(format!(
                "champion `{}` would be named `{}` in the results, which holds {unseen}: it \
                 would read as another name, or as none; rename its file or folder to \
                 letters, digits and plain spaces inside{}",
                printable(&champion.given),
                printable(name),
                in_manifest("it", &format!("its-name = {}", printable(&champion.given)))
            )));
        }
    }
    let shown: Vec<String> = names.iter().map(|n| label(n)).collect();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            if alike::read_alike(&names[i], &names[j]) {
                return Err(usage(format!(
                    "`{}` (named `{}`) and `{}` (named `{}`) would read alike in the results \
                     (one name once Unicode's compatibility forms are made one: an accented \
                     letter written as one character or as a letter and its accent, a \
                     full-width letter): rename one of them{}",
                    printable(&champions[i].given),
                    names[i],
                    printable(&champions[j].given),
                    names[j],
                    in_manifest("them apart", "its-name = path")
                )));
            }
            if shown[i] == shown[j] && names[i] != names[j] {
                return Err(usage(format!(
                    "`{}` (named `{}`) and `{}` (named `{}`) would both be shown as `{}` in \
                     the results (a name starting with `=`, `+`, `-` or `@` is shown after \
                     `_`, so that no spreadsheet reads it as a formula): rename one of them{}",
                    printable(&champions[i].given),
                    names[i],
                    printable(&champions[j].given),
                    names[j],
                    shown[i],
                    in_manifest("them apart", "its-name = path")
                )));
            }
        }
    }
    for (champion, shown) in champions.iter_mut().zip(shown) {
        champion.name = shown;
    }
    Ok(())
}
