//! Runs the matches of a tournament of any game in parallel (a rayon pool of `jobs`
//! threads, one match per thread, so at most `seats * jobs` live champion processes), emits
//! one event per match in completion order, and never prints. Which matches, and with which
//! seeds, comes from the schedule only, never from timing.

use crate::endpoint::TimeLimits;
use crate::events::TournamentEvent;
use crate::roster::ChampionSpec;
use crate::schedule::Pairing;
use crate::seam::{Game, Seats};
use jail::champion::Limits;
use jail::interrupt;
use rayon::iter::{ParallelBridge, ParallelIterator};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// What every match of a tournament shares.
#[derive(Clone)]
pub struct Runner {
    /// The game played.
    pub game: &'static dyn Game,
    /// Champions by schedule index.
    pub champions: Vec<ChampionSpec>,
    pub time: TimeLimits,
    pub limits: Limits,
    /// The tournament directory; match `id` writes into `<dir>/matches/<id>/`.
    pub dir: PathBuf,
    /// Worker threads (matches at once).
    pub jobs: usize,
    /// Pin each worker and its match's champions to one CPU (`affinity.rs`, `--no-pin`).
    pub pin: bool,
    /// Keep every request in a log beside each record, cut at this many MiB compressed
    /// (`--full-log`, `--full-log-cap`).
    pub full_log: Option<u64>,
    /// The run's key: each match is sealed with it (`auth`) before its row is emitted.
    /// `None` for a run started before results were authenticated.
    pub auth: Option<crate::auth::RunKey>,
    /// The run's journal beside its key: each match noted as it starts and once sealed.
    /// `None` for a run without a key.
    pub journal: Option<std::sync::Arc<crate::auth::Journal>>,
    /// The game's options every match plays with.
    pub options: game::Options,
}

impl Runner {
    /// The seats of one match.
    fn seats(&self, pairing: &Pairing) -> Seats {
        Seats {
            seed: pairing.seed,
            champions: pairing
                .seats
                .iter()
                .map(|&c| self.champions[c].clone())
                .collect(),
            time: self.time,
            limits: self.limits.clone(),
            pin: self.pin,
            full_log: self.full_log,
            options: self.options.clone(),
        }
    }

    /// Directory of match `id` in the tournament (or shard) directory `dir`.
    pub fn match_dir(dir: &Path, id: u64) -> PathBuf {
        dir.join("matches").join(id.to_string())
    }

    /// Play one match, once. A match disturbed from outside (the referee told to stop) is
    /// abandoned; a champion's death by a stop signal while the referee goes on is that
    /// champion's crash, and the match is never played again (`interrupt.rs`).
    pub fn play(&self, pairing: &Pairing) -> TournamentEvent {
        self.settle(pairing.id, self.play_once(pairing))
    }

    /// The event of a match that ended in `result`.
    fn settle(&self, id: u64, result: anyhow::Result<TournamentEvent>) -> TournamentEvent {
        match result {
            Ok(event) => event,
            Err(_) if interrupt::stopping() => TournamentEvent::Abandoned { id },
            Err(error) => TournamentEvent::Failed {
                id,
                error: format!("{error:#}"),
            },
        }
    }

    fn play_once(&self, pairing: &Pairing) -> anyhow::Result<TournamentEvent> {
        let seats = self.seats(pairing);
        let started = Instant::now();
        let dir = Self::match_dir(&self.dir, pairing.id);
        let note = |step| match &self.journal {
            Some(journal) => journal.note(step, pairing.id),
            None => Ok(()),
        };
        note(crate::auth::journal::Step::Start)?;
        let played = self.game.play(&seats, &dir)?;
        let mut row = played.row;
        row.id = pairing.id;
        row.duration_ms = started.elapsed().as_millis() as u64;
        if let Some(key) = &self.auth {
            let line = crate::export::matches_csv::row(&row, played.first_player);
            key.seal_match(&dir, pairing.id, &line)?;
        }
        note(crate::auth::journal::Step::End)?;
        Ok(TournamentEvent::Played {
            first_player: played.first_player,
            row: Box::new(row),
        })
    }

    /// Play `pairings` (lazily pulled) until they run out or `stop` is set, calling `emit`
    /// on this thread for every finished match. Once `stop` is set no new match starts;
    /// running ones finish and are emitted. An error from `emit` sets `stop` and is returned
    /// once the running matches are over (their events are then dropped).
    pub fn run(
        &self,
        pairings: impl Iterator<Item = Pairing> + Send,
        stop: &AtomicBool,
        mut emit: impl FnMut(TournamentEvent) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.jobs.max(1))
            .thread_name(|i| format!("match-{i}"))
            .build()?;
        let (sender, receiver) = mpsc::channel();
        let mut failure = None;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                pool.install(|| {
                    pairings
                        .take_while(|_| !stop.load(Ordering::SeqCst))
                        .par_bridge()
                        .for_each_with(sender, |sender, pairing| {
                            if !stop.load(Ordering::SeqCst) {
                                let _ = sender.send(self.play(&pairing));
                            }
                        })
                })
            });
            for event in receiver {
                if failure.is_none() {
                    if let Err(error) = emit(event) {
                        stop.store(true, Ordering::SeqCst);
                        failure = Some(error);
                    }
                }
            }
        });
        failure.map_or(Ok(()), Err)
    }
}

/// `tournament.json`: what a tournament is, written at its start so that `--resume` and
/// `referee merge` play and count exactly the same matches.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TournamentSpec {
    /// `export::RESULTS_SCHEMA` when it was written (a run of schema 3 is read, its
    /// `matches.csv` migrated).
    pub schema: u32,
    /// The game's `--game` name (`loi` in files written before the Amazons).
    #[serde(default = "loi")]
    pub game: String,
    pub name: String,
    pub seed: u64,
    pub format: crate::schedule::Format,
    /// The champion arguments as given (for `--resume` to compare).
    pub input: InputSpec,
    /// The champions that play, by schedule index.
    pub champions: Vec<EntrySpec>,
    /// Champions left out by `--exclude-broken`, with their fault.
    pub excluded: Vec<ExcludedSpec>,
    pub limits: LimitsSpec,
    /// This run's slice of the schedule, if sharded.
    pub shard: Option<crate::schedule::Shard>,
    /// Matches in the whole schedule.
    pub matches: u64,
    /// The installed kits the run plays with (`snapshot::kits_identity`); absent in a run
    /// started before snapshots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kits: Option<crate::snapshot::KitsIdentity>,
    /// The seats of a match (`--seats`); absent when they are the game's fewest (every
    /// file written before the choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<usize>,
    /// The game's options (`--option`), every one with its value; absent for a game that
    /// takes none, and in files written before options (read as the game's defaults).
    #[serde(default, skip_serializing_if = "no_options")]
    pub options: game::Options,
}

/// Whether `options` holds none (a game without options, or a file written before them).
pub fn no_options(options: &game::Options) -> bool {
    options.words().is_empty()
}

/// The seats of a run's matches: `stored` (a `tournament.json`'s or `gauntlet.json`'s), or
/// the game's fewest when the file does not say; one the game does not accept is an error.
pub fn seat_count(stored: Option<usize>, game: &dyn Game) -> Result<usize, String> {
    let seats = stored.unwrap_or_else(|| game.seats());
    match game.seat_range().contains(&seats) {
        true => Ok(seats),
        false => Err(format!(
            "matches of {seats} seats, but {} is played by {} to {}",
            game.title(),
            game.seat_range().start(),
            game.seat_range().end()
        )),
    }
}

/// The options of a run's matches: `stored` (a `tournament.json`'s or `gauntlet.json`'s),
/// checked against the game's, or its defaults when the file holds none.
pub fn stored_options(stored: &game::Options, game: &dyn Game) -> Result<game::Options, String> {
    if no_options(stored) {
        return Ok(game::Options::defaults(game.options()));
    }
    stored.completed(game.options())
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputSpec {
    pub champions: Vec<String>,
    pub from_dir: Vec<String>,
    pub manifest: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EntrySpec {
    /// Its unique name in the results.
    pub name: String,
    /// What `roster::resolve` takes.
    pub given: String,
    pub path: String,
    pub sha256: String,
    /// What `--resume` and `merge` compare: the hash of its snapshot, or, in a run
    /// started before snapshots, `roster::identity_of`.
    pub identity: String,
    /// Its program in the run's snapshots (`<sha256>/champion` under `snapshots/`), what
    /// every match and resume plays; absent for a built-in and in a run started before
    /// snapshots (which resumes from the champion's own files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExcludedSpec {
    pub name: String,
    pub given: String,
    pub fault: String,
}

/// The limit flags (`cli::LimitArgs`) of the run: every one is part of the tournament's
/// identity (`--resume` and `merge` compare them).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LimitsSpec {
    pub time_scale: f64,
    pub init_cpu: f64,
    pub call_cpu: f64,
    pub memory: u64,
    pub processes: u64,
    pub disk: u64,
    /// `auto` or `off`.
    pub sandbox: String,
    pub require_sandbox: bool,
}

fn loi() -> String {
    "loi".into()
}

impl TournamentSpec {
    /// The seats of its matches ([`seat_count`]).
    pub fn seat_count(&self, game: &dyn Game) -> Result<usize, String> {
        seat_count(self.seats, game)
    }

    /// The options of its matches ([`stored_options`]).
    pub fn options(&self, game: &dyn Game) -> Result<game::Options, String> {
        stored_options(&self.options, game)
    }

    /// The schedule it plays, for matches of `seats` seats (a refusal names no flag: the
    /// command line tells it in flags).
    pub fn schedule(
        &self,
        seats: usize,
    ) -> Result<crate::schedule::Schedule, crate::schedule::ScheduleError> {
        crate::schedule::Schedule::for_seats(seats, self.seed, self.champions.len(), self.format)
    }

    /// Checks that `row` (with its `first_player`), read back from a `matches.csv` of
    /// `shard` (or of the whole tournament), is a row this tournament writes: a match of its
    /// schedule (and of that shard), with that match's seed and champions in their seats,
    /// the points the game's table gives the scores, and what else the game checks
    /// ([`Game::check_row`]). `--resume` and `merge` count no other row.
    pub fn check_row(
        &self,
        row: &crate::standings::MatchRow,
        first_player: u8,
        schedule: &crate::schedule::Schedule,
        shard: Option<crate::schedule::Shard>,
        game: &dyn Game,
    ) -> Result<(), String> {
        if row.id >= schedule.len() {
            return Err(format!(
                "match {} is not in this tournament's schedule (matches 0 to {})",
                row.id,
                schedule.len().saturating_sub(1)
            ));
        }
        if let Some(s) = shard.filter(|s| !s.contains(row.id)) {
            return Err(format!(
                "match {} is not one of shard {}/{}",
                row.id, s.index, s.count
            ));
        }
        let pairing = schedule.pairing(row.id);
        if row.seed != pairing.seed {
            return Err(format!(
                "match {} has seed {}, the schedule's is {}",
                row.id, row.seed, pairing.seed
            ));
        }
        let names: Vec<&str> = pairing
            .seats
            .iter()
            .map(|&c| self.champions.get(c).map_or("?", |e| e.name.as_str()))
            .collect();
        if row.champions != names {
            return Err(format!(
                "match {} seats {}, the schedule seats {}",
                row.id,
                jail::untrusted::printable(&row.champions.join(", ")),
                jail::untrusted::printable(&names.join(", "))
            ));
        }
        row.check_points(game.points())?;
        game.check_row(row, first_player)
            .map_err(|e| format!("match {}: {e}", row.id))
    }

    /// Read `tournament.json`, checking its schema.
    pub fn load(path: &Path) -> anyhow::Result<TournamentSpec> {
        Self::parse(
            path,
            &crate::store::read_bytes(path, crate::run_bounds::DESCRIPTION)?,
        )
    }

    /// `tournament.json`'s `bytes`, read from `path`, checking its schema.
    pub fn parse(path: &Path, bytes: &[u8]) -> anyhow::Result<TournamentSpec> {
        use anyhow::Context;
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let schema = value.get("schema").and_then(|s| s.as_u64());
        anyhow::ensure!(
            schema.is_some_and(crate::export::reads_schema),
            "{} has results schema {schema:?}; this referee reads schema {} (and 3, migrated)",
            path.display(),
            crate::export::RESULTS_SCHEMA
        );
        serde_json::from_value(value)
            .with_context(|| format!("{} is not a tournament description", path.display()))
    }

    /// As pretty JSON bytes (the excluded champions' faults quote their stderr: no raw
    /// DEL or C1 character is left for a terminal to obey, `untrusted::escape_json`).
    pub fn to_json(&self) -> Vec<u8> {
        let json = serde_json::to_string_pretty(self).expect("specs serialise");
        let mut bytes = jail::untrusted::escape_json(&json, false).into_bytes();
        bytes.push(b'\n');
        bytes
    }
}
