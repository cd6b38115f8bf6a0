//! "La loi du plus riche" (2009)'s parts for the runner on the model ([`Parts`]): rule 26's
//! points, the built-in `random` and `greedy`, a person's seat, what its rows must say, the
//! seat that opens Phase I, its records of before (`loi_v4.rs`), and its views
//! (`view/loi_arena.rs`: the replay page, `match`'s table, `show` by step, turn and phase).

use super::loi_wire::LoiWire;
use super::model::{At, ModelGame, Pages, Parts};
use crate::human::Driver;
use crate::standings::{MatchRow, PointsTable, RULE_26};
use arena::GameRecord;
use arena::NoStep;
use engine::model::{Action, Loi, LoiState};
use game::{Game as _, State as _, Step};
use std::path::Path;

/// The 2009 game, for the runner, on the model.
pub static LOI: ModelGame<LoiWire> = ModelGame::new(
    &LoiWire,
    Pages {
        page: crate::view::loi_arena::page,
        live: Some(crate::view::loi_arena::live),
    },
    &crate::cli::words::REFEREE,
);

/// The seat that opens Phase I of turn 1 in a match of `seed` with `options`.
fn opener(seed: u64, options: &game::Options) -> u8 {
    match options.get("first-player").parse() {
        Ok(seat) => seat,
        Err(_) => engine::Setup::from_seed(seed).first_player.0,
    }
}

/// Applies `step` of a 2009 record to `state`.
pub fn apply(state: &mut LoiState, step: &Step) -> Result<(), String> {
    match step {
        Step::Chance(drawn) => state.chance(drawn),
        Step::Retire(seat) => {
            state.retire(*seat);
            Ok(())
        }
        Step::Act { seat, action, .. } => {
            let action: Action = action.parse()?;
            // A refused action changes nothing, as in the match.
            let _ = state.act(*seat, &action);
            Ok(())
        }
    }
}

/// The state at the end of `record` (a checked 2009 record).
pub fn final_state(record: &GameRecord) -> Result<LoiState, String> {
    let mut state = Loi.start(record.seats.len(), &record.options)?;
    for step in record.history() {
        apply(&mut state, step)?;
    }
    Ok(state)
}

impl Parts for LoiWire {
    fn kits(&self) -> Option<arena::model::KitFolder> {
        Some(arena::model::KitFolder {
            folder: "champions",
            prefix: "",
        })
    }
    fn points(&self) -> PointsTable {
        RULE_26
    }

    fn builtins(&self) -> &'static [&'static str] {
        &engine::bots::NAMES
    }

    fn human(&self) -> Option<Box<dyn Driver>> {
        Some(Box::new(crate::human::loi::Loi::new()))
    }

    /// Each seat's score, money, houses, points and faults.
    fn result_table(&self, record: &GameRecord) -> Option<String> {
        Some(crate::view::loi_arena::summary(record))
    }

    /// A tournament's match opens with the seat its seed draws (its setup is drawn).
    fn check_row(&self, row: &MatchRow, first_player: u8) -> Result<(), String> {
        let drawn = engine::Setup::from_seed(row.seed).first_player.0;
        match first_player == drawn {
            true => Ok(()),
            false => Err(format!(
                "first_player is {first_player}, but seed {} draws seat {drawn} to open Phase I",
                row.seed
            )),
        }
    }

    /// Not the first seat to act (every seat plays `init_game`), but the one that opens
    /// Phase I of turn 1 (rule 11).
    fn first_player(&self, record: &GameRecord) -> u8 {
        opener(record.seed, &record.options)
    }

    fn legacy(
        &self,
        schema: Option<u64>,
        text: &str,
        path: &Path,
    ) -> Option<Result<GameRecord, String>> {
        super::loi_v4::legacy(schema, text, path)
    }

    /// The engine's digest of the final state, as the 2009 rows always had it (so that the
    /// rows of tournaments played before still resume and merge).
    fn row_digest(&self, record: &GameRecord) -> String {
        final_state(record).map_or_else(|e| format!("({e})"), |s| format!("{:016x}", s.digest()))
    }

    fn short_title(&self) -> &'static str {
        "La loi du plus riche"
    }

    /// The callback, turn and phase, and the refused calls of that callback.
    fn fault_place(
        &self,
        record: &GameRecord,
        fault: &arena::GameFault,
    ) -> Option<super::model::FaultPlace> {
        crate::view::loi_arena::fault_place(record, fault)
    }

    fn no_winner(&self) -> &'static str {
        "every champion faulted"
    }

    /// Each fault on the step of the 2009 page that shows it (numbered from 1, as the page's
    /// URL and `show --step` are).
    fn fault_steps(&self, record: &GameRecord) -> Vec<super::FaultStep> {
        let Ok(timeline) = crate::view::loi_arena::timeline(record) else {
            return Vec::new();
        };
        timeline
            .steps
            .iter()
            .enumerate()
            .flat_map(|(i, step)| {
                step.faults.iter().map(move |f| super::FaultStep {
                    seat: f.seat,
                    step: i + 1,
                    kind: f.kind.clone(),
                    message: f.message.clone(),
                })
            })
            .collect()
    }

    /// The board at the end of the callback where the `step`-th action was taken.
    fn show(&self, record: &GameRecord, step: usize) -> String {
        let shown = || -> anyhow::Result<String> {
            let timeline = crate::view::loi_arena::timeline(record)?;
            let callback = record
                .callback_steps()
                .iter()
                .position(|&done| done >= step)
                .unwrap_or(record.callbacks.len().saturating_sub(1));
            let index = timeline
                .steps
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == crate::view::timeline::StepKind::Callback)
                .nth(callback)
                .map_or(timeline.steps.len().saturating_sub(1), |(i, _)| i);
            Ok(crate::view::terminal::render(&timeline, index, false))
        };
        shown().unwrap_or_else(|e| format!("cannot show this match: {e:#}\n"))
    }

    /// A step of the timeline (each callback and each phase's end), or the end of a turn
    /// or phase: the board, then the console of the step's callbacks.
    fn shown(&self, record: &GameRecord, dir: Option<&Path>, at: &At) -> Result<String, NoStep> {
        let timeline = crate::view::loi_arena::timeline(record).map_err(|e| format!("{e:#}"))?;
        let index = crate::view::loi_arena::select(&timeline, at.step, at.turn, at.phase)?;
        crate::view::loi_arena::show(record, dir, index, at.colour)
            .map_err(|e| NoStep::Other(format!("{e:#}")))
    }

    /// `random` or `greedy` over protocol.md, seeded by `PROLOGIN_SEED`.
    fn bot(&self, name: &str) -> anyhow::Result<()> {
        let seed = std::env::var("PROLOGIN_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let Some(mut bot) = engine::bots::by_name(name, seed) else {
            anyhow::bail!(
                "no built-in champion `{name}`; try: {}",
                engine::bots::NAMES.join(", ")
            );
        };
        match loi_protocol::run_asking(bot.as_mut()) == std::process::ExitCode::SUCCESS {
            true => Ok(()),
            // The kit has said what went wrong on stderr.
            false => anyhow::bail!("the built-in champion `{name}` stopped"),
        }
    }
}
