//! What a run plays: the `tournament.json` of a new tournament (its field gathered and
//! checked, written before the first match), or the stored one of a tournament to resume,
//! checked against the flags given; and the limits it runs under.

use super::{field, usage};
use crate::cli::words::{FormatFlags, ScheduleProblem};
use crate::cli::{DealName, FormatName, LimitArgs, TournamentArgs};
use crate::commands::Failure;
use crate::export::RESULTS_SCHEMA;
use crate::games::Game;
use crate::roster::ChampionSpec;
use crate::schedule::{Deal, Format, Shard};
use crate::store;
use crate::tournament::{EntrySpec, InputSpec, LimitsSpec, TournamentSpec};
use anyhow::Context;
use jail::sandbox::SandboxMode;
use jail::untrusted::printable;
use std::path::{Path, PathBuf};

/// The limit flags given, with the tournament's limits in force.
pub(crate) fn limit_args(given: &LimitArgs, limits: &LimitsSpec) -> LimitArgs {
    let mut args = given.clone();
    args.time_scale = limits.time_scale;
    args.init_cpu = limits.init_cpu;
    args.call_cpu = limits.call_cpu;
    args.memory = limits.memory;
    args.processes = limits.processes;
    args.disk = limits.disk;
    args.sandbox = sandbox_mode(&limits.sandbox);
    args.require_sandbox = limits.require_sandbox;
    args
}

/// The runner of a tournament or gauntlet of `game` in `dir`: every limit is the stored
/// run's (`limit_args`), pinning as `given` says; no key until the caller gives the run's.
pub(crate) fn runner(
    game: &'static dyn Game,
    champions: Vec<ChampionSpec>,
    given: &LimitArgs,
    stored: &LimitsSpec,
    dir: &Path,
    jobs: usize,
    full_log: Option<u64>,
) -> Result<crate::tournament::Runner, Failure> {
    let limits = limit_args(given, stored);
    Ok(crate::tournament::Runner {
        game,
        champions,
        time: limits.time().map_err(usage)?,
        limits: limits.process().map_err(usage)?,
        dir: dir.to_path_buf(),
        jobs,
        pin: !given.no_pin,
        full_log,
        auth: None,
        journal: None,
        options: game::Options::default(),
    })
}

/// The first limit flag given on the command line (even at its default value) whose value
/// differs from the stored run's: `(flag, given, stored)`.
pub(crate) fn limit_conflict(
    given: &LimitArgs,
    stored: &LimitsSpec,
) -> Option<(&'static str, String, String)> {
    crate::cli::words::identity_flags(&limits_spec(given))
        .into_iter()
        .zip(crate::cli::words::identity_flags(stored))
        .find(|((id, _, a), (_, _, s))| given.explicit.iter().any(|e| e == id) && a != s)
        .map(|((_, flag, a), (_, _, s))| (flag, a, s))
}

fn sandbox_mode(name: &str) -> SandboxMode {
    SandboxMode::from_name(name).unwrap_or_default()
}

pub(crate) fn limits_spec(args: &LimitArgs) -> LimitsSpec {
    LimitsSpec {
        time_scale: args.time_scale,
        init_cpu: args.init_cpu,
        call_cpu: args.call_cpu,
        memory: args.memory,
        processes: args.processes,
        disk: args.disk,
        sandbox: args.sandbox.name().into(),
        require_sandbox: args.require_sandbox,
    }
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
    match args.format {
        Some(FormatName::Groups) if args.rounds.is_some() => Err(usage(
            "--rounds applies to --format round-robin; groups take --matches",
        )),
        Some(FormatName::Groups) if args.deal.is_some() => Err(usage(
            "--deal applies to --format round-robin; groups deal every match afresh: drop --deal",
        )),
        Some(FormatName::Groups) => Ok(Format::Groups {
            matches: args.matches.unwrap_or(10),
        }),
        _ if args.matches.is_some() => Err(usage(
            "--matches applies to --format groups; a round-robin takes --rounds",
        )),
        Some(FormatName::RoundRobin) | None => Ok(Format::RoundRobin {
            rounds: args.rounds.unwrap_or(1),
            deal: args.deal.map_or(Deal::Fresh, DealName::deal),
        }),
    }
}

/// A new tournament: gather, resolve, name and check the champions, write `tournament.json`.
pub(super) fn started(
    args: &TournamentArgs,
    dir: &Path,
    shard: Option<Shard>,
    jobs: usize,
    game: &'static dyn Game,
    seal: impl FnOnce(&TournamentSpec, &Path, &[u8]) -> Result<(), Failure>,
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
    if args.limits.full_log().is_some() && !game.full_log() {
        return Err(usage(format!(
            "--full-log is not available for {}: drop it (the record keeps every move)",
            game.title()
        )));
    }
    let seats = seats_of(args.seats, game)?;
    super::open_files_for(jobs, seats)?;
    let options = crate::cli::words::options_of(game, &args.options).map_err(usage)?;
    let champions = field::gather(args, game)?;
    // A schedule that cannot be played is refused before the pre-run check starts anyone.
    crate::schedule::Schedule::for_seats(seats, 0, champions.len(), format)
        .map_err(|e| usage(ScheduleProblem(e)))?;
    crate::run_files::make_folder(dir)?;
    let (champions, kits) = snapshot_all(champions, dir)?;
    let (kept, excluded) = field::check_all(champions, dir, jobs, time, &process, game)?;
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
            printable(&e.name)
        );
    }
    eprintln!("pre-run check: {} champions answered init_game", kept.len());
    let seed = args.seed.unwrap_or_else(rand::random);
    let schedule = crate::schedule::Schedule::for_seats(seats, seed, kept.len(), format)
        .map_err(|e| usage(ScheduleProblem(e)))?;
    let spec = TournamentSpec {
        schema: RESULTS_SCHEMA,
        game: game.name().to_string(),
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
                identity: c.identity.clone(),
                snapshot: c.snapshot.as_ref().map(|s| s.relative.clone()),
            })
            .collect(),
        excluded,
        limits,
        shard,
        matches: schedule.len(),
        kits: Some(kits),
        seats: (seats != game.seats()).then_some(seats),
        options: match game.options().is_empty() {
            true => game::Options::default(),
            false => options,
        },
    };
    let (file, json) = (dir.join("tournament.json"), spec.to_json());
    seal(&spec, &file, &json)?;
    store::write_atomic(&file, &json)?;
    Ok((spec, kept))
}

/// A tournament to continue: its `tournament.json` (checked against its MAC under
/// `master`, which gives the run's key), checked against the flags given.
pub(super) fn resumed(
    args: &TournamentArgs,
    dir: &Path,
    shard: Option<Shard>,
    game: &'static dyn Game,
    master: Option<&crate::auth::MasterKey>,
) -> Result<
    (
        TournamentSpec,
        Vec<ChampionSpec>,
        Option<crate::auth::RunKey>,
    ),
    Failure,
> {
    let path = dir.join("tournament.json");
    if !path.exists() {
        return Err(usage(format!(
            "--resume: no tournament to resume in {} (no tournament.json); start it without \
             --resume, or check --name, --results and --shard",
            dir.display()
        )));
    }
    let (spec, key) = crate::auth::read_description(
        &path,
        master,
        |bytes| TournamentSpec::parse(&path, bytes),
        |s| ("tournament", s.name.clone(), s.seed),
    )
    .map_err(|e| usage(format!("--resume: {e:#}")))?;
    if spec.game != game.name() {
        return Err(usage(format!(
            "--resume: {} is a tournament of {}, not of {}; resume it {}",
            path.display(),
            crate::games::by_name(&spec.game).map_or(spec.game.as_str(), |g| g.title()),
            game.title(),
            crate::cli::words::with_game_flag(&spec.game)
        )));
    }
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
    check_seats_and_options(
        (args.seats, &args.options),
        (spec.seats, &spec.options),
        game,
        "tournament",
    )
    .map_err(|e| usage(format!("--resume: {e} ({})", path.display())))?;
    if let Some(seed) = args.seed.filter(|&s| s != spec.seed) {
        return Err(conflict(
            "--seed",
            seed.to_string(),
            format!("seed {}", spec.seed),
        ));
    }
    let format_given = args.format.is_some() || args.rounds.is_some() || args.matches.is_some();
    if format_given || args.deal.is_some() {
        let mut format = format_of(args)?;
        // A flag not given takes the run's value: its deal (rotated in a run started before
        // `--deal`), and its rounds when only `--deal` is given.
        if let (
            Format::RoundRobin { rounds, deal },
            Format::RoundRobin {
                rounds: run_rounds,
                deal: run_deal,
            },
        ) = (&mut format, spec.format)
        {
            if args.deal.is_none() {
                *deal = run_deal;
            }
            if !format_given {
                *rounds = run_rounds;
            }
        }
        if format != spec.format {
            let run_deal = match spec.format {
                Format::RoundRobin { deal, .. } => Some(deal),
                Format::Groups { .. } => None,
            };
            let (flag, given) = match (args.format.is_some(), format) {
                (false, Format::RoundRobin { deal, .. })
                    if args.deal.is_some() && Some(deal) != run_deal =>
                {
                    ("--deal", deal.name().to_string())
                }
                (true, _) => ("--format", format.name().to_string()),
                (false, Format::RoundRobin { rounds, .. }) => ("--rounds", rounds.to_string()),
                (false, Format::Groups { matches }) => ("--matches", matches.to_string()),
            };
            return Err(conflict(flag, given, FormatFlags(spec.format).to_string()));
        }
    }
    // Every limit is the tournament's: a flag given (even at its default value) must say
    // the same; one not given takes the tournament's value (`limit_args`).
    if let Some((flag, a, s)) = limit_conflict(&args.limits, &spec.limits) {
        return Err(conflict(flag, a, format!("{flag} {s}")));
    }
    if spec.shard != shard {
        return Err(usage(format!(
            "--resume: {} belongs to shard {:?}",
            path.display(),
            spec.shard
        )));
    }
    check_kits(spec.kits.as_ref(), &path)?;
    let champions = spec
        .champions
        .iter()
        .map(|entry| {
            if let Some(relative) = &entry.snapshot {
                // What the run started with, whatever became of the champion's own files.
                let champion =
                    crate::snapshot::resume(dir, relative, &entry.name, &entry.given, &entry.path)
                        .context("--resume")?;
                anyhow::ensure!(
                    champion.identity == entry.identity && champion.sha256 == entry.sha256,
                    "--resume: {}: champion `{}` is not the snapshot {relative}: restore the \
                     file the referee wrote, or start a new tournament with another --name",
                    path.display(),
                    printable(&entry.name)
                );
                return Ok(champion);
            }
            let mut champion = game.resolve(&entry.given)?;
            // Matches played and to play must be of the same programs.
            anyhow::ensure!(
                champion.identity == entry.identity,
                "--resume: champion `{}` ({}) changed since the tournament started (its \
                 files differ: {}); restore it as it was, or start a new tournament \
                 with another --name",
                printable(&entry.name),
                printable(&entry.given),
                if champion.sha256 == entry.sha256 {
                    "not its executable, but a file beside it or its kit"
                } else {
                    "its executable"
                }
            );
            champion.name = entry.name.clone();
            Ok(champion)
        })
        .collect::<anyhow::Result<Vec<_>>>()
        .map_err(Failure::usage)?;
    Ok((spec, champions, key))
}

/// The seats of `--seats` (`given`), or the game's fewest; a count it does not accept is an
/// error naming the counts it does.
pub(crate) fn seats_of(given: Option<usize>, game: &dyn Game) -> Result<usize, Failure> {
    let seats = given.unwrap_or_else(|| game.seats());
    if game.seat_range().contains(&seats) {
        return Ok(seats);
    }
    let (fewest, most) = (*game.seat_range().start(), *game.seat_range().end());
    Err(usage(match fewest == most {
        true => format!(
            "--seats {seats}: {} is played by {fewest} seats only; drop --seats",
            game.title()
        ),
        false => format!(
            "--seats {seats}: {} is played by {fewest} to {most} seats; give one of them",
            game.title()
        ),
    }))
}

/// Refuses a resume whose `--seats` or `--option` flags (`given`: each given only if on
/// the command line) differ from the run's `stored` ones (a `kind` of run), naming both.
pub(crate) fn check_seats_and_options(
    given: (Option<usize>, &[String]),
    stored: (Option<usize>, &game::Options),
    game: &dyn Game,
    kind: &str,
) -> Result<(), String> {
    let run_seats = crate::tournament::seat_count(stored.0, game)?;
    if let Some(seats) = given.0.filter(|&s| s != run_seats) {
        return Err(format!(
            "--seats {seats} conflicts with the {kind}'s {run_seats} seats; drop --seats or \
             choose another --name"
        ));
    }
    let run_options = crate::tournament::stored_options(stored.1, game)?;
    if !given.1.is_empty() {
        let options = crate::cli::words::options_of(game, given.1)?;
        if options != run_options {
            return Err(format!(
                "--option {} conflicts with the {kind}'s options {}; drop --option or choose \
                 another --name",
                printable(&given.1.join(" --option ")),
                printable(&run_options.words().join(" "))
            ));
        }
    }
    Ok(())
}

/// Copies every champion's files (built-ins aside) into the run's folder `dir` once
/// (`crate::snapshot`): from now on each plays from its snapshot. Returns them, and the
/// installed kits they play with.
pub(crate) fn snapshot_all(
    mut champions: Vec<ChampionSpec>,
    dir: &Path,
) -> Result<(Vec<ChampionSpec>, crate::snapshot::KitsIdentity), Failure> {
    for champion in champions
        .iter_mut()
        .filter(|c| !crate::roster::is_builtin(&c.path))
    {
        crate::snapshot::take(champion, dir).map_err(Failure::usage)?;
    }
    let kits = crate::snapshot::kits_identity()?;
    Ok((champions, kits))
}

/// Refuses to resume a run started with the installed kits `stored` (none for a run
/// started before snapshots) when one of them changed or is gone: a champion's kit is part
/// of what it plays, and the kits are not copied into the run. A kit added since (a new
/// game's) changes nothing the run plays.
pub(crate) fn check_kits(
    stored: Option<&crate::snapshot::KitsIdentity>,
    spec_path: &Path,
) -> Result<(), Failure> {
    let Some(stored) = stored else {
        return Ok(());
    };
    if let Some(why) = crate::snapshot::kits_differ(stored)? {
        return Err(usage(format!(
            "--resume: the installed kits (champions/<language>/kit) changed since the run \
             started ({why}; {}): the champions would play with other kits; restore them as \
             they were, or start a new run with another --name",
            spec_path.display()
        )));
    }
    Ok(())
}

fn describe(input: &InputSpec) -> String {
    let mut words = input.champions.clone();
    words.extend(input.from_dir.iter().map(|d| format!("--from-dir {d}")));
    words.extend(input.manifest.iter().map(|m| format!("--manifest {m}")));
    words.join(" ")
}
