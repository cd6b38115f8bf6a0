//! `referee gauntlet <candidate> <baseline> [opponents...]`: the candidate and the baseline
//! play the same matches (`gauntlet.rs`: same seeds, opponents and seats), in parallel with
//! the tournament's runner, until the sequential test on their paired differences decides
//! or `--max-pairs` is reached; then `matches.csv` (sorted), `pairs.csv` and one line of
//! verdict. Resumable (`--resume`) from `gauntlet.json` and `matches.csv`.

use super::Failure;
use crate::cli::GauntletArgs;
use crate::commands::tournament::setup;
use crate::events::TournamentEvent;
use crate::export::{csv_line, matches_csv};
use crate::games::Game;
use crate::gauntlet::{estimate, Plan, Sprt, Verdict};
use crate::interrupt;
use crate::store::{self, Appender};
use crate::untrusted::printable;
use anyhow::{anyhow, Context};
use std::collections::BTreeMap;

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// `gauntlet.json`: what the gauntlet is, so that `--resume` plays the same matches.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Spec {
    schema: u32,
    game: String,
    seed: u64,
    sprt: Sprt,
    max_pairs: u64,
    /// Every limit flag of the run (`--resume` compares and takes them).
    limits: crate::tournament::LimitsSpec,
    /// Candidate, baseline, opponents: (name, given, identity).
    champions: Vec<(String, String, String)>,
}

/// One match's result for the tested seat: (points, final score).
type Half = (u32, i32);

pub fn run(args: GauntletArgs, game: &'static dyn Game) -> Result<(), Failure> {
    let dir = args.results.join(&args.name);
    let _lock = super::tournament::lock(&dir)?;
    let stop = interrupt::catch(true);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let spec_path = dir.join("gauntlet.json");
    let (spec, champions) = if args.resume {
        let text = store::read_text(&spec_path)
            .with_context(|| "--resume: no gauntlet to resume here")
            .map_err(Failure::usage)?;
        let spec: Spec = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a gauntlet", spec_path.display()))
            .map_err(Failure::usage)?;
        if spec.schema != crate::export::RESULTS_SCHEMA || spec.game != game.name() {
            return Err(usage(format!(
                "{} is of results schema {} and game {}; this referee reads schema {} of {}",
                spec_path.display(),
                spec.schema,
                spec.game,
                crate::export::RESULTS_SCHEMA,
                game.name()
            )));
        }
        // The gauntlet's own settings: a flag given (even at its default) must say the same.
        let conflict = |flag: &str, given: String, stored: String| {
            usage(format!(
                "--resume: {flag} {given} conflicts with the gauntlet's {flag} {stored} ({}); \
                 drop {flag} or choose another --name",
                spec_path.display()
            ))
        };
        if let Some((flag, a, s)) = setup::limit_conflict(&args.limits, &spec.limits) {
            return Err(conflict(flag, a, s));
        }
        if let Some(seed) = args.seed.filter(|&s| s != spec.seed) {
            return Err(conflict("--seed", seed.to_string(), spec.seed.to_string()));
        }
        let test = [
            ("alpha", "--alpha", args.alpha, spec.sprt.alpha),
            ("beta", "--beta", args.beta, spec.sprt.beta),
            ("min_diff", "--min-diff", args.min_diff, spec.sprt.min_diff),
            (
                "max_pairs",
                "--max-pairs",
                args.max_pairs as f64,
                spec.max_pairs as f64,
            ),
        ];
        for (id, flag, given, stored) in test {
            if args.explicit.iter().any(|e| e == id) && given != stored {
                return Err(conflict(flag, given.to_string(), stored.to_string()));
            }
        }
        let mut champions = Vec::new();
        for (name, given, identity) in &spec.champions {
            let mut c = game.resolve(given).map_err(Failure::usage)?;
            if &c.identity != identity {
                return Err(usage(format!(
                    "--resume: champion `{}` changed since the gauntlet started; restore it \
                     or start another --name",
                    printable(name)
                )));
            }
            c.name = name.clone();
            champions.push(c);
        }
        (spec, champions)
    } else {
        if spec_path.exists() {
            return Err(usage(format!(
                "{} already holds a gauntlet; pass --resume to continue it, or choose another \
                 --name",
                dir.display()
            )));
        }
        let mut given = vec![args.candidate.clone(), args.baseline.clone()];
        if args.opponents.is_empty() {
            given.extend(game.builtins().iter().map(|b| b.to_string()));
        } else {
            given.extend(args.opponents.iter().cloned());
        }
        if given.len() < game.seats() + 1 {
            return Err(usage(format!(
                "a gauntlet of {} needs at least {} opponent(s), got {}",
                game.title(),
                game.seats() - 1,
                given.len() - 2
            )));
        }
        let mut champions = given
            .iter()
            .map(|g| game.resolve(g))
            .collect::<anyhow::Result<Vec<_>>>()
            .map_err(Failure::usage)?;
        crate::roster::names_apart(&mut champions);
        // An opponent that is the candidate's or the baseline's program (the default
        // built-ins against a built-in) is told apart by its role.
        for i in 2..champions.len() {
            if champions[..i].iter().any(|c| c.name == champions[i].name) {
                champions[i].name = format!("opponent-{}", champions[i].name);
            }
        }
        let spec = Spec {
            schema: crate::export::RESULTS_SCHEMA,
            game: game.name().into(),
            seed: args.seed.unwrap_or_else(rand::random),
            sprt: Sprt {
                alpha: args.alpha,
                beta: args.beta,
                min_diff: args.min_diff,
            },
            max_pairs: args.max_pairs,
            limits: setup::limits_spec(&args.limits),
            champions: champions
                .iter()
                .map(|c| (c.name.clone(), c.given.clone(), c.identity.clone()))
                .collect(),
        };
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let json = serde_json::to_string_pretty(&spec).expect("specs serialise") + "\n";
        store::write_atomic(&spec_path, json.as_bytes())?;
        (spec, champions)
    };
    let plan = Plan {
        seed: spec.seed,
        seats: game.seats(),
        opponents: champions.len() - 2,
    };
    // Every limit is the gauntlet's (on --resume, the stored one where no flag says it).
    let runner = setup::runner(
        game,
        champions,
        &args.limits,
        &spec.limits,
        &dir,
        jobs,
        false,
    )?;
    let name = |i: usize| printable(&spec.champions[i].0).into_owned();
    eprintln!(
        "gauntlet {} vs {} against {}: seed {}, alpha {}, beta {}, min-diff {}, at most {} pairs, \
         {jobs} jobs",
        name(0),
        name(1),
        (2..spec.champions.len())
            .map(name)
            .collect::<Vec<_>>()
            .join(", "),
        spec.seed,
        spec.sprt.alpha,
        spec.sprt.beta,
        spec.sprt.min_diff,
        spec.max_pairs
    );

    // What is played already.
    let csv_path = dir.join("matches.csv");
    let mut halves: BTreeMap<u64, Half> = BTreeMap::new();
    let half_of = |row: &crate::standings::MatchRow| {
        let seat = plan.seat(row.id / 2);
        let points = crate::standings::points_with(game.points(), &row.scores);
        (points[seat], row.scores[seat])
    };
    let complete_len = if csv_path.exists() {
        Some(store::read_rows(
            &csv_path,
            game.seats(),
            |(row, _), _, _| {
                halves.insert(row.id, half_of(&row));
                Ok(())
            },
        )?)
    } else {
        None
    };
    let mut appender = Appender::open(&csv_path, game.seats(), complete_len)?;
    let mut pairs: Vec<(Half, Half)> = Vec::new();
    let mut decided: Option<(Verdict, usize)> = None;
    let mut advance = |halves: &BTreeMap<u64, Half>, pairs: &mut Vec<(Half, Half)>| {
        while let (Some(&c), Some(&b)) = (
            halves.get(&(2 * pairs.len() as u64)),
            halves.get(&(2 * pairs.len() as u64 + 1)),
        ) {
            pairs.push((c, b));
            if decided.is_none() {
                let diffs = diffs_of(pairs);
                let verdict = spec.sprt.verdict(&diffs);
                if verdict != Verdict::Undecided {
                    decided = Some((verdict, pairs.len()));
                }
                if pairs.len().is_multiple_of(10) || decided.is_some() {
                    let e = estimate(&diffs);
                    eprintln!(
                        "{} pairs: {:+.2} points a match [{:+.2}, {:+.2}]",
                        pairs.len(),
                        e.mean,
                        e.low,
                        e.high
                    );
                }
            }
        }
        decided
    };
    let stop_decided = std::sync::atomic::AtomicBool::new(false);
    if advance(&halves, &mut pairs).is_none() {
        let total = 2 * spec.max_pairs;
        let pending: Vec<_> = (0..total)
            .filter(|id| !halves.contains_key(id))
            .map(|id| plan.pairing(id))
            .collect();
        let outcome = runner.run(
            pending
                .into_iter()
                .take_while(move |_| !stop.load(std::sync::atomic::Ordering::SeqCst)),
            &stop_decided,
            |event| match event {
                TournamentEvent::Played {
                    row,
                    first_player,
                    replayed,
                } => {
                    if let Some(why) = replayed {
                        eprintln!(
                            "match {}: its first play was disturbed from outside ({}); it was \
                             played again",
                            row.id,
                            crate::untrusted::printable(&why)
                        );
                    }
                    appender.append(&matches_csv::row(&row, first_player))?;
                    halves.insert(row.id, half_of(&row));
                    if advance(&halves, &mut pairs).is_some() {
                        stop_decided.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    if stop.load(std::sync::atomic::Ordering::SeqCst) {
                        stop_decided.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    Ok(())
                }
                TournamentEvent::Abandoned { .. } => Ok(()),
                TournamentEvent::Failed { id, error } => Err(anyhow!("match {id}: {error}")),
            },
        );
        outcome?;
    }
    store::write_sorted(
        std::slice::from_ref(&csv_path),
        game.seats(),
        &csv_path,
        |_, _, _| Ok(()),
    )?;
    let counted = decided.map_or(pairs.len(), |(_, n)| n);
    store::write_atomic(&dir.join("pairs.csv"), &pairs_csv(&plan, &pairs, counted))?;
    let (verdict, how) = match decided {
        Some((v @ Verdict::Better, n)) | Some((v @ Verdict::Worse, n)) => {
            (v, format!("SPRT accepted H1 after {n} pairs"))
        }
        Some((v, n)) => (v, format!("SPRT accepted H0 after {n} pairs")),
        None if pairs.len() as u64 >= spec.max_pairs => (
            Verdict::Undecided,
            format!("no decision after {} pairs, the cap", pairs.len()),
        ),
        None => {
            return Err(Failure {
                code: interrupt::EXIT_INTERRUPTED,
                error: anyhow!(
                    "interrupted after {} pairs (results written); resume with: referee {}\
                     gauntlet --name {} --results {} --resume",
                    pairs.len(),
                    crate::cli::words::game_flag(game.name()),
                    crate::cli::words::shell_quote(&args.name),
                    crate::cli::words::shell_quote(&args.results.display().to_string())
                ),
            })
        }
    };
    let diffs = diffs_of(&pairs[..counted]);
    let e = estimate(&diffs);
    let scores: Vec<f64> = pairs[..counted]
        .iter()
        .map(|(c, b)| f64::from(c.1) - f64::from(b.1))
        .collect();
    let s = estimate(&scores);
    println!(
        "{} vs {}: {:+.2} points a match [{:+.2}, {:+.2}], {} ({how})",
        name(0),
        name(1),
        e.mean,
        e.low,
        e.high,
        verdict.word()
    );
    println!(
        "final score: {:+.2} a match [{:+.2}, {:+.2}]; pairs: {}",
        s.mean,
        s.low,
        s.high,
        printable(&dir.join("pairs.csv").display().to_string())
    );
    Ok(())
}

fn diffs_of(pairs: &[(Half, Half)]) -> Vec<f64> {
    pairs
        .iter()
        .map(|(c, b)| f64::from(c.0) - f64::from(b.0))
        .collect()
}

/// `pairs.csv`: one row per complete pair, in order; `counted` is 1 for the pairs the
/// verdict used.
fn pairs_csv(plan: &Plan, pairs: &[(Half, Half)], counted: usize) -> Vec<u8> {
    let mut out = csv_line([
        "pair",
        "seed",
        "seat",
        "candidate_match",
        "baseline_match",
        "candidate_points",
        "baseline_points",
        "diff_points",
        "candidate_score",
        "baseline_score",
        "diff_score",
        "counted",
    ]);
    for (k, (c, b)) in pairs.iter().enumerate() {
        let k = k as u64;
        out.extend(csv_line([
            k.to_string(),
            plan.pairing(2 * k).seed.to_string(),
            plan.seat(k).to_string(),
            (2 * k).to_string(),
            (2 * k + 1).to_string(),
            c.0.to_string(),
            b.0.to_string(),
            (i64::from(c.0) - i64::from(b.0)).to_string(),
            c.1.to_string(),
            b.1.to_string(),
            (i64::from(c.1) - i64::from(b.1)).to_string(),
            u8::from((k as usize) < counted).to_string(),
        ]));
    }
    out
}
