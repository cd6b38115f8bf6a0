//! The human seat's driver for the 2009 game (protocol.md): at each callback the state
//! from `etat` as a summary (turn, phase, money, scores, prices, the monument at auction)
//! and a map of the built area; the person types the API's calls by name with their
//! arguments (`construire_maison 10 12`), sees each answer with its code's name and
//! meaning, and ends the callback with `fin`. `init_game` and `end_game` need no one: the
//! state is shown and the callback ends.

use super::{Driver, Turn};
use crate::view::terminal;
use crate::view::timeline::CellView;
use engine::call::{Call, Function};
use engine::constants::*;
use engine::monument::MONUMENTS;
use loi_protocol::etat::{decode, Etat};
use std::fmt::Write;

/// The person's side of one seat of the 2009 game.
#[derive(Default)]
pub struct Loi {
    callback: String,
    etat: Option<Etat>,
    /// What to do with the next `etat` answer.
    next_etat: Show,
}

/// What an `etat` answer is shown as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Show {
    /// The summary and the map.
    #[default]
    All,
    /// One line: money and prices (after a successful action).
    Money,
}

impl Loi {
    pub fn new() -> Loi {
        Loi::default()
    }

    /// Whether the person plays this callback (the others are shown and ended).
    fn interactive(&self) -> bool {
        matches!(self.callback.as_str(), "jouer" | "enchere" | "placement")
    }
}

/// The name and meaning of a result code, as protocol.md gives them.
pub fn code_meaning(code: i32) -> Option<(&'static str, &'static str)> {
    Some(match code {
        SUCCES => ("SUCCES", "done"),
        PAS_DE_MAISON => ("PAS_DE_MAISON", "there is no house of yours on that cell"),
        PAS_DE_MONUMENT => (
            "PAS_DE_MONUMENT",
            "no monument there, or the id is not in 0..=13",
        ),
        FINANCES_DEPASSEES => ("FINANCES_DEPASSEES", "it costs more than you have"),
        BLOCAGE => (
            "BLOCAGE",
            "it would cut every road off from the outside of the map (rule 21)",
        ),
        JOUEUR_INCORRECT => ("JOUEUR_INCORRECT", "the player id is not 0, 1 or 2"),
        NON_CONNEXE => ("NON_CONNEXE", "there is no road next to that cell"),
        CASE_OCCUPEE => ("CASE_OCCUPEE", "the cell is not free"),
        ACTION_INTERDITE => (
            "ACTION_INTERDITE",
            "not your turn, not an action of this phase, or already done in it",
        ),
        HORS_TERRAIN => ("HORS_TERRAIN", "the coordinates are off the map (0..=99)"),
        TROP_LOIN => ("TROP_LOIN", "farther than 12, or no path"),
        INFINI => ("INFINI", "you cannot buy a house now"),
        _ => return None,
    })
}

/// `value`, the answer of `function`, in words: a code's name and meaning where the value
/// is one, a cell kind or owner by name.
fn describe(function: Function, value: i32) -> String {
    use Function as F;
    let coded = |v: i32| match code_meaning(v) {
        Some((name, meaning)) if v == SUCCES => format!("{name} ({v}): {meaning}"),
        Some((name, meaning)) => format!("refused, {name} ({v}): {meaning}"),
        None => v.to_string(),
    };
    let codes: &[i32] = match function {
        f if f.is_action() || matches!(f, F::RoutePossible | F::ConstructionPossible) => {
            return coded(value)
        }
        F::TypeCase | F::Appartenance | F::ValeurCase => &[HORS_TERRAIN],
        F::TypeMonument => &[PAS_DE_MONUMENT, HORS_TERRAIN],
        F::PorteeMonument | F::PrestigeMonument => &[PAS_DE_MONUMENT],
        F::MontantEncheres | F::Score | F::Finances => &[JOUEUR_INCORRECT],
        F::Distance => &[HORS_TERRAIN, TROP_LOIN],
        F::CoutAchatMaison => &[INFINI],
        _ => &[],
    };
    if codes.contains(&value) {
        let (name, meaning) = code_meaning(value).expect("a known code");
        return format!("{name} ({value}): {meaning}");
    }
    let word = match (function, value) {
        (F::TypeCase, VIDE) => "VIDE",
        (F::TypeCase, MAISON) => "MAISON",
        (F::TypeCase, RESERVATION) => "RESERVATION",
        (F::TypeCase, MONUMENT) => "MONUMENT",
        (F::TypeCase, ROUTE) => "ROUTE",
        (F::Appartenance, MAIRIE) => "MAIRIE",
        (F::Appartenance, 0) => "you",
        _ => return value.to_string(),
    };
    format!("{value} ({word})")
}

/// What the person can do in `callback`.
fn actions_of(callback: &str) -> &'static str {
    match callback {
        "jouer" => {
            "construire_route x y, construire_maison x y, reserver_case x y, \
             detruire_maison x y, vendre_maison x y"
        }
        "enchere" => "encherir montant (one bid), vendre_maison x y",
        "placement" => {
            "construire_monument x y (the monument you won), construire_route x y, \
             detruire_maison x y, vendre_maison x y"
        }
        _ => "none (information only)",
    }
}

fn phase_of(callback: &str) -> &'static str {
    match callback {
        "jouer" => "phase I, your building turn",
        "enchere" => "phase II, your bid",
        "placement" => "phase III, you won the auction: place the monument",
        "init_game" => "the match starts",
        _ => "the match is over",
    }
}

/// The price of the next house (`cout_achat_maison`) in words: `next house costs 120`, or
/// none when it is `INFINI` (two houses built in this callback, rule 17).
fn next_house(price: i32) -> String {
    match price {
        INFINI => "no more house in this callback (INFINI)".to_string(),
        price => format!("next house costs {price}"),
    }
}

/// The summary and the map of `etat` during `callback`.
fn summary(etat: &Etat, callback: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n== turn {}, {} ({callback}) ==",
        etat.numero_tour,
        phase_of(callback)
    );
    let who = |j: usize| {
        if j == 0 {
            "you (player 0)".to_string()
        } else {
            format!("player {j}")
        }
    };
    for j in 0..3 {
        let _ = writeln!(
            out,
            "  {:<15} {:>4} roubles, houses' worth {:>4}, final score {:>4}, last bid {}",
            who(j),
            etat.finances[j],
            etat.score[j],
            etat.finances[j] + etat.score[j],
            etat.montant_encheres[j]
        );
    }
    // `vainqueur_encheres` is 0 until the first auction is resolved (end of turn 1's
    // phase II).
    let auction = if etat.numero_tour == 1 && !matches!(callback, "placement" | "end_game") {
        "no auction resolved yet".to_string()
    } else {
        format!(
            "last auction won by {}",
            who(etat.vainqueur_encheres as usize % 3)
        )
    };
    let _ = writeln!(
        out,
        "  {}, next road {}; first player (commence): {}; {auction}",
        next_house(etat.cout_achat_maison),
        etat.cout_achat_route,
        who(etat.commence as usize % 3),
    );
    if let Some(m) = usize::try_from(etat.monument_en_cours)
        .ok()
        .and_then(|id| MONUMENTS.get(id).map(|m| (id, m)))
    {
        let _ = writeln!(
            out,
            "  monument of this turn: {} {} (prestige {:+}, range {})",
            m.0, m.1.name, m.1.prestige, m.1.range
        );
    }
    let cells: Vec<CellView> = (0..etat.kinds.len())
        .map(|i| {
            [
                (i % 100) as i32,
                (i / 100) as i32,
                i32::from(etat.kinds[i]),
                i32::from(etat.owners[i]),
                etat.monuments[i].map_or(-1, i32::from),
                i32::from(etat.values[i]),
                engine::board::worth_of_value(i32::from(etat.values[i])),
            ]
        })
        .collect();
    out.push_str(&terminal::board(
        &cells,
        3,
        "A your houses, B C those of players 1 2, a b c reservations, H town hall's, \
         # road, 0..13 monument",
        false,
    ));
    out
}

const HELP: &str = "\
Type an API call of protocol.md, its name and integer arguments (x the column, y the row,
0..=99; players: you are 0, the next seats 1 and 2):
  actions:     construire_route x y, construire_maison x y, reserver_case x y,
               detruire_maison x y, vendre_maison x y, encherir montant,
               construire_monument x y
  information: type_case x y, valeur_case x y, appartenance x y, type_monument x y,
               portee_monument id, prestige_monument id, numero_tour, commence,
               montant_encheres j, vainqueur_encheres, score j, finances j,
               monument_en_cours, distance x1 y1 x2 y2, route_possible x y,
               construction_possible x y, cout_achat_maison, cout_achat_route, mon_tour
  map          the state and the map again (`etat` too)
  fin          end this callback (your turn, bid or placement)
  help         this list
End of input (Ctrl-D) gives up the seat: it plays no more, and keeps what it has.";

impl Driver for Loi {
    fn begin(&mut self, callback: &str) -> Turn {
        self.callback = callback.to_string();
        self.next_etat = Show::All;
        let say = match callback {
            "init_game" => {
                "You play La loi du plus riche from this terminal: type `help` at \
                            the prompt for the calls you can make."
            }
            _ => "",
        };
        Turn::say(say).then(["etat"])
    }

    fn answer(&mut self, request: &str, answer: &str) -> Turn {
        if request == "etat" {
            let etat = match decode(answer) {
                Ok(etat) => etat,
                Err(e) => return Turn::say(format!("cannot read the state: {e}")),
            };
            let all = self.next_etat == Show::All;
            let shown = match self.next_etat {
                Show::All => summary(&etat, &self.callback),
                Show::Money => format!(
                    "  now {} roubles, houses' worth {}; {}, next road {}",
                    etat.finances[0],
                    etat.score[0],
                    next_house(etat.cout_achat_maison),
                    etat.cout_achat_route
                ),
            };
            self.etat = Some(etat);
            self.next_etat = Show::All;
            let mut turn = Turn::say(shown);
            if !self.interactive() {
                turn = turn.then(["fin"]);
            } else if all {
                turn.say.push_str(&format!(
                    "\nyou can: {}; `help` lists every call, `fin` ends {}.",
                    actions_of(&self.callback),
                    self.callback
                ));
            }
            return turn;
        }
        let (Ok(call), Ok(value)) = (request.parse::<Call>(), answer.parse::<i32>()) else {
            return Turn::say(format!("{request} -> {answer}"));
        };
        let turn = Turn::say(format!("{request} -> {}", describe(call.function, value)));
        if call.function.is_action() && value == SUCCES {
            // The state changed: read it again, shown as one line.
            self.next_etat = Show::Money;
            return turn.then(["etat"]);
        }
        turn
    }

    fn typed(&mut self, line: &str) -> Turn {
        match line {
            "" => Turn::default(),
            "help" | "?" => Turn::say(HELP),
            "fin" => Turn::send(["fin"]),
            "map" | "etat" | "state" => {
                self.next_etat = Show::All;
                Turn::send(["etat"])
            }
            _ => match line.parse::<Call>() {
                Ok(call) => Turn::send([call.to_string()]),
                Err(e) => Turn::say(format!("not sent: {e}; `help` lists the calls")),
            },
        }
    }

    fn prompt(&self) -> String {
        format!("{}> ", self.callback)
    }
}
