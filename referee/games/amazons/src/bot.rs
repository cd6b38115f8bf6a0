//! The Amazons' built-in players (`referee --game amazons bot NAME`) as champions: the
//! champion's side of `protocol-amazons.md` on stdin and stdout, a move in each `jouer`.

use crate::wire::{board_from_etat, deplacer_line};
use amazons::bots::{Player, NAMES};
use amazons::Color;
use arena::bot_client::{seat_seed, unknown, Client};

/// Plays the built-in player `name` over the protocol on stdin and stdout, its randomness
/// from `PROLOGIN_SEED`.
pub fn serve(name: &str) -> anyhow::Result<()> {
    let mut player =
        Player::by_name(name, seat_seed()).ok_or_else(|| unknown("Amazons", name, &NAMES))?;
    let mut client = Client::stdio();
    // Every callback until the end of input: a move in each `jouer`, then `fin`.
    while let Some(callback) = client.callback()? {
        if callback.trim() == "jouer" {
            let me = if client.ask("couleur")? == "1" {
                Color::Black
            } else {
                Color::White
            };
            let etat = client.ask("etat")?;
            if let Some(m) = player.choose(&board_from_etat(&etat, me)) {
                client.ask(&deplacer_line(m))?;
            }
        }
        client.say("fin")?;
    }
    Ok(())
}
