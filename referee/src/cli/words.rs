//! The configuration written back as words: the `referee match` command that plays a match
//! again, the command that resumes an interrupted tournament or gauntlet, a tournament's
//! format and limits as the flags that give them, and the messages
//! of schedule errors in terms of those flags. With `cli/mod.rs`, the only place that
//! names flags (the modules below return plain values and typed errors).

use crate::cli::IDENTITY_LIMITS;
use crate::game::TimeLimits;
use crate::games::Game;
use crate::run_match::MatchPlan;
use crate::schedule::{Format, ScheduleError};
use crate::tournament::LimitsSpec;
use game::options::Kind;
use game::{OptionSpec, Options};
use jail::champion::Limits;
use jail::sandbox::{Missing, SandboxReport};
use std::fmt;

impl MatchPlan {
    /// The one-line command that plays this match again.
    pub fn reproduce_command(&self) -> String {
        let mut flags = format!(" --seed {}", self.seed);
        if let Some(order) = self.monuments {
            let list: Vec<String> = order.iter().map(u8::to_string).collect();
            flags.push_str(&format!(" --monuments {}", list.join(",")));
        }
        if let Some(first) = self.first_player {
            flags.push_str(&format!(" --first-player {first}"));
        }
        flags.push_str(&limit_words(&self.time, &self.limits, self.full_log));
        let champions: Vec<&str> = self.champions.iter().map(|c| c.given.as_str()).collect();
        command_line("referee match", &champions, &flags)
    }
}

/// The variables of the referee's environment that reach every champion (a kit's
/// interpreter), as the assignments that start a command which plays the same match again:
/// `PROLOGIN_PYTHON=bin/python ` when it is set, else nothing.
fn environment_words() -> String {
    jail::champion::passed_through()
        .iter()
        .map(|(name, value)| format!("{name}={} ", shell_quote(value)))
        .collect()
}

/// Whether `written` (a `reproduce` command read back, perhaps written on another machine)
/// is `ours` (the command this referee writes for the same match) up to the
/// `environment_words`: the other referee's may differ, but only as such words are
/// written, each variable that reaches champions set to one word as [`shell_quote`] writes
/// it. Anything else (a flag, a `;`, another word) is refused: a command read from a file
/// is printed to be pasted into a shell.
pub fn same_command(written: &str, ours: &str) -> bool {
    let core = ours.strip_prefix(&environment_words()).unwrap_or(ours);
    let Some(mut prefix) = written.strip_suffix(core) else {
        return false;
    };
    for name in jail::champion::PASSED_THROUGH {
        let Some(rest) = prefix.strip_prefix(name).and_then(|r| r.strip_prefix('=')) else {
            continue;
        };
        let end = word_len(rest);
        if end == rest.len() || !is_quoted_word(&rest[..end]) {
            return false;
        }
        prefix = &rest[end + 1..];
    }
    prefix.is_empty()
}

/// The length of the shell word that starts `text`, as a shell reads the forms
/// [`shell_quote`] writes: up to the first space outside quotes, `\` escaping the next
/// character outside quotes and in `$'...'`. One pass, whatever the word (a word found by
/// trying every space would take time growing with the square of its length).
fn word_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    // The quote open: `'` for '...', `$` for $'...'.
    let mut open = None;
    let mut i = 0;
    while i < bytes.len() {
        match (open, bytes[i]) {
            (None, b' ') => return i,
            (None, b'$') if bytes.get(i + 1) == Some(&b'\'') => {
                open = Some(b'$');
                i += 1;
            }
            (None, b'\'') => open = Some(b'\''),
            (None | Some(b'$'), b'\\') => i += 1,
            (Some(_), b'\'') => open = None,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Whether `word` is one word exactly as [`shell_quote`] writes it.
fn is_quoted_word(word: &str) -> bool {
    let unquoted = if let Some(inner) = word.strip_prefix("$'").and_then(|w| w.strip_suffix('\'')) {
        let mut bytes = Vec::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
            match chars.next() {
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).collect();
                    match u8::from_str_radix(&hex, 16) {
                        Ok(b) => bytes.push(b),
                        Err(_) => return false,
                    }
                }
                Some(c @ ('\\' | '\'')) => bytes.push(c as u8),
                _ => return false,
            }
        }
        match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => return false,
        }
    } else if let Some(inner) = word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
        inner.replace(r"'\''", "'")
    } else {
        word.to_string()
    };
    shell_quote(&unquoted) == word
}

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
        return shell_quote(&typed);
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
        shell_quote(&typed)
    }
}

/// `command` (one that starts with `referee `, as the records and `matches.csv` keep it)
/// as the user can paste it: starting with [`program`].
pub fn as_typed(command: &str) -> String {
    let environment = environment_words();
    match command
        .strip_prefix(&environment)
        .and_then(|c| c.strip_prefix("referee "))
    {
        Some(rest) => format!("{environment}{} {rest}", program()),
        None => command.to_string(),
    }
}

/// `head`, the champions and the flags as one command, after the [`environment_words`]:
/// the champions first, or after the flags and a `--` when one of them starts with `-` (it
/// would be read as a flag).
fn command_line(head: &str, champions: &[&str], flags: &str) -> String {
    let words: Vec<String> = champions.iter().map(|c| shell_quote(c)).collect();
    let environment = environment_words();
    if champions.iter().any(|c| c.starts_with('-')) {
        format!("{environment}{head}{flags} -- {}", words.join(" "))
    } else {
        format!("{environment}{head} {}{flags}", words.join(" "))
    }
}

/// Every limit that differs from its default, as the flags that set it (with a leading
/// space), so that a match plays the same again.
fn limit_words(time: &TimeLimits, limits: &Limits, full_log: Option<u64>) -> String {
    let mut words = String::new();
    let (default_time, default_limits) = (TimeLimits::default(), Limits::default());
    if time.scale != default_time.scale {
        words.push_str(&format!(" --time-scale {}", time.scale));
    }
    if time.init_cpu != default_time.init_cpu {
        words.push_str(&format!(" --init-cpu {}", time.init_cpu.as_secs_f64()));
    }
    if time.call_cpu != default_time.call_cpu {
        words.push_str(&format!(" --call-cpu {}", time.call_cpu.as_secs_f64()));
    }
    if limits.memory != default_limits.memory {
        words.push_str(&format!(" --memory {}", limits.memory >> 20));
    }
    if limits.processes != default_limits.processes {
        words.push_str(&format!(" --processes {}", limits.processes));
    }
    if limits.disk != default_limits.disk {
        words.push_str(&format!(" --disk {}", limits.disk >> 20));
    }
    if !limits.sandbox.is_on() {
        words.push_str(" --sandbox off");
    }
    if let Some(cap) = full_log {
        words.push_str(" --full-log");
        if cap != crate::full_log::DEFAULT_CAP_MIB {
            words.push_str(&format!(" --full-log-cap {cap}"));
        }
    }
    words
}

/// The command that plays a match of a game on the model again: `referee --game GAME match
/// A B ... --seed S`, its options (`name=value` words, those not at their default: a match
/// of defaults says none, as it did before options) and its limits.
pub fn match_reproduce(
    game: &str,
    champions: &[String],
    seed: u64,
    options: &[String],
    time: &TimeLimits,
    limits: &Limits,
) -> String {
    let options: String = options
        .iter()
        .map(|o| format!(" --option {}", shell_quote(o)))
        .collect();
    let flags = format!(" --seed {seed}{options}{}", limit_words(time, limits, None));
    let champions: Vec<&str> = champions.iter().map(String::as_str).collect();
    command_line(&format!("referee --game {game} match"), &champions, &flags)
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
        shell_quote(name)
    );
    if results != std::path::Path::new(DEFAULT_RESULTS) {
        command += &format!(" --results {}", shell_quote(&results.display().to_string()));
    }
    if let Some(s) = shard {
        command += &format!(" --shard {}/{}", s.index, s.count);
    }
    if let Some(key) = key {
        command += &format!(" --key {}", shell_quote(&key.display().to_string()));
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
            "{}: matches of {fewest} to {most} seats (--seats K, default {fewest})",
            game.title()
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
    text.push_str("; its options (--option NAME=VALUE):\n");
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

/// As the flags that give it: `--format round-robin --rounds 3`.
impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin { rounds } => write!(f, "--format round-robin --rounds {rounds}"),
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

/// What is wrong, and the flag to change.
impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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

/// Quote a word for a POSIX shell when it needs it. A word holding control characters
/// (`untrusted::is_escaped`: a champion's file name may hold ESC) is written in the
/// `$'...'` quotes of bash, zsh and ksh (and POSIX.1-2024), each such character as the
/// `\xNN` of its UTF-8 bytes, so that the command stays one printable line that a shell
/// turns back into the exact word.
///
/// ```
/// use referee::cli::words::shell_quote;
/// assert_eq!(shell_quote("a/b.sh"), "a/b.sh");
/// assert_eq!(shell_quote("it's"), r"'it'\''s'");
/// assert_eq!(shell_quote("e\u{1b}[2J\\'"), r"$'e\x1b[2J\\\''");
/// ```
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,".contains(&b))
    {
        word.to_string()
    } else if word.chars().any(jail::untrusted::is_escaped) {
        let mut out = String::from("$'");
        for c in word.chars() {
            match c {
                '\\' | '\'' => {
                    out.push('\\');
                    out.push(c);
                }
                c if jail::untrusted::is_escaped(c) => {
                    for b in c.to_string().bytes() {
                        out.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push('\'');
        out
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Schedule, Shard, MAX_MATCHES};
    use jail::sandbox::SandboxMode;

    /// A command read back is the referee's own up to another machine's environment words,
    /// each one word as `shell_quote` writes it; nothing else is let through.
    #[test]
    fn a_command_read_back_differs_from_ours_by_environment_words_only() {
        let ours = "referee match a 'b c' x --seed 5 --full-log";
        let accepted = [
            ours.to_string(),
            format!("PROLOGIN_PYTHON=/usr/bin/python3 {ours}"),
            format!("PROLOGIN_PYTHON='/opt/my python' {ours}"),
            format!(r"PROLOGIN_PYTHON='it'\''s' {ours}"),
            format!(r"PROLOGIN_PYTHON=$'py\x1bthon' {ours}"),
            format!(r"PROLOGIN_PYTHON=$'a b\x1b\' c' {ours}"),
            format!(r"PROLOGIN_PYTHON='it'\''s a b' {ours}"),
        ];
        for written in &accepted {
            assert!(same_command(written, ours), "{written}");
        }
        let refused = [
            "referee match a 'b c' x --seed 5".to_string(),
            format!("{ours} ; rm -rf ~"),
            format!("rm -rf ~; {ours}"),
            format!("PROLOGIN_PYTHON=x; {ours}"),
            format!("PROLOGIN_PYTHON=$(id) {ours}"),
            format!("PROLOGIN_PYTHON='a'b' {ours}"),
            format!("PROLOGIN_PYTHON=$'a\\q' {ours}"),
            format!("PROLOGIN_PYTHON=$'a\\x1' {ours}"),
            format!("PROLOGIN_PYTHON=$'plain' {ours}"),
            format!("PROLOGIN_PYTHON='plain' {ours}"),
            format!("PROLOGIN_PYTHON= {ours}"),
            format!("LD_PRELOAD=/tmp/x.so {ours}"),
            format!("PROLOGIN_PYTHON=a PROLOGIN_PYTHON=b {ours}"),
            format!("PROLOGIN_PYTHON=a{ours}"),
        ];
        for written in &refused {
            assert!(!same_command(written, ours), "{written}");
        }
        // A word of a million spaces is read in one pass: accepted quoted, refused bare.
        let spaces = " ".repeat(1 << 20);
        assert!(same_command(
            &format!("PROLOGIN_PYTHON='{spaces}' {ours}"),
            ours
        ));
        assert!(!same_command(
            &format!("PROLOGIN_PYTHON=a{spaces}{ours}"),
            ours
        ));
    }

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
        let round_robin = Format::RoundRobin { rounds: 3 };
        assert_eq!(round_robin.to_string(), "--format round-robin --rounds 3");
        let groups = Format::Groups { matches: 40 };
        assert_eq!(groups.to_string(), "--format groups --matches 40");
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
        assert_eq!(
            command_line("referee match", &["a", "b c", "d"], " --seed 1"),
            "referee match a 'b c' d --seed 1"
        );
        assert_eq!(
            command_line("referee match", &["-dash", "random", "--seed"], " --seed 3"),
            "referee match --seed 3 -- -dash random --seed"
        );
    }

    #[test]
    fn schedule_errors_name_the_flag() {
        let err = Schedule::new(1, 3, Format::RoundRobin { rounds: u64::MAX })
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--rounds") && err.contains(&format!("at most {MAX_MATCHES}")),
            "{err}"
        );
        let err = Schedule::new(1, 100, Format::Groups { matches: u64::MAX })
            .unwrap_err()
            .to_string();
        assert!(err.contains("--matches"), "{err}");
        let err = Schedule::new(1, 3, Format::Groups { matches: 0 }).unwrap_err();
        assert_eq!(err.to_string(), "--matches must be at least 1");
        let err = Schedule::new(1, 4, Format::Groups { matches: 2 }).unwrap_err();
        assert!(
            err.to_string().starts_with("--format groups needs"),
            "{err}"
        );
        let err = Schedule::new(1, 2, Format::RoundRobin { rounds: 1 }).unwrap_err();
        assert!(err.to_string().contains("at least 3 champions"), "{err}");
        let err = Schedule::for_seats(2, 1, 1, Format::RoundRobin { rounds: 1 }).unwrap_err();
        assert!(err.to_string().contains("at least 2 champions"), "{err}");
        let err = Schedule::for_seats(4, 1, 7, Format::Groups { matches: 1 }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--format groups needs a multiple of 4 or at least 9 champions, got 7; use \
             --format round-robin"
        );
        let err = Schedule::for_seats(9, 1, 9, Format::Groups { matches: 1 }).unwrap_err();
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

    /// bash turns every quoted word back into the exact word.
    #[test]
    fn bash_reads_back_every_quoted_word() {
        let words = [
            "plain",
            "two words",
            "it's",
            "",
            "e\u{1b}]0;pwned\u{7}\u{1b}[2J",
            "back\\slash'quote\u{1b}",
            "c1 \u{9b}2J caf\u{e9} \u{202e}",
            "\u{1b}a\u{1b}0f",
        ];
        for word in words {
            let quoted = shell_quote(word);
            assert!(!quoted.chars().any(jail::untrusted::is_escaped), "{quoted}");
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {quoted}"))
                .output()
                .expect("bash runs");
            assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{quoted}");
        }
    }

    /// The quoting is as short as the word allows: none for plain words, single quotes
    /// for other printable ones, `$'...'` with only the unprintable characters (and `\`,
    /// `'`) escaped, so that a person can still read the word.
    #[test]
    fn quoting_escapes_only_what_it_must() {
        assert_eq!(shell_quote("champions/c/random"), "champions/c/random");
        assert_eq!(shell_quote("my champ"), "'my champ'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("e\u{1b}[2J\\'"), r"$'e\x1b[2J\\\''");
        assert_eq!(shell_quote("caf\u{e9}\u{9b}"), r"$'café\xc2\x9b'");
    }
}
