//! `referee show`: a match at one point, as text on the terminal.
//!
//! "At turn T phase P" means right after phase P of turn T has ended: after the three
//! `jouer` of Phase I (the monument of Phase II is drawn), after the auction of Phase II is
//! resolved (sales applied, bids known, winner paid), after the placement of Phase III.
//! `--turn T` alone is the end of turn T (its Phase III, or Phase I on turn 15);
//! `--turn 0` is the start (after `init_game`); no option is the end of the match.
//!
//! After the board, the console of the step: what each champion wrote on stderr in the
//! step's callbacks (the end of a phase shows the phase's callbacks), read from the
//! `seat<N>.stderr` files beside the record, and each callback's time against its budget.

use super::Failure;
use crate::cli::ShowArgs;
use crate::record::MatchRecord;
use crate::view::console::Console;
use crate::view::{console_text, terminal, Timeline};
use anyhow::anyhow;

pub fn run(args: ShowArgs) -> Result<(), Failure> {
    let path = if args.record.is_dir() {
        args.record.join("record.json")
    } else {
        args.record.clone()
    };
    let record = MatchRecord::load(&path).map_err(super::record_failure)?;
    let timeline = Timeline::build(&record).map_err(|e| Failure {
        code: super::EXIT_MISMATCH,
        error: e.context(format!("cannot show {}", path.display())),
    })?;
    let index = select(&timeline, &args).map_err(|e| Failure::usage(anyhow!(e)))?;
    print!("{}", terminal::render(&timeline, index, args.color.is_on()));
    let console = Console::load(&record, path.parent());
    print!("{}", console_text::render(&console, &timeline, index));
    Ok(())
}

/// The step `args` asks for (clap checked each flag's range and combination; what is
/// left depends on the record).
pub fn select(timeline: &Timeline, args: &ShowArgs) -> Result<usize, String> {
    let last = timeline.steps.len() - 1;
    if let Some(step) = args.step {
        return match usize::try_from(step) {
            Ok(step) if (1..=last + 1).contains(&step) => Ok(step - 1),
            _ => Err(format!("--step must be in 1..={}, got {step}", last + 1)),
        };
    }
    match (args.turn, args.phase) {
        (None, _) => Ok(last),
        (Some(0), None) => timeline
            .stage_end(1, 0)
            .ok_or_else(|| "this match has no start step".into()),
        (Some(0), Some(_)) => Err("--turn 0 is the start and has no phase".into()),
        (Some(15), Some(phase)) if phase != 1 => Err(format!(
            "--phase on turn 15 must be 1 (the last turn has one phase), got {phase}"
        )),
        (Some(turn), phase) => {
            let phase = phase.unwrap_or(if turn == 15 { 1 } else { 3 });
            timeline.stage_end(turn, phase).ok_or_else(|| {
                format!("turn {turn} phase {phase} is not in this record (it stopped early?)")
            })
        }
    }
}
