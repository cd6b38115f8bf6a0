//! Ticket to Ride's built-in players (`referee --game ticket-to-ride bot NAME`) as
//! champions: the champion's side of `protocol-ticket-to-ride.md` on stdin and stdout,
//! seeing only what its seat sees (`board` once, `view` before each move).

use arena::bot_client::{seat_seed, unknown, Client};
use std::collections::BTreeMap;
use ticket::bots::{Player, NAMES};
use ticket::{Board, Colour, Seat, Ticket, View};

/// Plays the built-in player `name` over the protocol on stdin and stdout, its randomness
/// from `PROLOGIN_SEED`.
pub fn serve(name: &str) -> anyhow::Result<()> {
    let mut player = Player::by_name(name, seat_seed())
        .ok_or_else(|| unknown("Ticket to Ride", name, &NAMES))?;
    let mut client = Client::stdio();
    let mut board: Option<Board> = None;
    while let Some(callback) = client.callback()? {
        if callback.trim() == "jouer" {
            if board.is_none() {
                let text = client.ask("board")?;
                board = Some(Board::parse(&text).map_err(anyhow::Error::msg)?);
            }
            let board = board.as_ref().expect("read above");
            loop {
                let view = view_from_json(&client.ask("view")?)
                    .ok_or_else(|| anyhow::anyhow!("the referee's view does not read"))?;
                if !view.to_move {
                    break;
                }
                client.ask(&player.choose(board, &view).to_string())?;
            }
        }
        client.say("fin")?;
    }
    Ok(())
}

/// The view the `view` question answers (a [`View`] as JSON), read back.
pub fn view_from_json(text: &str) -> Option<View> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let n = |v: &serde_json::Value| v.as_u64().map(|n| n as usize);
    let colour = |v: &serde_json::Value| v.as_str()?.parse::<Colour>().ok();
    let ticket = |t: &serde_json::Value| {
        Some(Ticket {
            from: n(&t["from"])?,
            to: n(&t["to"])?,
            points: t["points"].as_i64()?,
        })
    };
    let tickets = |v: &serde_json::Value| -> Option<Vec<Ticket>> {
        v.as_array()?.iter().map(ticket).collect()
    };
    let mut hand = BTreeMap::new();
    for (name, count) in v["hand"].as_object()? {
        hand.insert(name.parse().ok()?, u8::try_from(count.as_u64()?).ok()?);
    }
    let row_values = v["row"].as_array()?;
    let mut row = [None; ticket::ROW];
    for (slot, c) in row.iter_mut().zip(row_values) {
        *slot = if c.is_null() { None } else { Some(colour(c)?) };
    }
    let seats = v["seats"]
        .as_array()?
        .iter()
        .map(|s| {
            Some(Seat {
                cards: n(&s["cards"])?,
                tickets: n(&s["tickets"])?,
                wagons: u32::try_from(s["wagons"].as_u64()?).ok()?,
                points: s["points"].as_i64()?,
                out: s["out"].as_bool()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let owners = v["owners"]
        .as_array()?
        .iter()
        .map(|o| {
            if o.is_null() {
                Some(None)
            } else {
                n(o).map(Some)
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let phase = ["first", "turn", "second-card", "choose"]
        .into_iter()
        .find(|p| v["phase"].as_str() == Some(p))?;
    Some(View {
        seat: n(&v["seat"])?,
        turn: n(&v["turn"])?,
        to_move: v["to_move"].as_bool()?,
        phase,
        hand,
        tickets: tickets(&v["tickets"])?,
        offered: tickets(&v["offered"])?,
        row,
        pile: n(&v["pile"])?,
        discard: n(&v["discard"])?,
        ticket_deck: n(&v["ticket_deck"])?,
        seats,
        owners,
        last_round: v["last_round"].as_bool()?,
        over: v["over"].as_bool()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Acting, Game, State};

    #[test]
    fn every_view_of_a_match_reads_back_as_itself() {
        let game = ticket::TicketToRide;
        let mut state = game.start(3, &game.defaults()).unwrap();
        let mut chance = draw::Stream::new(7);
        let mut players: Vec<Player> = (0..3)
            .map(|s| Player::by_name(NAMES[s], s as u64).unwrap())
            .collect();
        for _ in 0..400 {
            match state.acting() {
                Acting::Chance(c) => state.chance(&c.draw(7, &mut chance)).unwrap(),
                Acting::Seats(seats) => {
                    for seat in 0..3 {
                        let view = state.view(seat);
                        let text = serde_json::to_string(&view).unwrap();
                        assert_eq!(view_from_json(&text).as_ref(), Some(&view));
                    }
                    let view = state.view(seats[0]);
                    let action = players[seats[0]].choose(state.board(), &view);
                    state.play(seats[0], &action).unwrap();
                }
                Acting::Over => break,
            }
        }
    }
}
