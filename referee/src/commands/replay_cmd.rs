//! `referee replay`: check a record against the engine.

use super::{Failure, EXIT_MISMATCH, EXIT_USAGE};
use crate::cli::ReplayArgs;
use crate::full_log;
use crate::record::MatchRecord;
use anyhow::anyhow;
use std::path::Path;

pub fn run(args: ReplayArgs) -> Result<(), Failure> {
    let record = MatchRecord::load(&args.record).map_err(super::record_failure)?;
    let mut log = match &record.full_log {
        None => None,
        Some(name) => Some(open_log(&args.record, name).map_err(|e| Failure {
            code: EXIT_USAGE,
            error: anyhow!("{e}"),
        })?),
    };
    match crate::replay::replay_logged(&record, log.as_mut()) {
        Ok(report) => {
            println!(
                "replay ok: {} callbacks, {} requests{}, final digest {} matches the record",
                report.callbacks,
                report.requests,
                if log.is_some() {
                    " (every one made again from the full log)"
                } else {
                    ""
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

/// The full log `name` that the record at `record` names: a file beside it.
fn open_log(record: &Path, name: &str) -> Result<full_log::Reader, String> {
    if name.contains('/') || name == ".." || name.is_empty() {
        return Err(format!(
            "{} names its full log `{}`, which is not a file name beside it",
            record.display(),
            crate::untrusted::printable(name)
        ));
    }
    let path = record.parent().unwrap_or(Path::new(".")).join(name);
    full_log::Reader::open(&path).map_err(|e| {
        format!("{e}; the record was played with --full-log, and its log must stay beside it")
    })
}
