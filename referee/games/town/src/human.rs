//! The human seat's driver for Little Town (protocol-little-town.md): at each `jouer` the
//! board and every seat's holdings, then the person's legal actions numbered; they type a
//! number or the action's text. An action that is not among the legal ones is refused here
//! with the reason, never sent (the rules exclude a seat for it, rule 15); a legal one is
//! sent and ends the turn. `end_game` shows the last board and the ranking by gold.

use crate::play::view_text;
use crate::wire::view_from_etat;
use arena::human::{Driver, Turn};
use town::{Action, Resource, COLOURS};

/// The legal actions shown at once; `legal` lists them all.
const SHOWN: usize = 40;

/// The person's side of one seat of Little Town.
#[derive(Default)]
pub struct TownSeat {
    callback: String,
    me: Option<usize>,
    /// The legal actions of this turn, as the referee wrote them.
    legal: Vec<String>,
}

impl TownSeat {
    pub fn new() -> TownSeat {
        TownSeat::default()
    }

    /// The legal actions, numbered from 1; the first `most` of them.
    fn listed(&self, most: usize) -> String {
        let mut out = String::new();
        for (i, a) in self.legal.iter().enumerate().take(most) {
            out.push_str(&format!("  {:>3}. {a}\n", i + 1));
        }
        if self.legal.len() > most {
            out.push_str(&format!(
                "  ... and {} more: `legal` lists them all\n",
                self.legal.len() - most
            ));
        }
        out
    }

    /// The action the person means by `line` (a number of the list, or an action's text),
    /// or why it is refused.
    fn choose(&self, line: &str) -> Result<String, String> {
        if let Ok(n) = line.parse::<usize>() {
            return match n.checked_sub(1).and_then(|i| self.legal.get(i)) {
                Some(a) => Ok(a.clone()),
                None => Err(format!(
                    "there is no action {n}: the list goes from 1 to {}",
                    self.legal.len()
                )),
            };
        }
        let action: Action = line
            .parse()
            .map_err(|e: town::action::BadAction| format!("not sent: {}", e.0))?;
        let text = action.to_string();
        if self.legal.contains(&text) {
            return Ok(text);
        }
        Err(format!(
            "`{text}` is not one of your legal actions now (a taken or invalid position, a \
             building not next to it, or a cost your stock does not hold); it was not sent, \
             as the rules would exclude you for it (rule 15). Type its number in the list, \
             or `legal`"
        ))
    }
}

const HELP: &str = "\
Your turn: place a worker on a free position and collect (one resource per neighbouring
mine, and the neighbouring buildings you activate, paying their owner) or build there.
Type the number of an action in the list, or its text:
  collect X,Y                      collect at X,Y
  collect X,Y activate X,Y X,Y     and activate these neighbouring buildings
  build X,Y KIND                   build KIND at X,Y (farm, sawmill, pontoon, quarry...)
X is the column and Y the row, from 0,0 at the top left. Also:
  board       the board again
  legal       every legal action, numbered
  help        this list
The board: .. free, C. F. W. S. a mine of corn, fish, wood, stone, f0 s1 p2 q3 (c k w m) a
building and its owner's seat, then the seat of a worker standing there. End of input
(Ctrl-D) gives up the match: you are excluded and lose your gold.";

impl Driver for TownSeat {
    fn begin(&mut self, callback: &str) -> Turn {
        self.callback = callback.to_string();
        self.legal.clear();
        match callback {
            "init_game" => Turn::say(
                "You play Little Town from this terminal: type `help` at the prompt for how \
                 to play.",
            )
            .then(["moi", "fin"]),
            "end_game" => Turn::send(["etat", "fin"]),
            _ => Turn::send(["etat", "legal"]),
        }
    }

    fn answer(&mut self, request: &str, answer: &str) -> Turn {
        match request {
            "moi" => {
                self.me = answer.parse().ok();
                let seat = self.me.unwrap_or(0);
                Turn::say(format!(
                    "You are seat {seat} ({}): your workers and buildings show as {seat}.",
                    COLOURS.get(seat).copied().unwrap_or("?")
                ))
            }
            "etat" => {
                let Some(view) = view_from_etat(answer) else {
                    return Turn::say(format!("etat -> {answer}"));
                };
                let over = self.callback == "end_game";
                let mut say = match over {
                    true => "\n== the match is over ==\n".to_string(),
                    false => "\n== your turn ==\n".to_string(),
                };
                say.push_str(&view_text(&view, over, &[]));
                if over {
                    let me = self.me.unwrap_or(0);
                    let gold = |s: usize| view.players[s].stock.get(Resource::Gold);
                    let still_in = |s: usize| view.players[s].out.is_none();
                    let better = (0..view.players.len())
                        .filter(|&s| still_in(s) && (!still_in(me) || gold(s) > gold(me)))
                        .count();
                    say.push_str(&match still_in(me) {
                        true => format!(
                            "You end with {} gold: place {} (ties share a place).",
                            gold(me),
                            better + 1
                        ),
                        false => "You are out of the match: placed after those still in.".into(),
                    });
                }
                Turn::say(say)
            }
            "legal" => {
                self.legal = answer
                    .split(';')
                    .filter(|a| !a.is_empty())
                    .map(str::to_string)
                    .collect();
                Turn::say(format!(
                    "your legal actions:\n{}type a number or an action, or `help`",
                    self.listed(SHOWN)
                ))
            }
            _ => Turn::say(format!("{request} -> {answer}")),
        }
    }

    fn typed(&mut self, line: &str) -> Turn {
        match line {
            "" => Turn::default(),
            "help" | "?" => Turn::say(HELP),
            "board" | "etat" => Turn::send(["etat"]),
            "legal" => Turn::say(self.listed(usize::MAX)),
            "fin" => Turn::say("place a worker first: type an action, or `help`"),
            _ if self.callback != "jouer" => Turn::say("wait for your turn"),
            _ => match self.choose(line) {
                Ok(action) => Turn::say(format!("you play {action}")).then([action]),
                Err(why) => Turn::say(why),
            },
        }
    }

    fn prompt(&self) -> String {
        "action> ".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(legal: &[&str]) -> TownSeat {
        let mut s = TownSeat::new();
        s.begin("jouer");
        s.answer("legal", &legal.join(";"));
        s
    }

    #[test]
    fn a_number_or_a_legal_text_is_sent_anything_else_refused() {
        let mut s = seat(&["collect 1,1", "build 2,2 farm"]);
        assert_eq!(s.typed("2").send, ["build 2,2 farm"]);
        assert_eq!(s.typed("collect 1,1").send, ["collect 1,1"]);
        for (line, why) in [
            ("3", "no action 3"),
            ("0", "no action 0"),
            ("99999999999999999999", "collect X,Y"),
            ("build 2,2 castle", "not one of your legal actions"),
            ("collect 1;1", "not sent"),
            ("fin", "place a worker first"),
        ] {
            let turn = s.typed(line);
            assert!(turn.send.is_empty(), "{line}: {turn:?}");
            assert!(turn.say.contains(why), "{line}: {}", turn.say);
        }
    }
}
