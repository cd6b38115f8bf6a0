//! `REFEREE_REPRODUCE_LOG`: when this variable names a file, every match played appends one
//! JSON line to it: the working directory, the match's reproduce command, and its record
//! (and where it was written). The test suite sets it, then plays every line again and compares the records
//! (`scripts/test.sh`, `referee/examples/reproduce_suite.rs`): every reproduce command the
//! referee prints must play the same match.

use std::io::Write;
use std::path::Path;

/// The variable.
pub const VARIABLE: &str = "REFEREE_REPRODUCE_LOG";

/// One line of the log.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub cwd: String,
    pub command: String,
    /// Where the record was written.
    pub path: String,
    /// The record, of either game (an Amazons record says `"game": "amazons"`).
    pub record: serde_json::Value,
}

/// Appends `command` and `record` to the log, if the variable is set. Best effort: a log
/// that cannot be written is said on stderr and changes nothing else.
pub fn note(command: &str, path: &Path, record: &impl serde::Serialize) {
    let Some(log) = std::env::var_os(VARIABLE) else {
        return;
    };
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let entry = Entry {
        cwd: absolute(Path::new(".")).display().to_string(),
        command: command.to_string(),
        path: absolute(path).display().to_string(),
        record: serde_json::to_value(record).expect("a record serialises"),
    };
    let mut line = serde_json::to_vec(&entry).expect("plain strings");
    line.push(b'\n');
    // One write with O_APPEND: lines of parallel matches do not interleave.
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut file| file.write_all(&line));
    if let Err(e) = written {
        eprintln!(
            "{VARIABLE}: cannot append to {}: {e}",
            Path::new(&log).display()
        );
    }
}
