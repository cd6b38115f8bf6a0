//! The configuration written back as words: the `referee match` command that plays a match
//! again, the command that resumes an interrupted tournament or gauntlet, a tournament's
//! format and limits as the flags that give them, and the messages
//! of schedule errors in terms of those flags. With `cli/mod.rs`, the only place that
//! names flags (the modules below return plain values and typed errors).

use crate::cli::IDENTITY_LIMITS;
use crate::endpoint::TimeLimits;
use crate::games::Game;
use crate::schedule::{Format, ScheduleError};
use crate::tournament::LimitsSpec;
use game::options::Kind;
use game::{OptionSpec, Options};
use jail::champion::Limits;
use jail::sandbox::{Missing, SandboxReport};
use std::fmt;

pub use super::command_line::{quote, same_command, CommandLine};

/// The program as the user runs it, for the commands the referee prints so that they work
/// pasted where the user stands: the name typed when the shell found it on PATH (`referee`),
/// `referee` when that name on PATH is this very program, else the path typed
/// (`target/release/referee`, relative to the working directory), shell-quoted.
pub fn program() -> String {
    let Some(typed) = std::env::args_os().next() else {
        return "referee".into();
    };
    let typed = typed.to_string_lossy().into_owned();
    if !typed.contains('/') {
        return quote(&typed).into_owned();
    }
    let this = std::env::current_exe().and_then(|e| e.canonicalize()).ok();
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("referee"))
            .find(|p| p.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    if this.is_some() && this == on_path {
        "referee".into()
    } else {
        quote(&typed).into_owned()
    }
}

/// `head`, the champions and the flags as one command, after the variables that reach
/// champions: the champions first, or after the flags and a `--` when one of them starts
/// with `-` (it would be read as a flag).
fn command_line(head: &[&str], champions: &[&str], flags: Vec<String>) -> CommandLine {
    let mut args: Vec<String> = head.iter().map(|w| w.to_string()).collect();
    let champions = champions.iter().map(|c| c.to_string());
    if champions.clone().any(|c| c.starts_with('-')) {
        args.extend(flags);
        args.push("--".into());
        args.extend(champions);
    } else {
        args.extend(champions);
        args.extend(flags);
    }
    CommandLine::here(args)
}

/// Every limit that differs from its default, as the flags that set it, so that a match
/// plays the same again.
fn limit_words(time: &TimeLimits, limits: &Limits, full_log: Option<u64>) -> Vec<String> {
    let mut words: Vec<(&str, String)> = Vec::new();
    let (default_time, default_limits) = (TimeLimits::default(), Limits::default());
    if time.scale != default_time.scale {
        words.push(("--time-scale", time.scale.to_string()));
    }
    if time.init_cpu != default_time.init_cpu {
        words.push(("--init-cpu", time.init_cpu.as_secs_f64().to_string()));
    }
    if time.call_cpu != default_time.call_cpu {
        words.push(("--call-cpu", time.call_cpu.as_secs_f64().to_string()));
    }
    if limits.memory != default_limits.memory {
        words.push(("--memory", (limits.memory >> 20).to_string()));
    }
    if limits.processes != default_limits.processes {
        words.push(("--processes", limits.processes.to_string()));
    }
    if limits.disk != default_limits.disk {
        words.push(("--disk", (limits.disk >> 20).to_string()));
    }
    if !limits.sandbox.is_on() {
        words.push(("--sandbox", "off".into()));
    }
    let mut list: Vec<String> = words
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_string(), value])
        .collect();
    if let Some(cap) = full_log {
        list.push("--full-log".into());
        if cap != crate::full_log::DEFAULT_CAP_MIB {
            list.extend(["--full-log-cap".to_string(), cap.to_string()]);
        }
    }
    list
}

/// The command that plays a match of a game on the model again: `referee --game GAME match
/// A B ... --seed S` (without `--game` for the default game), its options (`name=value` words, those not at their default: a match
/// of defaults says none, as it did before options) and its limits.
pub fn match_reproduce(
    game: &str,
    champions: &[String],
    seed: u64,
    options: &[String],
    time: &TimeLimits,
    limits: &Limits,
    full_log: Option<u64>,
) -> CommandLine {
    let mut flags = vec!["--seed".to_string(), seed.to_string()];
    for option in options {
        flags.extend(["--option".to_string(), option.clone()]);
    }
    flags.extend(limit_words(time, limits, full_log));
    let champions: Vec<&str> = champions.iter().map(String::as_str).collect();
    // The default game's matches say no `--game`, as they always did (a row of a
    // tournament played before is held to the command written then).
    let command: &[&str] = match game == crate::games::DEFAULT {
        true => &["referee", "match"],
        false => &["referee", "--game", game, "match"],
    };
    command_line(command, &champions, flags)
}

/// The command that resumes the run `kind` (`tournament` or `gauntlet`) of the game named
/// `game`, called `name`, whose results go under `results`, shard `shard` if any, as the
/// user can paste it (starting with [`program`]): `--results` only when not the default,
/// `--key` only when the run was given one (else the default key seals it).
///
/// ```
/// use referee::cli::words::resume_command;
/// use referee::schedule::Shard;
/// use std::path::Path;
/// let command = resume_command("tournament", "loi", "t", Path::new("results"), None, None);
/// assert!(command.ends_with(" tournament --name t --resume"));
/// let shard = Shard::parse("2/3");
/// let key = Some(Path::new("my key"));
/// let command = resume_command("tournament", "amazons", "a b", Path::new("out"), shard, key);
/// assert!(command.ends_with(
///     " --game amazons tournament --name 'a b' --resume --results out --shard 2/3 --key 'my key'"
/// ));
/// ```
pub fn resume_command(
    kind: &str,
    game: &str,
    name: &str,
    results: &std::path::Path,
    shard: Option<crate::schedule::Shard>,
    key: Option<&std::path::Path>,
) -> String {
    let mut command = format!(
        "{} {}{kind} --name {} --resume",
        program(),
        game_flag(game),
        quote(name)
    );
    if results != std::path::Path::new(DEFAULT_RESULTS) {
        command += &format!(" --results {}", quote(&results.display().to_string()));
    }
    if let Some(s) = shard {
        command += &format!(" --shard {}/{}", s.index, s.count);
    }
    if let Some(key) = key {
        command += &format!(" --key {}", quote(&key.display().to_string()));
    }
    command
}

/// The options of `options` that are not at their default in `specs`, as `name=value`
/// words (in the options' order).
pub fn option_words(specs: &[OptionSpec], options: &Options) -> Vec<String> {
    specs
        .iter()
        .filter(|s| options.get(s.name) != s.default)
        .map(|s| format!("{}={}", s.name, options.get(s.name)))
        .collect()
}

/// The `--option NAME=VALUE` words `given` for `game`, checked against its options (the
/// others at their defaults); an error names what is wrong and lists every option.
pub fn options_of(game: &dyn Game, given: &[String]) -> Result<Options, String> {
    Options::parse(game.options(), given)
        .map_err(|e| format!("--option: {e}\n{}", describe_options(game).trim_end()))
}

/// The `--option` words of a match of `game`: `given`, then `--monuments` and
/// `--first-player` as the options they set (`monuments`, `first-player`: the 2009 game's
/// setup), for a game that has them; `None` if one of the flags is given to a game without
/// that option (the caller says so), an error if its value is bad.
///
/// ```
/// use referee::cli::words::setup_words;
/// use referee::games::{amazons_play::AMAZONS, loi_play::LOI};
/// let words = setup_words(&LOI, Some("1,0,2,3,4,5,6,7,8,9,10,11,12,13"), Some(2), &[]);
/// assert_eq!(
///     words.unwrap().unwrap(),
///     ["monuments=1-0-2-3-4-5-6-7-8-9-10-11-12-13", "first-player=2"]
/// );
/// assert_eq!(setup_words(&AMAZONS, None, Some(1), &[]), Ok(None));
/// assert!(setup_words(&LOI, Some("1,1"), None, &[]).unwrap_err().contains("--monuments"));
/// ```
pub fn setup_words(
    game: &dyn Game,
    monuments: Option<&str>,
    first_player: Option<u8>,
    given: &[String],
) -> Result<Option<Vec<String>>, String> {
    let has = |name: &str| game.options().iter().any(|o| o.name == name);
    let mut words = given.to_vec();
    if let Some(list) = monuments {
        if !has("monuments") {
            return Ok(None);
        }
        let order = super::parse_monuments(list)?.map(|id| id.to_string());
        words.push(format!("monuments={}", order.join("-")));
    }
    if let Some(seat) = first_player {
        if !has("first-player") {
            return Ok(None);
        }
        words.push(format!("first-player={seat}"));
    }
    Ok(Some(words))
}

/// Each option of `game` with the values it takes and its default, and the seats it
/// accepts: what `referee --game GAME options` prints.
pub fn describe_options(game: &dyn Game) -> String {
    let (fewest, most) = (
        game.seat_range().start().to_owned(),
        *game.seat_range().end(),
    );
    let mut text = match fewest == most {
        true => format!("{}: matches of {fewest} seats", game.title()),
        false => format!(
            "{}: matches of {fewest} to {most} seats (--seats K, default {})",
            game.title(),
            game.seats()
        ),
    };
    if game.options().is_empty() {
        text.push_str("; it takes no --option");
        if game.name() == crate::games::DEFAULT {
            text.push_str(" (its setup: --monuments and --first-player)");
        }
        text.push('\n');
        return text;
    }
    // `match`'s --monuments and --first-player set the options of those names.
    let has = |name: &str| game.options().iter().any(|o| o.name == name);
    match has("monuments") && has("first-player") {
        true => text.push_str(
            "; its options (--option NAME=VALUE; a match's also by --monuments and \
             --first-player):\n",
        ),
        false => text.push_str("; its options (--option NAME=VALUE):\n"),
    }
    for spec in game.options() {
        let takes = match spec.kind {
            Kind::Choice(words) => format!("one of {}", words.join(", ")),
            Kind::Integer(low, high) => format!("a whole number from {low} to {high}"),
            Kind::Text => "text without `=` or `,`".to_string(),
        };
        text.push_str(&format!(
            "  {}: {takes} (default {}): {}\n",
            spec.name, spec.default, spec.help
        ));
    }
    text
}

/// The default of `--results`.
pub const DEFAULT_RESULTS: &str = "results";

/// The `--game` words that select the game named `game`, before a subcommand: nothing for
/// the default game, else `--game NAME ` (with its space).
pub fn game_flag(game: &str) -> String {
    if game == crate::games::DEFAULT {
        String::new()
    } else {
        format!("--game {game} ")
    }
}

/// The arguments that run a built-in champion of the game named `game` (the name follows).
pub fn bot_args(game: &'static str) -> Vec<&'static str> {
    if game == crate::games::DEFAULT {
        vec!["bot"]
    } else {
        vec!["--game", game, "bot"]
    }
}

/// The flag that changes the limit a fault of `kind` ran into, as advice for the person who
/// reads it, if a limit is the likely cause.
pub fn fault_hint(kind: jail::fault::FaultKind) -> Option<&'static str> {
    use jail::fault::FaultKind;
    match kind {
        FaultKind::Memory => {
            Some("if it really needs more memory, raise the limit with --memory MIB (default 1024)")
        }
        FaultKind::Timeout => {
            Some("on a slow machine or under a debugger, --time-scale F multiplies every budget")
        }
        _ => None,
    }
}

/// How to select the game named `game`, for a message: `without --game`, or
/// `with --game NAME`.
pub fn with_game_flag(game: &str) -> String {
    let known: Vec<&str> = crate::games::ALL.iter().map(|g| g.name()).collect();
    if !known.contains(&game) {
        // No flag selects it: a file edited, or written by another referee.
        return format!(
            "with a referee that plays `{game}` (this one plays {}; was the file edited?)",
            known.join(" and ")
        );
    }
    match game_flag(game).trim_end() {
        "" => "without --game".into(),
        flag => format!("with {flag}"),
    }
}

/// A tournament's format as the flags that give it: `--format round-robin --rounds 3`.
pub struct FormatFlags(pub Format);

impl fmt::Display for FormatFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Format::RoundRobin { rounds, deal } => write!(
                f,
                "--format round-robin --rounds {rounds} --deal {}",
                deal.name()
            ),
            Format::Groups { matches } => write!(f, "--format groups --matches {matches}"),
        }
    }
}

/// The flag that sets how many matches a format plays.
fn count_flag(format: &Format) -> &'static str {
    match format {
        Format::RoundRobin { .. } => "--rounds",
        Format::Groups { .. } => "--matches",
    }
}

/// A schedule refused, in the command line's words: the arena's [`ScheduleError`] (which
/// names no flag) told with the flag to change.
#[derive(Debug, PartialEq, Eq)]
pub struct ScheduleProblem(pub ScheduleError);

impl std::error::Error for ScheduleProblem {}

/// What is wrong, and the flag to change.
impl fmt::Display for ScheduleProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ScheduleError::TooFewChampions { got, seats } => {
                write!(
                    f,
                    "a tournament needs at least {seats} champions, got {got}"
                )
            }
            ScheduleError::Seats(seats) => write!(
                f,
                "a game of {seats} seats: tournaments are scheduled for games of 2 to {} seats",
                crate::schedule::MAX_SEATS
            ),
            ScheduleError::NoMatches(format) => {
                write!(f, "{} must be at least 1", count_flag(format))
            }
            ScheduleError::GroupsNeedMore { got, seats } => write!(
                f,
                "--format groups needs a multiple of {seats} or at least {} champions, got \
                 {got}; use --format round-robin",
                3 * seats - 3
            ),
            ScheduleError::TooMany {
                total,
                champions,
                format,
            } => write!(
                f,
                "{total} matches with {champions} champions; a tournament plays at most {}: \
                 lower {}, or split the field",
                crate::schedule::MAX_MATCHES,
                count_flag(format)
            ),
        }
    }
}

/// `Err` with one message naming every layer `--require-sandbox` asks for that is off,
/// why, and how to get it.
pub fn require_sandbox(report: &SandboxReport) -> Result<(), String> {
    if report.is_off() {
        return Err(
            "--require-sandbox and --sandbox off contradict each other: drop one of them".into(),
        );
    }
    let missing = report.missing();
    if missing.is_empty() {
        return Ok(());
    }
    Err(require_message(&missing, &report.line()))
}

fn require_message(missing: &[Missing], line: &str) -> String {
    let list: Vec<String> = missing
        .iter()
        .map(|m| format!("  {}: {}; {}", m.layer, m.why, m.fix))
        .collect();
    format!(
        "--require-sandbox: {} sandbox layer(s) missing:\n{}\n({line}; drop --require-sandbox to \
         run with what is available)",
        missing.len(),
        list.join("\n"),
    )
}

/// Each identity limit of a tournament as (its id in [`IDENTITY_LIMITS`], its flag, its
/// value as the flag takes it).
pub fn identity_flags(limits: &LimitsSpec) -> [(&'static str, &'static str, String); 8] {
    let flags = [
        ("time_scale", "--time-scale", limits.time_scale.to_string()),
        ("init_cpu", "--init-cpu", limits.init_cpu.to_string()),
        ("call_cpu", "--call-cpu", limits.call_cpu.to_string()),
        ("memory", "--memory", limits.memory.to_string()),
        ("processes", "--processes", limits.processes.to_string()),
        ("disk", "--disk", limits.disk.to_string()),
        ("sandbox", "--sandbox", limits.sandbox.clone()),
        (
            "require_sandbox",
            "--require-sandbox",
            limits.require_sandbox.to_string(),
        ),
    ];
    debug_assert!(flags.iter().map(|f| f.0).eq(IDENTITY_LIMITS));
    flags
}

/// This referee's side of every game on the model (`arena::model::Host`): a match written
/// back as the `referee match` command that plays it again, a built-in champion as the
/// `referee bot` that runs it, the bundled kits named before a match, and the registry.
/// The registry gives it to each game it holds (`games/`).
pub struct Referee;

/// The one [`Referee`].
pub static REFEREE: Referee = Referee;

impl arena::model::Host for Referee {
    fn match_command(
        &self,
        name: &'static str,
        options: &'static [OptionSpec],
        seats: &crate::games::Seats,
    ) -> CommandLine {
        let given: Vec<String> = seats.champions.iter().map(|c| c.given.clone()).collect();
        match_reproduce(
            name,
            &given,
            seats.seed,
            &option_words(options, &seats.options),
            &seats.time,
            &seats.limits,
            seats.full_log,
        )
    }

    fn bot_args(&self, name: &'static str) -> Vec<&'static str> {
        bot_args(name)
    }

    fn before_match(&self) {
        crate::kits::install();
    }

    fn game(&self, name: &str) -> Option<&'static dyn Game> {
        crate::games::by_name(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Schedule, Shard, MAX_MATCHES};
    use jail::sandbox::SandboxMode;

    #[test]
    fn a_memory_or_time_fault_names_the_flag_that_raises_its_limit() {
        use jail::fault::FaultKind;
        let hint = |kind| fault_hint(kind).unwrap_or_default();
        assert!(hint(FaultKind::Memory).contains("--memory MIB (default 1024)"));
        assert!(hint(FaultKind::Timeout).contains("--time-scale F multiplies every budget"));
        for kind in [FaultKind::Crash, FaultKind::Protocol, FaultKind::Spawn] {
            assert_eq!(fault_hint(kind), None, "{kind:?}");
        }
    }

    #[test]
    fn a_game_is_named_by_the_flag_that_selects_it() {
        assert_eq!(with_game_flag("loi"), "without --game");
        assert_eq!(with_game_flag("amazons"), "with --game amazons");
        let other = with_game_flag("chess");
        assert!(
            other.starts_with("with a referee that plays `chess` (this one plays loi and amazons"),
            "{other}"
        );
    }

    #[test]
    fn a_format_is_written_as_the_flags_that_give_it() {
        let round_robin = Format::round_robin(3);
        assert_eq!(
            FormatFlags(round_robin).to_string(),
            "--format round-robin --rounds 3 --deal fresh"
        );
        let groups = Format::Groups { matches: 40 };
        assert_eq!(
            FormatFlags(groups).to_string(),
            "--format groups --matches 40"
        );
    }

    #[test]
    fn require_names_each_missing_layer_and_the_flags() {
        assert!(require_sandbox(&jail::sandbox::probe(SandboxMode::Off))
            .unwrap_err()
            .contains("--sandbox off"));
        let missing = |layer, why: &str| Missing {
            layer,
            why: why.into(),
            fix: "the fix",
        };
        let err = require_message(&[missing("jail", "a"), missing("seccomp", "b")], "line");
        assert!(
            err.starts_with("--require-sandbox: 2 sandbox layer(s) missing"),
            "{err}"
        );
        assert!(
            err.contains("  jail: a; the fix\n  seccomp: b; the fix\n(line;"),
            "{err}"
        );
    }

    /// A champion whose name starts with `-` goes after the flags and a `--`: clap would
    /// read it as a flag.
    #[test]
    fn champions_that_look_like_flags_come_after_a_double_dash() {
        let line = |champions: &[&str], seed: &str| {
            let flags = vec!["--seed".to_string(), seed.to_string()];
            command_line(&["referee", "match"], champions, flags).args
        };
        assert_eq!(
            line(&["a", "b c", "d"], "1"),
            ["referee", "match", "a", "b c", "d", "--seed", "1"]
        );
        assert_eq!(
            line(&["-dash", "random", "--seed"], "3"),
            ["referee", "match", "--seed", "3", "--", "-dash", "random", "--seed"]
        );
    }

    #[test]
    fn schedule_errors_name_the_flag() {
        let err = Schedule::new(1, 3, Format::round_robin(u64::MAX))
            .map_err(ScheduleProblem)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--rounds") && err.contains(&format!("at most {MAX_MATCHES}")),
            "{err}"
        );
        let err = Schedule::new(1, 100, Format::Groups { matches: u64::MAX })
            .map_err(ScheduleProblem)
            .unwrap_err()
            .to_string();
        assert!(err.contains("--matches"), "{err}");
        let err = Schedule::new(1, 3, Format::Groups { matches: 0 })
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert_eq!(err.to_string(), "--matches must be at least 1");
        let err = Schedule::new(1, 4, Format::Groups { matches: 2 })
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert!(
            err.to_string().starts_with("--format groups needs"),
            "{err}"
        );
        let err = Schedule::new(1, 2, Format::round_robin(1))
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert!(err.to_string().contains("at least 3 champions"), "{err}");
        let err = Schedule::for_seats(2, 1, 1, Format::round_robin(1))
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert!(err.to_string().contains("at least 2 champions"), "{err}");
        let err = Schedule::for_seats(4, 1, 7, Format::Groups { matches: 1 })
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--format groups needs a multiple of 4 or at least 9 champions, got 7; use \
             --format round-robin"
        );
        let err = Schedule::for_seats(9, 1, 9, Format::Groups { matches: 1 })
            .map_err(ScheduleProblem)
            .unwrap_err();
        assert!(err.to_string().contains("games of 2 to 8 seats"), "{err}");
    }

    /// The resume command names the game, the run, and the results folder and shard only
    /// when they are not the defaults.
    #[test]
    fn resume_commands_name_only_what_is_not_the_default() {
        let tail = |kind, game, name, results: &str, shard| {
            let command =
                resume_command(kind, game, name, std::path::Path::new(results), shard, None);
            let program = program();
            command
                .strip_prefix(&format!("{program} "))
                .unwrap_or_else(|| panic!("{command} starts with {program}"))
                .to_string()
        };
        assert_eq!(
            tail("tournament", "loi", "t", "results", None),
            "tournament --name t --resume"
        );
        assert_eq!(
            tail("gauntlet", "amazons", "it's", "my results", None),
            "--game amazons gauntlet --name 'it'\\''s' --resume --results 'my results'"
        );
        assert_eq!(
            tail("tournament", "loi", "t", "results", Shard::parse("2/3")),
            "tournament --name t --resume --shard 2/3"
        );
    }
}
