//! The field of a new tournament: the champions given as arguments, with `--from-dir` and
//! with `--manifest`, resolved under unique names, then each started once for the pre-run
//! check (`crate::check`), in parallel.

use super::usage;
use crate::cli::TournamentArgs;
use crate::commands::Failure;
use crate::endpoint::TimeLimits;
use crate::games::Game;
use crate::roster::ChampionSpec;
use crate::tournament::ExcludedSpec;
use anyhow::{anyhow, Context};
use arena::manifest::{self, Entry};
use arena::pre_run::check;
use jail::champion::Limits;
use jail::untrusted::{label, printable};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;

/// Every champion given, resolved for `game`, under its unique name; refuses fewer
/// champions than a match has seats, and a champion given twice.
pub(super) fn gather(args: &TournamentArgs, game: &dyn Game) -> Result<Vec<ChampionSpec>, Failure> {
    let seats = args.seats.unwrap_or_else(|| game.seats());
    let mut entries: Vec<Entry> = args
        .champions
        .iter()
        .map(|given| Entry {
            name: None,
            given: given.clone(),
        })
        .collect();
    for path in &args.from_dir {
        let (found, skipped) =
            manifest::scan(path).map_err(|e| Failure::usage(e.context("--from-dir")))?;
        for s in skipped {
            eprintln!(
                "--from-dir: skipping {} (not an executable nor a directory holding `champion`)",
                printable(&s)
            );
        }
        entries.extend(found);
    }
    for path in &args.manifest {
        entries.extend(
            manifest::read(path, game.builtins())
                .map_err(|e| Failure::usage(e.context("--manifest")))?,
        );
    }
    if entries.len() < seats {
        return Err(usage(format!(
            "a tournament of {} needs at least {} champions, got {}: give CHAMPION \
             arguments, --from-dir DIR or --manifest FILE",
            game.title(),
            seats,
            entries.len()
        )));
    }
    // A name the organiser chose (a manifest's `name = path`) is kept as chosen, never
    // renamed: two alike are an error.
    let mut chosen = HashSet::new();
    if let Some(e) = entries
        .iter()
        .find(|e| e.name.as_ref().is_some_and(|n| !chosen.insert(n.clone())))
    {
        return Err(usage(format!(
            "the name `{}` is given to two champions in the manifest (the second for `{}`); \
             give each champion its own name",
            printable(e.name.as_deref().unwrap_or_default()),
            printable(&e.given)
        )));
    }
    let mut champions: Vec<ChampionSpec> =
        crate::roster::resolve_all(entries.iter().map(|e| e.given.as_str()), |g| {
            game.resolve(g)
        })
        .map_err(Failure::usage)?;
    if let Some(human) = champions.iter().find(|c| c.is_human()) {
        return Err(usage(format!(
            "`{}` cannot play in a tournament: a person cannot sit the matches of a \
             tournament, which run unattended and in parallel; remove `{}` from the \
             champions (arguments or --manifest), and play the others one match at a time \
             with `{} {}match human {}`",
            printable(&human.given),
            printable(&human.given),
            crate::cli::words::program(),
            crate::cli::words::game_flag(game.name()),
            others(seats)
        )));
    }
    // One champion per real file, whatever its spelling (`c/random`, `./c/random/champion`).
    let mut files = std::collections::HashMap::new();
    for c in &champions {
        if let Some(first) = files.insert(c.path.clone(), c.given.clone()) {
            return Err(usage(format!(
                "`{}` and `{}` are the same champion ({}); give each champion once",
                printable(&first),
                printable(&c.given),
                printable(&c.path)
            )));
        }
    }
    let chosen: Vec<Option<String>> = entries.into_iter().map(|e| e.name).collect();
    name_all(&mut champions, &chosen, game.builtins())?;
    warn_same_programs(&champions);
    let mut seen = HashSet::new();
    if let Some(twice) = champions.iter().find(|c| !seen.insert(c.name.clone())) {
        return Err(usage(format!(
            "champion `{}` is listed twice (as `{}`); give each champion once",
            twice.name,
            printable(&twice.given)
        )));
    }
    Ok(champions)
}

/// Names `champions` as every table and file of the results shows them: `chosen[i]` (a
/// manifest's `name = path`) as chosen, else the name of its file or folder, grown by the
/// path components that tell it apart from the others (`manifest::unique_names`), made a
/// [`label`]. Refuses, naming the champion and the fix: a chosen name that a built-in or
/// another champion bears; a name that cannot be shown as it is (a control or
/// bidirectional character, shown escaped as `\x1b`, would read as the name of a file
/// called with those very characters); a name holding what shows as nothing or as another
/// blank than the space, or a space at either end (`alike::unseen`); two champions that
/// would be shown alike (a name starting like a formula is shown after `_`) or read alike
/// (`alike::read_alike`: one name after Unicode's compatibility normalisation).
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
    for (champion, name) in champions.iter().zip(&names) {
        if let Some(c) = name.chars().find(|&c| jail::untrusted::is_escaped(c)) {
            return Err(usage(format!(
                "champion `{}` would be named `{}` in the results, which holds U+{:04X}, a \
                 control or bidirectional character: shown escaped, it would read as another \
                 name; rename its file or folder to printable text, or name it in a manifest \
                 (`its-name = {}`, with --manifest)",
                printable(&champion.given),
                printable(name),
                u32::from(c),
                printable(&champion.given)
            )));
        }
    }
    for (champion, name) in champions.iter().zip(&names) {
        if let Some(unseen) = super::alike::unseen(name) {
            return Err(usage(format!(
                "champion `{}` would be named `{}` in the results, which holds {unseen}: \
                 it would read as another name, or as none; rename its file or folder to \
                 letters, digits and plain spaces inside, or name it in a manifest \
                 (`its-name = {}`, with --manifest)",
                printable(&champion.given),
                printable(name),
                printable(&champion.given)
            )));
        }
    }
    let shown: Vec<String> = names.iter().map(|n| label(n)).collect();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            if super::alike::read_alike(&names[i], &names[j]) {
                return Err(usage(format!(
                    "`{}` (named `{}`) and `{}` (named `{}`) would read alike in the results \
                     (one name once Unicode's compatibility forms are made one: an accented \
                     letter written as one character or as a letter and its accent, a \
                     full-width letter): rename one of them, or name them apart in a \
                     manifest (`its-name = path`, with --manifest)",
                    printable(&champions[i].given),
                    names[i],
                    printable(&champions[j].given),
                    names[j],
                )));
            }
            if shown[i] == shown[j] && names[i] != names[j] {
                return Err(usage(format!(
                    "`{}` (named `{}`) and `{}` (named `{}`) would both be shown as `{}` in \
                     the results (a name starting with `=`, `+`, `-` or `@` is shown after \
                     `_`, so that no spreadsheet reads it as a formula): rename one of them, \
                     or name them apart in a manifest (`its-name = path`, with --manifest)",
                    printable(&champions[i].given),
                    names[i],
                    printable(&champions[j].given),
                    names[j],
                    shown[i]
                )));
            }
        }
    }
    for (champion, shown) in champions.iter_mut().zip(shown) {
        champion.name = shown;
    }
    Ok(())
}

/// Says on stderr which champions are one program (identical files) under two names:
/// they play as two, which is meant when comparing a program with itself, and a slip when
/// one copy was to be a newer version.
pub(crate) fn warn_same_programs(champions: &[ChampionSpec]) {
    for group in crate::roster::same_programs(champions) {
        let names: Vec<String> = group
            .iter()
            .map(|c| format!("`{}` ({})", printable(&c.name), printable(&c.given)))
            .collect();
        eprintln!(
            "note: {} are the same program (identical files); they play as {} champions: \
             rebuild or replace one if it should differ",
            names.join(" and "),
            group.len()
        );
    }
}

/// Check every champion, `jobs` at once, each one's stderr in `<dir>/check/<i>.stderr`;
/// returns the champions that passed and, reported on stderr, those that failed. A stop
/// signal during the check (its champions killed by it) is an interruption (exit 130), for
/// a tournament and a gauntlet alike, never champions failing the check.
pub(crate) fn check_all(
    champions: Vec<ChampionSpec>,
    dir: &Path,
    jobs: usize,
    time: TimeLimits,
    process: &Limits,
    game: &dyn Game,
) -> Result<(Vec<ChampionSpec>, Vec<ExcludedSpec>), Failure> {
    let check_dir = dir.join("check");
    std::fs::create_dir_all(&check_dir)
        .with_context(|| format!("cannot create {}", check_dir.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| anyhow!(e))?;
    let verdicts: Vec<_> = pool.install(|| {
        champions
            .par_iter()
            .enumerate()
            .map(|(i, c)| {
                let stderr = check_dir.join(format!("{i}.stderr"));
                // As for a match: an unpredictable scratch, made only without the jail.
                let root = match process.sandbox.jails() {
                    true => None,
                    false => arena::scratch::scratch_root().ok(),
                };
                let scratch = root
                    .as_ref()
                    .map(|r| r.path().join("check"))
                    .unwrap_or_default();
                // A snapshot the referee cannot start from (its path too long, made
                // unreadable) is the operator's to fix, never the champion's failure.
                let verdict = match arena::snapshot::startable(c) {
                    Ok(_) => Ok(check(c, game, time, process, &scratch, &stderr)),
                    Err(problem) => Err(problem),
                };
                if let Some(root) = root {
                    arena::scratch::remove_scratch(root);
                }
                (verdict, stderr)
            })
            .collect()
    });
    // Champions killed because the referee was told to stop did not fail the check.
    if jail::interrupt::stopping() {
        return Err(Failure {
            code: jail::interrupt::EXIT_INTERRUPTED,
            error: anyhow!(
                "interrupted during the pre-run check: nothing was played; run the same \
                 command again"
            ),
        });
    }
    // The referee's own failure stops the run before any champion is judged by the check.
    let mut checked = Vec::new();
    for (champion, (verdict, stderr)) in champions.into_iter().zip(verdicts) {
        match verdict {
            Ok(verdict) => checked.push((champion, verdict, stderr)),
            Err(problem) => return Err(unstartable(&champion, &problem)),
        }
    }
    let mut kept = Vec::new();
    let mut excluded = Vec::new();
    for (champion, verdict, stderr) in checked {
        match verdict {
            Ok(()) => kept.push(champion),
            Err(fault) => {
                eprintln!(
                    "champion `{}` ({}) failed the pre-run check (init_game): {}; its \
                     stderr: {}",
                    printable(&champion.name),
                    printable(&champion.given),
                    printable(&fault.to_string()),
                    printable(&stderr.display().to_string())
                );
                excluded.push(ExcludedSpec {
                    name: champion.name,
                    given: champion.given,
                    fault: fault.to_string(),
                });
            }
        }
    }
    Ok((kept, excluded))
}

/// The error that stops a run whose pre-run check cannot start `champion` from its
/// snapshot for `problem`, a reason outside the champion: the operator's to fix.
fn unstartable(champion: &ChampionSpec, problem: &str) -> Failure {
    let root = champion
        .snapshot
        .as_ref()
        .map_or(String::new(), |s| s.root.display().to_string());
    Failure::from(anyhow!(
        "the pre-run check cannot start champion `{}` ({}) from its snapshot {}: {}; this is \
         on the referee's side, not the champion's, and nothing was played: fix it (a results \
         folder whose path is too long: a shorter --results; a snapshot made unreadable: \
         `chmod -R a+rX {}`), then run the same command again",
        printable(&champion.name),
        printable(&champion.given),
        printable(&root),
        printable(problem),
        printable(&root)
    ))
}

/// The other seats of a match of `seats` seats, as a command's placeholders: `A B` for
/// three seats, `A B C D` for five.
fn others(seats: usize) -> String {
    (b'A'..=b'Z')
        .take(seats.saturating_sub(1))
        .map(|c| char::from(c).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One placeholder per other seat, for any number of seats.
    #[test]
    fn the_other_seats_are_named_for_any_count() {
        assert_eq!(others(2), "A");
        assert_eq!(others(3), "A B");
        assert_eq!(others(8), "A B C D E F G");
    }
}
