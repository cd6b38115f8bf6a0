//! The command line: clap definitions and the checks that turn arguments into plans. Every
//! error names the flag or argument to fix.

// The doc comments below are also clap's `--help` text, where `<name>` is a placeholder,
// not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod game_flags;
mod values;
pub mod words;

// Reproduce commands as argument lists are the arena's (a match's row keeps one); the
// command line renders them and reads them back under its old path.
pub use arena::command_line;

use crate::endpoint::TimeLimits;
use crate::schedule::Shard;
use clap::{Args, Parser, Subcommand};
use jail::champion::Limits;
use std::path::PathBuf;
use std::time::Duration;

/// Referee and tournament runner for "La loi du plus riche" (Prologin 2009 final).
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, propagate_version = true)]
pub struct Cli {
    /// The game, by its name (each game's protocol: `protocol.md` for La loi du plus
    /// riche, `protocol-amazons.md` for the Game of the Amazons).
    #[arg(long, global = true, value_parser = values::game_name(), default_value = crate::games::DEFAULT, value_name = "GAME")]
    pub game: String,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one match between three champions and write its record under results/.
    Match(MatchArgs),
    /// Re-run a match record through the engine and check it ends the same way.
    Replay(ReplayArgs),
    /// Run a tournament: check the champions, play the schedule in parallel, write
    /// results/<name>/{matches,leaderboard,pairwise}.csv.
    Tournament(TournamentArgs),
    /// Combine the shards of a tournament (`--shard i/n` runs) into one set of results.
    Merge(MergeArgs),
    /// How far a tournament is: matches done of the total per shard, faults, rate, ETA,
    /// and the shards that stopped without finishing (a local run, ssh or Slurm shards).
    Status(StatusArgs),
    /// Is a candidate better than a baseline? Both play the same matches (same seeds,
    /// opponents and seats) until a sequential test says better, worse or no difference;
    /// writes results/<name>/{matches,pairs}.csv.
    Gauntlet(GauntletArgs),
    /// Print the board, money, scores, bids and faults of a recorded match at any point.
    Show(ShowArgs),
    /// Build champions' folders with `make`, each in a jail: no network, the kits read-only
    /// at /kits, only its own folder writable, bounded CPU, wall clock and memory.
    Build(BuildArgs),
    /// List the game's options (`--option NAME=VALUE`), their values and defaults, and
    /// the seats it accepts (`--seats K`).
    Options,
    /// Run a built-in champion (random, greedy) over the protocol on stdin/stdout.
    #[command(hide = true)]
    Bot(BotArgs),
    /// Run a game server: programs connect over TCP with the Ticket to Ride subject's
    /// protocol and play training games against the built-in champions and free games
    /// against each other (docs/server.md); `register` and `games` manage its store.
    Serve(ServeArgs),
}

/// `referee serve`: where it listens, where games are recorded, its bounds.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (`127.0.0.1:0`: any free port; the server prints
    /// `listening on ADDR:PORT` first). Another address than loopback opens the server to
    /// the network.
    #[arg(long, default_value = "127.0.0.1:1234", value_name = "ADDR:PORT")]
    pub listen: std::net::SocketAddr,
    /// Folder of the games' records, one folder per game named as the game.
    #[arg(long, default_value = "results/server", value_name = "DIR")]
    pub results: PathBuf,
    /// Most connections at once; more are answered with an error and closed.
    #[arg(long, default_value_t = 1024, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_connections: u32,
    /// Most connections at once from one address.
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub per_address: u32,
    /// Most games one source (an address; all of loopback one, an IPv6 /56 one) starts in a
    /// minute; more are refused with the wait to try again.
    #[arg(long, default_value_t = crate::serve::rate::GAMES_PER_MINUTE, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games_per_minute: u32,
    /// Longest a game may last, in seconds, whatever its turns' timeout: past it, the
    /// seat to move loses by a timeout fault (recorded; the record replays). Default: an
    /// hour.
    #[arg(long, default_value_t = crate::serve::GAME_TIME.as_secs(), value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub game_time: u64,
    /// Sandbox layers of the built-in champions: auto or off.
    #[arg(long, default_value = "auto", value_parser = values::sandbox_mode(), value_name = "MODE")]
    pub sandbox: jail::sandbox::SandboxMode,
    /// The store of players and games (SQLite); by default `server.sqlite` in `--results`.
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// Serve the web site on this address and port (`127.0.0.1:8080`; port 0: any free
    /// one; the server prints `web site on http://ADDR:PORT/`): the games in play and
    /// finished, live, each game's board, each player's games. Read-only; off unless given.
    #[arg(long, value_name = "ADDR:PORT")]
    pub web: Option<std::net::SocketAddr>,
    /// The web site's proxy (its address, as the site sees its connections): the visitor it
    /// forwards (the last hop of `X-Forwarded-For`, or `Forwarded: for=`) counts as the
    /// source of each request for the site's per-source bounds, until its answer ends; the
    /// proxy's connections are bounded only by the site's total. From anyone else the
    /// header is ignored. Not 127.0.0.1: the organiser's own browser connects from it.
    #[arg(long, value_name = "ADDR", requires = "web")]
    pub web_proxy: Option<std::net::IpAddr>,
    #[command(subcommand)]
    pub action: Option<ServeAction>,
}

/// What `referee serve` does instead of serving: its store's commands.
#[derive(Debug, Clone, Subcommand)]
pub enum ServeAction {
    /// Register a player's name (or register it again) and print its new token: the
    /// name's games then need `token=<token>` among their options.
    Register {
        /// The name (1 to 20 of [a-zA-Z0-9_]), as the program gives it in CLIENT_NAME.
        name: String,
    },
    /// List the store's games: name, kind, state (finished, interrupted, playing), seats
    /// and how each ended.
    Games,
    /// The organiser's commands of tournaments (docs/server.md, "Tournaments").
    Tournament {
        #[command(subcommand)]
        action: TournamentAction,
    },
    /// Print the organiser's token, which the web site's forms need to start a game or a
    /// tournament (made if there is none; kept in the store's folder, `organiser.token`,
    /// readable by its owner only).
    Token {
        /// Make a new token: the old one stops working at once.
        #[arg(long)]
        new: bool,
    },
}

/// `referee serve tournament ...`: create, start and list the store's tournaments.
#[derive(Debug, Clone, Subcommand)]
pub enum TournamentAction {
    /// Create a tournament that players join with `WAIT_GAME TOURNAMENT <NAME>`.
    New {
        /// Its name (1 to 20 of [a-zA-Z0-9_]).
        name: String,
        /// league, pools-knockout or single-elimination.
        #[arg(long)]
        format: String,
        /// Seats of a game (Ticket to Ride: 2 to 5).
        #[arg(long, default_value_t = 2)]
        seats: usize,
        /// Times each set of players meets in a league (and in each pool).
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// Players of a pool (pools-knockout).
        #[arg(long, default_value_t = 4)]
        pool: usize,
        /// The top ones of each pool that go on to the knockout (pools-knockout).
        #[arg(long, default_value_t = 2)]
        qualify: usize,
        /// The top ones of each knockout game that go on (default: half its seats, at
        /// least one).
        #[arg(long)]
        advance: Option<usize>,
        /// Games of a knockout meeting at most (1 to 9): its players ranked by the points
        /// of its games, played until those going on cannot be caught.
        #[arg(long, default_value_t = 1)]
        best_of: u32,
        /// Its game: `--game` when given on the command line (Ticket to Ride otherwise,
        /// the subject's), set by [`Cli::parse_command_line`].
        #[arg(skip)]
        game: Option<String>,
        /// The board of its games: USA or small.
        #[arg(long, default_value = "USA")]
        map: String,
        /// Each turn's wall clock, seconds (1 to 120).
        #[arg(long, default_value_t = 10)]
        timeout: u32,
        /// The most players that may join (registered names only), 2 to 1000.
        #[arg(long, default_value_t = 64)]
        max_players: usize,
    },
    /// Start a tournament: the running server plays its games between its players, seeded
    /// by a secret draw.
    Start { name: String },
    /// Take a member out of a tournament not yet started.
    Remove {
        /// The tournament.
        name: String,
        /// The member's name.
        player: String,
    },
    /// List the tournaments: state, format, players, winner, games.
    List,
}

/// Default of `--time-scale`.
pub const DEFAULT_TIME_SCALE: f64 = 1.0;
/// Default of `--init-cpu`, seconds.
pub const DEFAULT_INIT_CPU: f64 = 10.0;
/// Default of `--call-cpu`, seconds.
pub const DEFAULT_CALL_CPU: f64 = 1.0;
/// Range of `--init-cpu` and `--call-cpu`, seconds.
pub const CPU_SECONDS: (f64, f64) = (0.001, 3600.0);
/// Range of `--time-scale`.
pub const TIME_SCALES: (f64, f64) = (0.01, 100.0);
/// Default of `--memory`, MiB.
pub const DEFAULT_MEMORY: u64 = 1024;
/// Default of `--disk`, MiB.
pub const DEFAULT_DISK: u64 = 64;
/// Largest `--processes`: far beyond what a champion needs, and below every kernel's
/// thread limit (a larger rlimit made every champion fail to start).
pub const MAX_PROCESSES: u64 = 16_384;
/// Largest `--memory` and `--disk`, MiB (1 TiB: larger values would overflow in bytes).
pub const MAX_MIB: u64 = 1 << 20;

/// `referee build`: the folders, and the bounds of each build.
#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// Champion folders, each holding a Makefile; built one after the other.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// CPU seconds of one build, all its processes together.
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS", value_parser = values::cpu_seconds, allow_negative_numbers = true)]
    pub cpu: f64,
    /// Wall-clock seconds of one build.
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS", value_parser = values::cpu_seconds, allow_negative_numbers = true)]
    pub wall: f64,
    /// Memory of one build, MiB: its cgroup's memory.max where it has one, else the sum of
    /// its processes' resident memory, and RLIMIT_DATA of each.
    #[arg(long, default_value_t = 2048, value_name = "MIB", value_parser = values::memory, allow_negative_numbers = true)]
    pub memory: u64,
    /// Size of the build's tmpfs, MiB: its copy of the folder, what it makes and its /tmp
    /// together (and one file or folder per 4 KiB of it); only what it made or changed is
    /// copied back, within this bound.
    #[arg(long, default_value_t = 512, value_name = "MIB", value_parser = values::disk, allow_negative_numbers = true)]
    pub disk: u64,
    /// Most processes and threads of one build.
    #[arg(long, default_value_t = 256, value_name = "N", value_parser = values::processes, allow_negative_numbers = true)]
    pub processes: u64,
}

/// Limits applied to every champion.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Multiply every time budget and deadline (e.g. 0.5 for quick tests, 10 under a debugger).
    #[arg(long, default_value_t = DEFAULT_TIME_SCALE, value_name = "F", value_parser = values::time_scale, allow_negative_numbers = true)]
    pub time_scale: f64,
    /// CPU seconds of `init_game` (start-up included).
    #[arg(long, default_value_t = DEFAULT_INIT_CPU, value_name = "SECONDS", value_parser = values::cpu_seconds, allow_negative_numbers = true)]
    pub init_cpu: f64,
    /// CPU seconds of every other callback.
    #[arg(long, default_value_t = DEFAULT_CALL_CPU, value_name = "SECONDS", value_parser = values::cpu_seconds, allow_negative_numbers = true)]
    pub call_cpu: f64,
    /// Do not pin each match and its champions to one CPU (pinning makes requests ~3x
    /// faster; CPU budgets are the same either way).
    #[arg(long)]
    pub no_pin: bool,
    /// Memory limit of each champion, MiB: its cgroup's memory.max when the sandbox has one
    /// (the sandbox line's `memory=`), and RLIMIT_DATA of each of its processes.
    #[arg(long, default_value_t = DEFAULT_MEMORY, value_name = "MIB", value_parser = values::memory, allow_negative_numbers = true)]
    pub memory: u64,
    /// Most processes and threads of each champion (pids.max, or RLIMIT_NPROC under its
    /// own uid or user namespace).
    #[arg(long, default_value_t = 256, value_name = "N", value_parser = values::processes, allow_negative_numbers = true)]
    pub processes: u64,
    /// Size of each jailed champion's private /tmp (its home and scratch), MiB: writes
    /// beyond it fail with ENOSPC.
    #[arg(long, default_value_t = DEFAULT_DISK, value_name = "MIB", value_parser = values::disk, allow_negative_numbers = true)]
    pub disk: u64,
    /// Sandbox layers: auto (every one the kernel and the user allow) or off (process
    /// group, rlimits and sweep only).
    #[arg(long, default_value = "auto", value_parser = values::sandbox_mode(), value_name = "MODE")]
    pub sandbox: jail::sandbox::SandboxMode,
    /// Refuse to play unless every sandbox layer is on (the error names what is missing).
    #[arg(long)]
    pub require_sandbox: bool,
    /// Keep every request of every callback in the records (`log`), not only the actions
    /// and counts of the rest: records of champions that ask millions of questions grow
    /// to hundreds of MB.
    #[arg(long)]
    pub full_log: bool,
    /// With --full-log: the most a match's log may take, in MiB compressed; past it the
    /// log keeps no more requests, and the record says where it stopped.
    #[arg(long, value_name = "MIB", requires = "full_log", default_value_t = crate::full_log::DEFAULT_CAP_MIB, value_parser = values::full_log_cap)]
    pub full_log_cap: u64,
    /// The ids of the flags above given on the command line (not defaulted), which a
    /// `--resume` compares with the tournament's ([`Cli::parse_command_line`]).
    #[arg(skip)]
    pub explicit: Vec<String>,
}

/// The ids (field names) of the limit flags that are part of a tournament's identity.
pub const IDENTITY_LIMITS: [&str; 8] = [
    "time_scale",
    "init_cpu",
    "call_cpu",
    "memory",
    "processes",
    "disk",
    "sandbox",
    "require_sandbox",
];

impl Cli {
    /// Parses the command line (exiting on a usage error, as `Parser::parse`), noting which
    /// limit flags of a tournament were given rather than defaulted.
    pub fn parse_command_line() -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
        let mut first_error = None;
        let matches = loop {
            let error = match Cli::command().try_get_matches_from(&args) {
                Ok(matches) => break matches,
                Err(error) => error,
            };
            // A game's option given as a flag (`--board usa`): parsed again as `--option`.
            let rewritten = unknown_flag(&error).and_then(|g| game_flags::as_option(&args, &g));
            match rewritten {
                Some(rewritten) => {
                    args = rewritten;
                    first_error.get_or_insert(error);
                }
                // A command that takes no `--option` is told of the flag as it was given.
                None if unknown_flag(&error).as_deref() == Some("--option") => {
                    with_option_tip(first_error.unwrap_or(error)).exit()
                }
                None => with_option_tip(error).exit(),
            }
        };
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        if let Some((_, sub)) = matches.subcommand() {
            let given = |ids: &[&str]| -> Vec<String> {
                ids.iter()
                    .filter(|id| {
                        sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
                    })
                    .map(|id| id.to_string())
                    .collect()
            };
            // A tournament of the server plays the game `--game` names, if it is given.
            let game_given =
                matches.value_source("game") == Some(clap::parser::ValueSource::CommandLine);
            match &mut cli.command {
                Command::Serve(ServeArgs {
                    action:
                        Some(ServeAction::Tournament {
                            action: TournamentAction::New { game, .. },
                        }),
                    ..
                }) if game_given => *game = Some(cli.game.clone()),
                Command::Tournament(args) => args.limits.explicit = given(&IDENTITY_LIMITS),
                Command::Gauntlet(args) => {
                    args.limits.explicit = given(&IDENTITY_LIMITS);
                    args.explicit = given(&GAUNTLET_TEST);
                }
                _ => {}
            }
        }
        cli
    }
}

/// The flag an error says is unknown, as given (`--board`, `--board=usa`).
fn unknown_flag(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(given)) => Some(given.clone()),
        _ => None,
    }
}

/// An unknown `--NAME` that is a game's option (`--board usa`) gets the form that gives it
/// (`--option board=usa`) as its tip, in place of clap's `-- --board`.
fn with_option_tip(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    let Some(name) = given.strip_prefix("--").and_then(|n| n.split('=').next()) else {
        return error;
    };
    let games: Vec<&str> = crate::games::ALL
        .iter()
        .filter(|g| g.options().iter().any(|o| o.name == name))
        .map(|g| g.title())
        .collect();
    if games.is_empty() {
        return error;
    }
    let tip = format!(
        "`{name}` is an option of {}: give it as `--option {name}=VALUE` (`referee --game GAME \
         options` lists a game's options)",
        games.join(", ")
    );
    error.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
    error
}

impl Default for LimitArgs {
    /// Every limit flag at its default value, as the command line parses none.
    fn default() -> Self {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            limits: LimitArgs,
        }
        Only::parse_from(["referee"]).limits
    }
}

impl LimitArgs {
    /// The time limits, checked: every value in a range whose budgets and deadlines (up to
    /// 3 x the scaled CPU + 1 s) are exact in nanoseconds and print back as given.
    pub fn time(&self) -> Result<TimeLimits, String> {
        time_limits(self.init_cpu, self.call_cpu, self.time_scale)
    }

    /// The full log's cap in MiB, when a full log is kept (`--full-log`).
    pub fn full_log(&self) -> Option<u64> {
        self.full_log.then_some(self.full_log_cap)
    }

    /// The process limits, checked.
    pub fn process(&self) -> Result<Limits, String> {
        if self.memory < 16 {
            return Err(format!(
                "--memory is in MiB and must be at least 16, got {}",
                self.memory
            ));
        }
        if self.memory > MAX_MIB {
            return Err(format!(
                "--memory is in MiB and must be at most {MAX_MIB} (1 TiB), got {}",
                self.memory
            ));
        }
        if !(1..=MAX_MIB).contains(&self.disk) {
            return Err(format!(
                "--disk is in MiB and must be between 1 and {MAX_MIB} (1 TiB), got {}",
                self.disk
            ));
        }
        if !(8..=MAX_PROCESSES).contains(&self.processes) {
            return Err(format!(
                "--processes must be between 8 (interpreters start threads) and \
                 {MAX_PROCESSES}, got {}",
                self.processes
            ));
        }
        let mut limits = Limits::default();
        limits.memory = self.memory << 20;
        limits.address_space = limits.address_space.max(limits.memory * 4);
        limits.processes = self.processes;
        limits.disk = self.disk << 20;
        let report = jail::sandbox::probe(self.sandbox);
        if self.require_sandbox {
            words::require_sandbox(&report)?;
        }
        limits.sandbox = report.plan();
        Ok(limits)
    }
}

/// The time limits of `--init-cpu`, `--call-cpu` and `--time-scale` (also as a tournament
/// stores them), checked: every value in a range whose budgets and deadlines (up to 3 x the
/// scaled CPU + 1 s) are exact in nanoseconds and print back as given.
pub fn time_limits(init_cpu: f64, call_cpu: f64, time_scale: f64) -> Result<TimeLimits, String> {
    let ranged = |v: f64, flag: &str, (low, high): (f64, f64), unit: &str| {
        if v.is_finite() && (low..=high).contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "--{flag} must be between {low} and {high}{unit}, got {v:?}"
            ))
        }
    };
    Ok(TimeLimits {
        init_cpu: Duration::from_secs_f64(ranged(init_cpu, "init-cpu", CPU_SECONDS, " seconds")?),
        call_cpu: Duration::from_secs_f64(ranged(call_cpu, "call-cpu", CPU_SECONDS, " seconds")?),
        scale: ranged(time_scale, "time-scale", TIME_SCALES, "")?,
    })
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Three champions (two with `--game amazons`): executable paths, directories holding a
    /// `champion`, the built-in `random` and `greedy` (`random` and `mobility` for the
    /// Amazons), or `human` to play a seat yourself from the terminal. The same champion
    /// may sit in several seats.
    #[arg(num_args = 2..=crate::schedule::MAX_SEATS, required = true, value_name = "CHAMPION")]
    pub champions: Vec<String>,
    /// Match seed (default: drawn at random and printed).
    #[arg(long, value_name = "N", value_parser = values::seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Monument order, 14 ids: e.g. 0,1,2,3,4,5,6,7,8,9,10,11,12,13 (the 2009 reference setup).
    #[arg(long, value_name = "LIST")]
    pub monuments: Option<String>,
    /// Seat (0, 1 or 2) that opens turn 1.
    #[arg(long, value_name = "SEAT", value_parser = values::first_player, allow_negative_numbers = true)]
    pub first_player: Option<u8>,
    /// A game's option, NAME=VALUE (repeatable; `--NAME VALUE` says the same; `referee
    /// --game GAME options` lists a game's options, their values and defaults).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Directory for the record and stderr logs (default: results/matches/<seed>-<names>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write replay.html next to record.json: a self-contained viewer of the match.
    #[arg(long)]
    pub html: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A record.json written by `referee match` or `referee tournament`.
    pub record: PathBuf,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A record.json (or the directory holding it).
    pub record: PathBuf,
    /// Show the state at the end of turn T (0 = the start, after init_game; default: the end
    /// of the match).
    #[arg(long, value_name = "T", value_parser = values::turn, allow_negative_numbers = true)]
    pub turn: Option<u8>,
    /// With --turn: show the state right after phase P (1, 2 or 3) of that turn ended.
    #[arg(long, value_name = "P", value_parser = values::phase, requires = "turn", allow_negative_numbers = true)]
    pub phase: Option<u8>,
    /// Show the state after step N of the timeline (each callback and each phase end is a
    /// step; the header says "step N/M").
    #[arg(long, value_name = "N", value_parser = values::step, conflicts_with_all = ["turn", "phase"], allow_negative_numbers = true)]
    pub step: Option<u64>,
    /// Colour houses by owner: auto (a terminal and NO_COLOR unset), always or never.
    #[arg(long, value_enum, default_value_t = crate::view::ColourChoice::Auto, value_name = "WHEN")]
    pub color: crate::view::ColourChoice,
}

#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// Champions: executable paths, directories holding a `champion`, or built-in bots.
    #[arg(value_name = "CHAMPION")]
    pub champions: Vec<String>,
    /// Also every champion of DIR (executables and directories holding `champion`).
    #[arg(long, value_name = "DIR")]
    pub from_dir: Vec<PathBuf>,
    /// Also the champions of a manifest file: one `[name =] champion` per line.
    #[arg(long, value_name = "FILE")]
    pub manifest: Vec<PathBuf>,
    /// Tournament name: results go to <results>/<name>/ (one folder name: no `/`, not `..`).
    #[arg(long, default_value = "tournament", value_parser = tournament_name)]
    pub name: String,
    /// Directory holding the tournaments' results.
    #[arg(long, value_name = "DIR", default_value = words::DEFAULT_RESULTS)]
    pub results: PathBuf,
    /// `round-robin` (every set of three plays --rounds matches) or `groups` (each
    /// champion plays --matches matches in random balanced groups) [default: round-robin].
    #[arg(long, value_name = "FORMAT", value_enum)]
    pub format: Option<FormatName>,
    /// Round-robin: matches per set of three champions [default: 1].
    #[arg(long, value_name = "R", value_parser = values::count, allow_negative_numbers = true)]
    pub rounds: Option<u64>,
    /// Groups: matches per champion [default: 10].
    #[arg(long, value_name = "K", value_parser = values::count, allow_negative_numbers = true)]
    pub matches: Option<u64>,
    /// Round-robin: `fresh` (every match draws its own seed) or `rotated` (the rotations of
    /// a block of rounds replay one seed, each champion in each seat: less luck, but a
    /// champion that remembers a match, e.g. through the machine's page cache, knows the
    /// setup and hidden cards of the block's next ones; use it only with one machine per
    /// champion or caches dropped between matches) [default: fresh].
    #[arg(long, value_name = "DEAL", value_enum)]
    pub deal: Option<DealName>,
    /// Tournament seed; every match seed derives from it and the match id (default: drawn
    /// at random and printed).
    #[arg(long, value_name = "N", value_parser = values::seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// A game's option, NAME=VALUE (repeatable; `--NAME VALUE` says the same; `referee
    /// --game GAME options` lists a game's options, their values and defaults).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Seats of a match, for a game played by several counts [default: the game's fewest;
    /// `referee --game GAME options` says which it accepts].
    #[arg(long, value_name = "K", value_parser = values::seats)]
    pub seats: Option<usize>,
    /// Matches played at once (each holds 3 champion processes) [default: number of cores].
    #[arg(long, value_name = "N", value_parser = jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Play only the matches of shard I of N (ids with id % N == I - 1); results go to
    /// <results>/<name>/shard-I-of-N/, to be combined with `referee merge`.
    #[arg(long, value_name = "I/N", value_parser = shard)]
    pub shard: Option<Shard>,
    /// Continue the tournament <results>/<name>: play only its missing matches.
    #[arg(long)]
    pub resume: bool,
    /// Run without the champions that fail the pre-run check (default: refuse to start).
    #[arg(long)]
    pub exclude_broken: bool,
    /// Also write index.html (leaderboard, pairwise table, links) and each match's
    /// replay.html into the tournament directory.
    #[arg(long)]
    pub html: bool,
    /// The organiser's key file, which authenticates the results (every record and row), so
    /// that whoever can write them cannot forge them: created if missing, kept out of the
    /// results [default: $REFEREE_KEY, else one per results folder in
    /// ~/.local/state/prologin-referee/keys]. Give the same one to every shard and to merge.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The champion under test (a path, a directory holding `champion`, or a built-in);
    /// with `--resume`, the gauntlet's own if left out.
    #[arg(required_unless_present = "resume")]
    pub candidate: Option<String>,
    /// What it is compared with.
    #[arg(required_unless_present = "resume")]
    pub baseline: Option<String>,
    /// The opponents they both meet [default: the game's built-in champions].
    #[arg(value_name = "OPPONENT")]
    pub opponents: Vec<String>,
    /// Probability of saying better or worse when there is no difference.
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    pub alpha: f64,
    /// Probability of saying no difference when the difference is --min-diff.
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    pub beta: f64,
    /// The difference worth finding, in points a match (the SPRT's alternative).
    #[arg(long, default_value_t = 0.2, value_parser = positive)]
    pub min_diff: f64,
    /// Stop after this many pairs of matches if still undecided.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(crate::gauntlet::MIN_PAIRS as u64..=crate::gauntlet::MAX_PAIRS))]
    pub max_pairs: u64,
    /// Seed of the match seeds (default: drawn at random and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A game's option, NAME=VALUE (repeatable; `--NAME VALUE` says the same; `referee
    /// --game GAME options` lists a game's options, their values and defaults).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Seats of a match, for a game played by several counts [default: the game's fewest;
    /// `referee --game GAME options` says which it accepts].
    #[arg(long, value_name = "K", value_parser = values::seats)]
    pub seats: Option<usize>,
    /// Results go to <results>/<name>/.
    #[arg(long, default_value = "gauntlet", value_parser = tournament_name)]
    pub name: String,
    /// Directory holding the results.
    #[arg(long, value_name = "DIR", default_value = words::DEFAULT_RESULTS)]
    pub results: PathBuf,
    /// Matches played at once [default: number of cores].
    #[arg(long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Continue the gauntlet <results>/<name> with its own champions and settings.
    #[arg(long)]
    pub resume: bool,
    /// Seconds between progress lines when stderr is not a terminal (a log); a terminal
    /// shows a bar instead.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = not_negative)]
    pub progress_every: f64,
    /// The organiser's key file, which authenticates the results (every record and row), so
    /// that whoever can write them cannot forge them: created if missing, kept out of the
    /// results [default: $REFEREE_KEY, else one per results folder in
    /// ~/.local/state/prologin-referee/keys].
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The ids of the test's flags given on the command line (not defaulted), which a
    /// `--resume` compares with the gauntlet's ([`Cli::parse_command_line`]).
    #[arg(skip)]
    pub explicit: Vec<String>,
}

/// The ids (field names) of a gauntlet's test flags, part of its identity.
pub const GAUNTLET_TEST: [&str; 4] = ["alpha", "beta", "min_diff", "max_pairs"];

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!("a probability above 0 and below 0.5, got `{text}`")),
    }
}

fn not_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(format!("a number of seconds, 0 or more, got `{text}`")),
    }
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 => Ok(p),
        _ => Err(format!("a positive number, got `{text}`")),
    }
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Directories of the shards (each written by `referee tournament --shard I/N`).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
    /// Where to write the merged results (default: the shards' parent directory).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write index.html and each match's replay.html.
    #[arg(long)]
    pub html: bool,
    /// Merge even when shards or matches are missing (the results are then partial);
    /// without it, an incomplete set is an error.
    #[arg(long)]
    pub partial: bool,
    /// The key file the shards were run with, which authenticates their records and rows
    /// [default: $REFEREE_KEY, else the one of the shards' results folder in
    /// ~/.local/state/prologin-referee/keys].
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The tournament's directory (results/<name>), holding its files or its shards'
    /// directories (shard-I-of-N).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct BotArgs {
    /// random or greedy (random or mobility with `--game amazons`).
    pub name: String,
}

/// Parse `--monuments`.
pub fn parse_monuments(list: &str) -> Result<[u8; 14], String> {
    let ids: Vec<u8> = list
        .split(',')
        .map(|w| {
            w.trim()
                .parse::<u8>()
                .map_err(|_| format!("--monuments: `{w}` is not a monument id (0..=13)"))
        })
        .collect::<Result<_, _>>()?;
    engine::Setup::check_order(&ids)
        .map_err(|e| format!("--monuments: {e}; give a permutation of 0..=13"))
}

/// The formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatName {
    RoundRobin,
    Groups,
}

/// The deals of `--deal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DealName {
    Fresh,
    Rotated,
}

impl DealName {
    /// The schedule's deal.
    pub fn deal(self) -> crate::schedule::Deal {
        match self {
            DealName::Fresh => crate::schedule::Deal::Fresh,
            DealName::Rotated => crate::schedule::Deal::Rotated,
        }
    }
}

/// A `--shard`: `i/n` with `1 <= i <= n`.
fn shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).ok_or_else(|| "a shard is i/n with 1 <= i <= n (e.g. 2/8)".to_string())
}

/// A `--jobs`: at least 1, and at most what a machine could hold.
fn jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err("a number of matches at once is a whole number from 1 to 4096".to_string()),
    }
}

/// A `--name`: one plain folder name, so that the results stay inside `--results`.
fn tournament_name(name: &str) -> Result<String, String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.chars().any(char::is_control)
        && name.len() <= 200;
    if plain {
        Ok(name.to_string())
    } else {
        Err(format!(
            "`{}` is not a folder name: the results go to <results>/<name>/, so give a plain \
             name (no `/`, no control character such as a newline or a tab, not `.` or `..`, \
             at most 200 bytes), e.g. --name final-2009",
            jail::untrusted::printable(name)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A process limit beyond the kernel's made every champion fail to start, silently.
    #[test]
    fn process_limits_are_bounded() {
        let parse = |n: &str| {
            let cli = Cli::try_parse_from(["referee", "match", "a", "b", "c", "--processes", n])
                .map_err(|e| e.to_string())?;
            let Command::Match(mut args) = cli.command else {
                panic!("a match")
            };
            args.limits.process()?;
            // The check after parsing holds too, for limits built otherwise.
            args.limits.processes = 4_294_967_296;
            args.limits.process()
        };
        let err = parse("4294967296").unwrap_err();
        assert!(err.contains("from 8 to 16384"), "{err}");
        assert!(parse("7").is_err());
        let err = parse(&MAX_PROCESSES.to_string()).unwrap_err();
        assert!(err.starts_with("--processes must be between 8"), "{err}");
    }

    /// The modules below the command line name no flag: a message that needs one is built
    /// here (`words.rs`) or in `commands/`, from a typed error or a plain value.
    #[test]
    fn only_the_command_line_names_flags() {
        // This crate's modules below the command line, the arena's, the replay page's frame
        // (`view/`) and each game's crate under `games/` (all below it).
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = Vec::new();
        let mut crates = vec![
            root.join("src"),
            root.join("arena/src"),
            root.join("view/src"),
        ];
        for game in std::fs::read_dir(root.join("games")).unwrap() {
            crates.push(game.unwrap().path().join("src"));
        }
        for src in crates {
            let mut stack = vec![src.clone()];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).unwrap() {
                    let path = entry.unwrap().path();
                    let relative = path
                        .strip_prefix(&src)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    if ["cli", "commands", "main.rs"].contains(&relative.as_str()) {
                        continue;
                    }
                    if path.is_dir() {
                        stack.push(path);
                        continue;
                    }
                    if path.extension().is_none_or(|e| e != "rs") {
                        continue;
                    }
                    let text = std::fs::read_to_string(&path).unwrap();
                    // Up to the unit tests, which may spell what users type.
                    let code = text.split("#[cfg(test)]").next().unwrap_or("");
                    for (n, line) in code.lines().enumerate() {
                        let line = line.trim_start();
                        let is_comment = line.starts_with("//");
                        let names_flag = line.match_indices("--").any(|(i, _)| {
                            line[i + 2..].starts_with(|c: char| c.is_ascii_lowercase())
                        });
                        if !is_comment && names_flag {
                            found.push(format!("{relative}:{}: {line}", n + 1));
                        }
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "flags named below the command line:\n{}",
            found.join("\n")
        );
    }

    /// `referee serve` listens on loopback, the subject's port, unless `--listen` says
    /// otherwise (issue 30: strangers reach it only when the organiser opens it).
    #[test]
    fn the_server_listens_on_loopback_unless_told_otherwise() {
        let listen = |args: &[&str]| {
            let line = [&["referee", "serve"], args].concat();
            match Cli::try_parse_from(line).unwrap().command {
                Command::Serve(serve) => serve.listen,
                other => panic!("not serve: {other:?}"),
            }
        };
        assert!(listen(&[]).ip().is_loopback());
        assert_eq!(listen(&[]).port(), 1234);
        assert!(!listen(&["--listen", "0.0.0.0:1234"]).ip().is_loopback());
    }
}
