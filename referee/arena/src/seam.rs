//! The seam around a match, for any game: [`Game`], what the runner needs of a game (the
//! tournament runner, its pre-run check, results and viewers), and what crosses it (the
//! [`Seats`] of a match, the [`Played`] match, what its record must say, [`Expected`]).
//! The tournament, its store, schedule, standings and CSV know a game only through [`Game`];
//! one match is the other seam, [`crate::rules::Rules`].

use crate::endpoint::TimeLimits;
use crate::roster::ChampionSpec;
use crate::rules::Rules;
use crate::standings::{MatchRow, PointsTable};
use jail::champion::Limits;
use std::path::Path;

/// One match of a tournament, for any game: who sits where, the seed, the limits.
#[derive(Clone, Debug)]
pub struct Seats {
    pub seed: u64,
    /// One per seat, in seat order.
    pub champions: Vec<ChampionSpec>,
    pub time: TimeLimits,
    pub limits: Limits,
    /// Pin the match to a CPU no other match holds (`affinity.rs`).
    pub pin: bool,
    /// Stream every request into a log beside the record, cut at this many MiB compressed
    /// (`--full-log`, `--full-log-cap`).
    pub full_log: Option<u64>,
    /// The game's options (`--option NAME=VALUE`), every one with its value; none for a
    /// game whose setup is given otherwise (the 2009 game's `--monuments`).
    pub options: game::Options,
}

/// What a match of a tournament was played with, as its record must say: the match seed,
/// each seat's champion (name, program, its SHA-256, its `PROLOGIN_SEED`), and the
/// callbacks' allowances; and the seats the runner gives it, for its reproduce command.
#[derive(Clone, Debug)]
pub struct Expected {
    pub seed: u64,
    pub seats: Vec<crate::parts::SeatRecord>,
    pub budgets: crate::parts::BudgetsRecord,
    /// The runner's seats of the match (without `--full-log`, which a run may add or not).
    pub run: Seats,
}

impl Expected {
    /// What match `id` of `schedule` (the tournament `spec`'s, whose limits are `stored`, as
    /// the command line reads them, and options `options`) is played with, as its record
    /// must say.
    pub fn of(
        spec: &crate::tournament::TournamentSpec,
        schedule: &crate::schedule::Schedule,
        stored: &(TimeLimits, Limits),
        options: &game::Options,
        id: u64,
    ) -> anyhow::Result<Expected> {
        anyhow::ensure!(id < schedule.len(), "not in the schedule");
        let pairing = schedule.pairing(id);
        let mut seated = Vec::new();
        for &c in &pairing.seats {
            let entry = spec
                .champions
                .get(c)
                .ok_or_else(|| anyhow::anyhow!("tournament.json has no champion {c}"))?;
            seated.push(ChampionSpec {
                name: entry.name.clone(),
                given: entry.given.clone(),
                program: entry.path.clone().into(),
                args: Vec::new(),
                path: entry.path.clone(),
                sha256: entry.sha256.clone(),
                identity: entry.identity.clone(),
                snapshot: None,
            });
        }
        Ok(Expected::new(pairing.seed, seated, stored, options.clone()))
    }

    /// What a match of seed `seed`, with `seated` in its seats, is played with under a
    /// run's `stored` limits (a tournament's or a gauntlet's), as its record must say.
    pub fn new(
        seed: u64,
        seated: Vec<ChampionSpec>,
        stored: &(TimeLimits, Limits),
        options: game::Options,
    ) -> Expected {
        let (time, limits) = stored.clone();
        let seats = seated
            .iter()
            .enumerate()
            .map(|(seat, c)| crate::parts::SeatRecord {
                seat: seat as u8,
                name: c.name.clone(),
                path: c.path.clone(),
                sha256: c.sha256.clone(),
                seed: crate::seeds::seat_seed(seed, seat as u8),
            })
            .collect();
        Expected {
            seed,
            seats,
            budgets: crate::parts::BudgetsRecord::of(&time),
            run: Seats {
                seed,
                champions: seated,
                time,
                limits,
                pin: false,
                full_log: None,
                options,
            },
        }
    }

    /// What is not as expected in a record of `seed`, `seats` and `budgets` (absent only in
    /// records of the schema before them, `budgets_optional`), if anything.
    pub fn problem(
        &self,
        seed: u64,
        seats: &[crate::parts::SeatRecord],
        budgets: Option<crate::parts::BudgetsRecord>,
        budgets_optional: bool,
    ) -> Option<String> {
        use jail::untrusted::printable;
        if seed != self.seed {
            return Some(format!(
                "its record has seed {seed}, the match's is {}",
                self.seed
            ));
        }
        if seats.len() != self.seats.len() {
            return Some(format!(
                "its record has {} seats, the match {}",
                seats.len(),
                self.seats.len()
            ));
        }
        for (i, (got, want)) in seats.iter().zip(&self.seats).enumerate() {
            let differs = [
                ("seat", got.seat.to_string(), want.seat.to_string()),
                ("champion", got.name.clone(), want.name.clone()),
                ("program", got.path.clone(), want.path.clone()),
                ("SHA-256", got.sha256.clone(), want.sha256.clone()),
                ("PROLOGIN_SEED", got.seed.to_string(), want.seed.to_string()),
            ]
            .into_iter()
            // A champion is its code: a file by its SHA-256, wherever it ran from (a
            // resume from a moved folder); a built-in by its name, whatever binary of the
            // referee ran it (a rebuilt one, another machine's shard).
            .filter(|(what, _, _)| match *what {
                "program" => crate::roster::is_builtin(&want.path),
                "SHA-256" => !crate::roster::is_builtin(&want.path),
                _ => true,
            })
            .find(|(_, got, want)| got != want);
            if let Some((what, got, want)) = differs {
                return Some(format!(
                    "its record's seat {i} has {what} {}, the tournament's {}",
                    printable(&got),
                    printable(&want)
                ));
            }
        }
        match budgets {
            Some(b) if b != self.budgets => Some(format!(
                "its record's time allowances are {b:?}, the tournament's {:?}",
                self.budgets
            )),
            None if !budgets_optional => Some("its record has no time allowances".into()),
            _ => None,
        }
    }
}

/// A match played: its row of results (`id` and `duration_ms` left for the runner to set)
/// and the seat that moved first.
#[derive(Clone, Debug)]
pub struct Played {
    pub row: MatchRow,
    pub first_player: u8,
    /// The command that plays it again (`row.reproduce` is its text).
    pub command: crate::command_line::CommandLine,
}

/// What the runner needs of a game around its matches.
pub trait Game: Send + Sync {
    /// Its `--game` name (`loi`, `amazons`), stored in `tournament.json`.
    fn name(&self) -> &'static str;
    /// Its title for people (pages, messages).
    fn title(&self) -> &'static str;
    /// The seats of a match when none are chosen (`--seats`): the fewest it accepts.
    fn seats(&self) -> usize;
    /// The seats a match may have (the rules': the model's [`game::Game::seats`]).
    fn seat_range(&self) -> std::ops::RangeInclusive<usize> {
        self.seats()..=self.seats()
    }
    /// The options a match takes (`--option NAME=VALUE`), each with its default; none for
    /// a game whose setup is given by flags of its own (the 2009 game's `--monuments`).
    fn options(&self) -> &'static [game::OptionSpec] {
        &[]
    }
    /// Whether `--full-log` (every request in a log beside the record) is available.
    fn full_log(&self) -> bool;
    /// Points of a place ([`crate::standings::points_with`]).
    fn points(&self) -> PointsTable;
    /// The names of its built-in champions (run as the referee's `bot` command).
    fn builtins(&self) -> &'static [&'static str];
    /// What the user wrote for a champion, resolved (a path, or one of the game's
    /// built-in champions). A game with built-in champions says how the referee runs them
    /// (the command line's arguments); by default a champion is a path or a person.
    fn resolve(&self, given: &str) -> anyhow::Result<ChampionSpec> {
        crate::roster::resolve_for(given, &[], &[])
    }
    /// What this game alone knows of a row of `matches.csv` read back (`--resume`,
    /// `merge`): the scores it can give, the seat that moves first. What is wrong, if
    /// anything.
    fn check_row(&self, _row: &MatchRow, _first_player: u8) -> Result<(), String> {
        Ok(())
    }
    /// The row of results, and the seat that moved first, that the record in the match
    /// directory `dir` gives, once the record is checked against what the match was to be
    /// played with (`expected`, and the setup its seed draws) and against the rules
    /// (played again without the champions): what `merge` and `--resume` hold a row to.
    /// Its command is the one the runner writes for `expected.run` (with `--full-log` if
    /// the record has a full log), in this referee's environment.
    /// What is wrong, if anything.
    fn recorded_row(&self, dir: &Path, expected: &Expected) -> anyhow::Result<Played>;
    /// The game's side of the pre-run check: a fresh game whose current callback is
    /// `init_game` for seat 0, and that callback's name.
    fn check_rules(&self) -> (Box<dyn Rules>, &'static str);
    /// Plays `seats` with the champions' stderr, the record and any log written into `dir`.
    fn play(&self, seats: &Seats, dir: &Path) -> anyhow::Result<Played>;
    /// The replay page of the match whose directory is `dir`. It holds an empty
    /// `<nav id="match-nav"></nav>` that a tournament's index fills with its links.
    fn replay_page(&self, dir: &Path) -> anyhow::Result<String>;
    /// The faults of the match whose directory is `dir`, each with the step of the replay
    /// page where it happened (the page opens there at `replay.html#step=N`).
    fn fault_steps(&self, dir: &Path) -> anyhow::Result<Vec<FaultStep>>;
}

/// A fault of a match, and the step of its replay page where it shows.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FaultStep {
    pub seat: u8,
    pub step: usize,
    /// `timeout`, `crash`, `memory`, `protocol`, `spawn`.
    pub kind: String,
    /// The fault's message, escaped as every view shows a champion's text
    /// (`jail::untrusted::printable`: no control or bidirectional character raw).
    pub message: String,
}
