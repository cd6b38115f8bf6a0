//! The value parsers of the flags that take a number or a name of the jail's: each numeric one takes the text as typed (a negative number
//! too, so that `--seed -1` reaches it instead of being read as a flag) and refuses a value
//! out of range with a message that names the valid range. clap prefixes it with
//! "invalid value 'X' for '--flag <N>'"; the snapshot test below shows every message.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use jail::sandbox::SandboxMode;

use super::{CPU_SECONDS, MAX_MIB, MAX_PROCESSES, TIME_SCALES};

/// A whole number in `low..=high`, or a message naming `what` it is and that range.
fn whole(text: &str, low: u64, high: u64, what: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ if high == u64::MAX => Err(format!("{what} is a whole number, {low} or more")),
        _ => Err(format!("{what} is a whole number from {low} to {high}")),
    }
}

/// A number of seconds or a factor in `low..=high`.
fn decimal(text: &str, (low, high): (f64, f64), what: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (low..=high).contains(&v) => Ok(v),
        _ => Err(format!("{what} is a number from {low} to {high}")),
    }
}

/// `--sandbox`: a mode of the jail by its name (the help lists each with what it does).
pub(super) fn sandbox_mode() -> impl TypedValueParser<Value = SandboxMode> {
    let names = SandboxMode::ALL.map(|(_, name, help)| PossibleValue::new(name).help(help));
    // Only the possible values reach the map.
    PossibleValuesParser::new(names).map(|name| SandboxMode::from_name(&name).unwrap_or_default())
}

/// `--game`: a game the referee plays, by its name (the help lists each with its title).
pub(super) fn game_name() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::games::ALL
            .iter()
            .map(|g| PossibleValue::new(g.name()).help(g.title())),
    )
}

/// `--seed`: any unsigned 64-bit number.
pub(super) fn seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// `--first-player`: a seat.
pub(super) fn first_player(text: &str) -> Result<u8, String> {
    whole(text, 0, 2, "the seat that opens turn 1").map(|n| n as u8)
}

/// `--turn` of `show`: 0 (the start) to 15 (the last turn).
pub(super) fn turn(text: &str) -> Result<u8, String> {
    whole(text, 0, 15, "a turn (0 is the start)").map(|n| n as u8)
}

/// `--phase` of `show`.
pub(super) fn phase(text: &str) -> Result<u8, String> {
    whole(text, 1, 3, "a phase").map(|n| n as u8)
}

/// `--step` of `show` (its upper bound depends on the record, checked with it).
pub(super) fn step(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX, "a step of the timeline")
}

/// `--rounds` and `--matches` of a tournament.
pub(super) fn count(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX, "a number of matches")
}

/// `--seats`: a count a schedule can seat (the game's own range is checked with it).
pub(super) fn seats(text: &str) -> Result<usize, String> {
    whole(
        text,
        2,
        crate::schedule::MAX_SEATS as u64,
        "a number of seats",
    )
    .map(|n| n as usize)
}

/// `--memory`, MiB.
pub(super) fn memory(text: &str) -> Result<u64, String> {
    whole(text, 16, MAX_MIB, "a memory limit in MiB")
}

/// `--disk`, MiB.
pub(super) fn disk(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_MIB, "a size in MiB")
}

/// `--full-log-cap`: a log of at least 1 MiB.
pub(super) fn full_log_cap(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_MIB, "a size in MiB")
}

/// `--processes`: interpreters start threads, so at least 8.
pub(super) fn processes(text: &str) -> Result<u64, String> {
    whole(text, 8, MAX_PROCESSES, "a number of processes and threads")
}

/// `--init-cpu` and `--call-cpu`, seconds.
pub(super) fn cpu_seconds(text: &str) -> Result<f64, String> {
    decimal(text, CPU_SECONDS, "a CPU budget in seconds")
}

/// `--time-scale`.
pub(super) fn time_scale(text: &str) -> Result<f64, String> {
    decimal(text, TIME_SCALES, "a factor")
}

#[cfg(test)]
mod tests {
    use crate::cli::Cli;
    use clap::Parser;

    /// Every numeric flag given a bad value: the message names the valid range.
    #[test]
    fn bad_values_name_the_valid_range() {
        let cases: &[&[&str]] = &[
            &["match", "a", "b", "c", "--seed", "-1"],
            &["match", "a", "b", "c", "--seed", "18446744073709551616"],
            &["match", "a", "b", "c", "--seed", "abc"],
            &["--game", "amazons", "match", "a", "b", "--seed", "-5"],
            &["match", "a", "b", "c", "--first-player", "3"],
            &["match", "a", "b", "c", "--first-player", "-1"],
            &["match", "a", "b", "c", "--memory", "-1"],
            &["match", "a", "b", "c", "--memory", "8"],
            &["match", "a", "b", "c", "--disk", "0"],
            &["match", "a", "b", "c", "--processes", "4294967296"],
            &["match", "a", "b", "c", "--init-cpu", "-1"],
            &["match", "a", "b", "c", "--call-cpu", "0"],
            &["match", "a", "b", "c", "--time-scale", "inf"],
            &["show", "r", "--turn", "16"],
            &["show", "r", "--turn", "3", "--phase", "-1"],
            &["show", "r", "--step", "0"],
            &["tournament", "a", "b", "c", "--seed", "-1"],
            &["tournament", "a", "b", "c", "--rounds", "0"],
            &["tournament", "a", "b", "c", "--matches", "-2"],
            &["tournament", "a", "b", "c", "--jobs", "-1"],
            &["tournament", "a", "b", "c", "--shard", "0/2"],
        ];
        let mut said = String::new();
        for args in cases {
            let err = Cli::try_parse_from(std::iter::once("referee").chain(args.iter().copied()))
                .expect_err(&args.join(" "));
            let first = err.to_string().lines().next().unwrap_or("").to_string();
            said.push_str(&format!("referee {}\n  {first}\n", args.join(" ")));
        }
        insta::assert_snapshot!(said);
    }

    /// A good value still parses, negative numbers being allowed only as values.
    #[test]
    fn good_values_parse() {
        let cli = Cli::try_parse_from([
            "referee",
            "match",
            "a",
            "b",
            "c",
            "--seed",
            "18446744073709551615",
            "--time-scale",
            "0.5",
            "--memory",
            "16",
        ])
        .unwrap();
        let crate::cli::Command::Match(args) = cli.command else {
            panic!("a match")
        };
        assert_eq!(args.seed, Some(u64::MAX));
        assert_eq!(args.limits.time_scale, 0.5);
    }
}
