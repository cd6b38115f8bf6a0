//! The seam between the match runner and a game: what the runner asks of a game's rules
//! while it drives the champions (`match_loop.rs`), so that the runner's loop, its faults,
//! budgets and request cap know no game. Every game is behind it in `arena/machine.rs`.

use crate::endpoint::{CallLimits, CallTiming};
use jail::fault::Fault;

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
    /// `seat` worked after its last callback (the check before the result is fixed):
    /// `fault` places it as a fault in its last callback would.
    fn late_fault(&mut self, seat: usize, fault: &Fault);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The match runner's core: the loop, the endpoints, the full log. None of it may name
    /// a game (issue 13; ARCHITECTURE.md). (The champions' processes and jails, budgets and
    /// faults are the `jail` crate, which depends on no game: the compiler keeps it so.)
    const CORE: [&str; 8] = [
        "arena",
        "match_loop.rs",
        "rules.rs",
        "endpoint.rs",
        "process_endpoint.rs",
        "human/endpoint.rs",
        "full_log.rs",
        "seeds.rs",
    ];

    /// The runner around a match: tournaments, their pre-run check, schedule, store,
    /// standings and CSV files, the seating of champions. They know a game only through
    /// the `games::Game` trait (issue 13; ARCHITECTURE.md).
    const RUNNER: [&str; 19] = [
        "tournament.rs",
        "gauntlet.rs",
        "commands/gauntlet",
        "confidence.rs",
        "check.rs",
        "schedule.rs",
        "store.rs",
        "standings.rs",
        "events.rs",
        "seating.rs",
        "roster.rs",
        "manifest.rs",
        "export/mod.rs",
        "export/matches_csv.rs",
        "export/leaderboard_csv.rs",
        "export/pairwise_csv.rs",
        "export/seats_csv.rs",
        "commands/tournament",
        "commands/merge.rs",
    ];

    /// What names a game: the engines and the kit crate, and the referee's modules of
    /// each game (the `games::Game` trait itself is the seam, and allowed).
    const GAME: [&str; 11] = [
        "engine::",
        "prologin::",
        "loi_protocol::",
        "amazons::",
        "ticket::",
        "crate::games::loi",
        "crate::games::amazons",
        "crate::games::ticket",
        "crate::protocol",
        "crate::record",
        "crate::replay",
    ];

    /// The lines of the files of `modules` (files, or folders) that name a game, outside
    /// their unit tests; and how many files were read.
    fn naming_a_game(modules: &[&str]) -> (Vec<String>, usize) {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        for name in modules {
            let mut stack = vec![src.join(name)];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    for entry in std::fs::read_dir(&path).unwrap() {
                        stack.push(entry.unwrap().path());
                    }
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
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
        (found, files.len())
    }

    #[test]
    fn the_core_names_no_game() {
        let (found, read) = naming_a_game(&CORE);
        assert!(read >= CORE.len(), "the core's files were read: {read}");
        assert!(
            found.is_empty(),
            "the core names a game:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn the_runner_knows_games_only_through_the_seam() {
        let (found, read) = naming_a_game(&RUNNER);
        assert!(read > RUNNER.len(), "the runner's files were read: {read}");
        assert!(
            found.is_empty(),
            "the runner names a game:\n{}",
            found.join("\n")
        );
    }

    /// The referee depends on no champion kit (issue 13): none of its dependencies is a
    /// crate under `champions/` (it shares protocol.md's Rust end with the kit through the
    /// `loi_protocol` crate instead).
    #[test]
    fn the_referee_depends_on_no_kit() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let workspace = std::fs::read_to_string(root.join("../Cargo.toml")).unwrap();
        let section = |text: &str, name: &str| -> Vec<String> {
            let start = text.find(&format!("[{name}]")).expect(name);
            text[start..]
                .lines()
                .skip(1)
                .take_while(|l| !l.starts_with('['))
                .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
                .map(String::from)
                .collect()
        };
        let kits: Vec<String> = section(&workspace, "workspace.dependencies")
            .into_iter()
            .filter(|l| l.contains("\"champions/"))
            .map(|l| l.split('=').next().unwrap().trim().to_string())
            .collect();
        assert!(kits.contains(&"prologin".to_string()), "{kits:?}");
        for line in section(&manifest, "dependencies") {
            let name = line.split(['=', '.']).next().unwrap().trim();
            assert!(
                !kits.iter().any(|k| k == name),
                "the referee depends on a kit: {line}"
            );
            assert!(
                !line.contains("champions/"),
                "the referee depends on a kit: {line}"
            );
        }
    }

    /// The check finds what it looks for: a planted line naming a game is reported.
    #[test]
    fn a_module_naming_a_game_is_found() {
        let (found, _) = naming_a_game(&["games/loi_v4.rs"]);
        assert!(
            found.iter().any(|l| l.contains("crate::record")),
            "{found:?}"
        );
        assert!(found.iter().any(|l| l.contains("engine::")), "{found:?}");
    }
}
