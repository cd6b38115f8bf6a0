//! The layers the compiler does not keep (tests only). The crate `arena` (the match loop,
//! records, tournaments and gauntlets, the pre-run check, the seating of champions, the
//! human seat's endpoint, results, the `Game` seam) and the crate `jail` depend on no game:
//! a module of theirs that names one does not compile. What is left to check is in this crate, or in a manifest: the commands
//! that run and merge tournaments still know a game only through the arena's `Game` seam,
//! the arena's manifest names no game's crate, and the referee depends on no champion kit.

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The runner around a match still in this crate: the commands that run and merge
    /// tournaments and gauntlets (they name flags, so they stay with the command line). They
    /// know a game only through the arena's `Game` seam (issue 13; ARCHITECTURE.md).
    const RUNNER: [&str; 3] = [
        "commands/gauntlet",
        "commands/tournament",
        "commands/merge.rs",
    ];

    /// What names a game: the engines and the kit crate, and the referee's modules of
    /// each game (the registry, `games::by_name`, is how a command finds the seam, and
    /// allowed).
    const GAME: [&str; 13] = [
        "engine::",
        "amazons_arena::",
        "prologin::",
        "loi_protocol::",
        "amazons::",
        "ticket::",
        "town::",
        "crate::games::loi",
        "crate::games::amazons",
        "crate::games::ticket",
        "crate::protocol",
        "crate::record",
        "crate::replay",
    ];

    /// The crates of games and of a game's protocol, which the arena and the replay page's
    /// frame may not depend on.
    const GAME_CRATES: [&str; 8] = [
        "engine",
        "amazons",
        "amazons_arena",
        "ticket",
        "ticket_arena",
        "town",
        "town_arena",
        "loi_protocol",
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

    /// The lines of a manifest's `[name]` section that set something.
    fn section(text: &str, name: &str) -> Vec<String> {
        let Some(start) = text.find(&format!("[{name}]")) else {
            return Vec::new();
        };
        text[start..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with('['))
            .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
            .map(String::from)
            .collect()
    }

    /// The crate a dependency line names (`jail.workspace = true`, `nix = { ... }`).
    fn crate_of(line: &str) -> &str {
        line.split(['=', '.']).next().unwrap().trim()
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

    /// The compiler keeps the arena and the replay page's frame (`view`, which every game's
    /// page is drawn on) from naming a game only while their manifests list none: no
    /// dependency of theirs, for their code or their tests, is a game's crate.
    #[test]
    fn the_arena_and_the_frame_depend_on_no_game() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (folder, one_of_its) in [("arena", "game"), ("view", "arena")] {
            let manifest = std::fs::read_to_string(root.join(folder).join("Cargo.toml")).unwrap();
            let mut lines = section(&manifest, "dependencies");
            assert!(
                lines.iter().any(|l| crate_of(l) == one_of_its),
                "{folder}'s dependencies were read: {lines:?}"
            );
            lines.extend(section(&manifest, "dev-dependencies"));
            lines.extend(section(&manifest, "build-dependencies"));
            for line in &lines {
                assert!(
                    !GAME_CRATES.contains(&crate_of(line)),
                    "{folder} depends on a game: {line}"
                );
            }
        }
    }

    /// The referee depends on no champion kit (issue 13): none of its dependencies is a
    /// crate under `champions/` (it shares protocol.md's Rust end with the kit through the
    /// `loi_protocol` crate instead).
    #[test]
    fn the_referee_depends_on_no_kit() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let workspace = std::fs::read_to_string(root.join("../Cargo.toml")).unwrap();
        let kits: Vec<String> = section(&workspace, "workspace.dependencies")
            .into_iter()
            .filter(|l| l.contains("\"champions/"))
            .map(|l| crate_of(&l).to_string())
            .collect();
        assert!(kits.contains(&"prologin".to_string()), "{kits:?}");
        for line in section(&manifest, "dependencies") {
            let name = crate_of(&line);
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
