//! The Amazons' built-in players (`referee --game amazons bot NAME`) as champions: the
//! champion's side of `protocol-amazons.md` on stdin and stdout, a move in each `jouer`.

use super::amazons_wire::{board_from_etat, deplacer_line};
use amazons::bots::{Player, NAMES};
use amazons::Color;
use std::io::{BufRead, Write};

/// Plays the built-in player `name` over the protocol on stdin and stdout, its randomness
/// from `PROLOGIN_SEED`.
pub fn serve(name: &str) -> anyhow::Result<()> {
    let seed = std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut player = Player::by_name(name, seed).ok_or_else(|| {
        anyhow::anyhow!(
            "no built-in Amazons champion `{name}`; try: {}",
            NAMES.join(", ")
        )
    })?;
    let mut protocol = Protocol {
        input: std::io::stdin().lock().lines(),
        out: std::io::stdout().lock(),
    };
    protocol.serve(&mut player)?;
    Ok(())
}

/// The champion's side of the protocol, on stdin and stdout.
struct Protocol {
    input: std::io::Lines<std::io::StdinLock<'static>>,
    out: std::io::StdoutLock<'static>,
}

impl Protocol {
    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn ask(&mut self, line: &str) -> std::io::Result<String> {
        self.say(line)?;
        self.input
            .next()
            .transpose()?
            .ok_or_else(|| std::io::Error::other("the referee closed the protocol"))
    }

    /// Every callback until the end of input: a move in each `jouer`, then `fin`.
    fn serve(&mut self, player: &mut Player) -> std::io::Result<()> {
        while let Some(callback) = self.input.next().transpose()? {
            if callback.trim() == "jouer" {
                let me = if self.ask("couleur")? == "1" {
                    Color::Black
                } else {
                    Color::White
                };
                let etat = self.ask("etat")?;
                if let Some(m) = player.choose(&board_from_etat(&etat, me)) {
                    self.ask(&deplacer_line(m))?;
                }
            }
            self.say("fin")?;
        }
        Ok(())
    }
}
