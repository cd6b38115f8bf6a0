//! `referee gauntlet <candidate> <baseline> [opponents...]`: the candidate and the baseline
//! play the same matches (`gauntlet.rs`: same seeds, opponents and seats), in parallel with
//! the tournament's runner, until the sequential test on their paired differences decides
//! or `--max-pairs` is reached; then `matches.csv` (sorted), `pairs.csv` and one line of
//! verdict. Resumable (`--resume`) from `gauntlet.json` and `matches.csv`.
//!
//! Ctrl-C (or SIGTERM, SIGHUP) as in a tournament: the first kills every champion and
//! abandons the matches in flight (no results), the second exits at once; `--resume` plays
//! what is missing and reaches the verdict an uninterrupted run reaches.

mod progress;
mod spec;

use super::Failure;
use crate::cli::GauntletArgs;
use crate::commands::tournament::setup;
use crate::export::{csv_line, matches_csv};
use crate::games::Game;
use crate::gauntlet::{estimate, Plan, Sprt, Verdict};
use crate::store::{self, Appender};
use anyhow::anyhow;
use arena::events::TournamentEvent;
use jail::interrupt;
use jail::untrusted::printable;
use progress::Progress;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// One match's result for the tested seat: (points, final score).
type Half = (u32, i32);

pub fn run(args: GauntletArgs, game: &'static dyn Game) -> Result<(), Failure> {
    let dir = args.results.join(&args.name);
    let _lock = super::tournament::lock(&dir)?;
    // No champion sees the results (seeds, records, stderr), even kept under its folder.
    jail::hidden::hide_root(&args.results);
    jail::hidden::hide(&dir);
    // From here on Ctrl-C is ours: even during the pre-run check, no champion is left.
    let stop = interrupt::catch(true, crate::store::finish_before_exit);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if args.limits.full_log().is_some() && !game.full_log() {
        return Err(usage(format!(
            "--full-log is not available for {}: drop it (the record keeps every move)",
            game.title()
        )));
    }
    // The organiser's key (`keys.rs`), bound to the gauntlet's name and seed.
    let key_place = super::keys::KeyPlace::of(args.key.as_deref(), &dir, &args.results)?;
    let (spec, champions, auth) = if args.resume {
        let master = key_place.existing(&[dir.join("gauntlet.json")])?;
        spec::resumed(&args, &dir, game, master.as_ref())?
    } else {
        let mut auth = None;
        let (spec, champions) = spec::started(&args, &dir, jobs, game, |spec, file, json| {
            let master = key_place.open()?;
            let key = crate::auth::RunKey::of(&master, "gauntlet", &args.name, spec.seed);
            key.seal_description(file, json)?;
            auth = Some(key);
            Ok(())
        })?;
        (spec, champions, auth)
    };
    let seats = spec.seat_count(game);
    let plan = Plan {
        seed: spec.seed,
        seats,
        opponents: champions.len() - 2,
    };
    // Every limit is the gauntlet's (on --resume, the stored one where no flag says it).
    let mut runner = setup::runner(
        game,
        champions,
        &args.limits,
        &spec.limits,
        &dir,
        jobs,
        args.limits.full_log(),
    )?;
    runner.options = spec.options(game).map_err(usage)?;
    // Each match played is sealed with the run's key before its row is appended.
    runner.auth = auth.clone();
    let name = |i: usize| printable(&spec.champions[i].0).into_owned();
    eprintln!("{}", runner.limits.sandbox.line());
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

    // What is played already: every row must be this gauntlet's match.
    let csv_path = dir.join("matches.csv");
    let resumed = |e: anyhow::Error| Failure::usage(anyhow!("--resume: {e:#}"));
    let mut rows = Rows::read(&csv_path, &spec, &plan, game, auth.as_ref()).map_err(resumed)?;
    // A row dropped from matches.csv comes back from its match's seal, never played again.
    if let Some(key) = &auth {
        let restored = crate::auth::restore_rows(&csv_path, &dir, seats, key).map_err(resumed)?;
        if !restored.is_empty() {
            eprintln!(
                "restored the rows of {} match(es) missing from matches.csv from their seals",
                restored.len()
            );
            rows = Rows::read(&csv_path, &spec, &plan, game, auth.as_ref()).map_err(resumed)?;
        }
    }
    // Each row as its record says, each record of its match (the champions as resolved
    // now: `resumed` refused any whose files changed).
    if rows.complete_len.is_some() {
        let stored = crate::games::stored_limits(&spec.limits)
            .map_err(|e| resumed(anyhow!("gauntlet.json: {e}")))?;
        let sources = crate::commands::tournament::results::load(
            &[(csv_path.clone(), None)],
            spec.seat_count(game),
        )
        .map_err(resumed)?;
        crate::commands::tournament::results::check_records_with(
            &sources,
            game,
            auth.as_ref(),
            |id| {
                let pairing = plan.pairing(id);
                let seated = pairing
                    .seats
                    .iter()
                    .map(|&c| runner.champions[c].clone())
                    .collect();
                Ok(crate::games::Expected::new(
                    pairing.seed,
                    seated,
                    &stored,
                    runner.options.clone(),
                ))
            },
        )
        .map_err(resumed)?;
    }
    // The journal beside the key: a match played whose folder and row are gone is refused,
    // never played again (`tournament::journal`).
    if let Some(key) = &auth {
        use crate::commands::tournament::journal;
        runner.journal = Some(match args.resume {
            true => {
                let done = rows.halves.keys().copied().collect();
                journal::resume(&key_place.path, key, None, &dir, &done)?
            }
            false => journal::begin(&key_place.path, key, None)?,
        });
    }
    let Rows {
        mut halves,
        faults,
        complete_len,
    } = rows;
    let mut appender = Appender::open(&csv_path, seats, complete_len)?;
    let mut pairs: Vec<(Half, Half)> = Vec::new();
    let mut decided: Option<(Verdict, usize)> = None;
    let stop_decided = AtomicBool::new(false);
    let test = (spec.sprt, crate::gauntlet::spread(game.points()));
    advance(test, &halves, &mut pairs, &mut decided);
    let done = estimate(&diffs_of(&pairs[..counted(decided, &pairs)]));
    if !pairs.is_empty() {
        eprintln!("resumed: {}", progress::estimate_text(&done));
    }
    let mut progress = Progress::new(spec.max_pairs, &done, args.progress_every);
    // `progress.json`, for `referee status` (the tournament's; this prints its own lines).
    let progress_file = crate::commands::tournament::progress::Progress::file_only(
        &dir,
        2 * spec.max_pairs,
        halves.len() as u64,
        faults,
    );
    if decided.is_none() {
        let total = 2 * spec.max_pairs;
        // Pulled lazily: a cap of a million pairs costs no memory up front.
        let done: std::collections::HashSet<u64> = halves.keys().copied().collect();
        let pending = (0..total)
            .map(move |i| plan.running(i))
            .filter(move |id| !done.contains(id))
            .map(move |id| plan.pairing(id));
        let mut played = 0u64;
        let outcome = runner.run(
            pending.take_while(move |_| !stop.load(Ordering::SeqCst)),
            &stop_decided,
            |event| match event {
                TournamentEvent::Played { row, first_player } => {
                    appender.append(&matches_csv::row(&row, first_player))?;
                    played += 1;
                    halves.insert(row.id, half_of(&plan, &row));
                    progress_file.played(row.faults.iter().flatten().count() as u64);
                    let was = decided.is_some();
                    let now = advance(test, &halves, &mut pairs, &mut decided);
                    if !was {
                        let n = counted(now, &pairs);
                        progress.update(&estimate(&diffs_of(&pairs[..n])), played, now.is_some());
                    }
                    if now.is_some() || stop.load(Ordering::SeqCst) {
                        stop_decided.store(true, Ordering::SeqCst);
                    }
                    Ok(())
                }
                TournamentEvent::Abandoned { .. } => Ok(()),
                TournamentEvent::Failed { id, error } => Err(anyhow!(
                    "match {id}: {error} (the run stopped: that match and those in flight \
                     count nothing, the finished ones are written; once this is fixed, \
                     resume with: {})",
                    crate::cli::words::resume_command(
                        "gauntlet",
                        game.name(),
                        &args.name,
                        &args.results,
                        None,
                        args.key.as_deref()
                    )
                )),
            },
        );
        progress.finish();
        outcome?;
    }
    progress_file.finish(decided.is_some() || pairs.len() as u64 >= spec.max_pairs);
    store::write_sorted(
        std::slice::from_ref(&csv_path),
        seats,
        &csv_path,
        |_, _, _, _| Ok(()),
    )?;
    let counted = counted(decided, &pairs);
    store::write_atomic(&dir.join("pairs.csv"), &pairs_csv(&plan, &pairs[..counted]))?;
    let (verdict, how) = match decided {
        Some((v, n)) => (v, verdict_reason(v, n, &spec.sprt, &name(0), &name(1))),
        None if pairs.len() as u64 >= spec.max_pairs => (
            Verdict::Undecided,
            format!(
                "{} pairs, the cap, were not enough to tell them apart: a smaller gap than \
                 --min-diff {}, or results that vary a lot; raise --max-pairs to play on",
                pairs.len(),
                spec.sprt.min_diff
            ),
        ),
        None => {
            let command = crate::cli::words::resume_command(
                "gauntlet",
                game.name(),
                &args.name,
                &args.results,
                None,
                args.key.as_deref(),
            );
            return Err(Failure {
                code: interrupt::EXIT_INTERRUPTED,
                error: anyhow!(
                    "interrupted after {} pairs (results written); resume with: {command}",
                    pairs.len(),
                ),
            });
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
        "{} vs {}: {:+.2} points a match [{:+.2}, {:+.2}], {}: {how}",
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

/// Why the sequential test (SPRT) decided `verdict` after `n` pairs, as a sentence a
/// contestant reads: which champion is ahead, and how often the test says so wrongly
/// (`alpha`, `beta`).
fn verdict_reason(verdict: Verdict, n: usize, sprt: &Sprt, a: &str, b: &str) -> String {
    let percent = |p: f64| format!("{}%", (p * 1000.0).round() / 10.0);
    let gap = sprt.min_diff;
    match verdict {
        Verdict::Better | Verdict::Worse => {
            let (ahead, behind) = if verdict == Verdict::Better {
                (a, b)
            } else {
                (b, a)
            };
            format!(
                "{ahead} earns more points than {behind} (sure after {n} pairs: two equal \
                 champions would get this verdict at most {} of the time)",
                percent(sprt.alpha)
            )
        }
        _ => format!(
            "no gap of {gap} points a match or more between {a} and {b} (sure after {n} \
             pairs: a real gap of {gap} would be missed at most {} of the time)",
            percent(sprt.beta)
        ),
    }
}

/// `referee status` of the gauntlet in `dir`, from its files: `gauntlet g: v2 vs v1, 24
/// pairs: +0.35 points a match [+0.12, +0.58], not decided yet; 50 matches, faults 0,
/// running on node1 (pid 12), 3.40 matches/s` (`better after 31 pairs; ..., finished`).
pub(crate) fn status(dir: &std::path::Path, now: u64) -> anyhow::Result<String> {
    let spec = spec::read(&dir.join("gauntlet.json"))?;
    let game = crate::games::by_name(&spec.game).expect("spec::read knows the game");
    let plan = Plan {
        seed: spec.seed,
        seats: spec.seat_count(game),
        opponents: spec.champions.len().saturating_sub(2),
    };
    let rows = Rows::read(&dir.join("matches.csv"), &spec, &plan, game, None)?;
    let (mut pairs, mut decided) = (Vec::new(), None);
    let test = (spec.sprt, crate::gauntlet::spread(game.points()));
    advance(test, &rows.halves, &mut pairs, &mut decided);
    let e = estimate(&diffs_of(&pairs[..counted(decided, &pairs)]));
    let finished = decided.is_some() || pairs.len() as u64 >= spec.max_pairs;
    let verdict = match decided {
        Some((v, n)) => format!("{} after {n} pairs", v.word()),
        None if finished => format!("no decision after {} pairs, the cap", pairs.len()),
        None => format!("not decided yet (at most {} pairs)", spec.max_pairs),
    };
    let name = |i: usize| spec.champions.get(i).map_or("?", |c| c.0.as_str());
    let progress = super::tournament::progress::ProgressFile::load(dir)?;
    let mut activity = super::status::activity(progress.as_ref(), now, None);
    if !progress
        .as_ref()
        .is_some_and(|p| super::status::is_running(p, now))
    {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        let results = dir.parent().unwrap_or(std::path::Path::new("."));
        activity += &format!(
            "; resume with: {}",
            crate::cli::words::resume_command(
                "gauntlet",
                game.name(),
                &name.unwrap_or_default(),
                results,
                None,
                None
            )
        );
    }
    Ok(format!(
        "gauntlet {}: {} vs {}, {}, {verdict}; {} matches, faults {}, {}",
        jail::untrusted::printable_path(dir),
        printable(name(0)),
        printable(name(1)),
        progress::estimate_text(&e),
        rows.halves.len(),
        rows.faults,
        match finished {
            true => "finished".into(),
            false => activity,
        }
    ))
}

/// The result of the tested seat (`plan`'s) in `row`.
fn half_of(plan: &Plan, row: &crate::standings::MatchRow) -> Half {
    let seat = plan.seat(row.id / 2);
    (row.points[seat], row.scores[seat])
}

/// What a gauntlet's `matches.csv` holds, every row checked to be one of its matches.
struct Rows {
    /// The tested seat's result in each match, by id.
    halves: BTreeMap<u64, Half>,
    /// Faults in those matches.
    faults: u64,
    /// The length of its complete lines ([`store::read_rows`]); `None` without a file.
    complete_len: Option<u64>,
}

impl Rows {
    /// Reads `csv_path` (if there is one); an error names the file, the line and the fix.
    fn read(
        csv_path: &std::path::Path,
        spec: &spec::Spec,
        plan: &Plan,
        game: &dyn Game,
        auth: Option<&crate::auth::RunKey>,
    ) -> anyhow::Result<Rows> {
        let mut rows = Rows {
            halves: BTreeMap::new(),
            faults: 0,
            complete_len: None,
        };
        if !csv_path.exists() {
            return Ok(rows);
        }
        let len = store::read_rows(
            csv_path,
            spec.seat_count(game),
            |(row, first_player), _, line| {
                spec.check_row(plan, &row, first_player, game)
                    .and_then(|()| match rows.halves.insert(row.id, half_of(plan, &row)) {
                        None => Ok(()),
                        Some(_) => Err(format!("match {} appears twice", row.id)),
                    })
                    .map_err(|e| {
                        anyhow!("{}: {e}; {}", csv_path.display(), spec::EDITED_ROW_FIX)
                    })?;
                // Under the run's key, the rows counted are the bytes their seals hold.
                if let Some(key) = auth {
                    crate::commands::tournament::results::sealed_row(key, csv_path, &row, line)
                        .map_err(|e| anyhow!("{}: {e}", csv_path.display()))?;
                }
                rows.faults += row.faults.iter().flatten().count() as u64;
                Ok(())
            },
        )?;
        rows.complete_len = Some(len);
        Ok(rows)
    }
}

/// Takes the pairs newly complete in `halves`, in pair order, running the test (its
/// parameters, and the spread of a pair's difference) on each until it decides; returns
/// the decision, if any.
fn advance(
    (sprt, spread): (Sprt, f64),
    halves: &BTreeMap<u64, Half>,
    pairs: &mut Vec<(Half, Half)>,
    decided: &mut Option<(Verdict, usize)>,
) -> Option<(Verdict, usize)> {
    while let (Some(&c), Some(&b)) = (
        halves.get(&(2 * pairs.len() as u64)),
        halves.get(&(2 * pairs.len() as u64 + 1)),
    ) {
        pairs.push((c, b));
        if decided.is_none() {
            let verdict = sprt.verdict(&diffs_of(pairs), spread);
            if verdict != Verdict::Undecided {
                *decided = Some((verdict, pairs.len()));
            }
        }
    }
    *decided
}

/// The pairs the verdict rests on: up to the decision, or all complete ones.
fn counted(decided: Option<(Verdict, usize)>, pairs: &[(Half, Half)]) -> usize {
    decided.map_or(pairs.len(), |(_, n)| n)
}

fn diffs_of(pairs: &[(Half, Half)]) -> Vec<f64> {
    pairs
        .iter()
        .map(|(c, b)| f64::from(c.0) - f64::from(b.0))
        .collect()
}

/// `pairs.csv`: the pairs the verdict rests on, in order (so the file is the same whatever
/// `--jobs`, the timing and any interruption; matches that ended after the decision are in
/// `matches.csv` only).
fn pairs_csv(plan: &Plan, pairs: &[(Half, Half)]) -> Vec<u8> {
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
        ]));
    }
    out
}
