//! The champion's side of a line protocol, on stdin and stdout, for the built-in players
//! of every game (`referee --game G bot NAME`): callbacks read, questions asked, lines said.

use std::io::{BufRead, Write};

/// A built-in player's connection to the referee: its stdin and stdout.
pub struct Client {
    input: std::io::Lines<std::io::StdinLock<'static>>,
    out: std::io::StdoutLock<'static>,
}

impl Client {
    /// The process's stdin and stdout.
    pub fn stdio() -> Client {
        Client {
            input: std::io::stdin().lock().lines(),
            out: std::io::stdout().lock(),
        }
    }

    /// The next callback the referee calls, `None` at the end of input.
    pub fn callback(&mut self) -> std::io::Result<Option<String>> {
        self.input.next().transpose()
    }

    /// Writes `line`.
    pub fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Writes `line` and reads the referee's answer.
    pub fn ask(&mut self, line: &str) -> std::io::Result<String> {
        self.say(line)?;
        self.input
            .next()
            .transpose()?
            .ok_or_else(|| std::io::Error::other("the referee closed the protocol"))
    }
}

/// The seat's seed (`PROLOGIN_SEED`; 0 when absent), the built-in player's randomness.
pub fn seat_seed() -> u64 {
    std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The error for a built-in player `name` that `game` does not have, naming those it has.
pub fn unknown(game: &str, name: &str, names: &[&str]) -> anyhow::Error {
    anyhow::anyhow!(
        "no built-in {game} champion `{name}`; try: {}",
        names.join(", ")
    )
}
