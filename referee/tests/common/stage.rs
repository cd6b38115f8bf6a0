//! The stage where the documents' commands run as typed: a fresh folder that looks like the
//! repository's root (every top-level entry linked, but a `results/` of its own), whose
//! `target/release/referee` and whose `bin/referee` (first on PATH) are the debug referee
//! under test, with a `home/` of its own as `HOME` (so `~/mychamp` is outside the
//! repository) and `EDITOR=touch` (an "edit" that makes `make` rebuild). Also the documents'
//! ```sh blocks, and the commands of theirs that no test runs ([`NOT_RUN`], with why).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Commands (as they start) that the test does not run, and why.
pub const NOT_RUN: [(&str, &str); 7] = [
    (
        "cargo build --release",
        "a release build takes minutes: the stage's target/release/referee is the debug \
         referee under test",
    ),
    (
        "scripts/demo.sh",
        "builds the referee in release (minutes); the tournament it runs is the README's \
         `Run a tournament` block with other flags, which runs",
    ),
    (
        "scripts/test.sh",
        "the whole test suite, this test included (CI runs it)",
    ),
    (
        "cp champions/rust/src/bin/template.rs",
        "the Rust recipe writes into the repository's Rust kit and builds it in release; \
         the kit's binaries are played by tests/kits/kits.rs",
    ),
    ("$EDITOR champions/rust/", "the Rust recipe (above)"),
    (
        "referee match target/release/mine",
        "the Rust recipe (above)",
    ),
    (
        "REFEREE_SERVER=server.example:",
        "a kit connected to a server elsewhere: the README's `Play on a game server` block \
         starts a server and connects the Amazons C kit's sample to it, which runs",
    ),
];

/// Placeholders of the documents and what stands for them: `<dir>` is a match played by
/// an earlier block (the README's first match, seed 42).
pub const PLACEHOLDERS: [(&str, &str); 1] = [("<dir>", "42-mychamp-random-greedy")];

/// The ```sh blocks of `text`, continuation lines joined.
pub fn sh_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```sh\n") {
        let body = &rest[start + 6..];
        let end = body.find("```").expect("a closed block");
        blocks.push(body[..end].replace("\\\n", " "));
        rest = &body[end + 3..];
    }
    blocks
}

/// The block's commands as a script, without those of [`NOT_RUN`] (counted in `seen`).
pub fn runnable(block: &str, seen: &mut [bool]) -> String {
    let mut script = String::new();
    for line in block.lines() {
        match NOT_RUN.iter().position(|(cmd, _)| line.starts_with(cmd)) {
            Some(i) => {
                seen[i] = true;
                eprintln!("NOT RUN: {line}\n  because: {}", NOT_RUN[i].1);
            }
            None => {
                let mut line = line.to_string();
                for (placeholder, value) in PLACEHOLDERS {
                    line = line.replace(placeholder, value);
                }
                script.push_str(&line);
                script.push('\n');
            }
        }
    }
    script
}

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("referee/ sits in the repository")
        .to_path_buf()
}

/// A stage: its folder (the working directory of the commands).
pub struct Stage {
    pub root: PathBuf,
    /// Whether `bin/` (the referee as `referee`) is first on PATH.
    on_path: bool,
}

impl Stage {
    /// A stage with `referee` on PATH (what champions/README.md assumes).
    pub fn new(name: &str) -> Stage {
        Stage {
            on_path: true,
            ..Stage::without_referee_on_path(name)
        }
    }

    /// A stage where only `target/release/referee` is the referee (a fresh clone's).
    pub fn without_referee_on_path(name: &str) -> Stage {
        let root = super::fresh_dir("docs", name);
        for entry in std::fs::read_dir(repo()).unwrap().flatten() {
            let name = entry.file_name();
            if ["results", "target", ".git"].contains(&name.to_str().unwrap_or("")) {
                continue;
            }
            std::os::unix::fs::symlink(entry.path(), root.join(&name)).unwrap();
        }
        let referee = Path::new(env!("CARGO_BIN_EXE_referee"));
        for dir in ["results", "home", "bin", "target/release"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        std::os::unix::fs::symlink(referee, root.join("target/release/referee")).unwrap();
        std::os::unix::fs::symlink(referee, root.join("bin/referee")).unwrap();
        Stage {
            root,
            on_path: false,
        }
    }

    /// `HOME` of the commands.
    pub fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    /// Runs `script` with `bash -euo pipefail` (and `-x`: the output shows each command) in
    /// the stage, without the caller's `PROLOGIN_KITS` (the documents' own `export` counts).
    pub fn run(&self, script: &str) -> Output {
        let mut path = std::env::var("PATH").unwrap_or_default();
        if self.on_path {
            path = format!("{}:{path}", self.root.join("bin").display());
        }
        // Cargo and rustup keep finding their homes under the real HOME.
        let real_home = std::env::var("HOME").unwrap_or_default();
        let home_of = |var: &str, dir: &str| {
            std::env::var(var).unwrap_or_else(|_| format!("{real_home}/{dir}"))
        };
        Command::new("bash")
            .args(["-euxo", "pipefail", "-c", script])
            .env("CARGO_HOME", home_of("CARGO_HOME", ".cargo"))
            .env("RUSTUP_HOME", home_of("RUSTUP_HOME", ".rustup"))
            .current_dir(&self.root)
            .env("HOME", self.home())
            .env("PATH", path)
            .env("EDITOR", "touch")
            .env("PS4", "+ $(date +%T.%N) ")
            .env_remove("PROLOGIN_KITS")
            .output()
            .expect("bash runs")
    }
}

/// What a command said, stdout then stderr.
pub fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}
