//! Little Town's built-in players (`referee --game little-town bot NAME`) as champions:
//! the champion's side of `protocol-little-town.md` on stdin and stdout, one action in each
//! `jouer` (`random`: drawn among the `legal` answer; `strong`: `town::bots::strong` on
//! the view the `etat` line describes).

use super::town_wire::view_from_etat;
use std::io::{BufRead, Write};
use town::bots::NAMES;
use town::Action;

/// Plays the built-in player `name` over the protocol on stdin and stdout, its randomness
/// from `PROLOGIN_SEED`.
pub fn serve(name: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        NAMES.contains(&name),
        "no built-in Little Town champion `{name}`; try: {}",
        NAMES.join(", ")
    );
    let seed = std::env::var("PROLOGIN_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut protocol = Protocol {
        input: std::io::stdin().lock().lines(),
        out: std::io::stdout().lock(),
    };
    let mut stream = draw::Stream::new(seed);
    while let Some(callback) = protocol.input.next().transpose()? {
        // An action ends `jouer` (nothing answers it); every other callback ends with `fin`.
        let action = match callback.trim() {
            "jouer" => protocol.choose(name, &mut stream)?,
            _ => None,
        };
        match action {
            Some(action) => protocol.say(&action.to_string())?,
            None => protocol.say("fin")?,
        }
    }
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

    fn ask(&mut self, line: &str) -> anyhow::Result<String> {
        self.say(line)?;
        self.input
            .next()
            .transpose()?
            .ok_or_else(|| anyhow::anyhow!("the referee closed the protocol"))
    }

    /// The action of the player `name` in its turn.
    fn choose(&mut self, name: &str, stream: &mut draw::Stream) -> anyhow::Result<Option<Action>> {
        let legal: Vec<Action> = self
            .ask("legal")?
            .split(';')
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse()
                    .map_err(|e| anyhow::anyhow!("`legal` answered `{a}`: {e}"))
            })
            .collect::<anyhow::Result<_>>()?;
        if name != "strong" {
            return Ok(stream.choose(&legal).cloned());
        }
        let etat = self.ask("etat")?;
        let view = view_from_etat(&etat)
            .ok_or_else(|| anyhow::anyhow!("`etat` answered no state: {etat}"))?;
        Ok(town::bots::strong(&view, &legal))
    }
}
