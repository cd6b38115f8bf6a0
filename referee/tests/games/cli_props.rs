//! Property tests of the command line: whatever value a numeric flag is given, the referee
//! either accepts it or refuses it naming the flag (never a panic, never a value that
//! overflows into another), and the reproduce command it prints for an accepted match is
//! accepted as printed and plans the same match.

use clap::Parser;
use proptest::prelude::*;
use referee::cli::{Cli, Command, MatchArgs};
use referee::commands::model;
use referee::games::{loi_play::LOI, Seats};
use referee::schedule::{Format, Schedule};

/// The match arguments of `words` (after `referee`), or clap's refusal.
fn parse(words: &[String]) -> Result<MatchArgs, clap::Error> {
    let cli =
        Cli::try_parse_from(std::iter::once("referee".to_string()).chain(words.iter().cloned()))?;
    match cli.command {
        Command::Match(args) => Ok(args),
        other => panic!("not a match: {other:?}"),
    }
}

/// The match `args` plan for the 2009 game, or the refusal.
fn plan_of(args: &MatchArgs) -> Result<Seats, referee::commands::Failure> {
    model::plan(args, &LOI).map(|(seats, _)| seats)
}

/// What a plan plays, without the champions' file hashes.
fn key(plan: &Seats) -> String {
    format!(
        "{} {:?} {:?} {:?} {:?} {} {} {} {}",
        plan.seed,
        plan.options.get("monuments"),
        plan.options.get("first-player"),
        plan.time.init_cpu,
        plan.time.call_cpu,
        plan.time.scale,
        plan.limits.memory,
        plan.limits.processes,
        plan.limits.disk
    )
}

/// Numbers as people (and fuzzers) type them: huge, tiny, negative, exponents, not numbers.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u64..5000).prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
        (0.0f64..100.0).prop_map(|f| f.to_string()),
        (-320i32..320).prop_map(|e| format!("1e{e}")),
        prop::sample::select(vec![
            "nan",
            "inf",
            "-inf",
            "0",
            "-0",
            "0.0",
            "1e-300",
            "18446744073709551616",
            "",
            "x",
            "0x10",
            "1_000",
        ])
        .prop_map(str::to_string),
    ]
}

const FLAGS: [&str; 8] = [
    "--time-scale",
    "--init-cpu",
    "--call-cpu",
    "--memory",
    "--processes",
    "--disk",
    "--seed",
    "--first-player",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn numeric_flags_are_accepted_or_refused_by_name(
        flag in prop::sample::select(FLAGS.to_vec()),
        value in number(),
        other in prop::sample::select(FLAGS.to_vec()),
        other_value in number(),
    ) {
        let mut words: Vec<String> = ["match", "random", "greedy", "random", "--sandbox", "off"]
            .map(String::from)
            .to_vec();
        words.extend([format!("{flag}={value}"), format!("{other}={other_value}")]);
        if flag == other {
            words.truncate(words.len() - 1);
        }
        let args = match parse(&words) {
            Ok(args) => args,
            Err(e) => {
                // clap's refusal names the flag it could not read.
                let text = e.to_string();
                prop_assert!(
                    text.contains(flag) || text.contains(other),
                    "{words:?}: {text}"
                );
                prop_assert_eq!(e.exit_code(), 2);
                return Ok(());
            }
        };
        match plan_of(&args) {
            Err(failure) => {
                let text = failure.error.to_string();
                prop_assert_eq!(failure.code, 2, "{:?}: {}", words, text);
                prop_assert!(
                    text.contains(flag) || text.contains(other),
                    "{words:?}: {text}"
                );
            }
            Ok(plan) => {
                // The reproduce command, as printed, plans the same match.
                let printed = LOI.reproduce_command(&plan).render();
                let read = referee::cli::command_line::CommandLine::read(&printed)
                    .map_err(TestCaseError::fail)?;
                let again: Vec<String> = read.args.into_iter().skip(1).collect();
                let args = parse(&again)
                    .map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
                let replanned = plan_of(&args)
                    .map_err(|f| TestCaseError::fail(format!("{printed}: {:#}", f.error)))?;
                prop_assert_eq!(key(&plan), key(&replanned), "{}", printed);
            }
        }
    }
}

const TOURNAMENT_FLAGS: [&str; 5] = ["--rounds", "--matches", "--jobs", "--seed", "--shard"];

/// A shard as people type it, well or badly.
fn shard_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (number(), number()).prop_map(|(i, n)| format!("{i}/{n}")),
        (0u64..10, 0u64..10).prop_map(|(i, n)| format!("{i}/{n}")),
        number(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A tournament's numeric flags: refused by clap naming the flag, or accepted and then
    /// either a playable schedule or an error naming the flag to lower.
    #[test]
    fn tournament_flags_are_accepted_or_refused_by_name(
        flag in prop::sample::select(TOURNAMENT_FLAGS.to_vec()),
        value in number(),
        shard in shard_text(),
        champions in 3usize..40,
    ) {
        let value = if flag == "--shard" { shard } else { value };
        let mut words: Vec<String> = ["referee", "tournament", "a", "b", "c"]
            .map(String::from)
            .to_vec();
        if flag == "--matches" {
            words.extend(["--format".to_string(), "groups".to_string()]);
        }
        words.push(format!("{flag}={value}"));
        let args = match Cli::try_parse_from(&words) {
            Ok(Cli { command: Command::Tournament(args), .. }) => args,
            Ok(other) => panic!("not a tournament: {other:?}"),
            Err(e) => {
                prop_assert!(e.to_string().contains(flag), "{words:?}: {e}");
                prop_assert_eq!(e.exit_code(), 2);
                return Ok(());
            }
        };
        if let Some(shard) = args.shard {
            prop_assert!(shard.index >= 1 && shard.index <= shard.count, "{words:?}");
        }
        if let Some(jobs) = args.jobs {
            prop_assert!(jobs >= 1, "{words:?}");
        }
        let format = match (args.rounds, args.matches) {
            (_, Some(matches)) => Format::Groups { matches },
            (rounds, None) => Format::round_robin(rounds.unwrap_or(1)),
        };
        if let Err(e) = Schedule::new(1, champions, format) {
            let text = referee::cli::words::ScheduleProblem(e).to_string();
            prop_assert!(
                text.contains(flag) || champions < 6,
                "{words:?} with {champions} champions: {text}"
            );
        }
    }
}
