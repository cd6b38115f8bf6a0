//! "La loi du plus riche" (2009) as a [`Game`] of the runner: three seats, rule 26's
//! points, matches through `run_match::MatchPlan`, the `MatchRecord` as a row of results.

use super::{Expected, FaultStep, Game, Played, Seats};
use crate::game::Loi;
use crate::record::MatchRecord;
use crate::rules::Rules;
use crate::run_match::MatchPlan;
use crate::standings::{MatchRow, PointsTable, SeatTimes, RULE_26};
use engine::Callback;
use std::path::Path;

/// The 2009 game.
pub struct LoiGame;

/// The row of results of a played match (`id` and `duration_ms` are the runner's).
pub fn row_of(record: &MatchRecord, reproduce: String) -> MatchRow {
    let times = SeatTimes::of(
        3,
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
        scores: record.result.final_scores.to_vec(),
        points: record.result.points.to_vec(),
        faults: (0..3u8)
            .map(|s| record.faults_of(s).next().map(|f| f.kind))
            .collect(),
        calls: times.calls,
        cpu_us: times.cpu_us,
        max_cpu_us: times.max_cpu_us,
        duration_ms: 0,
        digest: record.result.digest.clone(),
        reproduce,
    }
}

fn plan(seats: &Seats) -> MatchPlan {
    MatchPlan {
        seed: seats.seed,
        monuments: None,
        first_player: None,
        champions: std::array::from_fn(|s| seats.champions[s].clone()),
        time: seats.time,
        limits: seats.limits.clone(),
        pin: seats.pin,
        full_log: seats.full_log,
    }
}

impl Game for LoiGame {
    fn name(&self) -> &'static str {
        "loi"
    }

    fn title(&self) -> &'static str {
        "La loi du plus riche"
    }

    fn seats(&self) -> usize {
        3
    }

    fn full_log(&self) -> bool {
        true
    }

    fn points(&self) -> PointsTable {
        RULE_26
    }

    fn builtins(&self) -> &'static [&'static str] {
        &engine::bots::NAMES
    }

    fn check_rules(&self) -> (Box<dyn Rules>, &'static str) {
        (
            Box::new(Loi::single(Callback::InitGame, 0)),
            Callback::InitGame.name(),
        )
    }

    fn play(&self, seats: &Seats, dir: &Path) -> anyhow::Result<Played> {
        let plan = plan(seats);
        let record = plan.run(dir)?;
        let command = plan.reproduce_command();
        Ok(Played {
            row: row_of(&record, command.render()),
            first_player: record.first_player,
            command,
        })
    }

    fn recorded_row(&self, dir: &Path, expected: &Expected) -> anyhow::Result<Played> {
        let path = dir.join("record.json");
        let record = MatchRecord::load(&path)?;
        let old_schema = record.schema < crate::record::RECORD_SCHEMA;
        if let Some(problem) =
            expected.problem(record.seed, &record.seats, record.budgets, old_schema)
        {
            anyhow::bail!("{problem}");
        }
        // A tournament's matches play the setup their seed draws.
        let drawn = engine::Setup::from_seed(record.seed);
        anyhow::ensure!(
            record.first_player == drawn.first_player.0
                && record.monument_order == drawn.monument_order,
            "its record has first player {} and monuments {:?}, the seed draws {} and {:?}",
            record.first_player,
            record.monument_order,
            drawn.first_player.0,
            drawn.monument_order
        );
        // With its full log, if it was played with one: every request made again.
        let mut log = match &record.full_log {
            Some(name) => {
                Some(crate::full_log::Reader::beside(&path, name).map_err(anyhow::Error::msg)?)
            }
            None => None,
        };
        crate::replay::replay_logged(&record, log.as_mut())
            .map_err(|e| anyhow::anyhow!("its record does not replay: {e}"))?;
        let run = Seats {
            full_log: record.full_log.as_ref().map(|_| {
                record
                    .full_log_cap
                    .unwrap_or(crate::full_log::DEFAULT_CAP_MIB)
            }),
            ..expected.run.clone()
        };
        let command = plan(&run).reproduce_command();
        Ok(Played {
            row: row_of(&record, command.render()),
            first_player: record.first_player,
            command,
        })
    }

    fn replay_page(&self, dir: &Path) -> anyhow::Result<String> {
        let record = MatchRecord::load(&dir.join("record.json"))?;
        crate::view::html::replay_page_in(&record, Some(dir))
    }

    /// Each fault on the step of the timeline the page shows it on (`Timeline::build`).
    fn fault_steps(&self, dir: &Path) -> anyhow::Result<Vec<FaultStep>> {
        let record = MatchRecord::load(&dir.join("record.json"))?;
        let timeline = crate::view::Timeline::build(&record)?;
        Ok(timeline
            .steps
            .iter()
            .enumerate()
            .flat_map(|(i, step)| {
                step.faults.iter().map(move |f| FaultStep {
                    seat: f.seat,
                    // Numbered from 1, as the page's URL and `referee show --step` are.
                    step: i + 1,
                    kind: f.kind.clone(),
                    message: f.message.clone(),
                })
            })
            .collect())
    }
}
