//! `REFEREE_REPRODUCE_LOG`: when this variable names a file, every match played appends one
//! JSON line to it: the working directory, the match's reproduce command (its argument list
//! and the variables that reach champions), and its record (and where it was written). The
//! test suite sets it, then plays every line again and compares the records
//! (`scripts/test.sh`, `referee/examples/reproduce_suite.rs`): every reproduce command the
//! referee prints must play the same match. A line written before commands were lists
//! holds the command as shell text: it reads as the list `shell-words` splits it into.

use crate::command_line::CommandLine;
use std::io::Write;
use std::path::Path;

/// The variable.
pub const VARIABLE: &str = "REFEREE_REPRODUCE_LOG";

/// One line of the log.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub cwd: String,
    #[serde(deserialize_with = "list_or_text")]
    pub command: CommandLine,
    /// Where the record was written.
    pub path: String,
    /// The record, of either game (an Amazons record says `"game": "amazons"`).
    pub record: serde_json::Value,
}

/// A command as a list, or as the text a line written before lists holds.
fn list_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<CommandLine, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Either {
        List(CommandLine),
        Text(String),
    }
    match Either::deserialize(d)? {
        Either::List(list) => Ok(list),
        Either::Text(text) => CommandLine::read(&text).map_err(serde::de::Error::custom),
    }
}

use serde::Deserialize as _;

/// Appends `command` and `record` to the log, if the variable is set. Best effort: a log
/// that cannot be written is said on stderr and changes nothing else.
pub fn note(command: &CommandLine, path: &Path, record: &impl serde::Serialize) {
    let Some(log) = std::env::var_os(VARIABLE) else {
        return;
    };
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let entry = Entry {
        cwd: absolute(Path::new(".")).display().to_string(),
        command: command.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of today holds the list; one written before, the text, read as its list.
    #[test]
    fn a_line_holds_a_list_and_one_written_before_reads_as_its_list() {
        let command = CommandLine {
            env: vec![("PROLOGIN_PYTHON".into(), "/opt/py".into())],
            args: ["referee", "match", "a b", "--seed", "1"]
                .map(String::from)
                .to_vec(),
        };
        let entry = Entry {
            cwd: "/".into(),
            command: command.clone(),
            path: "r".into(),
            record: serde_json::Value::Null,
        };
        let line = serde_json::to_string(&entry).unwrap();
        assert!(
            line.contains(r#""args":["referee","match","a b","--seed","1"]"#),
            "{line}"
        );
        let back: Entry = serde_json::from_str(&line).unwrap();
        assert_eq!(back.command, command);
        let before = r#"{"cwd":"/","command":"PROLOGIN_PYTHON=/opt/py referee match 'a b' --seed 1","path":"r","record":null}"#;
        let back: Entry = serde_json::from_str(before).unwrap();
        assert_eq!(back.command, command);
    }
}
