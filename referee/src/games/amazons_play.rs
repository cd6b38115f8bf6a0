//! The Game of the Amazons as a [`Game`] of the runner: one match of two champions played
//! into a directory (`record.json`, `seat<N>.stderr`), its row of results (the winner
//! scores 1 and earns 1 point, the loser 0), and the command that plays it again.

use super::{Expected, FaultStep, Game, Played, Seats};
use crate::endpoint::Endpoint;
use crate::games::amazons::{Amazons, AmazonsRecord};
use crate::human::{amazons::AmazonsSeat, HumanEndpoint};
use crate::record::SeatRecord;
use crate::rules::Rules;
use crate::seating::Seating;
use crate::standings::{MatchRow, PointsTable, SeatTimes, WIN_LOSS};
use anyhow::Context;
use sha2::{Digest, Sha256};
use std::path::Path;

/// The Game of the Amazons.
pub struct AmazonsGame;

/// Plays one match of `seats` (seat 0 White) into `dir`, and writes its record there.
pub fn play_match(seats: &Seats, dir: &Path) -> anyhow::Result<AmazonsRecord> {
    anyhow::ensure!(
        seats.champions.len() == 2,
        "an Amazons match takes 2 champions, got {}",
        seats.champions.len()
    );
    jail::interrupt::match_starts();
    // Cleared of match files: an earlier match's record here would be taken for this one's
    // if it is interrupted, and a link left there would be written through (`run_files`).
    let folder = crate::run_files::Folder::fresh_match(dir)?;
    let path = dir.join("record.json");
    let records: [SeatRecord; 2] =
        std::array::from_fn(|i| SeatRecord::of(i, &seats.champions[i], seats.seed));
    let seeds: Vec<u64> = records.iter().map(|s| s.seed).collect();
    let human = |seat| -> Box<dyn Endpoint> {
        Box::new(HumanEndpoint::console(seat, Box::new(AmazonsSeat::new())))
    };
    let mut seating = Seating::start(
        &seats.champions,
        &seeds,
        &seats.limits,
        &folder,
        seats.pin,
        &human,
    )?;
    let mut rules = Amazons::new(
        seats.seed,
        records,
        seats.limits.sandbox.line().to_string(),
        seats.time.allowance(true),
        seats.time.allowance(false),
    );
    let spawn_faults = std::mem::take(&mut seating.spawn_faults);
    crate::match_loop::run(&mut rules, &mut seating.endpoints(), spawn_faults);
    drop(seating);
    let record = rules.finish();
    // Champions killed by the referee told to stop, or by a stop signal from outside, would
    // be recorded as crashed: such a match has no result (`interrupt.rs`).
    jail::interrupt::undisturbed()?;
    let json = serde_json::to_vec_pretty(&record).context("a record serialises")?;
    crate::store::write_in(&folder, "record.json", &json)?;
    // No command plays a person's moves again.
    if !seats.champions.iter().any(|c| c.is_human()) {
        crate::reproduce_log::note(&reproduce_command(seats), &path, &record);
    }
    Ok(record)
}

/// The command that plays `seats` again.
pub fn reproduce_command(seats: &Seats) -> String {
    let given: Vec<String> = seats.champions.iter().map(|c| c.given.clone()).collect();
    crate::cli::words::amazons_reproduce(&given, seats.seed, &seats.time, &seats.limits)
}

/// A digest of the game: SHA-256 of its moves in order (16 hex digits, like the 2009
/// game's), so that two runs of a match agree on it exactly when they played alike.
pub fn digest(record: &AmazonsRecord) -> String {
    crate::record::hex(&Sha256::digest(record.moves.join(" ").as_bytes())[..8])
}

/// The row of results of a played match (`id` and `duration_ms` are the runner's).
pub fn row_of(record: &AmazonsRecord, reproduce: String) -> MatchRow {
    let scores: Vec<i32> = (0..2u8)
        .map(|s| i32::from(record.winner == Some(s)))
        .collect();
    let times = SeatTimes::of(
        2,
        record
            .callbacks
            .iter()
            .zip(&record.timings)
            .map(|(c, t)| (usize::from(c.seat), t.cpu_us)),
    );
    MatchRow {
        id: 0,
        seed: record.seed,
        champions: record.seats.iter().map(|s| s.name.clone()).collect(),
        points: crate::standings::points_with(WIN_LOSS, &scores),
        scores,
        faults: (0..2u8)
            .map(|s| record.faults.iter().find(|f| f.seat == s).map(|f| f.kind))
            .collect(),
        calls: times.calls,
        cpu_us: times.cpu_us,
        max_cpu_us: times.max_cpu_us,
        duration_ms: 0,
        digest: digest(record),
        reproduce,
    }
}

/// Reads an Amazons record from `path` (a `record.json`).
pub fn load(path: &Path) -> anyhow::Result<AmazonsRecord> {
    let text = crate::record::read_bounded(path)?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not an Amazons record ({e})", path.display()))
}

impl Game for AmazonsGame {
    fn name(&self) -> &'static str {
        "amazons"
    }

    fn title(&self) -> &'static str {
        "The Game of the Amazons"
    }

    fn seats(&self) -> usize {
        2
    }

    fn full_log(&self) -> bool {
        false
    }

    fn points(&self) -> PointsTable {
        WIN_LOSS
    }

    fn builtins(&self) -> &'static [&'static str] {
        &amazons::bots::NAMES
    }

    /// A winner scores 1 and the loser 0; no winner only when both seats faulted; White
    /// (seat 0) moves first.
    fn check_row(&self, row: &MatchRow, first_player: u8) -> Result<(), String> {
        if first_player != 0 {
            return Err(format!(
                "first_player is {first_player}, but seat 0 (White) moves first"
            ));
        }
        match row.scores.as_slice() {
            [1, 0] | [0, 1] => Ok(()),
            [0, 0] if row.faults.iter().all(Option::is_some) => Ok(()),
            scores => Err(format!(
                "scores {scores:?}: an Amazons match scores 1 for the winner and 0 for the \
                 loser (0 for both only when both faulted)"
            )),
        }
    }

    fn check_rules(&self) -> (Box<dyn Rules>, &'static str) {
        let time = crate::endpoint::TimeLimits::default();
        let rules = Amazons::new(
            0,
            std::array::from_fn(|_| SeatRecord::default()),
            String::new(),
            time.allowance(true),
            time.allowance(false),
        );
        (Box::new(rules), "init_game")
    }

    fn play(&self, seats: &Seats, dir: &Path) -> anyhow::Result<Played> {
        anyhow::ensure!(seats.full_log.is_none(), "the Amazons keep no full log");
        let record = play_match(seats, dir)?;
        Ok(Played {
            row: row_of(&record, reproduce_command(seats)),
            first_player: 0,
        })
    }

    fn recorded_row(&self, dir: &Path, expected: &Expected) -> anyhow::Result<Played> {
        let record = load(&dir.join("record.json"))?;
        if let Some(problem) = expected.problem(record.seed, &record.seats, record.budgets, false) {
            anyhow::bail!("{problem}");
        }
        crate::games::amazons::verify(&record)
            .map_err(|e| anyhow::anyhow!("its record does not replay: {e}"))?;
        Ok(Played {
            row: row_of(&record, reproduce_command(&expected.run)),
            first_player: 0,
        })
    }

    fn replay_page(&self, dir: &Path) -> anyhow::Result<String> {
        crate::view::amazons_html::page_in(&load(&dir.join("record.json"))?, Some(dir))
    }

    /// Each fault on the board of its move: the moves played when it happened.
    fn fault_steps(&self, dir: &Path) -> anyhow::Result<Vec<FaultStep>> {
        let record = load(&dir.join("record.json"))?;
        Ok(record
            .faults
            .iter()
            .map(|f| FaultStep {
                seat: f.seat,
                step: usize::from(f.turn).min(record.moves.len()),
                kind: f.kind.name().to_string(),
                message: f.message.clone(),
            })
            .collect())
    }
}
