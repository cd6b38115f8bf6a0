//! The seam between the match runner and a game: what the runner asks of a game's rules
//! while it drives the champions (`match_loop.rs`), so that the runner's loop, its faults,
//! budgets and request cap know no game. The 2009 game is behind it in `game.rs`.

use crate::endpoint::{CallLimits, CallTiming};
use crate::fault::Fault;

/// What a game answers to one line of a champion during its callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The answer line to send.
    Answer(String),
    /// The line ended the callback (`fin`).
    End,
}

/// One callback of the match: its name (the line the champions receive), its time
/// allowance, and the seats that play it, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub name: &'static str,
    pub limits: CallLimits,
    pub seats: Vec<usize>,
}

/// A game's side of one match, driven by `match_loop::run`.
pub trait Rules {
    /// The callback to play now, or `None` when the match is over.
    fn next_step(&mut self) -> Option<Step>;
    /// `seat` starts the current callback.
    fn begin(&mut self, seat: usize);
    /// One line of `seat` during its callback: the reply, or a protocol fault's message.
    fn request(&mut self, seat: usize, line: &str) -> Result<Reply, String>;
    /// The callback of `seat` is over: `fault` if it stopped the seat, and what it cost.
    fn end(&mut self, seat: usize, fault: Option<&Fault>, timing: CallTiming);
    /// Every seat of the current step has played.
    fn advance(&mut self);
    /// `seat` stopped before the match started (its champion could not start).
    fn spawn_fault(&mut self, seat: usize, fault: &Fault);
    /// `seat` wrote `line` after its last callback (a protocol fault that changes no
    /// result).
    fn late_output(&mut self, seat: usize, line: &str);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The match runner's core: the loop, the champions' processes and jails, budgets,
    /// faults, the full log. None of it may name a game (issue 13; ARCHITECTURE.md).
    const CORE: [&str; 14] = [
        "match_loop.rs",
        "rules.rs",
        "endpoint.rs",
        "process_endpoint.rs",
        "human/endpoint.rs",
        "fault.rs",
        "full_log.rs",
        "interrupt.rs",
        "affinity.rs",
        "seeds.rs",
        "untrusted.rs",
        "champion",
        "jail",
        "sandbox",
    ];

    /// What names a game: the 2009 engine and kit crates, and the referee's modules of the
    /// 2009 game.
    const GAME: [&str; 7] = [
        "engine::",
        "prologin::",
        "amazons::",
        "crate::game",
        "crate::protocol",
        "crate::record",
        "crate::replay",
    ];

    #[test]
    fn the_core_names_no_game() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        for name in CORE {
            let path = src.join(name);
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap() {
                    files.push(entry.unwrap().path());
                }
            } else {
                files.push(path);
            }
        }
        let mut found = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            // Up to the unit tests, which may use a game to test the core.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (n, line) in code.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if let Some(name) = GAME.iter().find(|g| code.contains(*g)) {
                    found.push(format!("{}:{}: {name}: {line}", file.display(), n + 1));
                }
            }
        }
        assert!(
            files.len() > CORE.len(),
            "the core's files were read: {files:?}"
        );
        assert!(
            found.is_empty(),
            "the core names a game:\n{}",
            found.join("\n")
        );
    }
}
