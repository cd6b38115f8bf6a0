//! `referee --game GAME ...` for every game on the model (the Amazons, and the games to
//! come): `match` (champions, a record, the command that reproduces it, with `--html` a
//! replay page), `replay`, `show` (the state after any action) and `bot` (the built-in
//! players over the game's protocol); `tournament`, `merge` and `gauntlet` are the
//! runner's own, given the game. Written once: a game says only what is its own through
//! its [`Parts`](crate::games::model::Parts).

use super::{Failure, EXIT_MISMATCH};
use crate::cli::words::quote;
use crate::cli::{BotArgs, Command, MatchArgs, ReplayArgs, ShowArgs};
use crate::games::model::{At, Commands, LogMissing, OtherGame};
use crate::games::Seats;
use anyhow::anyhow;
use arena::{GameRecord, NoStep};
use jail::untrusted::{printable, printable_path};
use std::path::{Path, PathBuf};

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// Runs `command` for `game`.
pub fn run(command: Command, game: &'static dyn Commands) -> Result<(), Failure> {
    match command {
        Command::Match(args) => play(args, game),
        Command::Replay(args) => replay(args, game),
        Command::Show(args) => show(args, game),
        Command::Bot(args) => bot(args, game),
        Command::Tournament(args) => super::tournament::run(args, game.runner()),
        Command::Merge(args) => super::merge::run(args, game.runner()),
        Command::Status(args) => super::status::run(args),
        Command::Gauntlet(args) => super::gauntlet::run(args, game.runner()),
        Command::Build(args) => super::build::run(args),
        Command::Options | Command::Serve(_) => unreachable!("answered by `commands::run`"),
    }
}

/// The match `args` ask of `game`, every value checked (exit 2 on a bad one, naming the
/// flag): its seats, and the folder it is played into.
pub fn plan(args: &MatchArgs, game: &dyn Commands) -> Result<(Seats, PathBuf), Failure> {
    let runner = game.runner();
    let (title, name) = (runner.title(), runner.name());
    if !runner.seat_range().contains(&args.champions.len()) {
        let (fewest, most) = (*runner.seat_range().start(), *runner.seat_range().end());
        return Err(usage(format!(
            "a match of {title} takes {} champions, got {}",
            match fewest == most {
                true => fewest.to_string(),
                false => format!("{fewest} to {most}"),
            },
            args.champions.len()
        )));
    }
    // `--monuments` and `--first-player` set the options of those names (the 2009 game's).
    let words = crate::cli::words::setup_words(
        runner,
        args.monuments.as_deref(),
        args.first_player,
        &args.options,
    )
    .map_err(usage)?;
    let Some(words) = words else {
        return Err(usage(format!(
            "--monuments and --first-player are options of La loi du plus riche, not of \
             {title}{}",
            game.first_mover()
        )));
    };
    let options = crate::cli::words::options_of(runner, &words).map_err(usage)?;
    let mut champions = args
        .champions
        .iter()
        .map(|c| runner.resolve(c))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    // Named as a tournament names them: a name that cannot be shown as it is is refused.
    super::names::name_all(&mut champions, &[], &[])?;
    // The cheap checks first: `process` probes the sandbox.
    let time = args.limits.time().map_err(usage)?;
    let limits = args.limits.process().map_err(usage)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let dir = args.out.clone().unwrap_or_else(|| {
        // Names told apart by a path (`c/random`) make one folder, not nested ones; the
        // default game's folders are named as they always were, without the game.
        let names: Vec<String> = champions.iter().map(|c| c.name.replace('/', "_")).collect();
        let game = match name == crate::games::DEFAULT {
            true => String::new(),
            false => format!("{name}-"),
        };
        PathBuf::from("results")
            .join("matches")
            .join(format!("{game}{seed}-{}", names.join("-")))
    });
    let seats = Seats {
        seed,
        champions,
        time,
        limits,
        pin: !args.limits.no_pin,
        full_log: args.limits.full_log(),
        options,
    };
    Ok((seats, dir))
}

fn play(args: MatchArgs, game: &'static dyn Commands) -> Result<(), Failure> {
    let name = game.runner().name();
    let (seats, dir) = plan(&args, game)?;
    // A seat that cannot start for want of the referee's open files is no champion's fault.
    if let Err(short) = super::open_files::check(seats.champions.len()) {
        return Err(usage(format!(
            "a match of {} seats needs at least {} open files and the referee may open {} \
             (RLIMIT_NOFILE, its hard limit): raise it (`ulimit -n {}`, or more) and play it \
             again",
            seats.champions.len(),
            short.need,
            short.limit,
            short.need
        )));
    }
    // No champion sees the results, even kept under its folder (a match run from there).
    if args.out.is_none() {
        jail::hidden::hide_root(std::path::Path::new("results"));
    }
    jail::hidden::hide(&dir);
    eprintln!("{}", seats.limits.sandbox.line());
    jail::interrupt::catch(false, crate::store::finish_before_exit);
    // One match, watched by whoever started it: a champion killed from outside is its crash.
    let record = jail::interrupt::tolerating(|| game.play_match(&seats, &dir))?;
    let path = dir.join("record.json");
    let seat_name = |seat: u8| printable(&record.seats[usize::from(seat)].name).into_owned();
    let marks = game.marks();
    let mark = |seat: usize| marks.get(seat).copied().unwrap_or("");
    match game.result_table(&record) {
        Some(table) => print!("{table}"),
        None => {
            match record.ranking.winners().as_slice() {
                &[w] => println!(
                    "{} ({}) wins after {} moves",
                    seat_name(w as u8),
                    mark(w),
                    record.actions().count()
                ),
                _ => println!("no winner: {}", game.no_winner()),
            }
            for line in game.describe(&record) {
                println!("{line}");
            }
            for fault in &record.faults {
                let message = crate::view::fault_words::in_words(record.fault_message(fault));
                match game.fault_place(&record, fault) {
                    Some(place) => println!(
                        "fault of {} in {}: {} ({})",
                        seat_name(fault.seat),
                        place.when,
                        fault.kind.name(),
                        printable(&message)
                    ),
                    None => println!(
                        "fault of {}: {} ({})",
                        seat_name(fault.seat),
                        fault.kind.name(),
                        printable(&fault.message)
                    ),
                }
            }
        }
    }
    println!("record: {}", printable_path(&path));
    if args.html {
        let page = game.page(&record, Some(&dir))?;
        let html = dir.join("replay.html");
        crate::store::write_atomic(&html, page.as_bytes())?;
        println!("replay: {}", printable_path(&html));
    }
    let n = record.seats.len();
    super::print_stderr_files(
        &dir,
        n,
        (0..n as u8).filter_map(|s| {
            let fault = record.faults.iter().find(|f| f.seat == s)?;
            Some((
                usize::from(s),
                record.seats[usize::from(s)].name.clone(),
                fault.kind,
                game.fault_place(&record, fault),
            ))
        }),
    );
    println!(
        "see it: {} {}show {}{}",
        crate::cli::words::program(),
        crate::cli::words::game_flag(name),
        quote(&dir.to_string_lossy()),
        if args.html {
            ""
        } else {
            " (or add --html for a replay in the browser)"
        }
    );
    match human_seats(seats.champions.iter().map(|c| c.is_human())) {
        Some(humans) => println!(
            "reproduce: none: {humans} played by a person (`human`), whom no command plays \
             again; `{} {}replay {}` checks the record",
            crate::cli::words::program(),
            crate::cli::words::game_flag(name),
            quote(&path.to_string_lossy())
        ),
        None => println!(
            "reproduce: {}",
            game.reproduce_command(&seats)
                .as_typed(&crate::cli::words::program())
        ),
    }
    Ok(())
}

/// `seat 1` or `seats 0, 2`: the seats a person played, if any.
fn human_seats(human: impl Iterator<Item = bool>) -> Option<String> {
    let seats: Vec<String> = human
        .enumerate()
        .filter(|(_, h)| *h)
        .map(|(s, _)| s.to_string())
        .collect();
    match seats.len() {
        0 => None,
        1 => Some(format!("seat {} was", seats[0])),
        _ => Some(format!("seats {} were", seats.join(", "))),
    }
}

/// A built-in champion of `game` over its protocol on stdin and stdout.
fn bot(args: BotArgs, game: &dyn Commands) -> Result<(), Failure> {
    let builtins = game.runner().builtins();
    if !builtins.contains(&args.name.as_str()) {
        return Err(usage(format!(
            "no built-in {} champion `{}`; try: {}",
            game.short_title(),
            args.name,
            builtins.join(", ")
        )));
    }
    // It stops on input that breaks the protocol (said on stderr): a usage error, as any.
    game.bot(&args.name).map_err(|e| {
        usage(format!(
            "the built-in {} champion stopped: {e:#}",
            game.short_title()
        ))
    })
}

/// Reads a record of `game` (a `record.json`, or the directory holding it); the inner
/// error: it does not replay.
fn load(path: &Path, game: &dyn Commands) -> Result<Result<GameRecord, String>, Failure> {
    let file = if path.is_dir() {
        path.join("record.json")
    } else {
        path.to_path_buf()
    };
    game.read(&file)
        .map_err(|e| match e.downcast_ref::<OtherGame>() {
            Some(other) if other.name == crate::games::DEFAULT => {
                usage(format!("{other}: read it without --game"))
            }
            Some(other) => usage(format!("{other}: add --game {}", other.name)),
            None if e.is::<LogMissing>() => {
                usage(format!("{e:#} (the match was played with --full-log)"))
            }
            None => match game.runner().name() {
                crate::games::DEFAULT => usage(format!("{e:#}")),
                name => usage(format!(
                    "{e:#}; records of La loi du plus riche are read without --game {name}"
                )),
            },
        })
}

fn replay(args: ReplayArgs, game: &dyn Commands) -> Result<(), Failure> {
    let mismatch = |message: String| Failure {
        code: EXIT_MISMATCH,
        error: anyhow!("replay differs from {}: {message}", args.record.display()),
    };
    let record = load(&args.record, game)?.map_err(mismatch)?;
    arena::seeds::check_seat_seeds(record.seed, &record.seats).map_err(mismatch)?;
    println!("{}", replayed(&record));
    Ok(())
}

/// What `replay` checked of `record`: its moves, callbacks and requests counted, how far its
/// full log (if any) made them again, and the digest it ends on.
fn replayed(record: &GameRecord) -> String {
    let requests: u64 = record.callbacks.iter().map(|c| c.requests).sum();
    let log = match record.full_log.as_ref().map(|log| log.cut) {
        None => String::new(),
        Some(None) => " (every one made again from the full log)".to_string(),
        Some(Some(cut)) => format!(
            " (made again from the full log up to callback #{}, after {} of its requests, \
             where it reached its cap; the actions alone from there)",
            cut.callback, cut.requests
        ),
    };
    let digest = record
        .callbacks
        .last()
        .map_or_else(String::new, |c| format!(", final digest {}", c.digest));
    // Past a callback's kept refusals, the record keeps a count by function and code: the
    // calls themselves are not in it, so it cannot prove them.
    let counted: u64 = record
        .callbacks
        .iter()
        .flat_map(|c| c.refused.values())
        .fold(0, |sum, &n| sum.saturating_add(n));
    let counted = match counted {
        0 => String::new(),
        n => format!(
            "; {n} refused actions only counted (by function and code, each an action \
             refused with one of the game's codes; the calls are not kept: not proven, nor \
             which requests were questions)"
        ),
    };
    format!(
        "replay ok: {} moves, every one legal; {} callbacks, {requests} requests{log}{digest}: \
         the callbacks, faults and winner match the record{counted}",
        record.actions().count(),
        record.callbacks.len(),
    )
}

fn show(args: ShowArgs, game: &dyn Commands) -> Result<(), Failure> {
    let record = load(&args.record, game)?.map_err(|e| {
        usage(format!(
            "{} is not a record a match wrote: {e}; show the record.json written by \
             `referee {}match` or a tournament, unedited",
            args.record.display(),
            crate::cli::words::game_flag(game.runner().name())
        ))
    })?;
    let dir = match args.record.is_dir() {
        true => Some(args.record.as_path()),
        false => args.record.parent(),
    };
    let at = At {
        step: args.step,
        turn: args.turn,
        phase: args.phase,
        colour: args.color.is_on(),
    };
    let text = game
        .show(&record, dir, &at)
        .map_err(|e| usage(no_step(&e)))?;
    match crate::view::fit::terminal_width() {
        Some(width) => print!("{}", crate::view::fit::fit(&text, width)),
        None => print!("{text}"),
    }
    Ok(())
}

/// [`NoStep`] in the command line's words.
fn no_step(why: &NoStep) -> String {
    match why {
        NoStep::Step { last, got, moves } => match moves {
            true => format!(
                "--step must be in 1..={last} (the moves played; without --step, the end), \
                 got {got}"
            ),
            false => format!("--step must be in 1..={last}, got {got}"),
        },
        NoStep::NoTurns { title } => {
            format!("{title} has no turns or phases: --step N shows the board after move N")
        }
        NoStep::StartPhase => "--turn 0 is the start and has no phase".into(),
        NoStep::LastTurnPhase { turn, got } => {
            format!("--phase on turn {turn} must be 1 (the last turn has one phase), got {got}")
        }
        NoStep::Other(message) => message.clone(),
    }
}
