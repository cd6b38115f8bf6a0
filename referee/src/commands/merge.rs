//! `referee merge`: combine the shards of a tournament (each a `--shard I/N` run) into the
//! results a single run would have written: sorted `matches.csv`, `leaderboard.csv`,
//! `pairwise.csv`, and `tournament.json` without its shard.

use super::Failure;
use crate::cli::MergeArgs;
use crate::export::table;
use crate::games::Game;
use crate::tournament::TournamentSpec;
use anyhow::{anyhow, Context};
use std::collections::BTreeSet;
use std::path::PathBuf;

pub fn run(args: MergeArgs, game: &'static dyn Game) -> Result<(), Failure> {
    // Ctrl-C exits at once, once the file being written is in place (no temporary file).
    jail::interrupt::catch(false, crate::store::finish_before_exit);
    // The key of the tournament (`keys.rs`): its default is the one of the shards' folder.
    let top = args.shards[0].parent().unwrap_or(std::path::Path::new("."));
    let files: Vec<PathBuf> = args
        .shards
        .iter()
        .map(|d| d.join("tournament.json"))
        .collect();
    let place = match files.iter().all(|f| f.exists()) {
        true => Some(super::keys::KeyPlace::of(args.key.as_deref(), top, top)?),
        false => None,
    };
    let master = match &place {
        Some(place) => place.existing(&files)?,
        None => None,
    };
    let mut specs = Vec::new();
    let mut auth = None;
    for dir in &args.shards {
        let path = dir.join("tournament.json");
        let not_a_shard = || {
            format!(
                "{} is not a shard directory: give the directories written by `referee \
                 tournament --shard I/N` (results/<name>/shard-I-of-N)",
                dir.display()
            )
        };
        if !path.exists() {
            return Err(Failure::usage(anyhow!("{}", not_a_shard())));
        }
        let (spec, key) = crate::auth::read_description(
            &path,
            master.as_ref(),
            |bytes| TournamentSpec::parse(&path, bytes).with_context(not_a_shard),
            |s| ("tournament", s.name.clone(), s.seed),
        )
        .map_err(Failure::usage)?;
        auth = auth.or(key);
        specs.push(spec);
    }
    let first = specs[0].clone();
    if first.game != game.name() {
        return Err(Failure::usage(anyhow!(
            "{} is a shard of a tournament of {}, not of {}; merge it {}",
            args.shards[0].display(),
            crate::games::by_name(&first.game).map_or(first.game.as_str(), |g| g.title()),
            game.title(),
            crate::cli::words::with_game_flag(&first.game)
        )));
    }
    let Some(count) = first.shard.map(|s| s.count) else {
        return Err(Failure::usage(anyhow!(
            "{} is not a shard (it was run without --shard)",
            args.shards[0].display()
        )));
    };
    let mut indices = BTreeSet::new();
    // A built-in champion is the referee's release: shards run by other builds of the
    // referee (another machine's) name it by another SHA-256.
    let comparable = |spec: &TournamentSpec| {
        let mut spec = TournamentSpec {
            shard: first.shard,
            ..spec.clone()
        };
        for champion in &mut spec.champions {
            if crate::roster::is_builtin(&champion.path) {
                champion.sha256.clear();
            }
        }
        spec
    };
    let first_comparable = comparable(&first);
    for (dir, spec) in args.shards.iter().zip(&specs) {
        let same = comparable(spec);
        // Options, seats and deals are named with both values: the shards' commands differ
        // in them.
        let setup = |s: &TournamentSpec| {
            let options = crate::tournament::stored_options(&s.options, game)
                .map(|o| o.words().join(" "))
                .unwrap_or_else(|e| e);
            let seats = crate::tournament::seat_count(s.seats, game)
                .map_or_else(|e| e, |n| format!("{n} seats"));
            let deals = match s.format {
                crate::schedule::Format::RoundRobin { deal, .. } => deal.name(),
                crate::schedule::Format::Groups { .. } => "",
            };
            (options, seats, deals)
        };
        let (ours, theirs) = (setup(&first_comparable), setup(&same));
        if ours != theirs {
            let printable = |s: &str| jail::untrusted::printable(s).into_owned();
            let what = if ours.0 != theirs.0 {
                ("options", printable(&theirs.0), printable(&ours.0))
            } else if ours.1 != theirs.1 {
                ("seats", theirs.1, ours.1)
            } else {
                ("deals", theirs.2.to_string(), ours.2.to_string())
            };
            return Err(Failure::usage(anyhow!(
                "{} is not a shard of the same tournament as {}: its {} are {}, those of {} \
                 are {}; merge shards run with the same --option, --seats and --deal",
                dir.display(),
                args.shards[0].display(),
                what.0,
                what.1,
                args.shards[0].display(),
                what.2
            )));
        }
        if same != first_comparable {
            let first = &first_comparable;
            let differs = [
                ("game", same.game != first.game),
                ("name", same.name != first.name),
                ("seed", same.seed != first.seed),
                ("format", same.format != first.format),
                (
                    "champions",
                    same.champions != first.champions || same.input != first.input,
                ),
                ("excluded champions", same.excluded != first.excluded),
                ("limits", same.limits != first.limits),
                ("installed kits", same.kits != first.kits),
                ("seats", same.seats != first.seats),
                ("options", same.options != first.options),
            ]
            .into_iter()
            .filter(|(_, differs)| *differs)
            .map(|(what, _)| what)
            .collect::<Vec<_>>();
            return Err(Failure::usage(anyhow!(
                "{} is not a shard of the same tournament as {} (its {} differ{}; a shard run \
                 without --seed draws its own: give every shard the same --seed)",
                dir.display(),
                args.shards[0].display(),
                match differs.as_slice() {
                    [] => "schema or match count".to_string(),
                    list => list.join(", "),
                },
                if differs.len() == 1 { "s" } else { "" }
            )));
        }
        let shard = spec.shard.filter(|s| s.count == count).ok_or_else(|| {
            Failure::usage(anyhow!("{} is not one of {count} shards", dir.display()))
        })?;
        if !indices.insert(shard.index) {
            return Err(Failure::usage(anyhow!(
                "shard {}/{count} is given twice",
                shard.index
            )));
        }
    }
    let out = match args.out {
        Some(out) => out,
        None => {
            let parents: BTreeSet<_> = args.shards.iter().map(|d| d.parent()).collect();
            match parents.into_iter().collect::<Vec<_>>().as_slice() {
                [Some(parent)] => parent.to_path_buf(),
                _ => {
                    return Err(Failure::usage(anyhow!(
                        "the shards have no common parent directory: give --out DIR"
                    )))
                }
            }
        }
    };
    let spec = TournamentSpec {
        shard: None,
        ..first
    };
    let missing: Vec<String> = (1..=count)
        .filter(|i| !indices.contains(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() && !args.partial {
        return Err(Failure::usage(anyhow!(
            "shards missing: {} (of {count}); give every shard directory, or pass --partial \
             to merge these alone",
            missing.join(", ")
        )));
    }
    // Each shard's matches.csv is read once: every row is checked against the schedule as
    // it is read (the first refused stops it: at most one row per match is held), then
    // against its record and its seal, and what is written is made of those very rows (a
    // file swapped meanwhile changes nothing).
    let files: Vec<(PathBuf, _)> = args
        .shards
        .iter()
        .zip(&specs)
        .map(|(d, s)| (d.join("matches.csv"), s.shard))
        .collect();
    let sources =
        super::tournament::results::load_checked(&files, &spec, game).map_err(Failure::usage)?;
    super::tournament::results::check_records(&sources, &spec, game, auth.as_ref())
        .map_err(Failure::usage)?;
    // Each shard's journal (beside the key) names the matches it played: none may be gone.
    if let (Some(place), Some(key)) = (&place, &auth) {
        for ((dir, spec), source) in args.shards.iter().zip(&specs).zip(&sources) {
            let present = source.rows.iter().map(|r| r.row.id).collect();
            let shard = spec.shard.expect("a shard");
            super::tournament::journal::check_shard(&place.path, key, shard, dir, &present)?;
        }
    }
    if !args.partial {
        let mut incomplete = Vec::new();
        for ((dir, spec), source) in args.shards.iter().zip(&specs).zip(&sources) {
            let s = spec.shard.expect("a shard");
            let (done, total) = (source.rows.len() as u64, s.len_of(spec.matches));
            if done < total {
                incomplete.push(format!(
                    "shard {}/{} ({}) has {done} of its {total} matches",
                    s.index,
                    s.count,
                    jail::untrusted::printable_path(dir),
                ));
            }
        }
        if !incomplete.is_empty() {
            return Err(Failure::usage(anyhow!(
                "incomplete: {}; finish each (run it again: its --resume plays only the \
                 missing matches), then merge again, or pass --partial to merge what there is",
                incomplete.join("; ")
            )));
        }
    }
    let rows: u64 = sources.iter().map(|s| s.rows.len() as u64).sum();
    let partial = (rows < spec.matches).then(|| {
        format!(
            "{} of the {} matches are missing; these results are partial",
            spec.matches - rows,
            spec.matches
        )
    });
    if let (Some(message), false) = (&partial, args.partial) {
        return Err(Failure::usage(anyhow!(
            "{message}: finish the shards (`referee tournament ... --shard I/N --resume`), \
             then merge again, or pass --partial to accept them"
        )));
    }
    // A test's moment to swap a file just checked, the last before anything is written
    // (debug builds only).
    jail::checked::after_check(&sources[0].path);
    // Only once everything is checked: a refused merge leaves nothing behind.
    crate::run_files::make_folder(&out)?;
    let (rows, standings, confidence) =
        super::tournament::results::write(&sources, &out, &spec, args.html, game, auth.as_ref())?;
    crate::store::write_atomic(&out.join("tournament.json"), &spec.to_json())?;
    print!("{}", table::leaderboard(&standings, &confidence));
    print!("{}", table::seats(&confidence));
    if !missing.is_empty() {
        eprintln!("warning: shards missing: {}", missing.join(", "));
    }
    eprintln!(
        "merged {rows} matches into {}",
        jail::untrusted::printable_path(&out)
    );
    debug_assert_eq!(
        rows,
        sources.iter().map(|s| s.rows.len() as u64).sum::<u64>()
    );
    if let Some(message) = partial {
        eprintln!("warning: {message}");
    }
    Ok(())
}
