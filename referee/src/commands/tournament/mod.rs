//! `referee tournament`: gather and check the champions, write `tournament.json`, play the
//! missing matches of the schedule (or of one shard) with a progress bar, append each row
//! to `matches.csv` as it comes, then write the sorted `matches.csv`, `leaderboard.csv`
//! and `pairwise.csv` and print the leaderboard.
//!
//! Ctrl-C (or SIGTERM, SIGHUP): the first stops scheduling new matches, kills every
//! champion, abandons the matches in flight (at most `--jobs`; they are no results), then
//! writes the partial results and prints how to resume (exit 130); a second one exits at
//! once. `--resume` plays the abandoned matches again (`interrupt.rs`).

pub(crate) mod field;
pub(crate) mod journal;
mod lock_holder;
pub mod progress;
pub mod results;
pub(crate) mod setup;

use super::Failure;
use crate::cli::words::ScheduleProblem;
use crate::cli::TournamentArgs;
use crate::export::{matches_csv, table};
use crate::games::Game;
use crate::schedule::{Format, Shard};
use crate::store::{self, Appender};
use anyhow::anyhow;
use arena::events::TournamentEvent;
use jail::interrupt;
use jail::untrusted::printable;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// Refuses `jobs` matches of `seats` seats at once (at most `matches`, the matches left)
/// if the referee's open files cannot hold their seats: matches could not be watched
/// (they would fail closed, `jail::blind`) or a seat could not start.
fn fit_open_files(jobs: usize, seats: usize, matches: u64) -> Result<(), Failure> {
    let at_once = (jobs as u64).min(matches).max(1) as usize;
    match super::open_files::check(at_once * seats) {
        Ok(_) => Ok(()),
        Err(short) => Err(usage(format!(
            "--jobs {jobs}: {at_once} matches of {seats} seats at once need at least {} open \
             files and the referee may open {} (RLIMIT_NOFILE, its hard limit): raise it \
             (`ulimit -n {}`, or more) or give at most --jobs {}",
            short.need,
            short.limit,
            short.need,
            short.matches_of(seats)
        ))),
    }
}

pub fn run(args: TournamentArgs, game: &'static dyn Game) -> Result<(), Failure> {
    let shard = args.shard;
    let dir = tournament_dir(&args.results, &args.name, shard);
    // One referee at a time in a tournament's directory: a second one (a --resume started
    // while the first still finishes its matches) would rewrite its files under it.
    let _lock = lock(&dir)?;
    // No champion sees the results (seed, records, stderr), even kept under its folder:
    // neither this run's nor older ones beside it.
    jail::hidden::hide_root(&args.results);
    jail::hidden::hide(&args.results.join(&args.name));
    jail::hidden::hide(&dir);
    // From here on Ctrl-C is ours: even during the pre-run check, no champion is left.
    let stop = interrupt::catch(true, crate::store::finish_before_exit);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // The organiser's key, one for the tournament and its shards (`keys.rs`).
    let top = args.results.join(&args.name);
    let key_place = super::keys::KeyPlace::of(args.key.as_deref(), &top, &args.results)?;
    let (spec, champions, auth) = if args.resume {
        let master = key_place.existing(&[dir.join("tournament.json")])?;
        setup::resumed(&args, &dir, shard, game, master.as_ref())?
    } else {
        let mut auth = None;
        let (spec, champions) =
            setup::started(&args, &dir, shard, jobs, game, |spec, file, json| {
                let key = crate::auth::RunKey::of(
                    &key_place.open()?,
                    "tournament",
                    &spec.name,
                    spec.seed,
                );
                key.seal_description(file, json)?;
                auth = Some(key);
                Ok(())
            })?;
        (spec, champions, auth)
    };
    let seats = spec.seat_count(game).map_err(usage)?;
    let schedule = spec
        .schedule(seats)
        .map_err(ScheduleProblem)
        .map_err(usage)?;
    let csv_path = dir.join("matches.csv");
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
    // The matches played already: every row one of this run's, none twice (the ids, their
    // faults, the length of the file's complete lines), before anything is written.
    let read_played = || -> Result<(HashSet<u64>, u64, Option<u64>), Failure> {
        let (mut done, mut faults) = (HashSet::new(), 0u64);
        if !csv_path.exists() {
            return Ok((done, faults, None));
        }
        let len = store::read_rows(&csv_path, seats, |(row, first_player), _, _| {
            spec.check_row(&row, first_player, &schedule, shard, game)
                .and_then(|()| match done.insert(row.id) {
                    true => Ok(()),
                    false => Err(format!("match {} appears twice", row.id)),
                })
                .map_err(|e| {
                    anyhow!(
                        "--resume: {}: {e}; {}",
                        csv_path.display(),
                        results::EDITED_ROW_FIX
                    )
                })?;
            faults += row.faults.iter().flatten().count() as u64;
            Ok(())
        })
        .map_err(Failure::usage)?;
        Ok((done, faults, Some(len)))
    };
    let (mut done, mut faults_before, mut complete_len) = read_played()?;
    // A row dropped from matches.csv (or not appended before a kill) comes back from its
    // match's seal: a match played is never played again.
    if let Some(key) = &auth {
        let restored = crate::auth::restore_rows(&csv_path, &dir, seats, key)
            .map_err(|e| Failure::usage(anyhow!("--resume: {e:#}")))?;
        if !restored.is_empty() {
            eprintln!(
                "restored the rows of {} match(es) missing from {} from their seals \
                 (matches/<id>/mac): {}",
                restored.len(),
                printable(&csv_path.display().to_string()),
                restored
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            (done, faults_before, complete_len) = read_played()?;
        }
    }
    if complete_len.is_some() {
        spec.seat_count(game)
            .map_err(anyhow::Error::msg)
            .and_then(|seats| results::load(&[(csv_path.clone(), shard)], seats))
            .and_then(|sources| results::check_records(&sources, &spec, game, auth.as_ref()))
            .map_err(|e| Failure::usage(anyhow!("--resume: {e}")))?;
        // A test's moment to swap a file just checked (debug builds only).
        jail::checked::after_check(&csv_path);
    }
    let total = shard.map_or(schedule.len(), |s| s.len_of(schedule.len()));
    // A new run was checked before anything was written (`setup::started`).
    if args.resume {
        fit_open_files(jobs, seats, total.saturating_sub(done.len() as u64))?;
    }
    // The journal beside the key says which matches were played: one whose folder and row
    // are both gone is refused, never played again for another result.
    if let Some(key) = &auth {
        runner.journal = Some(match args.resume {
            true => journal::resume(&key_place.path, key, shard, &dir, &done)?,
            false => journal::begin(&key_place.path, key, shard)?,
        });
    }
    let mut appender = Appender::open(&csv_path, seats, complete_len)?;
    eprintln!("{}", runner.limits.sandbox.line());
    eprintln!(
        "tournament {}: {} champions, {} {}, seed {}, {} matches{}, {} already played, {jobs} jobs",
        printable(&spec.name),
        spec.champions.len(),
        spec.format.name(),
        match spec.format {
            Format::RoundRobin { rounds, deal } =>
                format!("{rounds} round(s), {} deals", deal.name()),
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
    // Each seat's walk keeps up to KEPT_FILES files open besides what it holds
    // (`fit_open_files`): without them, matches are watched more slowly.
    let limit = jail::raise_open_files();
    let needed = (jobs * seats) as u64 * (jail::usage::KEPT_FILES + jail::usage::SEAT_FILES)
        + jail::usage::OWN_FILES;
    if needed > limit {
        eprintln!(
            "tournament: {jobs} jobs of {seats} seats may keep {needed} open files and the \
             limit is {limit} (RLIMIT_NOFILE, its hard one): past it the champions' processes \
             are watched without keeping their files (slower, never blind); raise it \
             (ulimit -Hn) or give fewer --jobs"
        );
    }
    let progress = progress::Progress::start(&dir, total, done.len() as u64, faults_before);
    let mut faults = 0u64;
    let mut played = 0u64;
    let started = Instant::now();
    let pending = schedule
        .iter()
        .filter(|p| shard.is_none_or(|s| s.contains(p.id)) && !done.contains(&p.id));
    let mut abandoned = 0u64;
    let resume = crate::cli::words::resume_command(
        "tournament",
        game.name(),
        &spec.name,
        &args.results,
        shard,
        args.key.as_deref(),
    );
    let outcome = runner.run(pending, stop, |event| match event {
        TournamentEvent::Played { row, first_player } => {
            appender.append(&matches_csv::row(&row, first_player))?;
            played += 1;
            let row_faults = row.faults.iter().flatten().count() as u64;
            faults += row_faults;
            progress.played(row_faults);
            Ok(())
        }
        TournamentEvent::Abandoned { .. } => {
            abandoned += 1;
            Ok(())
        }
        TournamentEvent::Failed { id, error } => Err(anyhow!(
            "match {id}: {error} (the run stopped: that match and those in flight count \
             nothing, the finished ones are written; once this is fixed, resume with: \
             {resume})"
        )),
    });
    let elapsed = started.elapsed().as_secs_f64();
    let (rows, standings, confidence) = results::write(
        &results::load(
            &[(csv_path, shard)],
            spec.seat_count(game).map_err(anyhow::Error::msg)?,
        )?,
        &dir,
        &spec,
        args.html,
        game,
        auth.as_ref(),
    )?;
    progress.finish(outcome.is_ok() && rows >= total);
    print!("{}", table::leaderboard(&standings, &confidence));
    print!("{}", table::seats(&confidence));
    eprintln!(
        "played {played} matches in {elapsed:.1} s ({:.2} matches/s), {faults} faults; \
         results: {}",
        played as f64 / elapsed.max(1e-9),
        printable(&dir.display().to_string())
    );
    outcome?;
    if rows < total {
        let command = resume;
        return Err(Failure {
            code: interrupt::EXIT_INTERRUPTED,
            error: anyhow!(
                "interrupted: {rows} of {total} matches played (partial results written; \
                 {abandoned} match(es) in flight abandoned, to be played again); resume with: \
                 {command}"
            ),
        });
    }
    Ok(())
}

/// Holds `.<name>.lock` beside the tournament's directory `dir` for the life of the run, or
/// says that another referee holds it. Beside, not inside: a tournament refused before it
/// starts leaves no directory behind.
pub(crate) fn lock(dir: &Path) -> Result<nix::fcntl::Flock<std::fs::File>, Failure> {
    use anyhow::Context;
    let parent = dir.parent().unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::run_files::make_folder(parent).map_err(Failure::from)?;
    let path = parent.join(format!(".{name}.lock"));
    // Never through a link planted in its place (a shard's lock is in the run's folder),
    // never waiting on a FIFO put there (the open does not block; a FIFO is then refused).
    let flags = nix::fcntl::OFlag::O_RDWR
        | nix::fcntl::OFlag::O_CREAT
        | nix::fcntl::OFlag::O_NOFOLLOW
        | nix::fcntl::OFlag::O_NONBLOCK
        | nix::fcntl::OFlag::O_CLOEXEC;
    let file = nix::fcntl::open(
        &path,
        flags,
        // The owner's alone: anyone who could open it could hold it (a read-only `flock`
        // locks as well) and keep every `--resume` out.
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .map(std::fs::File::from)
    .with_context(|| format!("cannot open {}", path.display()))
    .map_err(Failure::from)?;
    let regular = file
        .metadata()
        .with_context(|| format!("cannot open {}", path.display()))
        .map_err(Failure::from)?
        .is_file();
    if !regular {
        return Err(usage(format!(
            "{} is not a regular file (a FIFO, a device or a folder in its place) where the \
             referee keeps the run's lock: someone who can write the results put it there; \
             remove it and run again",
            printable(&path.display().to_string())
        )));
    }
    // One an older version made (0644): the owner's alone from now on.
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = file.metadata() {
            // SAFETY: no arguments.
            let me = unsafe { nix::libc::geteuid() };
            if meta.permissions().mode() & 0o077 != 0
                && std::os::unix::fs::MetadataExt::uid(&meta) == me
            {
                let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock).map_err(
        |(file, _)| {
            let by = match lock_holder::describe(&file) {
                Some(holder) => format!(
                    " (its lock {} is held by {holder})",
                    printable(&path.display().to_string())
                ),
                None => String::new(),
            };
            usage(format!(
                "{} is in use by another referee{by} (a run of this tournament, or its \
                 --resume, is still going): wait for it to end, or stop it, then --resume",
                printable(&dir.display().to_string())
            ))
        },
    )
}

/// `<results>/<name>`, or `<results>/<name>/shard-I-of-N`.
fn tournament_dir(results: &Path, name: &str, shard: Option<Shard>) -> PathBuf {
    let dir = results.join(name);
    match shard {
        Some(s) => dir.join(format!("shard-{}-of-{}", s.index, s.count)),
        None => dir,
    }
}

pub(crate) fn progress_bar(total: u64, done: u64) -> indicatif::ProgressBar {
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
