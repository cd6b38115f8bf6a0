//! Little Town's built-in players (`referee --game little-town bot NAME`) as champions:
//! the champion's side of `protocol-little-town.md` on stdin and stdout, one action in each
//! `jouer` (`random`: drawn among the `legal` answer; `strong`: `town::bots::strong` on
//! the view the `etat` line describes).

use crate::wire::view_from_etat;
use arena::bot_client::{seat_seed, unknown, Client};
use town::bots::NAMES;
use town::Action;

/// Plays the built-in player `name` over the protocol on stdin and stdout, its randomness
/// from `PROLOGIN_SEED`.
pub fn serve(name: &str) -> anyhow::Result<()> {
    if !NAMES.contains(&name) {
        return Err(unknown("Little Town", name, &NAMES));
    }
    let mut client = Client::stdio();
    let mut stream = draw::Stream::new(seat_seed());
    while let Some(callback) = client.callback()? {
        // An action ends `jouer` (nothing answers it); every other callback ends with `fin`.
        let action = match callback.trim() {
            "jouer" => choose(&mut client, name, &mut stream)?,
            _ => None,
        };
        match action {
            Some(action) => client.say(&action.to_string())?,
            None => client.say("fin")?,
        }
    }
    Ok(())
}

/// The action of the player `name` in its turn.
fn choose(
    client: &mut Client,
    name: &str,
    stream: &mut draw::Stream,
) -> anyhow::Result<Option<Action>> {
    let legal: Vec<Action> = client
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
    let etat = client.ask("etat")?;
    let view =
        view_from_etat(&etat).ok_or_else(|| anyhow::anyhow!("`etat` answered no state: {etat}"))?;
    Ok(town::bots::strong(&view, &legal))
}
