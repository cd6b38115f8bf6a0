//! `referee tournament`: gather and check the champions, write `tournament.json`, play the
//! missing matches of the schedule (or of one shard) with a progress bar, append each row
//! to `matches.csv` as it comes, then write the sorted `matches.csv`, `leaderboard.csv`
//! and `pairwise.csv` and print the leaderboard.
//!
//! Ctrl-C (or SIGTERM): the first stops scheduling new matches and lets the running ones
//! finish (at most `--jobs`), then writes the partial results and prints how to resume
//! (exit 130); a second one kills every champion and everything they started, exits at
//! once, and `--resume` replays the matches it cut short.

use super::Failure;
use crate::check::check;
use crate::cli::{self, LimitArgs, TournamentArgs};
use crate::events::TournamentEvent;
use crate::export::{leaderboard_csv, matches_csv, pairwise_csv, table, RESULTS_SCHEMA};
use crate::interrupt;
use crate::manifest::{self, Entry};
use crate::roster::{resolve, ChampionSpec};
use crate::schedule::{Format, Shard};
use crate::standings::Standings;
use crate::store::{self, Appender};
use crate::tournament::{EntrySpec, ExcludedSpec, InputSpec, LimitsSpec, Runner, TournamentSpec};
use anyhow::{anyhow, Context};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

pub fn run(args: TournamentArgs) -> Result<(), Failure> {
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(usage)?;
    let dir = tournament_dir(&args.results, &args.name, shard);
    // From here on Ctrl-C is ours: even during the pre-run check, no champion is left.
    let stop = interrupt::catch(true);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(usage("--jobs must be at least 1"));
    }
    let (spec, champions) = if args.resume {
        resumed(&args, &dir, shard)?
    } else {
        started(&args, &dir, shard, jobs)?
    };
    let limit_args = limit_args(&args.limits, &spec.limits);
    let schedule = spec.schedule().map_err(usage)?;
    let runner = Runner {
        champions,
        time: limit_args.time().map_err(usage)?,
        limits: limit_args.process().map_err(usage)?,
        dir: dir.clone(),
        reproduce_suffix: reproduce_suffix(&spec.limits),
        jobs,
        pin: !args.limits.no_pin,
    };
    let csv_path = dir.join("matches.csv");
    let mut done = HashSet::new();
    let complete_len = if csv_path.exists() {
        Some(store::read_rows(&csv_path, |(row, _), _, _| {
            anyhow::ensure!(
                row.id < schedule.len() && shard.is_none_or(|s| s.contains(row.id)),
                "match {} of {} is not in this tournament's schedule",
                row.id,
                csv_path.display()
            );
            done.insert(row.id);
            Ok(())
        })?)
    } else {
        None
    };
    let mut appender = Appender::open(&csv_path, complete_len)?;
    let total = shard.map_or(schedule.len(), |s| s.len_of(schedule.len()));
    eprintln!("{}", runner.limits.sandbox.line());
    eprintln!(
        "tournament {}: {} champions, {} {}, seed {}, {} matches{}, {} already played, {jobs} jobs",
        spec.name,
        spec.champions.len(),
        spec.format.name(),
        match spec.format {
            Format::RoundRobin { rounds } => format!("{rounds} round(s)"),
            Format::Groups { matches } => format!("{matches} match(es) each"),
        },
        spec.seed,
        total,
        shard.map_or(String::new(), |s| format!(
            " in shard {}/{}",
            s.index, s.count
        )),
        done.len(),
    );
    let progress = progress_bar(total, done.len() as u64);
    let mut faults = 0u64;
    let mut played = 0u64;
    let started = Instant::now();
    let pending = schedule
        .iter()
        .filter(|p| shard.is_none_or(|s| s.contains(p.id)) && !done.contains(&p.id));
    let outcome = runner.run(pending, stop, |event| match event {
        TournamentEvent::Played { row, first_player } => {
            appender.append(&matches_csv::row(&row, first_player))?;
            played += 1;
            faults += row.faults.iter().flatten().count() as u64;
            progress.set_message(format!("faults {faults}"));
            progress.inc(1);
            Ok(())
        }
        TournamentEvent::Failed { id, error } => Err(anyhow!("match {id}: {error}")),
    });
    progress.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let (rows, standings) = write_results(&[csv_path], &dir, &spec, args.html)?;
    print!("{}", table::leaderboard(&standings));
    eprintln!(
        "played {played} matches in {elapsed:.1} s ({:.2} matches/s), {faults} faults; \
         results: {}",
        played as f64 / elapsed.max(1e-9),
        dir.display()
    );
    outcome?;
    if rows < total {
        let mut command = format!(
            "referee tournament --name {} --resume",
            crate::run_match::shell_quote(&spec.name)
        );
        if args.results != Path::new("results") {
            command += &format!(
                " --results {}",
                crate::run_match::shell_quote(&args.results.display().to_string())
            );
        }
        if let Some(s) = shard {
            command += &format!(" --shard {}/{}", s.index, s.count);
        }
        return Err(Failure {
            code: interrupt::EXIT_INTERRUPTED,
            error: anyhow!(
                "interrupted: {rows} of {total} matches played (partial results written); \
                 resume with: {command}"
            ),
        });
    }
    Ok(())
}

/// `<results>/<name>`, or `<results>/<name>/shard-I-of-N`.
fn tournament_dir(results: &Path, name: &str, shard: Option<Shard>) -> PathBuf {
    let dir = results.join(name);
    match shard {
        Some(s) => dir.join(format!("shard-{}-of-{}", s.index, s.count)),
        None => dir,
    }
}

/// Sort `sources` into `<dir>/matches.csv`, write the tables next to it; returns the number
/// of rows and the standings; with `html`, also `index.html` and every match's
/// `replay.html`.
pub fn write_results(
    sources: &[PathBuf],
    dir: &Path,
    spec: &TournamentSpec,
    html: bool,
) -> anyhow::Result<(u64, Standings)> {
    let mut standings = Standings::with_champions(spec.champions.iter().map(|c| c.name.as_str()));
    let rows = store::write_sorted(sources, &dir.join("matches.csv"), |row| standings.add(row))?;
    store::write_atomic(
        &dir.join("leaderboard.csv"),
        &leaderboard_csv::render(&standings),
    )?;
    store::write_atomic(&dir.join("pairwise.csv"), &pairwise_csv::render(&standings))?;
    if html {
        crate::view::html::tournament_index(dir)?;
    }
    Ok((rows, standings))
}

fn progress_bar(total: u64, done: u64) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} matches  {per_sec}  ETA {eta}  {msg}")
            .expect("a valid template"),
    );
    bar.set_position(done);
    bar.reset_eta();
    bar.set_message("faults 0");
    bar
}

/// The limit flags given, with the tournament's limits in force.
fn limit_args(given: &LimitArgs, limits: &LimitsSpec) -> LimitArgs {
    let mut args = given.clone();
    args.time_scale = limits.time_scale;
    args.init_cpu = limits.init_cpu;
    args.call_cpu = limits.call_cpu;
    args.memory = limits.memory;
    args
}

fn limits_spec(args: &LimitArgs) -> LimitsSpec {
    LimitsSpec {
        time_scale: args.time_scale,
        init_cpu: args.init_cpu,
        call_cpu: args.call_cpu,
        memory: args.memory,
    }
}

/// The default limits (`cli::LimitArgs`'s defaults).
const DEFAULT_LIMITS: LimitsSpec = LimitsSpec {
    time_scale: cli::DEFAULT_TIME_SCALE,
    init_cpu: cli::DEFAULT_INIT_CPU,
    call_cpu: cli::DEFAULT_CALL_CPU,
    memory: cli::DEFAULT_MEMORY,
};

/// Flags `referee match` needs besides `--time-scale` (which `MatchPlan` writes).
fn reproduce_suffix(limits: &LimitsSpec) -> String {
    let mut suffix = String::new();
    if limits.init_cpu != DEFAULT_LIMITS.init_cpu {
        suffix += &format!(" --init-cpu {}", limits.init_cpu);
    }
    if limits.call_cpu != DEFAULT_LIMITS.call_cpu {
        suffix += &format!(" --call-cpu {}", limits.call_cpu);
    }
    if limits.memory != DEFAULT_LIMITS.memory {
        suffix += &format!(" --memory {}", limits.memory);
    }
    suffix
}

fn input_spec(args: &TournamentArgs) -> InputSpec {
    let text = |paths: &[PathBuf]| paths.iter().map(|p| p.display().to_string()).collect();
    InputSpec {
        champions: args.champions.clone(),
        from_dir: text(&args.from_dir),
        manifest: text(&args.manifest),
    }
}

fn format_of(args: &TournamentArgs) -> Result<Format, Failure> {
    match args.format.as_deref().unwrap_or("round-robin") {
        "round-robin" => {
            if args.matches.is_some() {
                return Err(usage(
                    "--matches applies to --format groups; a round-robin takes --rounds",
                ));
            }
            Ok(Format::RoundRobin {
                rounds: args.rounds.unwrap_or(1),
            })
        }
        "groups" => {
            if args.rounds.is_some() {
                return Err(usage(
                    "--rounds applies to --format round-robin; groups take --matches",
                ));
            }
            Ok(Format::Groups {
                matches: args.matches.unwrap_or(10),
            })
        }
        other => Err(usage(format!(
            "--format is round-robin or groups, got `{other}`"
        ))),
    }
}

/// A new tournament: gather, resolve, name and check the champions, write `tournament.json`.
fn started(
    args: &TournamentArgs,
    dir: &Path,
    shard: Option<Shard>,
    jobs: usize,
) -> Result<(TournamentSpec, Vec<ChampionSpec>), Failure> {
    if dir.join("tournament.json").exists() || dir.join("matches.csv").exists() {
        return Err(usage(format!(
            "{} already holds a tournament; pass --resume to continue it, or choose another --name",
            dir.display()
        )));
    }
    let format = format_of(args)?;
    let limits = limits_spec(&args.limits);
    let time = args.limits.time().map_err(usage)?;
    let process = args.limits.process().map_err(usage)?;
    let mut entries: Vec<Entry> = args
        .champions
        .iter()
        .map(|given| Entry {
            name: None,
            given: given.clone(),
        })
        .collect();
    for path in &args.from_dir {
        let (found, skipped) = manifest::scan(path).map_err(Failure::usage)?;
        for s in skipped {
            eprintln!(
                "--from-dir: skipping {s} (not an executable nor a directory holding `champion`)"
            );
        }
        entries.extend(found);
    }
    for path in &args.manifest {
        entries.extend(manifest::read(path).map_err(Failure::usage)?);
    }
    if entries.len() < 3 {
        return Err(usage(format!(
            "a tournament needs at least 3 champions, got {}: give CHAMPION arguments, \
             --from-dir DIR or --manifest FILE",
            entries.len()
        )));
    }
    let mut champions: Vec<ChampionSpec> = entries
        .iter()
        .map(|e| resolve(&e.given))
        .collect::<Result<_, _>>()
        .map_err(Failure::usage)?;
    let names = manifest::unique_names(
        &entries
            .iter()
            .zip(&champions)
            .map(|(e, c)| (e.name.clone().unwrap_or(c.name.clone()), c.given.clone()))
            .collect::<Vec<_>>(),
    );
    for (champion, name) in champions.iter_mut().zip(names) {
        champion.name = name;
    }
    let mut seen = HashSet::new();
    if let Some(twice) = champions.iter().find(|c| !seen.insert(c.name.clone())) {
        return Err(usage(format!(
            "champion `{}` is listed twice (as `{}`); give each champion once",
            twice.name, twice.given
        )));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let check_dir = dir.join("check");
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
                let scratch =
                    std::env::temp_dir().join(format!("referee-check-{}-{i}", std::process::id()));
                let _ = std::fs::create_dir_all(&check_dir);
                let verdict = check(c, time, &process, &scratch, &stderr);
                let _ = std::fs::remove_dir_all(&scratch);
                (verdict, stderr)
            })
            .collect()
    });
    let mut kept = Vec::new();
    let mut excluded = Vec::new();
    for (champion, (verdict, stderr)) in champions.into_iter().zip(verdicts) {
        match verdict {
            Ok(()) => kept.push(champion),
            Err(fault) => {
                eprintln!(
                    "champion `{}` ({}) failed the pre-run check (init_game): {fault}; its \
                     stderr: {}",
                    champion.name,
                    champion.given,
                    stderr.display()
                );
                excluded.push(ExcludedSpec {
                    name: champion.name,
                    given: champion.given,
                    fault: fault.to_string(),
                });
            }
        }
    }
    if !excluded.is_empty() && !args.exclude_broken {
        return Err(usage(format!(
            "{} champion(s) failed the pre-run check (see above): fix them, or pass \
             --exclude-broken to run without them",
            excluded.len()
        )));
    }
    for e in &excluded {
        eprintln!(
            "excluding `{}` from the tournament (--exclude-broken)",
            e.name
        );
    }
    eprintln!("pre-run check: {} champions answered init_game", kept.len());
    let seed = args.seed.unwrap_or_else(rand::random);
    let schedule = crate::schedule::Schedule::new(seed, kept.len(), format).map_err(usage)?;
    let spec = TournamentSpec {
        schema: RESULTS_SCHEMA,
        name: args.name.clone(),
        seed,
        format,
        input: input_spec(args),
        champions: kept
            .iter()
            .map(|c| EntrySpec {
                name: c.name.clone(),
                given: c.given.clone(),
                path: c.path.clone(),
                sha256: c.sha256.clone(),
            })
            .collect(),
        excluded,
        limits,
        shard,
        matches: schedule.len(),
    };
    store::write_atomic(&dir.join("tournament.json"), &spec.to_json())?;
    Ok((spec, kept))
}

/// A tournament to continue: its `tournament.json`, checked against the flags given.
fn resumed(
    args: &TournamentArgs,
    dir: &Path,
    shard: Option<Shard>,
) -> Result<(TournamentSpec, Vec<ChampionSpec>), Failure> {
    let path = dir.join("tournament.json");
    if !path.exists() {
        return Err(usage(format!(
            "--resume: no tournament to resume in {} (no tournament.json); start it without \
             --resume, or check --name, --results and --shard",
            dir.display()
        )));
    }
    let spec = TournamentSpec::load(&path).map_err(Failure::usage)?;
    let conflict = |flag: &str, given: String, stored: String| {
        usage(format!(
            "--resume: {flag} {given} conflicts with the tournament's {stored} ({}); drop \
             {flag} or choose another --name",
            path.display()
        ))
    };
    let input = input_spec(args);
    if input != InputSpec::default() && input != spec.input {
        return Err(usage(format!(
            "--resume: the champions given ({}) differ from the tournament's ({}); drop them \
             to resume with the tournament's own",
            describe(&input),
            describe(&spec.input)
        )));
    }
    if let Some(seed) = args.seed.filter(|&s| s != spec.seed) {
        return Err(conflict(
            "--seed",
            seed.to_string(),
            format!("seed {}", spec.seed),
        ));
    }
    if args.format.is_some() || args.rounds.is_some() || args.matches.is_some() {
        let format = format_of(args)?;
        if format != spec.format {
            let flag = match (args.format.is_some(), format) {
                (true, _) => "--format",
                (false, Format::RoundRobin { .. }) => "--rounds",
                (false, Format::Groups { .. }) => "--matches",
            };
            return Err(conflict(
                flag,
                format!("{format:?}"),
                format!("{:?}", spec.format),
            ));
        }
    }
    let given = limits_spec(&args.limits);
    for (flag, a, d, s) in [
        (
            "--time-scale",
            given.time_scale,
            DEFAULT_LIMITS.time_scale,
            spec.limits.time_scale,
        ),
        (
            "--init-cpu",
            given.init_cpu,
            DEFAULT_LIMITS.init_cpu,
            spec.limits.init_cpu,
        ),
        (
            "--call-cpu",
            given.call_cpu,
            DEFAULT_LIMITS.call_cpu,
            spec.limits.call_cpu,
        ),
        (
            "--memory",
            given.memory as f64,
            DEFAULT_LIMITS.memory as f64,
            spec.limits.memory as f64,
        ),
    ] {
        if a != d && a != s {
            return Err(conflict(flag, a.to_string(), format!("{flag} {s}")));
        }
    }
    if spec.shard != shard {
        return Err(usage(format!(
            "--resume: {} belongs to shard {:?}",
            path.display(),
            spec.shard
        )));
    }
    let champions = spec
        .champions
        .iter()
        .map(|entry| {
            let mut champion = resolve(&entry.given)?;
            if champion.sha256 != entry.sha256 {
                eprintln!(
                    "warning: champion `{}` ({}) changed since the tournament started",
                    entry.name, entry.given
                );
            }
            champion.name = entry.name.clone();
            Ok(champion)
        })
        .collect::<anyhow::Result<Vec<_>>>()
        .map_err(Failure::usage)?;
    Ok((spec, champions))
}

fn describe(input: &InputSpec) -> String {
    let mut words = input.champions.clone();
    words.extend(input.from_dir.iter().map(|d| format!("--from-dir {d}")));
    words.extend(input.manifest.iter().map(|m| format!("--manifest {m}")));
    words.join(" ")
}
