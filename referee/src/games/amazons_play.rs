//! The Game of the Amazons as a [`Game`] of the runner: one match of two champions played
//! into a directory (`record.json`, `seat<N>.stderr`) by the arena on the game model, its
//! row of results (the winner scores 1 and earns 1 point, the loser 0), and the command
//! that plays it again.

use super::amazons_wire::AmazonsWire;
use super::{Expected, FaultStep, Game, Played, Seats};
use crate::arena::{GameRecord, Machine};
use crate::endpoint::Endpoint;
use crate::human::{amazons::AmazonsSeat, HumanEndpoint};
use crate::record::SeatRecord;
use crate::rules::Rules;
use crate::seating::Seating;
use crate::standings::{MatchRow, PointsTable, WIN_LOSS};
use std::path::Path;

/// The Game of the Amazons.
pub struct AmazonsGame;

/// Its protocol, for the arena.
static WIRE: AmazonsWire = AmazonsWire;

/// Plays one match of `seats` (seat 0 White) into `dir`, and writes its record there.
pub fn play_match(seats: &Seats, dir: &Path) -> anyhow::Result<GameRecord> {
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
    let records: Vec<SeatRecord> = (0..2)
        .map(|i| SeatRecord::of(i, &seats.champions[i], seats.seed))
        .collect();
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
    let mut machine = Machine::new(
        &WIRE,
        &game::Options::default(),
        seats.seed,
        records,
        seats.time,
        seats.limits.sandbox.line().to_string(),
    )
    .map_err(anyhow::Error::msg)?;
    let spawn_faults = std::mem::take(&mut seating.spawn_faults);
    crate::match_loop::run(&mut machine, &mut seating.endpoints(), spawn_faults);
    drop(seating);
    let record = machine.finish();
    // Champions killed by the referee told to stop, or by a stop signal from outside, would
    // be recorded as crashed: such a match has no result (`interrupt.rs`).
    jail::interrupt::undisturbed()?;
    crate::store::write_in(&folder, "record.json", &record.to_json())?;
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

/// The row of results of a played match (`id` and `duration_ms` are the runner's).
pub fn row_of(record: &GameRecord, reproduce: String) -> MatchRow {
    record.row(WIN_LOSS, reproduce)
}

/// Reads the Amazons record `path` (a `record.json`): one of today, checked against the
/// rules, or one of schema 1 (before every game had one record), checked as it was then
/// and made again as one of today. The outer error: no Amazons record there; the inner:
/// one that a match did not write (it does not replay).
pub fn read(path: &Path) -> anyhow::Result<Result<GameRecord, String>> {
    #[derive(serde::Deserialize)]
    struct Head {
        schema: Option<u64>,
    }
    let text = crate::record::read_bounded(path)?;
    let not_one = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!("{} is not an Amazons record ({e})", path.display())
    };
    let head: Head = serde_json::from_str(&text).map_err(|e| not_one(&e))?;
    Ok(match head.schema {
        Some(1) => {
            let old: super::amazons_v1::AmazonsRecord =
                serde_json::from_str(&text).map_err(|e| not_one(&e))?;
            super::amazons_v1::to_game_record(&old)
        }
        _ => {
            let record: GameRecord = serde_json::from_str(&text).map_err(|e| not_one(&e))?;
            crate::arena::check(&WIRE, &record).map(|()| record)
        }
    })
}

/// [`read`], a record that does not replay an error too.
pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
    read(path)?.map_err(|e| {
        anyhow::anyhow!(
            "{}: this record was not written by a match: {e}",
            path.display()
        )
    })
}

/// The board after each action of `record` (a checked one): the start first.
pub fn boards(record: &GameRecord) -> Vec<amazons::Board> {
    let mut board = amazons::Board::start();
    let mut boards = vec![board.clone()];
    for action in record.actions() {
        let m: amazons::Move = action.parse().expect("a checked record's moves parse");
        board.play(m).expect("a checked record's moves are legal");
        boards.push(board.clone());
    }
    boards
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
        let seats = vec![SeatRecord::default(); 2];
        let time = crate::endpoint::TimeLimits::default();
        let mut machine = Machine::new(
            &WIRE,
            &game::Options::default(),
            0,
            seats,
            time,
            String::new(),
        )
        .expect("a match of two seats starts");
        let step = machine.next_step().expect("init_game comes first");
        machine.begin(0);
        (Box::new(machine), step.name)
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
        let record = read(&dir.join("record.json"))?
            .map_err(|e| anyhow::anyhow!("its record does not replay: {e}"))?;
        if let Some(problem) =
            expected.problem(record.seed, &record.seats, Some(record.budgets), false)
        {
            anyhow::bail!("{problem}");
        }
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
            .zip(record.fault_steps())
            .map(|(f, step)| FaultStep {
                seat: f.seat,
                step,
                kind: f.kind.name().to_string(),
                message: f.message.clone(),
            })
            .collect())
    }
}
