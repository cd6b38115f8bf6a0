//! `referee replay`: check a record against the engine.

use super::{Failure, EXIT_MISMATCH, EXIT_USAGE};
use crate::cli::ReplayArgs;
use crate::full_log;
use crate::record::MatchRecord;
use anyhow::anyhow;

pub fn run(args: ReplayArgs) -> Result<(), Failure> {
    let record = MatchRecord::load(&args.record).map_err(super::record_failure)?;
    let mut log = match &record.full_log {
        None => None,
        Some(name) => Some(
            full_log::Reader::beside(&args.record, name).map_err(|e| Failure {
                code: EXIT_USAGE,
                error: anyhow!("{e} (the match was played with --full-log)"),
            })?,
        ),
    };
    let replayed = crate::replay_checks::seat_seeds(record.seed, &record.seats)
        .and_then(|()| crate::replay::replay_logged(&record, log.as_mut()));
    match replayed {
        Ok(report) => {
            println!(
                "replay ok: {} callbacks, {} requests{}, final digest {} matches the record",
                report.callbacks,
                report.requests,
                match (&log, record.full_log_cut) {
                    (None, _) => String::new(),
                    (Some(_), None) => " (every one made again from the full log)".to_string(),
                    (Some(_), Some(cut)) => format!(
                        " (made again from the full log up to callback #{}, after {} of its \
                         requests, where it reached its cap; the actions alone from there)",
                        cut.callback, cut.requests
                    ),
                },
                report.digest
            );
            Ok(())
        }
        Err(message) => Err(Failure {
            code: EXIT_MISMATCH,
            error: anyhow!("replay differs from {}: {message}", args.record.display()),
        }),
    }
}
