//! `referee replay`: check a record against the engine.

use super::{Failure, EXIT_MISMATCH, EXIT_USAGE};
use crate::cli::ReplayArgs;
use crate::record::MatchRecord;
use anyhow::anyhow;

pub fn run(args: ReplayArgs) -> Result<(), Failure> {
    let record = MatchRecord::load(&args.record).map_err(|error| Failure {
        code: EXIT_USAGE,
        error,
    })?;
    match crate::replay::replay(&record) {
        Ok(report) => {
            println!(
                "replay ok: {} callbacks, {} requests, final digest {} matches the record",
                report.callbacks, report.requests, report.digest
            );
            Ok(())
        }
        Err(message) => Err(Failure {
            code: EXIT_MISMATCH,
            error: anyhow!("replay differs from {}: {message}", args.record.display()),
        }),
    }
}
