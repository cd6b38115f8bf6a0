//! Every game on the model ([`game::Game`]) as a [`Game`] of the runner, written once: its
//! matches played by the arena into a directory, its rows of results, its records read
//! back and checked, its pre-run check, its reproduce command, its faults' steps. A game
//! brings its [`Parts`] (its wire protocol, an [`Adapter`]; its points, its built-in
//! champions, a person's seat) and its [`Pages`]; the program around the arena, its
//! [`Host`] (how a match is written as a command, the bundled kits, the other games).

use crate::command_line::CommandLine;
use crate::endpoint::Endpoint;
use crate::human::{Driver, HumanEndpoint};
use crate::parts::SeatRecord;
use crate::roster::ChampionSpec;
use crate::rules::Rules;
use crate::seam::{Expected, FaultStep, Game, Played, Seats};
use crate::seating::Seating;
use crate::standings::{MatchRow, PointsTable};
use crate::{Adapter, GameFault, GameRecord, Machine, NoStep};
use game::Game as _;
use jail::untrusted::printable;
use std::path::Path;

/// What a game on the model brings besides its rules and its protocol.
pub trait Parts: Adapter {
    /// Points of a place.
    fn points(&self) -> PointsTable;
    /// The seats of a match when none are chosen (`--seats`): the fewest the rules accept
    /// unless the game says otherwise (Little Town: four, the original program's default).
    fn default_seats(&self) -> usize {
        *self.game().seats().start()
    }
    /// Its built-in champions (the referee's `bot` command plays them).
    fn builtins(&self) -> &'static [&'static str] {
        &[]
    }
    /// The console driver of a person's seat (`human`), if people can play it.
    fn human(&self) -> Option<Box<dyn Driver>> {
        None
    }
    /// What this game alone knows of a row of `matches.csv` read back.
    fn check_row(&self, _row: &MatchRow, _first_player: u8) -> Result<(), String> {
        Ok(())
    }
    /// A record written before this game was on the arena, of schema `schema`, read from
    /// `path` (files it names lie beside it), made again as one of today (or why it does not
    /// replay); `None` if it is no such record.
    fn legacy(
        &self,
        _schema: Option<u64>,
        _text: &str,
        _path: &Path,
    ) -> Option<Result<GameRecord, String>> {
        None
    }
    /// A record [`Parts::legacy`] made again, as it was played (its row in `matches.csv`
    /// is the one the referee of then wrote): by default the record made again.
    fn as_played(&self, record: &GameRecord) -> GameRecord {
        record.clone()
    }
    /// The seat that moved first (`matches.csv`'s `first_player`): by default the first
    /// seat that acted.
    fn first_player(&self, record: &GameRecord) -> u8 {
        record.first_player()
    }
    /// A match's digest in its row (`matches.csv`'s `digest`): by default its history's
    /// ([`GameRecord::history_digest`]).
    fn row_digest(&self, record: &GameRecord) -> String {
        record.history_digest()
    }
    /// Its name in a line of `show` (`Amazons`).
    fn short_title(&self) -> &'static str {
        self.game().title()
    }
    /// The seats' marks, in seat order (`White`, `Black`).
    fn marks(&self) -> &'static [&'static str] {
        &[]
    }
    /// Why a match can end without a winner, for `match`.
    fn no_winner(&self) -> &'static str {
        "every seat faulted"
    }
    /// Who moves first, said where an option of the 2009 game is refused (` (seat 0 ...)`).
    fn first_mover(&self) -> &'static str {
        ""
    }
    /// What `match` says of a match besides its winner and faults.
    fn describe(&self, _record: &GameRecord) -> Vec<String> {
        Vec::new()
    }
    /// The table `match` prints in place of its winner and faults lines, if the game has
    /// one (the 2009 game: each seat's score, money, houses, points and faults).
    fn result_table(&self, _record: &GameRecord) -> Option<String> {
        None
    }
    /// Where `fault` (one of `record`'s, checked) happened and what its seat was doing then,
    /// for `match`'s fault lines ([`FaultPlace`]): by default its callback and the move it
    /// was asked for, and the requests the callback made.
    fn fault_place(&self, record: &GameRecord, fault: &GameFault) -> Option<FaultPlace> {
        moves_fault_place(record, fault)
    }
    /// The faults of `record` (checked), each with the step of its replay page where it
    /// shows: by default the step of its callback, the actions taken by then.
    fn fault_steps(&self, record: &GameRecord) -> Vec<FaultStep> {
        record
            .faults
            .iter()
            .zip(record.fault_steps())
            .map(|(f, step)| FaultStep {
                seat: f.seat,
                step,
                kind: f.kind.name().to_string(),
                message: jail::untrusted::printable(&f.message).into_owned(),
            })
            .collect()
    }
    /// The state after `step` actions of `record` (checked; `step` at most their number),
    /// as text for a terminal (`show`).
    fn show(&self, record: &GameRecord, step: usize) -> String;
    /// What `show` prints of `record` (checked) at `at`, the consoles' stderr read from
    /// `dir`; a position the record does not have is the error, naming the flag to fix. By
    /// default ([`show_moves`]) a step is a number of actions and `--turn` is refused.
    fn shown(&self, record: &GameRecord, _dir: Option<&Path>, at: &At) -> Result<String, NoStep> {
        show_moves(self, record, at)
    }
    /// Plays the built-in champion `name` over the protocol on stdin and stdout (the
    /// command `bot`), its randomness from `PROLOGIN_SEED`.
    fn bot(&self, name: &str) -> anyhow::Result<()> {
        anyhow::bail!("{} has no built-in champion `{name}`", self.game().title())
    }
    /// Its kits in the source tree, if it has some (the program around the arena names
    /// them to the jail).
    fn kits(&self) -> Option<KitFolder> {
        None
    }
}

/// Where a game's kits are in the source tree: `folder` (from the tree's root) holds a
/// folder a language, each with its `kit`, named `prefix` then the language's folder
/// (`champions/amazons/python/kit` is the kit `amazons-python`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KitFolder {
    pub folder: &'static str,
    pub prefix: &'static str,
}

/// A game's pages, which the views draw (the arena draws nothing): given to its
/// [`ModelGame`] where the game is registered.
#[derive(Clone, Copy)]
pub struct Pages {
    /// The replay page of a record (checked), the consoles' stderr read from the match's
    /// folder if given.
    pub page: fn(&GameRecord, Option<&Path>) -> anyhow::Result<String>,
    /// A game still being played (its record so far) as the game server's site asks: its
    /// replay page, which grows, or what it grows by, with nothing a seat must not see
    /// before the end; `None` for a game without a live board.
    pub live: Option<fn(&GameRecord, LiveView) -> anyhow::Result<String>>,
}

/// What the game server's site asks of a game still being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveView {
    /// Its page: the replay page, which grows (its steps, its board's data) as the game's
    /// moves are played.
    Page,
    /// What that page grows by: `{"frame": ..., "data": ...}`, the frame and the board's
    /// data so far.
    Growth,
}

/// What the program around the arena gives every game on the model: the arena names no
/// flag and knows no other game, so the command line writes a match as a command, says how
/// a built-in champion is run, names the bundled kits, and finds a game by its name.
pub trait Host: Sync {
    /// The command that plays again a match of the game `name` (whose options are
    /// `options`) with `seats`.
    fn match_command(
        &self,
        name: &'static str,
        options: &'static [game::OptionSpec],
        seats: &Seats,
    ) -> CommandLine;
    /// The arguments that run a built-in champion of the game `name` (its name follows).
    fn bot_args(&self, name: &'static str) -> Vec<&'static str>;
    /// Done before a match starts anyone: the bundled kits named to the jail, for a caller
    /// of the library that did not name them.
    fn before_match(&self);
    /// The game named `name` in the registry, if any (a record of another game is named).
    fn game(&self, name: &str) -> Option<&'static dyn Game>;
}

/// Where a fault happened and what its seat was doing, in words: `jouer of turn 3 phase I`
/// and `222,316 refused construire_maison in that callback`, for `match`'s fault lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultPlace {
    /// The callback, and where in the match (`jouer of turn 3 phase I`, `jouer for move 31`).
    pub when: String,
    /// What the callback did before the fault, if it did anything (`12 requests in that
    /// callback`).
    pub doing: Option<String>,
    /// Whether what it did is a loop (the same refused call again and again): a bigger
    /// time budget would not have helped.
    pub is_loop: bool,
}

/// [`Parts::fault_place`] for a game whose steps are its moves: the callback and the move
/// it was asked for (the moves played before it, plus one), and its requests.
pub fn moves_fault_place(record: &GameRecord, fault: &GameFault) -> Option<FaultPlace> {
    let i = fault.callback?;
    let callback = record.callbacks.get(i)?;
    let moves = record.callbacks[..i]
        .iter()
        .flat_map(|c| &c.steps)
        .filter(|s| matches!(s, game::Step::Act { answer: Ok(_), .. }))
        .count();
    let when = match callback.callback.as_str() {
        "init_game" | "end_game" => printable(&callback.callback).into_owned(),
        name => format!("{} for move {}", printable(name), moves + 1),
    };
    let doing = (callback.requests > 0).then(|| {
        format!(
            "{} request(s) answered in that callback",
            indicatif::HumanCount(callback.requests)
        )
    });
    Some(FaultPlace {
        when,
        doing,
        is_loop: false,
    })
}

/// Each seat's score after its colour, for a result: `Red 0, Blue 12` (a game's
/// [`Parts::describe`] and its page's result say it alike).
pub fn scores_in_words(colours: &[&str], scores: &[i64]) -> String {
    let said: Vec<String> = scores
        .iter()
        .zip(colours)
        .map(|(score, colour)| format!("{colour} {score}"))
        .collect();
    said.join(", ")
}

/// Where `show` stops in a match: `--step`, `--turn`, `--phase` (clap checked their
/// ranges and combinations; what a game counts in them is its own), and whether to colour.
#[derive(Clone, Copy, Debug, Default)]
pub struct At {
    pub step: Option<u64>,
    pub turn: Option<u8>,
    pub phase: Option<u8>,
    pub colour: bool,
}

/// A record of another game than the one asked: the command line says which flag reads it.
#[derive(Debug)]
pub struct OtherGame {
    pub path: std::path::PathBuf,
    /// As a sentence says it ("the Game of the Amazons").
    pub title: String,
    /// The game's name in the registry.
    pub name: String,
}

impl std::fmt::Display for OtherGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is a record of {}", self.path.display(), self.title)
    }
}

impl std::error::Error for OtherGame {}

/// A record played with a full log whose log cannot be read: bad input (the record is not
/// what differs), which the command line words with its flag.
#[derive(Debug)]
pub struct LogMissing(pub String);

impl std::fmt::Display for LogMissing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LogMissing {}

/// `show` for a game whose steps are its actions: the seats, the last action and
/// [`Parts::show`]'s board after `at.step` actions (the end without it); a game without
/// turns refuses `--turn` and `--phase`.
pub fn show_moves<P: Parts + ?Sized>(
    parts: &P,
    record: &GameRecord,
    at: &At,
) -> Result<String, NoStep> {
    if at.turn.is_some() || at.phase.is_some() {
        return Err(NoStep::NoTurns {
            title: parts.game().title(),
        });
    }
    let moves: Vec<&str> = record.actions().collect();
    let last = moves.len();
    let step = match at.step {
        None => last,
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|&n| n <= last)
            .ok_or(NoStep::Step {
                last,
                got: n,
                moves: true,
            })?,
    };
    let marks = parts.marks();
    let seats: Vec<String> = record
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| match marks.get(i) {
            Some(mark) => format!("{} ({mark})", printable(&s.name)),
            None => printable(&s.name).into_owned(),
        })
        .collect();
    let mut out = format!(
        "{}, seed {}: {}, after move {step}/{last}\n",
        parts.short_title(),
        record.seed,
        seats.join(" vs ")
    );
    if step > 0 {
        out.push_str(&format!("last move: {}\n", moves[step - 1]));
    }
    out.push_str(&parts.show(record, step));
    Ok(out)
}

/// The last `n` actions of `record` among its first `step` (the actions the rules took),
/// oldest first, each with the seat that took it: the recent moves a terminal view lists.
pub fn recent_moves(record: &GameRecord, step: usize, n: usize) -> Vec<(usize, String)> {
    let taken: Vec<(usize, String)> = record
        .moves()
        .map(|(seat, action)| (seat, action.to_string()))
        .take(step)
        .collect();
    taken[taken.len().saturating_sub(n)..].to_vec()
}

/// What the command line asks of a game on the model (`commands/model.rs`), whatever the
/// game: [`ModelGame`]'s, for any [`Parts`].
pub trait Commands: Sync {
    /// The game, for the runner's commands.
    fn runner(&self) -> &dyn Game;
    fn play_match(&self, seats: &Seats, dir: &Path) -> anyhow::Result<GameRecord>;
    fn reproduce_command(&self, seats: &Seats) -> CommandLine;
    fn read(&self, path: &Path) -> anyhow::Result<Result<GameRecord, String>>;
    fn page(&self, record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String>;
    fn short_title(&self) -> &'static str;
    fn marks(&self) -> &'static [&'static str];
    fn no_winner(&self) -> &'static str;
    fn first_mover(&self) -> &'static str;
    fn describe(&self, record: &GameRecord) -> Vec<String>;
    fn result_table(&self, record: &GameRecord) -> Option<String>;
    fn fault_place(&self, record: &GameRecord, fault: &GameFault) -> Option<FaultPlace>;
    fn show(&self, record: &GameRecord, dir: Option<&Path>, at: &At) -> Result<String, NoStep>;
    fn bot(&self, name: &str) -> anyhow::Result<()>;
    fn kits(&self) -> Option<KitFolder>;
    fn play_match_with(
        &self,
        seats: &Seats,
        dir: &Path,
        own: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<GameRecord>;
    fn load(&self, path: &Path) -> anyhow::Result<GameRecord>;
    fn live(&self, record: &GameRecord, view: LiveView) -> anyhow::Result<String>;
}

impl<P: Parts> Commands for ModelGame<P> {
    fn runner(&self) -> &dyn Game {
        self
    }
    fn play_match(&self, seats: &Seats, dir: &Path) -> anyhow::Result<GameRecord> {
        ModelGame::play_match(self, seats, dir)
    }
    fn reproduce_command(&self, seats: &Seats) -> CommandLine {
        ModelGame::reproduce_command(self, seats)
    }
    fn read(&self, path: &Path) -> anyhow::Result<Result<GameRecord, String>> {
        ModelGame::read(self, path)
    }
    fn page(&self, record: &GameRecord, dir: Option<&Path>) -> anyhow::Result<String> {
        (self.pages.page)(record, dir)
    }
    fn short_title(&self) -> &'static str {
        self.parts.short_title()
    }
    fn marks(&self) -> &'static [&'static str] {
        self.parts.marks()
    }
    fn no_winner(&self) -> &'static str {
        self.parts.no_winner()
    }
    fn first_mover(&self) -> &'static str {
        self.parts.first_mover()
    }
    fn describe(&self, record: &GameRecord) -> Vec<String> {
        self.parts.describe(record)
    }
    fn result_table(&self, record: &GameRecord) -> Option<String> {
        Parts::result_table(self.parts, record)
    }
    fn fault_place(&self, record: &GameRecord, fault: &GameFault) -> Option<FaultPlace> {
        self.parts.fault_place(record, fault)
    }
    fn show(&self, record: &GameRecord, dir: Option<&Path>, at: &At) -> Result<String, NoStep> {
        self.parts.shown(record, dir, at)
    }
    fn bot(&self, name: &str) -> anyhow::Result<()> {
        self.parts.bot(name)
    }
    fn kits(&self) -> Option<KitFolder> {
        self.parts.kits()
    }
    fn play_match_with(
        &self,
        seats: &Seats,
        dir: &Path,
        own: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<GameRecord> {
        ModelGame::play_match_with(self, seats, dir, own)
    }
    fn load(&self, path: &Path) -> anyhow::Result<GameRecord> {
        ModelGame::load(self, path)
    }
    fn live(&self, record: &GameRecord, view: LiveView) -> anyhow::Result<String> {
        ModelGame::live(self, record, view)
    }
}

/// A game on the model, for the runner: its parts, its pages, and the program around it.
pub struct ModelGame<P: 'static> {
    parts: &'static P,
    pages: Pages,
    host: &'static dyn Host,
}

impl<P: 'static> ModelGame<P> {
    /// The game of `parts`, drawn by `pages`, in the program `host` (a registry's entry).
    pub const fn new(parts: &'static P, pages: Pages, host: &'static dyn Host) -> Self {
        ModelGame { parts, pages, host }
    }

    /// Its parts.
    pub fn parts(&self) -> &'static P {
        self.parts
    }
}

impl<P: Parts> ModelGame<P> {
    /// A game still being played (`record`: its record so far) as the site asks (`view`).
    pub fn live(&self, record: &GameRecord, view: LiveView) -> anyhow::Result<String> {
        match self.pages.live {
            Some(live) => live(record, view),
            None => anyhow::bail!("{} has no live board", self.parts.game().title()),
        }
    }

    /// Reads the record `path` (a `record.json`): one of today, checked against the rules,
    /// or one the game made before ([`Parts::legacy`]). The outer error: no record of this
    /// game there; the inner: one that a match did not write (it does not replay).
    pub fn read(&self, path: &Path) -> anyhow::Result<Result<GameRecord, String>> {
        Ok(self.read_marked(path)?.0)
    }

    /// [`ModelGame::read`], and whether the record is one the game made before
    /// ([`Parts::legacy`]).
    fn read_marked(&self, path: &Path) -> anyhow::Result<(Result<GameRecord, String>, bool)> {
        #[derive(serde::Deserialize)]
        struct Head {
            game: Option<String>,
            schema: Option<u64>,
        }
        let title = self.parts.game().title();
        let text = crate::parts::read_bounded(path)?;
        let not_one = |e: &dyn std::fmt::Display| {
            anyhow::anyhow!("{} is not a record of {title} ({e})", path.display())
        };
        let head: Head = serde_json::from_str(&text).map_err(|e| not_one(&e))?;
        // A record of another game: named, with the flag that reads it.
        if let Some(other) = head.game.as_deref().and_then(|name| self.host.game(name)) {
            if other.name() != self.parts.game().name() {
                let title = other.title();
                let title = match title.strip_prefix("The ") {
                    Some(rest) => format!("the {rest}"),
                    None => title.to_string(),
                };
                return Err(OtherGame {
                    path: path.to_path_buf(),
                    title,
                    name: other.name().to_string(),
                }
                .into());
            }
        }
        if let Some(old) = self.parts.legacy(head.schema, &text, path) {
            return Ok((old, true));
        }
        if let Some(schema) = head.schema.filter(|s| {
            !(u64::from(crate::OLDEST_GAME_RECORD_SCHEMA)..=u64::from(crate::GAME_RECORD_SCHEMA))
                .contains(s)
        }) {
            anyhow::bail!(
                "{} has record schema {schema}, which this referee does not read for {title} \
                 (play the match again to record it anew)",
                path.display()
            );
        }
        let record: GameRecord = serde_json::from_str(&text).map_err(|e| not_one(&e))?;
        // Played with a full log: it must be there (bad input, not a record that differs).
        let mut log = match &record.full_log {
            Some(log) => {
                Some(crate::full_log::Reader::beside(path, &log.file).map_err(LogMissing)?)
            }
            None => None,
        };
        // The seats' seeds first: a record of another seed is named as such.
        let checked = crate::seeds::check_seat_seeds(record.seed, &record.seats)
            .and_then(|()| crate::check(self.parts, &record))
            .and_then(|()| match log.as_mut() {
                // Every request read again.
                Some(reader) => crate::check_log(self.parts, &record, reader),
                None => Ok(()),
            });
        Ok((checked.map(|()| record), false))
    }

    /// [`ModelGame::read`], a record that does not replay an error too.
    pub fn load(&self, path: &Path) -> anyhow::Result<GameRecord> {
        self.read(path)?.map_err(|e| {
            anyhow::anyhow!(
                "{}: this record was not written by a match: {e}",
                path.display()
            )
        })
    }

    /// Plays one match of `seats` into `dir`, and writes its record there.
    pub fn play_match(&self, seats: &Seats, dir: &Path) -> anyhow::Result<GameRecord> {
        let human = |seat| -> Box<dyn Endpoint> {
            let driver = self
                .parts
                .human()
                .expect("a human seat is resolved only where people play");
            Box::new(HumanEndpoint::console(seat, driver))
        };
        self.play_match_with(seats, dir, &human)
    }

    /// [`ModelGame::play_match`], the seats of a person or a connected program
    /// (`referee serve`) played by `own(seat)`'s endpoint.
    pub fn play_match_with(
        &self,
        seats: &Seats,
        dir: &Path,
        own: &dyn Fn(usize) -> Box<dyn Endpoint>,
    ) -> anyhow::Result<GameRecord> {
        let game = self.parts.game();
        anyhow::ensure!(
            game.seats().contains(&seats.champions.len()),
            "{} is played by {} to {} champions, got {}",
            game.title(),
            game.seats().start(),
            game.seats().end(),
            seats.champions.len()
        );
        jail::interrupt::match_starts();
        // Cleared of match files: an earlier match's record here would be taken for this
        // one's if it is interrupted, and a link left there would be written through.
        let folder = crate::run_files::Folder::fresh_match(dir)?;
        let path = dir.join("record.json");
        let records: Vec<SeatRecord> = (0..seats.champions.len())
            .map(|i| SeatRecord::of(i, &seats.champions[i], seats.seed))
            .collect();
        let seeds: Vec<u64> = records.iter().map(|s| s.seed).collect();
        self.host.before_match();
        let mut seating = Seating::start(
            &seats.champions,
            &seeds,
            &seats.limits,
            &folder,
            seats.pin,
            own,
        )?;
        let mut log = match seats.full_log {
            Some(cap) => Some(crate::full_log::Writer::create_in(
                &folder,
                crate::full_log::FILE,
                cap,
            )?),
            None => None,
        };
        let mut machine = Machine::new(
            self.parts,
            &seats.options,
            seats.seed,
            records,
            seats.time,
            seats.limits.sandbox.line().to_string(),
        )
        .map_err(anyhow::Error::msg)?;
        if let Some(log) = log.as_mut() {
            machine.log_to(log);
        }
        let spawn_faults = std::mem::take(&mut seating.spawn_faults);
        crate::match_loop::run(&mut machine, &mut seating.endpoints(), spawn_faults);
        drop(seating);
        let mut record = machine.finish();
        if let (Some(log), Some(cap_mib)) = (log, seats.full_log) {
            record.full_log = Some(crate::FullLogRecord {
                file: crate::full_log::FILE.to_string(),
                cap_mib,
                cut: log.finish()?,
            });
        }
        // Champions killed by the referee told to stop, or by a stop signal from outside,
        // would be recorded as crashed: such a match has no result (`interrupt.rs`).
        jail::interrupt::undisturbed()?;
        // A champion whose processes could not all be watched: no result (`jail::blind`).
        jail::blind::watched()?;
        let json = record.to_json_within_bound(&folder.path().join("record.json"))?;
        crate::store::write_in(&folder, "record.json", &json)?;
        // No command plays a person's moves, or a connected program's, again.
        if !seats
            .champions
            .iter()
            .any(|c| c.is_human() || c.is_remote())
        {
            crate::reproduce_log::note(&self.reproduce_command(seats), &path, &record);
        }
        Ok(record)
    }

    /// The row of results of `record`, played again by `command`.
    fn row(&self, record: &GameRecord, command: &CommandLine) -> MatchRow {
        MatchRow {
            digest: self.parts.row_digest(record),
            ..record.row(self.points(), command.render())
        }
    }

    /// The command that plays `seats` again.
    pub fn reproduce_command(&self, seats: &Seats) -> CommandLine {
        let game = self.parts.game();
        self.host.match_command(game.name(), game.options(), seats)
    }
}

impl<P: Parts> Game for ModelGame<P> {
    fn name(&self) -> &'static str {
        self.parts.game().name()
    }

    fn title(&self) -> &'static str {
        self.parts.game().title()
    }

    fn seats(&self) -> usize {
        self.parts.default_seats()
    }

    fn seat_range(&self) -> std::ops::RangeInclusive<usize> {
        self.parts.game().seats()
    }

    fn options(&self) -> &'static [game::OptionSpec] {
        self.parts.game().options()
    }

    fn full_log(&self) -> bool {
        true
    }

    fn points(&self) -> PointsTable {
        self.parts.points()
    }

    fn builtins(&self) -> &'static [&'static str] {
        self.parts.builtins()
    }

    fn resolve(&self, given: &str) -> anyhow::Result<ChampionSpec> {
        if given == "human" && self.parts.human().is_none() {
            anyhow::bail!("people cannot play {} (no `human` seat)", self.title());
        }
        let bot = self.host.bot_args(self.name());
        crate::roster::resolve_for(given, self.builtins(), &bot)
    }

    fn check_row(&self, row: &MatchRow, first_player: u8) -> Result<(), String> {
        self.parts.check_row(row, first_player)
    }

    fn recorded_row(&self, dir: &Path, expected: &Expected) -> anyhow::Result<Played> {
        let (record, legacy) = self.read_marked(&dir.join("record.json"))?;
        let record = record.map_err(|e| anyhow::anyhow!("its record does not replay: {e}"))?;
        // A record of before may have kept no allowances (the 2009 game's schema 3): they
        // are zero in the record made again, and not compared.
        let zero = crate::parts::BudgetRecord {
            cpu_us: 0,
            wall_us: 0,
        };
        let kept = !legacy || record.budgets.init != zero || record.budgets.call != zero;
        let budgets = kept.then_some(record.budgets);
        if let Some(problem) = expected.problem(record.seed, &record.seats, budgets, legacy) {
            anyhow::bail!("{problem}");
        }
        if record.options != expected.run.options {
            anyhow::bail!(
                "its record has options {}, the run's {}",
                printable(&record.options.words().join(" ")),
                printable(&expected.run.options.words().join(" "))
            );
        }
        let run = Seats {
            full_log: record.full_log.as_ref().map(|log| log.cap_mib),
            ..expected.run.clone()
        };
        let command = self.reproduce_command(&run);
        // A record of before gives the row its referee wrote (a run of then resumes and
        // merges with the scores it was played with).
        let record = match legacy {
            true => self.parts.as_played(&record),
            false => record,
        };
        Ok(Played {
            row: self.row(&record, &command),
            first_player: self.parts.first_player(&record),
            command,
        })
    }

    fn check_rules(&self) -> (Box<dyn Rules>, &'static str) {
        let game = self.parts.game();
        let seats = vec![SeatRecord::default(); *game.seats().start()];
        let time = crate::endpoint::TimeLimits::default();
        let mut machine = Machine::new(self.parts, &game.defaults(), 0, seats, time, String::new())
            .expect("a match of the fewest seats starts with the default options");
        let step = machine.next_step().expect("a match has a first callback");
        machine.begin(step.seats[0]);
        (Box::new(machine), step.name)
    }

    fn play(&self, seats: &Seats, dir: &Path) -> anyhow::Result<Played> {
        let record = self.play_match(seats, dir)?;
        let command = self.reproduce_command(seats);
        Ok(Played {
            row: self.row(&record, &command),
            first_player: self.parts.first_player(&record),
            command,
        })
    }

    fn replay_page(&self, dir: &Path) -> anyhow::Result<String> {
        (self.pages.page)(&self.load(&dir.join("record.json"))?, Some(dir))
    }

    fn fault_steps(&self, dir: &Path) -> anyhow::Result<Vec<FaultStep>> {
        let record = self.load(&dir.join("record.json"))?;
        Ok(Parts::fault_steps(self.parts, &record))
    }
}
