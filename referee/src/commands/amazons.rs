//! `referee --game amazons ...`: the Game of the Amazons from the command line: `match`
//! (two champions, a record, the command that reproduces it, with `--html` a replay page),
//! `replay`, `show` (the board after any move) and `bot` (the built-in players over the
//! protocol); `tournament` and `merge` are the runner's own, given the game.

use super::{Failure, EXIT_MISMATCH};
use crate::arena::GameRecord;
use crate::cli::words::shell_quote;
use crate::cli::{BotArgs, Command, MatchArgs, ReplayArgs, ShowArgs};
use crate::games::amazons_play::{boards, AMAZONS};
use crate::games::amazons_wire::{board_from_etat, deplacer_line};
use crate::games::{Game, Seats};
use amazons::bots::{Player, NAMES};
use amazons::Color;
use anyhow::anyhow;
use jail::untrusted::printable_path;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure::usage(anyhow!("{message}"))
}

/// Runs `command` for the Amazons.
pub fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Match(args) => play(args),
        Command::Replay(args) => replay(args),
        Command::Show(args) => show(args),
        Command::Bot(args) => bot(args),
        Command::Tournament(args) => super::tournament::run(args, &AMAZONS),
        Command::Merge(args) => super::merge::run(args, &AMAZONS),
        Command::Status(args) => super::status::run(args),
        Command::Gauntlet(args) => super::gauntlet::run(args, &AMAZONS),
        Command::Build(args) => super::build::run(args),
    }
}

fn play(args: MatchArgs) -> Result<(), Failure> {
    if args.champions.len() != 2 {
        return Err(usage(format!(
            "an Amazons match takes 2 champions, got {}",
            args.champions.len()
        )));
    }
    if args.limits.full_log().is_some() {
        return Err(usage(
            "--full-log is not available for the Amazons yet: their record keeps every move \
             already",
        ));
    }
    if args.monuments.is_some() || args.first_player.is_some() {
        return Err(usage(
            "--monuments and --first-player are options of La loi du plus riche, not of the \
             Amazons (seat 0 plays White and moves first)",
        ));
    }
    let mut champions = args
        .champions
        .iter()
        .map(|c| AMAZONS.resolve(c))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    crate::roster::names_apart(&mut champions);
    let time = args.limits.time().map_err(usage)?;
    let limits = args.limits.process().map_err(usage)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let dir = args.out.clone().unwrap_or_else(|| {
        let names: Vec<String> = champions.iter().map(|c| c.name.replace('/', "_")).collect();
        PathBuf::from("results")
            .join("matches")
            .join(format!("amazons-{seed}-{}", names.join("-")))
    });
    // No champion sees the results, even kept under its folder (a match run from there).
    if args.out.is_none() {
        jail::hidden::hide_root(std::path::Path::new("results"));
    }
    jail::hidden::hide(&dir);
    eprintln!("{}", limits.sandbox.line());
    jail::interrupt::catch(false, crate::store::finish_before_exit);
    let seats = Seats {
        seed,
        champions,
        time,
        limits,
        pin: !args.limits.no_pin,
        full_log: None,
    };
    // One match, watched by whoever started it: a champion killed from outside is its crash.
    let record = jail::interrupt::tolerating(|| AMAZONS.play_match(&seats, &dir))?;
    let path = dir.join("record.json");
    let name =
        |seat: u8| jail::untrusted::printable(&record.seats[usize::from(seat)].name).into_owned();
    match record.ranking.winners().as_slice() {
        &[w] => println!(
            "{} ({}) wins after {} moves",
            name(w as u8),
            if w == 0 { "White" } else { "Black" },
            record.actions().count()
        ),
        _ => println!("no winner: both champions faulted"),
    }
    if let Some(after) = boards(&record).iter().position(amazons::Board::isolated) {
        println!("the amazons were isolated from each other after move {after}");
    }
    for fault in &record.faults {
        println!(
            "fault of {}: {} ({})",
            name(fault.seat),
            fault.kind.name(),
            jail::untrusted::printable(&fault.message)
        );
    }
    println!("record: {}", printable_path(&path));
    if args.html {
        let page = crate::view::amazons_html::page_in(&record, Some(&dir))?;
        let html = dir.join("replay.html");
        crate::store::write_atomic(&html, page.as_bytes())?;
        println!("replay: {}", printable_path(&html));
    }
    super::print_stderr_files(
        &dir,
        2,
        (0..2u8).filter_map(|s| {
            let fault = record.faults.iter().find(|f| f.seat == s)?;
            Some((
                usize::from(s),
                record.seats[usize::from(s)].name.clone(),
                fault.kind,
            ))
        }),
    );
    println!(
        "see it: {} --game amazons show {}{}",
        crate::cli::words::program(),
        shell_quote(&dir.to_string_lossy()),
        if args.html {
            ""
        } else {
            " (or add --html for a replay in the browser)"
        }
    );
    match super::match_cmd::human_seats(seats.champions.iter().map(|c| c.is_human())) {
        Some(humans) => println!(
            "reproduce: none: {humans} played by a person (`human`), whom no command plays \
             again; `{} --game amazons replay {}` checks the record",
            crate::cli::words::program(),
            shell_quote(&path.to_string_lossy())
        ),
        None => println!(
            "reproduce: {}",
            crate::cli::words::as_typed(&AMAZONS.reproduce_command(&seats))
        ),
    }
    Ok(())
}

/// Reads an Amazons record (a `record.json`, or the directory holding it); the inner
/// error: it does not replay.
fn load(path: &Path) -> Result<Result<GameRecord, String>, Failure> {
    let file = if path.is_dir() {
        path.join("record.json")
    } else {
        path.to_path_buf()
    };
    AMAZONS.read(&file).map_err(|e| {
        usage(format!(
            "{e:#}; records of La loi du plus riche are read without --game amazons"
        ))
    })
}

fn replay(args: ReplayArgs) -> Result<(), Failure> {
    let mismatch = |message: String| Failure {
        code: EXIT_MISMATCH,
        error: anyhow!("replay differs from {}: {message}", args.record.display()),
    };
    let record = load(&args.record)?.map_err(mismatch)?;
    crate::replay_checks::seat_seeds(record.seed, &record.seats).map_err(mismatch)?;
    let boards = boards(&record);
    println!(
        "replay ok: {} moves, every one legal; the callbacks, faults and winner match the \
         record",
        boards.len() - 1
    );
    Ok(())
}

fn show(args: ShowArgs) -> Result<(), Failure> {
    if args.turn.is_some() || args.phase.is_some() {
        return Err(usage(
            "the Amazons have no turns or phases: --step N shows the board after move N",
        ));
    }
    let record = load(&args.record)?.map_err(|e| {
        usage(format!(
            "{} is not a record a match wrote: {e}; show the record.json written by \
             `referee --game amazons match` or a tournament, unedited",
            args.record.display()
        ))
    })?;
    let boards = boards(&record);
    let moves: Vec<&str> = record.actions().collect();
    let last = boards.len() - 1;
    let step = match args.step {
        None => last,
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|&n| n <= last)
            .ok_or_else(|| {
                usage(format!(
                    "--step must be in 1..={last} (the moves played; without --step, the \
                     end), got {n}"
                ))
            })?,
    };
    println!(
        "Amazons, seed {}: {} (White) vs {} (Black), after move {step}/{last}",
        record.seed,
        jail::untrusted::printable(&record.seats[0].name),
        jail::untrusted::printable(&record.seats[1].name)
    );
    if step > 0 {
        println!("last move: {}", moves[step - 1]);
    }
    match boards.iter().position(amazons::Board::isolated) {
        Some(after) if after <= step => println!(
            "isolated: since move {after} no amazon can reach one of the other colour; each \
             player only fills their own region"
        ),
        Some(after) => println!("isolated: not yet (it happens after move {after})"),
        None => {}
    }
    print!("{}", boards[step]);
    Ok(())
}

/// A built-in player over protocol-amazons.md on stdin and stdout: `couleur` and `etat`,
/// then `deplacer`, in every `jouer`.
fn bot(args: BotArgs) -> Result<(), Failure> {
    let seed = std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut player = Player::by_name(&args.name, seed).ok_or_else(|| {
        usage(format!(
            "no built-in Amazons champion `{}`; try: {}",
            args.name,
            NAMES.join(", ")
        ))
    })?;
    let mut protocol = Protocol {
        input: std::io::stdin().lock().lines(),
        out: std::io::stdout().lock(),
    };
    protocol
        .serve(&mut player)
        .map_err(|e| anyhow!("the built-in Amazons champion stopped: {e}").into())
}

/// The champion's side of the protocol, on stdin and stdout.
struct Protocol {
    input: std::io::Lines<std::io::StdinLock<'static>>,
    out: std::io::StdoutLock<'static>,
}

impl Protocol {
    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn ask(&mut self, line: &str) -> std::io::Result<String> {
        self.say(line)?;
        self.input
            .next()
            .transpose()?
            .ok_or_else(|| std::io::Error::other("the referee closed the protocol"))
    }

    /// Every callback until the end of input: a move in each `jouer`, then `fin`.
    fn serve(&mut self, player: &mut Player) -> std::io::Result<()> {
        while let Some(callback) = self.input.next().transpose()? {
            if callback.trim() == "jouer" {
                let me = if self.ask("couleur")? == "1" {
                    Color::Black
                } else {
                    Color::White
                };
                let etat = self.ask("etat")?;
                if let Some(m) = player.choose(&board_from_etat(&etat, me)) {
                    self.ask(&deplacer_line(m))?;
                }
            }
            self.say("fin")?;
        }
        Ok(())
    }
}
