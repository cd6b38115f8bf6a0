//! Rows put back from their matches' seals before a resume reads `matches.csv`: a row
//! dropped from the file (or not yet appended when the referee was killed, between the seal
//! and the row) comes back, so that a match played is never played again for another result.

use super::RunKey;
use crate::store::{self, Appender};
use std::collections::HashSet;
use std::path::Path;

/// Appends to `csv` (of a game of `seats` seats) the row of every match sealed under `key`
/// in `root/matches/` that `csv` lacks, its seal checked first. Returns their ids, in order.
pub fn restore_rows(
    csv: &Path,
    root: &Path,
    seats: usize,
    key: &RunKey,
) -> anyhow::Result<Vec<u64>> {
    let mut present = HashSet::new();
    let complete_len = match csv.exists() {
        true => Some(store::read_rows(csv, seats, |(row, _), _, _| {
            present.insert(row.id);
            Ok(())
        })?),
        false => None,
    };
    let matches = crate::tournament::Runner::match_dir(root, 0);
    let matches = matches.parent().unwrap_or(root);
    let Ok(entries) = std::fs::read_dir(matches) else {
        return Ok(Vec::new());
    };
    let mut missing: Vec<u64> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u64>().ok())
        .filter(|id| !present.contains(id))
        .collect();
    missing.sort_unstable();
    let mut rows = Vec::new();
    for id in missing {
        if let Some(seal) = key.seal(&crate::tournament::Runner::match_dir(root, id), id)? {
            rows.push((id, seal.row));
        }
    }
    if !rows.is_empty() {
        let mut appender = Appender::open(csv, seats, complete_len)?;
        for (_, row) in &rows {
            appender.append(row)?;
        }
    }
    Ok(rows.into_iter().map(|(id, _)| id).collect())
}
