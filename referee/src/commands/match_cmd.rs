//! `referee match`: one match, its table, its record and the command that reproduces it.

use super::Failure;
use crate::cli::words::quote;
use crate::cli::{parse_monuments, MatchArgs};
use crate::export::table;
use crate::games::{loi::LoiGame, Game};
use crate::run_match::MatchPlan;
use anyhow::anyhow;
use jail::untrusted::printable_path;
use std::path::PathBuf;

pub fn run(args: MatchArgs) -> Result<(), Failure> {
    let plan = plan(&args)?;
    // No champion sees the results, even kept under its folder (a match run from there).
    if args.out.is_none() {
        jail::hidden::hide_root(std::path::Path::new("results"));
    }
    let dir = args.out.unwrap_or_else(|| {
        // Names told apart by a path (`c/random`) make one folder, not nested ones.
        let names: Vec<String> = plan
            .champions
            .iter()
            .map(|c| c.name.replace('/', "_"))
            .collect();
        PathBuf::from("results")
            .join("matches")
            .join(format!("{}-{}", plan.seed, names.join("-")))
    });
    jail::hidden::hide(&dir);
    eprintln!("{}", plan.limits.sandbox.line());
    jail::interrupt::catch(false, crate::store::finish_before_exit);
    // One match, watched by whoever started it: a champion killed from outside is its crash.
    let record = jail::interrupt::tolerating(|| plan.run(&dir))?;
    print!("{}", table::match_result(&record));
    println!("record: {}", printable_path(&dir.join("record.json")));
    if args.html {
        let page = crate::view::html::replay_page_in(&record, Some(&dir))?;
        let path = dir.join("replay.html");
        crate::store::write_atomic(&path, page.as_bytes())?;
        println!("replay: {}", printable_path(&path));
    }
    super::print_stderr_files(
        &dir,
        3,
        (0..3u8).filter_map(|s| {
            let fault = record.faults_of(s).next()?;
            Some((
                usize::from(s),
                record.seats[usize::from(s)].name.clone(),
                fault.kind,
            ))
        }),
    );
    if !args.html {
        println!(
            "see it: {} show {} (or add --html for a replay in the browser)",
            crate::cli::words::program(),
            quote(&dir.to_string_lossy())
        );
    }
    match human_seats(plan.champions.iter().map(|c| c.is_human())) {
        Some(seats) => println!(
            "reproduce: none: {seats} played by a person (`human`), whom no command plays \
             again; `{} replay {}` checks the record",
            crate::cli::words::program(),
            quote(&dir.join("record.json").to_string_lossy())
        ),
        None => println!("reproduce: {}", plan.reproduce_command().as_typed()),
    }
    Ok(())
}

/// `seat 1` or `seats 0, 2`: the seats a person played, if any.
pub(crate) fn human_seats(human: impl Iterator<Item = bool>) -> Option<String> {
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

/// The match `args` describe, every value checked (exit 2 on a bad one).
pub fn plan(args: &MatchArgs) -> Result<MatchPlan, Failure> {
    // The 2009 game declares no option yet: any `--option` is refused, naming its flags.
    crate::cli::words::options_of(&LoiGame, &args.options)
        .map_err(|e| Failure::usage(anyhow!(e)))?;
    let mut champions: Vec<_> = args
        .champions
        .iter()
        .map(|c| LoiGame.resolve(c))
        .collect::<Result<_, _>>()
        .map_err(Failure::usage)?;
    crate::roster::names_apart(&mut champions, &[]);
    let champions: [_; 3] = champions.try_into().map_err(|_| {
        Failure::usage(anyhow!(
            "a match of La loi du plus riche takes 3 champions (the Amazons take 2, with \
                 --game amazons)"
        ))
    })?;
    let monuments = args
        .monuments
        .as_deref()
        .map(parse_monuments)
        .transpose()
        .map_err(|e| Failure::usage(anyhow!(e)))?;
    // The cheap checks first: `process` probes the sandbox.
    let time = args.limits.time().map_err(|e| Failure::usage(anyhow!(e)))?;
    let limits = args
        .limits
        .process()
        .map_err(|e| Failure::usage(anyhow!(e)))?;
    let plan = MatchPlan {
        seed: args.seed.unwrap_or_else(rand::random),
        monuments,
        first_player: args.first_player,
        champions,
        time,
        limits,
        pin: !args.limits.no_pin,
        full_log: args.limits.full_log(),
    };
    Ok(plan)
}
